//! skills: a toolkit whose `docs` group carries the `pdf-tools` skill of the root crate's
//! tests (`SKILL.md`, a Markdown reference, a PNG), and its twin without skills, so that a
//! `Skill` or `read_skill_file` call is timed beside a plain tool call through the same
//! `Toolkit::call`, and a listing with skills beside one without.

use toolgroup::prelude::*;

/// Fetch a page.
#[tool(read_only)]
pub fn page_fetch(
    /// The page's URL.
    url: String,
) -> String {
    format!("fetched {url}")
}

/// Write a note.
#[tool]
pub fn note_write(
    /// The note.
    text: String,
) -> String {
    format!("noted {text}")
}

#[tool_group(name = "notes", description = "Taking notes.", tools = [note_write])]
pub struct Notes;

// Relative to this crate's `Cargo.toml` (`benches/`), like any skills path.
#[tool_group(
    name = "docs",
    description = "Working with documents.",
    tools = [page_fetch],
    skills = ["../tests/skills/pdf-tools"]
)]
pub struct Docs;

#[tool_group(name = "docs", description = "Working with documents.", tools = [page_fetch])]
pub struct PlainDocs;

#[toolkit]
pub struct Skilled {
    #[basic]
    pub notes: Notes,
    pub docs: Docs,
}

#[toolkit]
pub struct Plain {
    #[basic]
    pub notes: Notes,
    pub docs: PlainDocs,
}

pub const FETCH_ARGS: &str = r#"{"url": "https://example.com/form.pdf"}"#;
pub const SKILL_ARGS: &str = r#"{"skill": "pdf-tools"}"#;
pub const TEXT_FILE_ARGS: &str = r#"{"path": "pdf-tools/references/forms.md"}"#;
pub const IMAGE_FILE_ARGS: &str = r#"{"path": "pdf-tools/assets/logo.png"}"#;

/// The toolkit with skills and a session where `docs` is active and no skill is loaded (each
/// timed call starts from a copy of it, so every `Skill` call is a first load).
pub fn skilled_setup() -> (Toolkit<Skilled>, Session<Skilled>) {
    let kit = Toolkit::new(Skilled {
        notes: Notes,
        docs: Docs,
    });
    let mut session = kit.session();
    session.activate(SkilledGroup::Docs);
    (kit, session)
}

/// The same toolkit without skills, `docs` active.
pub fn plain_setup() -> (Toolkit<Plain>, Session<Plain>) {
    let kit = Toolkit::new(Plain {
        notes: Notes,
        docs: PlainDocs,
    });
    let mut session = kit.session();
    session.activate(PlainGroup::Docs);
    (kit, session)
}

/// What the listing benchmarks do: walk the session's definitions.
pub fn count_names<R: Registry>(kit: &Toolkit<R>, session: &Session<R>) -> usize {
    kit.definitions(session).map(|d| d.name.len()).sum()
}
