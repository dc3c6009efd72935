//! `scopes = [...]` on `#[tool]` and `#[tool_group]`: what a toolkit reports of the scopes its
//! tools and groups declare (their infos, the catalog's Markdown and JSON, the generated docs).
//! Enforcing them is `Toolkit`'s, tested with it.

use std::sync::Arc;

use serde_json::json;
use toolgroup::dynamic::{Dynamic, DynamicGroup, DynamicTools, ToolSet};
use toolgroup::meta::GroupInfo;
use toolgroup::prelude::*;
use toolgroup::{BoxFuture, ToolDefinition};

/// Fetch a page with the crawler.
#[tool(scopes = ["web:crawl"])]
fn web_crawl(
    /// The page's URL.
    url: String,
) -> String {
    url
}

/// Search the web.
#[tool(read_only)]
fn web_search(
    /// What to search for.
    query: String,
) -> String {
    query
}

#[tool_group(
    name = "web",
    description = "Searching the web.",
    scopes = ["web"],
    tools = [web_search, web_crawl]
)]
struct Web;

struct Files;

#[tool_group(
    name = "files",
    description = "Files on disk.",
    scopes = ["files:read"],
    instructions = "Paths are relative."
)]
impl Files {
    /// Read a file.
    #[tool]
    fn file_read(
        &self,
        /// The path.
        path: String,
    ) -> String {
        path
    }

    /// Delete a file.
    #[tool(destructive, scopes = ["files:write", "admin"])]
    fn file_delete(
        &self,
        /// The path.
        path: String,
    ) -> bool {
        path.is_empty()
    }

    /// Stat a file: listing the group's own scope again is allowed (and changes nothing).
    #[tool(scopes = ["files:read"])]
    fn file_stat(
        &self,
        /// The path.
        path: String,
    ) -> u64 {
        path.len() as u64
    }
}

/// Notes, with no scopes at all.
#[tool]
fn note(
    /// The note.
    text: String,
) -> String {
    text
}

#[tool_group(name = "notes", description = "Taking notes.", tools = [note])]
struct Notes;

#[tool_group(
    name = "remote",
    description = "Tools of a server.",
    scopes = ["remote", "https://api.example.com/tools"],
    dynamic
)]
struct Remote;

/// A source with no tools: the group's own facts are what is tested.
struct NoTools;

impl DynamicTools for NoTools {
    fn tools(&self) -> Arc<ToolSet> {
        Arc::new(ToolSet::new(Vec::new()))
    }

    fn call<'a>(
        &'a self,
        _tool: &'static ToolDefinition,
        _ctx: ToolContext<'a>,
        _arguments: toolgroup::args::Arguments<'a>,
    ) -> BoxFuture<'a, CallResult> {
        Box::pin(async { CallResult::error("no tools") })
    }
}

#[toolkit]
struct Kit {
    #[basic]
    notes: Notes,
    web: Web,
    files: Files,
    remote: Dynamic<Remote, NoTools>,
}

fn kit() -> Toolkit<Kit> {
    Toolkit::new(Kit {
        notes: Notes,
        web: Web,
        files: Files,
        remote: Dynamic::new(NoTools),
    })
}

fn group(toolkit: &Toolkit<Kit>, name: &str) -> &'static GroupInfo {
    toolkit.groups().iter().find(|g| g.name == name).unwrap()
}

fn tool_scopes(group: &GroupInfo, tool: &str) -> &'static [&'static str] {
    group.tools.iter().find(|t| t.name == tool).unwrap().scopes
}

#[test]
fn declared_scopes_reach_the_tool_and_group_infos() {
    let toolkit = kit();
    let files = group(&toolkit, "files");
    assert_eq!(files.scopes, ["files:read"]);
    assert_eq!(tool_scopes(files, "file_read"), [] as [&str; 0]);
    assert_eq!(tool_scopes(files, "file_delete"), ["files:write", "admin"]);
    assert_eq!(tool_scopes(files, "file_stat"), ["files:read"]);
    let web = group(&toolkit, "web");
    assert_eq!(web.scopes, ["web"]);
    assert_eq!(tool_scopes(web, "web_crawl"), ["web:crawl"]);
    assert_eq!(tool_scopes(web, "web_search"), [] as [&str; 0]);
    let notes = group(&toolkit, "notes");
    assert!(notes.scopes.is_empty());
    assert!(tool_scopes(notes, "note").is_empty());
    // A dynamic group's scopes, whatever tools its source finds.
    assert_eq!(
        group(&toolkit, "remote").scopes,
        ["remote", "https://api.example.com/tools"]
    );
    // The same slices as the constants the macros generate.
    assert_eq!(<Files as ToolGroup>::SCOPES, ["files:read"]);
    assert_eq!(<Web as ToolGroup>::SCOPES, ["web"]);
    assert!(<Notes as ToolGroup>::SCOPES.is_empty());
    assert_eq!(
        <Remote as DynamicGroup>::SCOPES,
        ["remote", "https://api.example.com/tools"]
    );
    assert_eq!(<web_crawl as Tool>::INFO.scopes, ["web:crawl"]);
}

#[test]
fn the_markdown_catalog_shows_scopes_where_declared() {
    let md = kit().catalog().to_markdown();
    let section = |from: &str, to: &str| {
        let start = md
            .find(from)
            .unwrap_or_else(|| panic!("no {from:?} in\n{md}"));
        let end = md[start..].find(to).map_or(md.len(), |e| start + e);
        md[start..end].to_owned()
    };
    assert_eq!(
        section("## Group `files`", "### `file_read`"),
        "## Group `files`\n\nFiles on disk.\n\nRequires scopes: `files:read`.\n\n\
         Instructions, given when the group is activated: Paths are relative.\n\n"
    );
    assert!(
        section("### `file_delete`", "| Parameter")
            .contains("Hints: destructive.\n\nRequires scopes: `files:write`, `admin`.\n"),
        "{md}"
    );
    assert!(
        section("### `file_stat`", "| Parameter").contains("\nRequires scopes: `files:read`.\n"),
        "{md}"
    );
    assert!(
        !section("### `file_read`", "### `file_delete`").contains("Requires scopes"),
        "{md}"
    );
    assert!(
        section("## Group `web`", "### `web_search`")
            .contains("Searching the web.\n\nRequires scopes: `web`.\n"),
        "{md}"
    );
    assert!(
        section("### `web_crawl`", "## Group").contains("\nRequires scopes: `web:crawl`.\n"),
        "{md}"
    );
    assert!(
        section("## Group `remote`", "\n\n\n")
            .contains("Requires scopes: `remote`, `https://api.example.com/tools`."),
        "{md}"
    );
    // Nothing for the group and tool without scopes, nor for `reset_tools`.
    assert!(
        !section("## `reset_tools`", "## Group `web`").contains("Requires scopes"),
        "{md}"
    );
    assert_eq!(md.matches("Requires scopes").count(), 6, "{md}");
}

#[test]
fn the_json_catalog_has_scopes_only_where_declared() {
    let value = kit().catalog().to_value();
    let groups = value["groups"].as_array().unwrap();
    let by_name = |name: &str| groups.iter().find(|g| g["name"] == name).unwrap();
    let tool = |group: &str, name: &str| {
        by_name(group)["tools"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == name)
            .unwrap()
            .clone()
    };
    assert_eq!(by_name("files")["scopes"], json!(["files:read"]));
    assert_eq!(
        tool("files", "file_delete")["scopes"],
        json!(["files:write", "admin"])
    );
    assert_eq!(tool("files", "file_stat")["scopes"], json!(["files:read"]));
    assert_eq!(by_name("web")["scopes"], json!(["web"]));
    assert_eq!(tool("web", "web_crawl")["scopes"], json!(["web:crawl"]));
    assert_eq!(
        by_name("remote")["scopes"],
        json!(["remote", "https://api.example.com/tools"])
    );
    // Absent, not empty, where nothing is declared.
    assert!(by_name("notes").get("scopes").is_none(), "{value}");
    assert!(tool("notes", "note").get("scopes").is_none(), "{value}");
    assert!(
        tool("files", "file_read").get("scopes").is_none(),
        "{value}"
    );
    assert!(tool("web", "web_search").get("scopes").is_none(), "{value}");
    assert!(value["reset_tools"].get("scopes").is_none(), "{value}");
}

#[test]
fn the_generated_docs_show_scopes_where_declared() {
    let doc = Kit::__TOOLGROUP_DOC;
    for expected in [
        "**Group `files`**\n\nFiles on disk.\n\n*Requires scopes: `files:read`.*\n",
        "**Tool `file_delete`**\n\nDelete a file.\n\n*Hints: destructive; requires scopes: `files:write`, `admin`; returns `bool`.*",
        "**Group `web`**\n\nSearching the web.\n\n*Requires scopes: `web`.*\n",
        "**Tool `web_crawl`**\n\nFetch a page with the crawler.\n\n*Requires scopes: `web:crawl`; returns `String`.*",
        "**Tool `file_read`**\n\nRead a file.\n\n*Returns `String`.*",
        "**Group `notes`**\n\nTaking notes.\n\n\n**Tool `note`**",
    ] {
        assert!(doc.contains(expected), "missing {expected:?} in\n{doc}");
    }
}
