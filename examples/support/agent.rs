//! The quickstart's toolkit: a basic `notes` group with `note_write`, and the
//! switchable groups `web_search` (`web_search`) and `scraping` (`page_fetch`). Offline tools
//! with canned results. Shared by the `quickstart` and `catalog` examples.

use toolgroup::prelude::*;

/// Write a note to the agent's notebook.
#[tool]
fn note_write(
    /// The text to write.
    text: String,
) -> String {
    format!("Noted ({} characters).", text.chars().count())
}

/// A search hit.
#[derive(serde::Serialize, schemars::JsonSchema)]
struct Hit {
    /// The page's title.
    title: String,
    /// The page's URL.
    url: String,
}

/// Search the web and return the top results.
#[tool(read_only, open_world)]
async fn web_search(
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
async fn page_fetch(
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
struct Notes;

/// Searching the web.
#[tool_group(
    name = "web_search",
    description = "Searching the web.",
    instructions = "Cite the URL of every result you use.",
    tools = [web_search]
)]
struct WebSearch;

/// Fetching pages.
#[tool_group(
    name = "scraping",
    description = "Fetching pages.",
    instructions = "Fetch only pages found by a search.",
    tools = [page_fetch]
)]
struct Scraping;

/// The quickstart's toolkit: `notes` always on, `web_search` and `scraping` switchable.
#[toolkit]
pub(crate) struct Agent {
    #[basic]
    notes: Notes,
    web_search: WebSearch,
    scraping: Scraping,
}

pub(crate) fn toolkit() -> Toolkit<Agent> {
    Toolkit::new(Agent {
        notes: Notes,
        web_search: WebSearch,
        scraping: Scraping,
    })
}
