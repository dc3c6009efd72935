// The files of a skill: links of the body, what leaves the folder, the caps, the path.
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
        "skills/broken-links",
        "skills/escapes",
        "skills/too-many-files",
        "skills/too-big",
        "skills/missing",
        "/etc/skills/absolute",
        "skills/good-one",
        "skills/dup-a/good-one",
    ]
)]
struct Docs;

fn main() {}
