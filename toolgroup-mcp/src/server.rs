//! The MCP server: [`McpServer`], its builder options, and the state its handlers share.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use rmcp::model::{Implementation, Tool};
use toolgroup_core::provider::{Provider, Rendered};
use toolgroup_core::{Registry, Session, ToolDefinition, Toolkit, registry::GroupId};

#[cfg(feature = "http")]
use crate::McpHttpService;
#[cfg(feature = "auth")]
use crate::auth;
use crate::group_names::GroupNames;
use crate::{
    ClientHints, GroupNameProblem, GroupStore, McpHandler, MemoryStore, Mode, hints, input, skills,
    stdio, store, tasks,
};

/// A key function: which stored active set a stateless HTTP request uses.
#[cfg(feature = "http")]
pub(crate) type KeyFn = dyn Fn(&http::request::Parts) -> Option<String> + Send + Sync;

/// `def`'s MCP definition with its `_meta` (its group and the hints `shared` turns on).
/// Its name and description borrow `def`'s text ([`borrowing_text`]).
pub(crate) fn decorate<R: Registry>(shared: &Shared<R>, tool: Tool, def: &ToolDefinition) -> Tool {
    let tool = borrowing_text(tool, def);
    hints::decorate(tool, def.group, shared.hints, &shared.names, R::GROUPS)
}

/// `tool` (`def`'s MCP rendering) with its name and description borrowed from `def`'s
/// `'static` text: a listing clones its tools into the answer, and owned copies would cost
/// two allocations a tool a listing.
pub(crate) fn borrowing_text(mut tool: Tool, def: &ToolDefinition) -> Tool {
    if tool.name == def.name {
        tool.name = std::borrow::Cow::Borrowed(def.name);
    }
    if let Some(description) = &mut tool.description
        && *description == def.description
    {
        *description = std::borrow::Cow::Borrowed(def.description);
    }
    tool
}

pub(crate) struct Shared<R: Registry> {
    pub(crate) toolkit: Arc<Toolkit<R>>,
    pub(crate) mode: Mode,
    pub(crate) rendered: Arc<Rendered<R>>,
    /// Every tool, in the order of `Toolkit::all_definitions`.
    pub(crate) tools: Vec<Tool>,
    pub(crate) index: HashMap<&'static str, usize>,
    /// Parallel to `tools`: whether the tool's structured output is wrapped as
    /// `{"result": ...}` (`None`: no output schema).
    pub(crate) wrapped: Vec<Option<bool>>,
    pub(crate) info: Implementation,
    pub(crate) instructions: Option<String>,
    pub(crate) list_ttl_ms: u64,
    /// The skills served over the skills extension (empty: the extension is not declared).
    pub(crate) skills: Arc<skills::Catalog>,
    pub(crate) store: Arc<dyn GroupStore>,
    #[cfg(feature = "http")]
    pub(crate) key: Option<Arc<KeyFn>>,
    /// What the HTTP endpoint does with idle protocol sessions.
    #[cfg(feature = "http")]
    pub(crate) idle_sessions: crate::IdleSessions,
    /// The hints in each tool's `_meta`.
    pub(crate) hints: ClientHints,
    /// Whether the `io.modelcontextprotocol/groups` extension is on (it is declared only when
    /// `names` are clean too, in mask and list mode).
    pub(crate) groups_extension: bool,
    /// The switchable groups' names under the groups drafts' rule.
    pub(crate) names: Arc<GroupNames>,
    /// First-use activation (`None`: the toolkit's choice).
    pub(crate) first_use: Option<bool>,
    /// Whether mask mode lists `reset_tools` (`None`: only without first-use activation).
    pub(crate) reset_listed: Option<bool>,
    /// Serialise the calls that change one key's active groups in this process.
    pub(crate) key_gates: Arc<store::KeyGates>,
    /// Bearer authorization of HTTP requests.
    #[cfg(feature = "auth")]
    pub(crate) auth: Option<Arc<auth::BearerAuth>>,
    /// Seals and opens the `requestState` of multi-round-trip calls.
    pub(crate) request_state: Arc<rmcp::model::RequestStateCodec>,
    /// Where tasks are kept, and the ones this process runs.
    pub(crate) tasks: Arc<tasks::run::Tasks>,
    /// Code mode: `run_program` listed and answered, each run under its limits.
    #[cfg(feature = "code-mode")]
    pub(crate) code: Option<Arc<crate::program_tools::ProgramTools>>,
}

/// Written out: a derive would ask for `R: Clone`, which a toolkit's groups need not be.
impl<R: Registry> Clone for Shared<R> {
    fn clone(&self) -> Self {
        Shared {
            toolkit: self.toolkit.clone(),
            mode: self.mode,
            rendered: self.rendered.clone(),
            tools: self.tools.clone(),
            index: self.index.clone(),
            wrapped: self.wrapped.clone(),
            info: self.info.clone(),
            instructions: self.instructions.clone(),
            list_ttl_ms: self.list_ttl_ms,
            skills: self.skills.clone(),
            store: self.store.clone(),
            #[cfg(feature = "http")]
            key: self.key.clone(),
            #[cfg(feature = "http")]
            idle_sessions: self.idle_sessions,
            hints: self.hints,
            groups_extension: self.groups_extension,
            names: self.names.clone(),
            first_use: self.first_use,
            reset_listed: self.reset_listed,
            key_gates: self.key_gates.clone(),
            #[cfg(feature = "auth")]
            auth: self.auth.clone(),
            request_state: self.request_state.clone(),
            tasks: self.tasks.clone(),
            #[cfg(feature = "code-mode")]
            code: self.code.clone(),
        }
    }
}

impl<R: Registry> Shared<R> {
    /// Render every compiled-in tool's MCP definition, with its `_meta`, once (tools found
    /// at run time are rendered when listed).
    fn render_tools(&mut self) {
        let len = self.rendered.len();
        let (mut tools, mut index, mut wrapped) = (
            Vec::with_capacity(len),
            HashMap::with_capacity(len),
            Vec::with_capacity(len),
        );
        for entry in self.rendered.entries() {
            let def = self
                .toolkit
                .definition(entry.name)
                .expect("a rendered tool is the toolkit's");
            let tool = serde_json::from_str(entry.json.get())
                .expect("the MCP rendering of a tool is an MCP Tool");
            index.insert(def.name, tools.len());
            tools.push(decorate(self, tool, def));
            let lifecycle = self.toolkit.lifecycle().is_some();
            let output = def.output_schema.as_ref().map(|schema| {
                let output = toolgroup_core::provider::mcp_output_schema(schema);
                match lifecycle {
                    true => output.admitting_deactivations(),
                    false => output,
                }
            });
            if let Some(output) = &output
                && output.reserved_key_taken
            {
                // A programming error that no compile-time check can see: the field names
                // of a `JsonSchema` type exist only in the schema built at run time.
                let activated = toolgroup_core::provider::ACTIVATED_GROUP_KEY;
                let taken = def
                    .output_schema
                    .as_ref()
                    .and_then(|schema| schema.get("properties")?.get(activated))
                    .map_or(toolgroup_core::provider::DEACTIVATED_GROUPS_KEY, |_| {
                        activated
                    });
                panic!(
                    "toolgroup-mcp: the output of the tool `{}` has a field named `{taken}`, which MCP servers reserve (`{activated}` for the group a first call activates, `{}` for the groups a lifecycle rule switched off); rename the field (`#[serde(rename = \"...\")]`)",
                    def.name,
                    toolgroup_core::provider::DEACTIVATED_GROUPS_KEY,
                );
            }
            wrapped.push(output.map(|o| o.wrapped));
        }
        (self.tools, self.index, self.wrapped) = (tools, index, wrapped);
    }

    /// Whether the `io.modelcontextprotocol/groups` extension can be declared (in mask and
    /// list mode).
    pub(crate) fn groups_offered(&self) -> bool {
        self.groups_extension && self.names.is_clean()
    }

    /// Whether tools carry membership labels, with the `io.modelcontextprotocol/grouping`
    /// extension declared (every mode).
    pub(crate) fn labels_offered(&self) -> bool {
        self.hints.has_membership() && self.names.is_clean()
    }
}

/// An MCP server for one toolkit: build it once, then serve stdio
/// ([`serve_stdio`](Self::serve_stdio)), HTTP ([`http_service`](Self::http_service)) or any
/// rmcp transport ([`handler`](Self::handler)). Cheap to clone.
pub struct McpServer<R: Registry> {
    pub(crate) shared: Arc<Shared<R>>,
}

impl<R: Registry> Clone for McpServer<R> {
    fn clone(&self) -> Self {
        McpServer {
            shared: self.shared.clone(),
        }
    }
}

impl<R: Registry> fmt::Debug for McpServer<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("McpServer")
            .field("mode", &self.shared.mode)
            .field("tools", &self.shared.tools.len())
            .finish_non_exhaustive()
    }
}

impl<R: Registry> McpServer<R> {
    /// Serve `toolkit` in `mode`. The MCP tool definitions are rendered once, here.
    ///
    /// The server's name and version default to this crate's; set yours with
    /// [`with_server_info`](Self::with_server_info).
    ///
    /// # Panics
    ///
    /// If a tool's output is an object with a field named `activated_group`: every listed
    /// output schema reserves that key for the group a first call activates
    /// ([`ACTIVATED_GROUP_KEY`](toolgroup_core::provider::ACTIVATED_GROUP_KEY)); under
    /// lifecycle rules, one named `deactivated_groups` too
    /// ([`DEACTIVATED_GROUPS_KEY`](toolgroup_core::provider::DEACTIVATED_GROUPS_KEY)). The
    /// field names of a `JsonSchema` type are known only once its schema is built, at run
    /// time. Rename the field with `#[serde(rename = "...")]`.
    pub fn new(toolkit: impl Into<Arc<Toolkit<R>>>, mode: Mode) -> Self {
        let toolkit = toolkit.into();
        let rendered = Rendered::new(&toolkit, Provider::Mcp);
        let names = GroupNames::new(R::GROUPS, R::SWITCHABLE);
        for problem in names.problems() {
            tracing::warn!(%problem, "the groups extensions are not declared and tools carry no membership labels");
        }
        // Every skill, whatever it requires: each request is shown those of its principal.
        let every = toolkit.entitled(&toolkit.declared_scopes());
        let skills = Arc::new(skills::Catalog::new(every.skills()));
        let mut shared = Shared {
            toolkit,
            mode,
            rendered: Arc::new(rendered),
            tools: Vec::new(),
            index: HashMap::new(),
            wrapped: Vec::new(),
            info: Implementation::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION")),
            instructions: None,
            list_ttl_ms: 300_000,
            skills,
            store: Arc::new(MemoryStore::new()),
            #[cfg(feature = "http")]
            key: None,
            #[cfg(feature = "http")]
            idle_sessions: crate::IdleSessions::default(),
            hints: ClientHints::default(),
            groups_extension: true,
            names: Arc::new(names),
            // On: the measured default (docs/tokens-and-cache.md, "Over MCP").
            first_use: Some(true),
            reset_listed: None,
            key_gates: Arc::new(store::KeyGates::default()),
            #[cfg(feature = "auth")]
            auth: None,
            request_state: Arc::new(input::random_codec()),
            tasks: Arc::new(tasks::run::Tasks::default()),
            #[cfg(feature = "code-mode")]
            code: None,
        };
        shared.render_tools();
        McpServer {
            shared: Arc::new(shared),
        }
    }

    /// Clone on write: a builder method on a server that was cloned (or that handlers were
    /// built from) configures this copy alone, and what was built from the others keeps its
    /// configuration.
    pub(crate) fn shared_mut(&mut self) -> &mut Shared<R> {
        Arc::make_mut(&mut self.shared)
    }

    /// The name, version (and title...) the server reports to clients.
    #[must_use]
    pub fn with_server_info(mut self, info: Implementation) -> Self {
        self.shared_mut().info = info;
        self
    }

    /// Instructions for the model about the whole server, sent in `instructions` (before the
    /// chosen groups' instructions in selected mode).
    #[must_use]
    pub fn with_instructions(mut self, instructions: impl Into<String>) -> Self {
        self.shared_mut().instructions = Some(instructions.into());
        self
    }

    /// How long a 2026-07-28 client may cache `tools/list` in mask and selected mode
    /// (default 5 minutes; list-mode lists are never cacheable). Sent as whole milliseconds.
    #[must_use]
    pub fn with_list_ttl(mut self, ttl: std::time::Duration) -> Self {
        self.shared_mut().list_ttl_ms = u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX);
        self
    }

    /// What the HTTP endpoint does with protocol sessions (2025-11-25 clients) that sit idle:
    /// by default each is hibernated after 30 seconds idle, holding about 1 KB instead of a
    /// live session's ~94 KB, and restored unseen by its next request; see
    /// [`IdleSessions`](crate::IdleSessions). Applies to the endpoints made afterwards
    /// ([`http_service`](Self::http_service), [`router`](Self::router),
    /// [`serve_http`](Self::serve_http)).
    ///
    /// ```
    /// # use toolgroup_core::Registry;
    /// # fn f<R: Registry>(server: toolgroup_mcp::McpServer<R>) {
    /// use std::time::Duration;
    /// use toolgroup_mcp::IdleSessions;
    ///
    /// let server = server.with_idle_sessions(
    ///     IdleSessions::hibernate_after(Duration::from_secs(120))
    ///         .forget_after(Duration::from_secs(24 * 3600)),
    /// );
    /// # }
    /// ```
    #[cfg(feature = "http")]
    #[cfg_attr(docsrs, doc(cfg(feature = "http")))]
    #[must_use]
    pub fn with_idle_sessions(mut self, idle: crate::IdleSessions) -> Self {
        self.shared_mut().idle_sessions = idle;
        self
    }

    /// Where stateless HTTP clients' active sets are kept (default: a [`MemoryStore`]).
    #[must_use]
    pub fn with_store(mut self, store: impl GroupStore) -> Self {
        self.shared_mut().store = Arc::new(store);
        self
    }

    /// The key under which a stateless HTTP request's active set is stored, computed from
    /// the request (headers, URI, and extensions such as the authenticated principal an
    /// auth middleware inserted). `None` means "no key": see the [crate docs](crate).
    ///
    /// ```
    /// # use toolgroup_core::Registry;
    /// # fn f<R: Registry>(server: toolgroup_mcp::McpServer<R>) -> toolgroup_mcp::McpServer<R> {
    /// server.with_key(|parts| {
    ///     parts.headers.get("x-user-id")?.to_str().ok().map(str::to_owned)
    /// })
    /// # }
    /// ```
    #[cfg(feature = "http")]
    #[cfg_attr(docsrs, doc(cfg(feature = "http")))]
    #[must_use]
    pub fn with_key(
        mut self,
        key: impl Fn(&http::request::Parts) -> Option<String> + Send + Sync + 'static,
    ) -> Self {
        self.shared_mut().key = Some(Arc::new(key));
        self
    }

    /// The hints in each tool's `_meta` (default: [`ClientHints::default`], search hints and
    /// membership labels without `alwaysLoad`). The
    /// compiled-in tools' definitions are rendered again, here, with them.
    #[must_use]
    pub fn with_client_hints(mut self, hints: ClientHints) -> Self {
        let shared = self.shared_mut();
        shared.hints = hints;
        shared.render_tools();
        self
    }

    /// Whether the server offers the `io.modelcontextprotocol/groups` extension
    /// (`groups/list`, `groups/get`, and the lists a client that declares it is served) in
    /// mask and list mode (default `true`). See the [crate docs](crate), "Groups for clients
    /// that search their own tools".
    #[must_use]
    pub fn with_groups_extension(mut self, on: bool) -> Self {
        self.shared_mut().groups_extension = on;
        self
    }

    /// Whether a call of a tool of an inactive group activates the group and runs
    /// (default `true`, whatever the toolkit's own [`Toolkit::with_first_use_activation`]
    /// says: with it, a model behind a client that defers every MCP tool behind its own tool
    /// search, as Claude Code and Codex do, reaches a group's tool in as many requests as
    /// against a server without groups; `docs/tokens-and-cache.md` has the figures). Turn it
    /// off where groups must be switched deliberately. The activation is kept where the active set lives (the
    /// connection, or the store under the request's key) and, in list mode, sends
    /// `notifications/tools/list_changed`; the result carries the group's tools and
    /// instructions once. A stateless HTTP request without a key cannot keep it: its call runs
    /// with the group active for that call alone. Requests served in selected mode (their
    /// groups are the selected ones) and those of clients of the groups extension (every
    /// group callable) activate nothing. See the crate docs, "Groups for clients that search
    /// their own tools".
    #[must_use]
    pub fn with_first_use_activation(mut self, on: bool) -> Self {
        self.shared_mut().first_use = Some(on);
        self
    }

    /// Whether mask mode lists `reset_tools` (default: only when first-use activation is off).
    ///
    /// With first-use activation, a model reaches any group's tool by calling it, and its
    /// group's instructions come with that call's result: in mask mode, where every tool is
    /// listed anyway, `reset_tools` only adds its definition to every request of a client that
    /// shows definitions in full (Codex, the agent frameworks), and a model of a client that
    /// defers them (Claude Code) never needs to load it first. Unlisted, it is still answered
    /// when a client calls it. List mode always lists it (it is how the list grows), and
    /// selected mode never does (the groups are the connection's).
    #[must_use]
    pub fn with_reset_tools_listed(mut self, on: bool) -> Self {
        self.shared_mut().reset_listed = Some(on);
        self
    }

    /// Code mode: list `run_program` beside the tools (its description declares, in
    /// TypeScript, the tools the request's client is shown; in mask mode, every group's) and
    /// run the programs it is called with, each under `limits`. A program's calls are made
    /// on the request's active set with the request's principal's tools, and what they
    /// switch on or off is kept where the set lives (the connection, or the store under the
    /// client's key; in selected mode, nowhere). See `toolgroup::code`.
    #[cfg(feature = "code-mode")]
    #[cfg_attr(docsrs, doc(cfg(feature = "code-mode")))]
    #[must_use]
    pub fn with_code_mode(mut self, limits: toolgroup_core::code::Limits) -> Self {
        self.shared_mut().code = Some(Arc::new(crate::program_tools::ProgramTools::new(limits)));
        self
    }

    /// Require an OAuth bearer token on every HTTP request (MCP authorization; stdio is not
    /// affected, as the specification says). Each request's [`Principal`](auth::Principal)
    /// is entitled to the groups and tools its scopes cover; stateless requests keep their
    /// active groups under the principal, and a protocol session is its opener's alone.
    /// [`router`](Self::router) serves the protected resource metadata too. See the
    /// [`auth`] module.
    #[cfg(feature = "auth")]
    #[cfg_attr(docsrs, doc(cfg(feature = "auth")))]
    #[must_use]
    pub fn with_auth(mut self, auth: auth::BearerAuth) -> Self {
        self.shared_mut().auth = Some(Arc::new(auth));
        self
    }

    /// Why this server declares neither groups extension and labels no tool with
    /// `_meta["io.modelcontextprotocol/groups"]`, when the toolkit's group names do not map
    /// one to one onto the drafts' names (lowercase letters, digits and single hyphens:
    /// `WebSearch` and `web_search` would both be `websearch`/`web-search`...). Empty when
    /// every switchable group has a name of its own. Each problem is also logged (a
    /// `tracing` warning) when the server is built.
    ///
    /// ```
    /// # use toolgroup_core::Registry;
    /// # fn f<R: Registry>(server: toolgroup_mcp::McpServer<R>) {
    /// assert!(server.group_name_problems().is_empty(), "{:?}", server.group_name_problems());
    /// # }
    /// ```
    pub fn group_name_problems(&self) -> &[GroupNameProblem] {
        self.shared.names.problems()
    }

    /// The server's mode.
    pub fn mode(&self) -> Mode {
        self.shared.mode
    }

    /// The toolkit served.
    pub fn toolkit(&self) -> &Arc<Toolkit<R>> {
        &self.shared.toolkit
    }

    /// Every compiled-in tool's MCP definition, in the stable order (`reset_tools` first when
    /// the toolkit exposes it), rendered once: the mask mode's `tools/list` (which leaves
    /// `reset_tools` out under first-use activation, see
    /// [`with_reset_tools_listed`](Self::with_reset_tools_listed), and adds the tools found at
    /// run time, such as remote groups, after these, rendered when listed).
    pub fn tools(&self) -> &[Tool] {
        &self.shared.tools
    }

    /// A handler for one connection (one process on stdio, one protocol session over HTTP),
    /// starting with no switchable group active (selected mode: no group chosen). Serve it
    /// with any rmcp transport (`rmcp::ServiceExt::serve`).
    pub fn handler(&self) -> McpHandler<R> {
        McpHandler::new(self.shared.clone(), Session::new())
    }

    /// A handler for one connection starting with `groups` active: in selected mode the
    /// chosen groups, otherwise the starting active set.
    pub fn handler_with(&self, groups: Session<R>) -> McpHandler<R> {
        McpHandler::new(self.shared.clone(), groups)
    }

    /// Serve one client over stdin/stdout until it disconnects. `groups` are the chosen
    /// groups (selected mode) or the starting active set (mask, list); parse a
    /// command-line flag with `str::parse` (`"web_search, files".parse()?`: see
    /// [`Session`]'s `FromStr`).
    ///
    /// A line that is not JSON gets no answer (see the crate docs, "Browsers and malformed
    /// messages").
    ///
    /// # Errors
    ///
    /// The client did not complete the MCP handshake, or the transport failed.
    pub async fn serve_stdio(&self, groups: Session<R>) -> Result<(), ServeError> {
        self.serve_lines(groups, tokio::io::stdin(), tokio::io::stdout())
            .await
    }

    /// Serve one connection over line-delimited JSON-RPC on any byte streams (what stdio
    /// carries: a child process's pipes, a Unix socket), starting with `groups` active, until
    /// `input` ends.
    ///
    /// The framing is rmcp's: a line that is not JSON is ignored (no `id` to answer, and an
    /// answer can start an error storm with a peer that logs to the pipe), and oversized lines
    /// are dropped. A request whose `id` can be read but that is not valid JSON-RPC 2.0 (a
    /// `"jsonrpc"` other than `"2.0"`, a `result` beside its `method`) is answered `-32600`
    /// with that `id`, as JSON-RPC 2.0 requires, before rmcp reads it.
    ///
    /// # Errors
    ///
    /// The handshake failed, or the connection's task ended abnormally.
    pub async fn serve_lines<I, O>(
        &self,
        groups: Session<R>,
        input: I,
        output: O,
    ) -> Result<(), ServeError>
    where
        I: tokio::io::AsyncRead + Unpin + Send + 'static,
        O: tokio::io::AsyncWrite + Unpin + Send + 'static,
    {
        stdio::serve(self.handler_with(groups), input, output).await
    }

    /// The Streamable HTTP endpoint as a tower service: mount it with axum's
    /// `Router::nest_service("/mcp", ...)`. `config` is rmcp's: its defaults accept only
    /// loopback `Host`s (set `allowed_hosts` for a public deployment) and keep protocol
    /// sessions for older clients; `.with_legacy_session_mode(false)` makes every request
    /// stateless.
    ///
    /// Browser requests are refused unless their `Origin` is a loopback origin: accept
    /// others with [`McpHttpService::with_allowed_origins`].
    ///
    /// A request may select groups, in any mode: the URL's `groups` parameter
    /// (`/mcp?groups=web_search,scraping`), the path below the mount point
    /// (`/mcp/web_search,scraping`: the service sees `/web_search,scraping` when mounted with
    /// `nest_service`, as [`router`](Self::router) does), or the `X-MCP-Toolsets` header
    /// (`X-MCP-Toolsets: web_search,scraping`). Such a request is served in selected mode for
    /// those groups, whatever the server's mode (see the crate docs, "Selecting groups per
    /// request"). Unknown names get `400 Bad Request` with the JSON
    /// `{"error": "unknown_groups", "message", "unknown": [{"name", "did_you_mean"}], "groups"}`;
    /// two forms that select different groups get `400` with
    /// `{"error": "conflicting_groups", "message"}`.
    #[cfg(feature = "http")]
    #[cfg_attr(docsrs, doc(cfg(feature = "http")))]
    pub fn http_service(
        &self,
        config: rmcp::transport::StreamableHttpServerConfig,
    ) -> McpHttpService<R> {
        McpHttpService::new(self.clone(), config)
    }

    /// An axum router serving the endpoint at `path` (for example `"/mcp"`): merge it into
    /// your app, or serve it with [`serve_http`](Self::serve_http).
    #[cfg(feature = "axum")]
    #[cfg_attr(docsrs, doc(cfg(feature = "axum")))]
    pub fn router(
        &self,
        path: &str,
        config: rmcp::transport::StreamableHttpServerConfig,
    ) -> axum::Router {
        let router = axum::Router::new().nest_service(path, self.http_service(config));
        #[cfg(feature = "auth")]
        if let Some(auth) = &self.shared.auth {
            return auth::metadata_routes(router, auth, self.shared.toolkit.declared_scopes());
        }
        router
    }

    /// Serve the endpoint at `path` on `listener` until the process ends (or the config's
    /// cancellation token fires).
    ///
    /// Each accepted connection has `TCP_NODELAY` set: an answer on an SSE stream is written
    /// in several parts (the priming event, then the message), and with Nagle's algorithm on,
    /// the second waits for the client's delayed acknowledgement of the first, which on Linux
    /// adds up to 40 ms to every such answer. Serving [`router`](Self::router) yourself, set it
    /// the same way (`axum::serve::ListenerExt::tap_io`).
    ///
    /// # Errors
    ///
    /// The listener failed.
    #[cfg(feature = "axum")]
    #[cfg_attr(docsrs, doc(cfg(feature = "axum")))]
    pub async fn serve_http(
        &self,
        listener: tokio::net::TcpListener,
        path: &str,
        config: rmcp::transport::StreamableHttpServerConfig,
    ) -> std::io::Result<()> {
        let shutdown = config.cancellation_token.clone();
        let app = self.router(path, config);
        let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
            // Refused only on a socket already broken: its first write reports that.
            let _ = tcp.set_nodelay(true);
        });
        axum::serve(listener, app)
            .with_graceful_shutdown(async move { shutdown.cancelled_owned().await })
            .await
    }
}

/// The chosen groups' instructions, in declaration order, each in a delimited block.
pub(crate) fn group_instructions<R: Registry>(session: &Session<R>) -> String {
    let mut out = String::new();
    for group in R::Group::ALL {
        if !session.is_active(*group) {
            continue;
        }
        let info = R::GROUPS[R::SWITCHABLE[group.slot()]];
        if let Some(text) = info.instructions {
            if !out.is_empty() {
                out.push('\n');
            }
            out.push_str(&format!("<group name=\"{}\">\n{text}\n</group>", info.name));
        }
    }
    out
}

/// Serving over stdio failed: the handshake or the transport. [`source`](std::error::Error::source)
/// is rmcp's (or the serving task's) error.
#[derive(Debug)]
pub struct ServeError {
    source: Box<dyn std::error::Error + Send + Sync + 'static>,
}

impl ServeError {
    pub(crate) fn new(source: impl std::error::Error + Send + Sync + 'static) -> Self {
        ServeError {
            source: Box::new(source),
        }
    }
}

impl fmt::Display for ServeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "MCP server stopped: {}", self.source)
    }
}

impl std::error::Error for ServeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&*self.source)
    }
}
