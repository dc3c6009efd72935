//! The client side of one connection: passes `notifications/tools/list_changed` on to the
//! connection's owner (which re-lists). Progress is routed where messages are read (see
//! [`progress`](super::progress)), not here: rmcp runs these handlers on tasks of their own,
//! after the call's response may already have been handed over.

use rmcp::model::{ClientCapabilities, ClientConfig, Implementation};
use rmcp::service::NotificationContext;
use rmcp::{ClientHandler, Peer, RoleClient};

/// What to do on `notifications/tools/list_changed`, given the connection's peer.
type OnListChanged = Box<dyn Fn(Peer<RoleClient>) + Send + Sync>;

pub(super) struct Handler {
    on_list_changed: OnListChanged,
}

impl Handler {
    pub(super) fn new(on_list_changed: impl Fn(Peer<RoleClient>) + Send + Sync + 'static) -> Self {
        Handler {
            on_list_changed: Box::new(on_list_changed),
        }
    }
}

impl ClientHandler for Handler {
    async fn on_tool_list_changed(&self, context: NotificationContext<RoleClient>) {
        (self.on_list_changed)(context.peer);
    }

    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(
            ClientCapabilities::default(),
            Implementation::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION")),
        )
    }
}
