//! A toolkit whose groups carry skills (`tests/skills/`), for the skills extension tests and
//! the `interop_server` example's `--skills` toolkit: `writing` (basic) with
//! `release-checklist` (only a SKILL.md), `docs` (switchable) with `pdf-forms` (a text
//! reference and a PNG).
#![allow(dead_code, unreachable_pub)]

use toolgroup::prelude::*;

/// Fill in one field of a PDF form.
#[tool]
pub fn form_fill(
    /// The field's name.
    field: String,
    /// The value to write.
    value: String,
) -> String {
    format!("filled {field} = {value}")
}

/// Write a note.
#[tool]
pub fn note_write(
    /// The note.
    text: String,
) -> String {
    format!("noted: {text}")
}

#[tool_group(
    name = "writing",
    description = "Writing notes and release texts.",
    tools = [note_write],
    skills = ["tests/skills/release-checklist"]
)]
#[derive(Debug)]
pub struct Writing;

#[tool_group(
    name = "docs",
    description = "Filling PDF forms.",
    instructions = "Read the pdf-forms skill before filling a form.",
    tools = [form_fill],
    skills = ["tests/skills/pdf-forms"]
)]
#[derive(Debug)]
pub struct Docs;

#[toolkit]
#[derive(Debug)]
pub struct Forms {
    #[basic]
    writing: Writing,
    docs: Docs,
}

pub fn toolkit() -> Toolkit<Forms> {
    Toolkit::new(Forms {
        writing: Writing,
        docs: Docs,
    })
}
