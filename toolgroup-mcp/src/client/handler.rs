//! The client side of one connection: declares the `io.modelcontextprotocol/groups`
//! extension (unless told not to), the `io.modelcontextprotocol/tasks` extension and form
//! elicitation; passes `notifications/tools/list_changed` and
//! `notifications/groups/list_changed` on to the connection's owner (which lists again); and
//! answers the server's `elicitation/create` requests through the user's asker (see the
//! [module docs](super#user-input)).
//! Progress is routed where messages are read (see [`progress`](super::progress)), not here:
//! rmcp runs these handlers on tasks of their own, after the call's response may already
//! have been handed over.

use std::sync::Arc;

use rmcp::model::{
    ClientCapabilities, ClientConfig, CustomNotification, ElicitRequestParams, ElicitResult,
    ElicitationCapability, ErrorData, ExtensionCapabilities, FormElicitationCapability,
    Implementation, ProtocolVersion, TASKS_EXTENSION_ID,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ClientHandler, Peer, RoleClient};
use toolgroup_core::context::UserInput;

use super::groups;
use super::input::{self, Callers, Refusal};

/// What to do when the server's tools or groups changed, given the connection's peer.
type OnListChanged = Box<dyn Fn(Peer<RoleClient>) + Send + Sync>;

pub(super) struct Handler {
    on_list_changed: OnListChanged,
    /// Whether to declare the groups extension.
    groups: bool,
    /// The connection's asker ([`RemoteServer::with_user_input`](super::RemoteServer::with_user_input)).
    asker: Option<UserInput>,
    /// The calls in flight, for a request that names none.
    callers: Arc<Callers>,
}

impl Handler {
    pub(super) fn new(
        groups: bool,
        asker: Option<UserInput>,
        callers: Arc<Callers>,
        on_list_changed: impl Fn(Peer<RoleClient>) + Send + Sync + 'static,
    ) -> Self {
        Handler {
            on_list_changed: Box::new(on_list_changed),
            groups,
            asker,
            callers,
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

    /// The connection's asker answers; else the asker of the one call in flight. A form
    /// nobody can answer, or one the client cannot show, is refused with a JSON-RPC error
    /// saying why (never a `decline`: that would say the user refused).
    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let refused = |refusal: Refusal| ErrorData::invalid_request(refusal.reason(), None);
        let params = serde_json::to_value(&request)
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        let question = input::question(&params).map_err(refused)?;
        let asker = match &self.asker {
            Some(asker) => asker.clone(),
            None => self.callers.only().map_err(|reason| {
                refused(Refusal::NoUser {
                    reason,
                    message: None,
                })
            })?,
        };
        let answer = input::ask(&asker, &question).await.map_err(refused)?;
        serde_json::from_value(answer).map_err(|e| ErrorData::internal_error(e.to_string(), None))
    }

    fn get_info(&self) -> ClientConfig {
        // Each extension's settings are an empty object. rmcp also copies these capabilities
        // into each request's `_meta` on a 2026-07-28 connection.
        let mut extensions = ExtensionCapabilities::new();
        extensions.insert(TASKS_EXTENSION_ID.to_owned(), Default::default());
        if self.groups {
            extensions.insert(groups::EXTENSION.to_owned(), Default::default());
        }
        let mut capabilities = ClientCapabilities::builder()
            .enable_extensions_with(extensions)
            .build();
        // Declared whether or not an asker is set now: a call's own asker (a remote group's
        // calling tool's) may answer, which only shows once the call is made.
        capabilities.elicitation =
            Some(ElicitationCapability::new().with_form(FormElicitationCapability::new()));
        // `initialize` asks for the latest revision that has it (rmcp's default is
        // 2026-07-28, which has none): 2026-07-28 comes only through `server/discover`
        // (`Protocol::V2026_07_28`), which names its own revisions.
        ClientConfig::new(
            capabilities,
            Implementation::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION")),
        )
        .with_protocol_version(ProtocolVersion::LATEST_WITH_INITIALIZE)
    }
}
