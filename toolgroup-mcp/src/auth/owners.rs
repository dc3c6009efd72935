//! Which principal opened each protocol session: a session is its opener's alone.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::http_sessions::Table;

/// Protocol session ids and the state key of the principal that opened each.
#[derive(Debug)]
pub(crate) struct SessionOwners {
    owners: Mutex<HashMap<String, String>>,
    /// The sessions the endpoint knows (live or hibernated): owners of the others are
    /// forgotten.
    sessions: Arc<Table>,
}

impl SessionOwners {
    pub(crate) fn new(sessions: Arc<Table>) -> Self {
        SessionOwners {
            owners: Mutex::new(HashMap::new()),
            sessions,
        }
    }

    /// Whether the session `id` may be used by `owner`: a session opened by another
    /// principal is not (nor one that no principal opened here).
    pub(crate) fn allows(&self, id: &str, owner: &str) -> bool {
        let owners = self.owners.lock().unwrap_or_else(|e| e.into_inner());
        owners.get(id).is_some_and(|o| o == owner)
    }

    /// `owner` opened the session `id`.
    pub(crate) async fn record(&self, id: String, owner: String) {
        let known = self.sessions.len();
        let mut owners = self.owners.lock().unwrap_or_else(|e| e.into_inner());
        // Ended and forgotten sessions' owners go when the table outgrows the known sessions.
        if owners.len() >= 2 * known + 16 {
            owners.retain(|id, _| self.sessions.knows(id));
        }
        owners.insert(id, owner);
    }
}
