//! Which principal opened each protocol session: a session is its opener's alone.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;

/// Protocol session ids and the state key of the principal that opened each.
#[derive(Debug)]
pub(crate) struct SessionOwners {
    owners: Mutex<HashMap<String, String>>,
    /// The sessions rmcp still holds: owners of the others are forgotten.
    sessions: Arc<LocalSessionManager>,
}

impl SessionOwners {
    pub(crate) fn new(sessions: Arc<LocalSessionManager>) -> Self {
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
        let live = self.sessions.sessions.read().await;
        let mut owners = self.owners.lock().unwrap_or_else(|e| e.into_inner());
        // Ended and expired sessions' owners go when the table outgrows the live sessions.
        if owners.len() >= 2 * live.len() + 16 {
            owners.retain(|id, _| live.contains_key(id.as_str()));
        }
        owners.insert(id, owner);
    }
}
