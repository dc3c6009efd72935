//! The client side of one connection: declares the `io.modelcontextprotocol/groups`
//! extension (unless told not to) and passes `notifications/tools/list_changed` and
//! `notifications/groups/list_changed` on to the connection's owner (which lists again).
//! Progress is routed where messages are read (see [`progress`](super::progress)), not here:
//! rmcp runs these handlers on tasks of their own, after the call's response may already
//! have been handed over.

use rmcp::model::{
    ClientCapabilities, ClientConfig, CustomNotification, ExtensionCapabilities, Implementation,
};
use rmcp::service::NotificationContext;
use rmcp::{ClientHandler, Peer, RoleClient};

use super::groups;

/// What to do when the server's tools or groups changed, given the connection's peer.
type OnListChanged = Box<dyn Fn(Peer<RoleClient>) + Send + Sync>;

pub(super) struct Handler {
    on_list_changed: OnListChanged,
    /// Whether to declare the groups extension.
    groups: bool,
}

impl Handler {
    pub(super) fn new(
        groups: bool,
        on_list_changed: impl Fn(Peer<RoleClient>) + Send + Sync + 'static,
    ) -> Self {
        Handler {
            on_list_changed: Box::new(on_list_changed),
            groups,
        }
    }
}

impl ClientHandler for Handler {
    async fn on_tool_list_changed(&self, context: NotificationContext<RoleClient>) {
        (self.on_list_changed)(context.peer);
    }

    async fn on_custom_notification(
        &self,
        notification: CustomNotification,
        context: NotificationContext<RoleClient>,
    ) {
        if notification.method == groups::LIST_CHANGED {
            (self.on_list_changed)(context.peer);
        }
    }

    fn get_info(&self) -> ClientConfig {
        // The extension's settings are an empty object. rmcp also copies these capabilities
        // into each request's `_meta` on a 2026-07-28 connection.
        let mut capabilities = ClientCapabilities::default();
        if self.groups {
            let mut extensions = ExtensionCapabilities::new();
            extensions.insert(groups::EXTENSION.to_owned(), Default::default());
            capabilities = ClientCapabilities::builder()
                .enable_extensions_with(extensions)
                .build();
        }
        ClientConfig::new(
            capabilities,
            Implementation::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION")),
        )
    }
}
