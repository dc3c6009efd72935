// Across a toolkit: a skill name used twice, an `allowed-tools` entry naming no tool, and a
// tool named like a builtin skill tool.
use toolgroup::prelude::*;

/// Search.
#[tool]
fn search(
    /// The query.
    query: String,
) -> String {
    query
}

/// Fetch.
#[tool]
fn fetch(
    /// The URL.
    url: String,
) -> String {
    url
}

/// Load something.
#[tool(name = "Skill")]
fn load(
    /// What.
    what: String,
) -> String {
    what
}

#[tool_group(name = "web", description = "Web.", tools = [search], skills = ["skills/good-one"])]
struct Web;

#[tool_group(name = "pages", description = "Pages.", tools = [fetch], skills = ["skills/dup-a/good-one"])]
struct Pages;

#[toolkit]
struct Dup {
    web: Web,
    pages: Pages,
}

#[tool_group(name = "notes", description = "Notes.", tools = [fetch], skills = ["skills/good-one"])]
struct Notes;

#[toolkit]
struct Allowed {
    notes: Notes,
}

#[tool_group(name = "loader", description = "Loader.", tools = [load])]
struct Loader;

#[toolkit]
struct Reserved {
    loader: Loader,
}

fn main() {}
