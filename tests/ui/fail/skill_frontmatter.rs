// Each problem of a SKILL.md is reported on the path literal, naming the file and line.
use toolgroup::prelude::*;

/// Search.
#[tool]
fn search(
    /// The query.
    query: String,
) -> String {
    query
}

#[tool_group(
    name = "docs",
    description = "Docs.",
    tools = [search],
    skills = [
        "skills/no-frontmatter",
        "skills/unclosed",
        "skills/quote-it",
        "skills/unknown-key",
        "skills/Bad_Name",
        "skills/wrong-folder",
        "skills/empty-body",
        "skills/xml-tags",
    ]
)]
struct Docs;

fn main() {}
