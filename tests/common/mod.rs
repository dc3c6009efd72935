//! The toolkit the integration tests share: a stateful group, two stateless ones.
#![allow(dead_code)]

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use toolgroup::prelude::*;

/// Write a note.
#[tool]
pub fn note_write(
    /// The note.
    text: String,
) -> String {
    format!("noted: {text}")
}

/// Search the web.
#[tool]
pub async fn web_search(
    /// What to search for.
    query: String,
) -> Vec<String> {
    vec![format!("hit for {query}")]
}

/// Fetch a page.
#[tool]
pub async fn page_fetch(
    /// The URL.
    url: String,
) -> Result<String, String> {
    if url.starts_with("https://") {
        Ok(format!("page {url}"))
    } else {
        Err("cannot fetch a non-https URL".to_string())
    }
}

/// Notes, always on.
#[tool_group(name = "notes", description = "Taking notes.", tools = [note_write])]
pub struct Notes;

#[tool_group(
    name = "web_search",
    description = "Searching the web.",
    instructions = "Cite your sources.",
    tools = [web_search]
)]
pub struct WebSearch;

#[tool_group(
    name = "scraping",
    description = "Fetching pages.",
    instructions = "Only fetch pages found by a search.",
    tools = [page_fetch]
)]
pub struct Scraping;

/// A stateful group.
#[derive(Default)]
pub struct Database {
    pub rows: Mutex<Vec<String>>,
    pub calls: AtomicUsize,
}

#[tool_group(name = "database", description = "Tools for database operations.")]
impl Database {
    /// Insert a row.
    #[tool(destructive)]
    pub async fn db_insert(&self, row: String) -> usize {
        self.calls.fetch_add(1, Ordering::SeqCst);
        let mut rows = self.rows.lock().unwrap();
        rows.push(row);
        rows.len()
    }

    /// Count the rows.
    #[toolgroup::tool(read_only)]
    pub fn db_count(&self) -> usize {
        self.calls.fetch_add(1, Ordering::SeqCst);
        self.rows.lock().unwrap().len()
    }

    /// Not a tool: stays an ordinary method.
    pub fn helper(&self) -> usize {
        7
    }
}

#[toolkit]
pub struct Agent {
    #[basic]
    pub notes: Notes,
    pub web_search: WebSearch,
    pub scraping: Scraping,
    pub database: Database,
}

pub fn toolkit() -> Toolkit<Agent> {
    Toolkit::new(Agent {
        notes: Notes,
        web_search: WebSearch,
        scraping: Scraping,
        database: Database::default(),
    })
}

pub fn names(kit: &Toolkit<Agent>, session: &Session<Agent>) -> Vec<&'static str> {
    kit.definitions(session).map(|d| d.name).collect()
}
