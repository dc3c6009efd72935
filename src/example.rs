//! A documented example toolkit: what `cargo doc` shows for a toolkit and its groups.
//!
//! This is the toolkit of the [quickstart example]. Open [`Agent`] for every group with its
//! description, instructions and tools (each with its description and arguments), each group
//! type ([`WebSearch`], [`Scraping`], [`Notes`]) for its own description, instructions and
//! tools, a tool's marker struct ([`web_search`](struct@web_search)) for that tool, and
//! [`AgentGroup`] / [`AgentReset`] for the generated typed API (each variant and field carries
//! its group's description). Only compiled for documentation.
//!
//! [quickstart example]: https://github.com/toolgroup/toolgroup/blob/main/examples/quickstart.rs

use crate::{tool, tool_group, toolkit};

/// Write a note to the agent's notebook.
#[tool(crate = "crate")]
pub fn note_write(
    /// The text to write.
    text: String,
) -> String {
    format!("Noted ({} characters).", text.chars().count())
}

/// Search the web and return the top results.
#[tool(crate = "crate", read_only, open_world)]
pub async fn web_search(
    /// What to search for.
    query: String,
) -> Vec<String> {
    vec![format!("{query} - the official site")]
}

/// Fetch a web page and return its text.
#[tool(crate = "crate", read_only, open_world, timeout = "10s")]
pub async fn page_fetch(
    /// The page's URL (http or https).
    url: String,
) -> Result<String, String> {
    if url.starts_with("http") {
        Ok(format!("Example page at {url}."))
    } else {
        Err("only http and https URLs can be fetched".to_owned())
    }
}

/// Taking notes (always available).
#[tool_group(crate = "crate", name = "notes", description = "Taking notes.", tools = [note_write])]
pub struct Notes;

/// Searching the web.
#[tool_group(
    crate = "crate",
    name = "web_search",
    description = "Searching the web.",
    instructions = "Cite the URL of every result you use.",
    tools = [web_search]
)]
pub struct WebSearch;

/// Fetching pages.
#[tool_group(
    crate = "crate",
    name = "scraping",
    description = "Fetching pages.",
    instructions = "Fetch only pages found by a search.",
    tools = [page_fetch]
)]
pub struct Scraping;

/// The quickstart's toolkit: `notes` always on, `web_search` and `scraping` switchable.
#[toolkit(crate = "crate")]
pub struct Agent {
    /// The basic group.
    #[basic]
    pub notes: Notes,
    /// Switched by `reset_tools` argument `web_search`.
    pub web_search: WebSearch,
    /// Switched by `reset_tools` argument `scraping`.
    pub scraping: Scraping,
}
