//! The quickstart's toolkit: a basic `notes` group with `note_write`, and the switchable groups
//! `web_search` (tool `web_search`) and `scraping` (tool `page_fetch`). The tools are offline
//! and answer with canned results.
//!
//! This file is the one definition of that toolkit. The `quickstart`, `agent_loop` and
//! `catalog` examples include it, the integration tests build their toolkit from its groups,
//! and the documentation shows it as `toolgroup::example`, what `cargo doc` shows for a
//! toolkit: open [`Agent`] for every group with its description, instructions and tools (each
//! with its description and arguments), each group type ([`WebSearch`], [`Scraping`],
//! [`Notes`]) for its own description, instructions and tools, a tool's marker struct
//! ([`web_search`](struct@web_search)) for that tool, and [`AgentGroup`] / [`AgentReset`] for
//! the generated typed API (each variant and field carries its group's description).

use toolgroup::prelude::*;

/// Write a note to the agent's notebook.
#[tool]
pub fn note_write(
    /// The text to write.
    text: String,
) -> String {
    format!("Noted ({} characters).", text.chars().count())
}

/// A search hit.
#[derive(serde::Serialize, schemars::JsonSchema)]
pub struct Hit {
    /// The page's title.
    pub title: String,
    /// The page's URL.
    pub url: String,
}

/// Search the web and return the top results.
#[tool(read_only, open_world)]
pub async fn web_search(
    /// What to search for.
    query: String,
) -> Vec<Hit> {
    // Offline: canned results.
    vec![
        Hit {
            title: format!("{query} - the official site"),
            url: "https://example.org/".to_owned(),
        },
        Hit {
            title: format!("Learning {query}"),
            url: "https://example.org/learn".to_owned(),
        },
    ]
}

/// Fetch a web page and return its text.
#[tool(read_only, open_world, timeout = "10s")]
pub async fn page_fetch(
    /// The page's URL (http or https).
    url: String,
) -> Result<String, String> {
    if url.starts_with("https://") || url.starts_with("http://") {
        Ok(format!("Example page at {url}: an offline copy."))
    } else {
        Err("only http and https URLs can be fetched".to_owned())
    }
}

/// Taking notes (always available).
#[tool_group(name = "notes", description = "Taking notes.", tools = [note_write])]
pub struct Notes;

/// Searching the web.
#[tool_group(
    name = "web_search",
    description = "Searching the web.",
    instructions = "Cite the URL of every result you use.",
    tools = [web_search]
)]
pub struct WebSearch;

/// Fetching pages.
#[tool_group(
    name = "scraping",
    description = "Fetching pages.",
    instructions = "Fetch only pages found by a search.",
    tools = [page_fetch]
)]
pub struct Scraping;

/// The quickstart's toolkit: `notes` always on, `web_search` and `scraping` switchable.
#[toolkit]
pub struct Agent {
    /// The basic group.
    #[basic]
    pub notes: Notes,
    /// Switched by the `reset_tools` argument `web_search`.
    pub web_search: WebSearch,
    /// Switched by the `reset_tools` argument `scraping`.
    pub scraping: Scraping,
}

/// A toolkit over [`Agent`], ready to list and call tools.
pub fn toolkit() -> Toolkit<Agent> {
    Toolkit::new(Agent {
        notes: Notes,
        web_search: WebSearch,
        scraping: Scraping,
    })
}
