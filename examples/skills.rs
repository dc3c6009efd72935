//! Skills in groups, offline, with a scripted model. The basic `notes` group brings the
//! `meeting-notes` skill; the switchable `documents` group brings `pdf-forms` (with a
//! `references/` guide and an `assets/` image) and `invoices`, all embedded at compile time
//! from `examples/skills/`.
//!
//! The model asks for `pdf-forms` while `documents` is inactive (refused, with the group to
//! activate), activates the group (the `reset_tools` answer lists the skills it brings), loads
//! the skill and reads its two files. A second toolkit, built with
//! `with_skill_activation(true)`, lets loading `invoices` activate `documents` itself.
//!
//! ```text
//! cargo run --example skills
//! ```

use std::fmt::Write as _;

use toolgroup::prelude::*;

/// Write a note.
#[tool]
fn note_write(
    /// The text of the note.
    text: String,
) -> String {
    format!("noted: {text}")
}

/// Fill one field of a PDF form.
#[tool]
fn pdf_fill(
    /// The field's name.
    field: String,
    /// The value to write.
    value: String,
) -> String {
    format!("filled {field} = {value}")
}

#[tool_group(
    name = "notes",
    description = "Taking notes.",
    tools = [note_write],
    skills = ["examples/skills/meeting-notes"]
)]
pub(crate) struct Notes;

#[tool_group(
    name = "documents",
    description = "Filling and checking documents: PDF forms, invoices.",
    instructions = "Never sign a document for the user.",
    tools = [pdf_fill],
    skills = ["examples/skills/pdf-forms", "examples/skills/invoices"]
)]
pub(crate) struct Documents;

#[toolkit]
pub(crate) struct Office {
    #[basic]
    notes: Notes,
    documents: Documents,
}

/// The toolkit, without the activation policy.
pub(crate) fn office() -> Toolkit<Office> {
    Toolkit::new(Office {
        notes: Notes,
        documents: Documents,
    })
}

/// A result as the transcript shows it: text indented, an image as its type and size.
fn render(out: &mut String, result: &CallResult) {
    let status = if result.is_error { "error" } else { "ok" };
    let _ = writeln!(out, "  result ({status}):");
    for block in &result.content {
        match block {
            Content::Image {
                data, mime_type, ..
            } => {
                let _ = writeln!(out, "    [an image: {mime_type}, {} bytes]", data.len());
            }
            other => {
                for line in other.as_text().unwrap_or("[a non-text block]").lines() {
                    // No trailing blanks on the body's empty lines.
                    let _ = writeln!(out, "{}", format!("    {line}").trim_end());
                }
            }
        }
    }
}

/// Play `turns` against `toolkit` in one session, numbering them from 1.
async fn play(out: &mut String, toolkit: &Toolkit<Office>, turns: &[(&str, &str)]) {
    let mut session = toolkit.session();
    for (turn, (name, arguments)) in turns.iter().enumerate() {
        let shown: Vec<&str> = toolkit.definitions(&session).map(|d| d.name).collect();
        let _ = writeln!(out, "turn {}: {}", turn + 1, shown.join(", "));
        let _ = writeln!(out, "  model calls {name} {arguments}");
        let result = toolkit.call(&mut session, name, *arguments).await;
        render(out, &result);
        let _ = writeln!(out);
    }
    let active: Vec<&str> = session.active_names().collect();
    let _ = writeln!(out, "active groups at the end: {active:?}");
}

/// Runs both scripted conversations and returns their transcript.
pub async fn run() -> String {
    let mut out =
        String::from("toolgroup skills: a scripted model loads the skills of a group\n\n");

    let toolkit = office();
    // Rendered once, at the start of the conversation: the `reset_tools` answers list the
    // skills that later activations bring, so the system prompt never changes.
    out.push_str("the system prompt's skill catalog:\n");
    for line in toolkit.skills_prompt(&toolkit.session()).lines() {
        let _ = writeln!(out, "  {line}");
    }
    out.push('\n');
    play(
        &mut out,
        &toolkit,
        &[
            ("Skill", r#"{"skill": "pdf-forms"}"#),
            ("reset_tools", r#"{"documents": true}"#),
            ("Skill", r#"{"skill": "pdf-forms"}"#),
            (
                "read_skill_file",
                r#"{"path": "pdf-forms/references/fields.md"}"#,
            ),
            (
                "read_skill_file",
                r#"{"path": "pdf-forms/assets/stamp.png"}"#,
            ),
        ],
    )
    .await;

    out.push_str("\nwith_skill_activation(true): loading a skill activates its group\n\n");
    let activating = office().with_skill_activation(true);
    play(
        &mut out,
        &activating,
        &[
            ("Skill", r#"{"skill": "invoices"}"#),
            ("pdf_fill", r#"{"field": "total", "value": "120.00"}"#),
        ],
    )
    .await;
    out
}

#[tokio::main(flavor = "current_thread")]
#[allow(dead_code)]
async fn main() {
    print!("{}", run().await);
}
