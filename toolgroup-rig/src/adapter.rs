//! The adapter: a toolkit's rig tools, built once, and the conversations that run them.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

use rig_agent::tool::RegisteredTool;
use rig_agent::tool::server::ToolServer;
use toolgroup::lifecycle::ManagedSession;
use toolgroup::provider::Provider;
use toolgroup::registry::Registry;
use toolgroup::{Session, Toolkit};

use crate::conversation::Conversation;
use crate::state::{Listing, Shared};
use crate::tools::rig_tools;

/// A toolkit made ready for rig: its tools as rig tools (every tool of every group, and
/// `reset_tools`), built once, and a source of [`Conversation`]s.
///
/// Give the agent [`tool_server`](Self::tool_server) once (add your own rig tools to it,
/// then `AgentBuilder::tool_server_handle(server.run())`), and start every run through a
/// conversation, which advertises per model call only the tools of its session.
pub struct RigToolkit<R: Registry> {
    toolkit: Arc<Toolkit<R>>,
    tools: Vec<RegisteredTool>,
    listing: Arc<Listing>,
}

impl<R: Registry> std::fmt::Debug for RigToolkit<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RigToolkit")
            .field("tools", &self.tools.len())
            .field("listing", &self.listing)
            .finish_non_exhaustive()
    }
}

impl<R: Registry + 'static> RigToolkit<R> {
    /// The rig tools of `toolkit`, with the canonical JSON schemas of their arguments (what
    /// rig's providers then adapt themselves).
    pub fn new(toolkit: impl Into<Arc<Toolkit<R>>>) -> Self {
        Self::build(toolkit.into(), None)
    }

    /// The rig tools of `toolkit`, with each schema as toolgroup renders it for `provider`:
    /// for OpenAI, the strict-mode rewrite of every tool that can be strict (rig's
    /// `ToolDefinition` carries no strict flag: whether the request asks for strict mode is
    /// the rig provider's setting).
    pub fn for_provider(toolkit: impl Into<Arc<Toolkit<R>>>, provider: Provider) -> Self {
        Self::build(toolkit.into(), Some(provider))
    }

    fn build(toolkit: Arc<Toolkit<R>>, provider: Option<Provider>) -> Self {
        let tools = rig_tools(&toolkit, provider);
        let listing = Listing {
            registered: toolkit
                .all_definitions()
                .map(|d| d.name)
                .filter(|name| tools.iter().any(|t| t.name() == *name))
                .collect(),
            rig_tools: Vec::new(),
        };
        RigToolkit {
            toolkit,
            tools,
            listing: Arc::new(listing),
        }
    }

    /// Also advertise these tools of the agent's own (plain rig tools, not the toolkit's)
    /// on every model call. Without this, the per-turn list holds only the toolkit's tools.
    /// Each name must be a tool the agent holds: rig refuses a request whose list names a
    /// tool it does not have.
    #[must_use]
    pub fn with_rig_tools<S: Into<String>>(mut self, names: impl IntoIterator<Item = S>) -> Self {
        Arc::make_mut(&mut self.listing)
            .rig_tools
            .extend(names.into_iter().map(Into::into));
        self
    }

    /// The toolkit.
    pub fn toolkit(&self) -> &Arc<Toolkit<R>> {
        &self.toolkit
    }

    /// The rig tools, in the toolkit's stable listing order (`reset_tools` first), for
    /// `ToolServer::registered_tool`. Clones share the built definitions and handlers.
    ///
    /// Tools found at run time (remote groups) are included as they are now; the tools a
    /// remote server adds later are not advertised until a new `RigToolkit` registers them.
    pub fn tools(&self) -> Vec<RegisteredTool> {
        self.tools.clone()
    }

    /// A rig tool server holding [`tools`](Self::tools): add the agent's own rig tools to it
    /// (and name them with [`with_rig_tools`](Self::with_rig_tools)), then
    /// `AgentBuilder::tool_server_handle(server.run())`.
    pub fn tool_server(&self) -> ToolServer {
        self.tools
            .iter()
            .cloned()
            .fold(ToolServer::new(), ToolServer::registered_tool)
    }

    /// A new conversation: no switchable group active.
    pub fn conversation(&self) -> Conversation<R> {
        self.conversation_with(self.toolkit.session())
    }

    /// A conversation that starts from `session` (one restored from storage, say).
    pub fn conversation_with(&self, session: Session<R>) -> Conversation<R> {
        Conversation {
            shared: Arc::new(Shared {
                toolkit: Arc::clone(&self.toolkit),
                listing: Arc::clone(&self.listing),
                session: Mutex::new(ManagedSession::new(session)),
                context: None,
                called: AtomicBool::new(false),
            }),
        }
    }
}
