//! The toolkit the integration tests share: the quickstart's groups (defined once, in
//! `examples/support/agent.rs`) plus a stateful group.
#![allow(dead_code)]

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use toolgroup::prelude::*;

#[path = "../../examples/support/agent.rs"]
pub mod quickstart;

pub use quickstart::{Notes, Scraping, WebSearch};

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

/// The quickstart's groups and the stateful `database` group.
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
