//! Serve any [`Toolkit`] over MCP, groups included: stdio and Streamable HTTP, on the
//! official Rust SDK ([`rmcp`], re-exported).
//!
//! ```no_run
//! # use toolgroup_core::{Registry, Toolkit};
//! # async fn serve<R: Registry>(toolkit: Toolkit<R>) -> Result<(), Box<dyn std::error::Error>> {
//! use toolgroup_mcp::{McpServer, Mode};
//!
//! let server = McpServer::new(toolkit, Mode::Mask);
//! server.serve_stdio("".parse()?).await?;
//! # Ok(()) }
//! ```
//!
//! # Groups in MCP: three modes
//!
//! | [`Mode`] | `tools/list` | `reset_tools` | where the active set lives |
//! |---|---|---|---|
//! | [`Selected`](Mode::Selected) | the basic tools and the tools of the groups chosen at connect time | hidden | nowhere: a command-line flag (stdio), or each HTTP request (`/mcp/web_search,scraping`, `X-MCP-Toolsets: web_search,scraping` or `/mcp?groups=web_search,scraping`) |
//! | [`Mask`](Mode::Mask) | every tool, in the toolkit's stable order; the same for every client | listed only without first-use activation ([`McpServer::with_reset_tools_listed`]); answered either way | the process (stdio), the protocol session (HTTP clients that open one), or a [`GroupStore`] under a key (stateless HTTP) |
//! | [`List`](Mode::List) | `reset_tools`, the basic tools and the active groups' tools; `notifications/tools/list_changed` after a reset that changed the set | listed | as in mask mode |
//!
//! - **Selected** works with every protocol revision and keeps no state. Unknown group
//!   names are refused, each with a did-you-mean: parsing a list into a [`Session`]
//!   (`"web_search, files".parse()`) returns an
//!   [`UnknownGroup`](toolgroup_core::registry::UnknownGroup) for the command line, and the HTTP service answers `400 Bad Request` with
//!   a JSON body. The chosen groups' instructions are part of the server's `instructions`. A
//!   call to a tool outside the chosen groups is an unknown tool. An HTTP request that
//!   selects groups is served this way in every mode (see "Selecting groups per request").
//! - **Mask** is what the 2026-07-28 revision allows (a `tools/list` that does not vary per
//!   connection nor as a side effect of other requests): a call to a tool of an inactive
//!   group is not run and answers an `isError` result naming the group to switch on with
//!   `reset_tools`. Its list carries cache hints (`ttlMs`, `cacheScope: "public"`).
//! - **List** is for revisions up to 2025-11-25. Calls to inactive tools are still
//!   refused (many clients never re-list). A 2026-07-28 client of a list-mode server is served
//!   in mask mode: its list never changes, so `tools.listChanged` is declared (in `initialize`)
//!   only to clients of the revisions up to 2025-11-25, and `server/discover` at 2026-07-28
//!   declares no list change to listen for (`subscriptions/listen` answers `-32601`, as for a
//!   server that declares nothing to listen to).
//!
//! # Groups for clients that search their own tools
//!
//! Claude Code, Codex and VS Code defer MCP tools behind a tool search of their own, so the
//! model sees names until it searches. Three things help them, each on by default (of the
//! hints, `alwaysLoad` is off: see below).
//!
//! **Hints in each tool's `_meta`** ([`ClientHints`], [`McpServer::with_client_hints`]), in
//! every `tools/list` and `groups/get`:
//!
//! | tool | `_meta` |
//! |---|---|
//! | `reset_tools`, `Skill`, `read_skill_file` | `"anthropic/alwaysLoad": true` (only with [`ClientHints::always_load`]) |
//! | a basic group's tool | `"toolgroup/group": "<group>"`, and `"anthropic/alwaysLoad": true` with [`ClientHints::always_load`] |
//! | a switchable group's tool | `"toolgroup/group": "<group>"`, `"anthropic/searchHint": "<group>: <group description>"`, `"io.modelcontextprotocol/groups": ["<name>"]` |
//!
//! `anthropic/alwaysLoad` and `anthropic/searchHint` are Claude Code's vendor hints
//! ([`ALWAYS_LOAD_META_KEY`], [`SEARCH_HINT_META_KEY`]): it shows the always-loaded tools in
//! full in every request (the switcher needs no search, at the cost of its definition in every
//! request; with first-use activation no model needs it first, so the hint is off by default),
//! and one search by a group's name finds every tool of the group. Other clients ignore them. `io.modelcontextprotocol/groups`
//! ([`GROUPS_META_KEY`]) is the membership label of the interest group's grouping draft
//! (`io.modelcontextprotocol/grouping`, experimental-ext-grouping `grouping.mdx` @03d246f5): the
//! group's name under the drafts' rule (below). With labels on, the server declares
//! `io.modelcontextprotocol/grouping` with `{"listChanged": false}` in every mode and answers
//! its `groups/list`, so the labels resolve.
//!
//! **Activation on first use** ([`McpServer::with_first_use_activation`]; on by default,
//! whatever the toolkit's own [`Toolkit::with_first_use_activation`] says): a call of a tool
//! of an inactive group activates the group and runs, when the policy allows it and the result is not an
//! error, and its result carries the group's tools and instructions once: in its last text
//! block, and under `activated_group` in its structured content, whatever the output's shape
//! (an object, or `{"result": ...}` for any other output). Claude Code, Codex and pydantic-ai
//! show their model only a result's structured content when it has one, the OpenAI Agents
//! SDK and LangChain's adapters only its text; each reads the activation once. Every listed
//! output schema admits the key (an optional `{"type": "object"}` property), so the structured
//! content validates; a tool whose output has a field of that name is refused when the
//! server is built ([`McpServer::new`] panics, naming it). An error result (invalid
//! arguments, the tool's own error) activates nothing and carries nothing: the instructions
//! come with the first call that succeeds. Mask mode then needs no `reset_tools` in its list:
//! it is left out unless [`McpServer::with_reset_tools_listed`] asks for it, and still
//! answered when called. A model whose client found the tool by searching reaches it in one
//! call. Two concurrent first uses of one group by one client (one connection, or one key in
//! one process) activate it once and deliver its instructions once; across replicas sharing
//! a store, each replica may deliver them. The activation is kept where the
//! active set lives (below), with `notifications/tools/list_changed` in list mode; a stateless
//! request without a key runs the call with its group active for that call alone (the
//! instructions come with each such call). A request served in selected mode activates nothing
//! (its groups are the selected ones).
//!
//! **The `io.modelcontextprotocol/groups` extension** (the progressive-disclosure working
//! group's draft "Progressive Disclosure via Groups", `seps/0000-progressive-disclosure-groups.md`
//! @6de0195cd83b8f4f44e958c44ed21ea4b3752bee, 2026-09-28), in mask and list mode
//! ([`McpServer::with_groups_extension`] turns it off). The server declares
//! `"io.modelcontextprotocol/groups": {}` in `initialize` and `server/discover` (no
//! `listChanged`: the groups are compiled in). Each switchable group is a group of the
//! extension; the basic groups' tools stay top-level. Not in selected mode: there the chosen
//! groups' tools are top-level, and the draft places a tool either top-level or in a group,
//! never both.
//!
//! | request | answer |
//! |---|---|
//! | `groups/list` | `{"groups": [{"name": "web-search", "description": "...", "_meta": {"toolgroup/group": "web_search"}}]}`, one page (a `cursor` is refused with `-32602`); in selected mode (the grouping id alone) the chosen groups |
//! | `groups/get {"name": "web-search"}` | `{"instructions": "...", "contents": {"tools": [...], "resources": [...]}}`: the group's instructions (when it has some), its tools' definitions exactly as `tools/list` gives them (`_meta` included), and its skills' `SKILL.md` resources when the server serves skills; a stateless fetch that changes nothing |
//! | `groups/get` of a name that is no group (our own form `web_search` included, answered with a did-you-mean `web-search`) | `-32002` (resource not found, as the draft says) to clients up to 2025-11-25; rmcp answers it `-32602` at 2026-07-28, the code that revision gives an unknown resource (SEP-2164), which the draft names as its precedent |
//! | `groups/get` without a string `name` | `-32602` |
//!
//! A request whose client declares the extension (`_meta["io.modelcontextprotocol/clientCapabilities"]`
//! on the request, on any revision; else the capabilities sent with `initialize`; a
//! declaration that is not valid client capabilities declares nothing) is served the
//! extension's view: its `tools/list` holds the skill tools and the basic groups' tools only,
//! without `reset_tools` (activation is the client's), and its `tools/call` of any group's tool
//! runs, with every switchable group active for that call alone and nothing kept ("discovery
//! gating is not access control": the toolkit's policies and approval still apply). Its
//! `resources/list` leaves out the switchable groups' skills, which are in their group's
//! `contents`. Every other request gets the modes above, unchanged. The view's lists differ by
//! declared capability: a 2026-07-28 client gets them with `cacheScope: "private"`, because the
//! 2026-07-28 caching text keys a cache on the request's params and a shared cache that
//! ignored `_meta` could serve the view to clients that declared nothing; the flat lists keep
//! their hints.
//!
//! **Names.** The drafts' group names are 1 to 64 lowercase letters, digits and single hyphens
//! (`^[a-z0-9]+(-[a-z0-9]+)*$`): a group's name is lowercased, `_` becomes `-`, and runs of
//! hyphens and hyphens at either end are dropped (`web_search` is `web-search`); the group's own
//! name is in `_meta["toolgroup/group"]`. When two groups would share a name (`web` and `WEB`)
//! or one maps to none (`__`), the server still serves the toolkit, as every server before the
//! drafts did, but declares neither extension and labels no tool: a `tracing` warning names the
//! problem when the server is built, and [`McpServer::group_name_problems`] lists it (a test
//! can assert it is empty).
//!
//! # Where the active set lives over HTTP
//!
//! An HTTP client that opened a protocol session (`Mcp-Session-Id`, revisions up to
//! 2025-11-25 with [`legacy_session_mode`](rmcp::transport::StreamableHttpServerConfig)) has
//! its own active set for the session's lifetime. A stateless request (every 2026-07-28
//! request; every request when legacy sessions are off) has no session: its active set is
//! loaded from the server's [`GroupStore`] (a [`MemoryStore`] unless
//! [`McpServer::with_store`] sets another, such as the Redis store of the `redis` feature)
//! under the key that [`McpServer::with_key`] computes from the HTTP request (for example,
//! the authenticated principal).
//!
//! **With no key** (no key function, or it returns `None` for this request) a stateless
//! request sees no switchable group active: the basic tools work, a call to a tool of a
//! switchable group is refused as inactive, and `reset_tools` answers an error result that
//! says the server cannot keep the active groups for this client. Nothing is saved. Use the
//! selected mode (or a per-request selection) for clients without an identity. Under
//! first-use activation, such a call runs with its group active for that call alone.
//!
//! # Selecting groups per request
//!
//! An HTTP request may select groups in three forms: the URL's `groups` parameter
//! (`/mcp?groups=web_search,scraping`), the path below the endpoint (`/mcp/web_search,scraping`,
//! Google's MCP Toolbox's form; the service sees `/web_search,scraping` when mounted with
//! `nest_service` or [`McpServer::router`]) and the `X-MCP-Toolsets: web_search,scraping`
//! header (GitHub's MCP server's form). Such a request is served in selected mode for those
//! groups whatever the server's mode: the basic tools and the selected groups' tools, no
//! `reset_tools`, nothing kept. That is what clients that never re-list (Codex, LangChain's
//! adapters) need, on every revision and without state. Unknown names get `400 Bad Request`
//! with the real names (`{"error": "unknown_groups", ...}`), the client's text escaped; two
//! forms that select different groups get `400` (`{"error": "conflicting_groups", ...}`); the
//! same groups in two forms are one selection.
//!
//! # Browsers and malformed messages
//!
//! The HTTP endpoint refuses a request whose `Origin` header is not a loopback origin
//! (`http://localhost:3000`, `https://127.0.0.1`, `http://[::1]:8080`: `http` or `https`,
//! any port) with `403 Forbidden` and a JSON-RPC error, as the MCP specification asks
//! against DNS rebinding: a web page of another site must not reach a server on the user's
//! machine. Requests without `Origin` (clients that are not browsers) are served. Accept a
//! web app's origin with [`McpHttpService::with_allowed_origins`] (mount that service
//! instead of [`McpServer::router`]), or every origin with
//! [`McpHttpService::allow_any_origin`].
//!
//! Over HTTP, a body that is not JSON gets the JSON-RPC error `-32700` (with `"id": null`)
//! and `400 Bad Request`; one that is not a JSON-RPC message (a batch, no `method`, an `id`
//! that is an object, `"jsonrpc": "1.0"`, `params` that are not an object) gets `-32600`,
//! with its `id` when it can be read. Over stdio, a line that is not JSON gets no answer, as
//! in rmcp and the official SDKs: it has no `id` to answer, and answering it can start an
//! endless exchange of errors with a peer that writes logs or errors to the same pipe; a line
//! that is JSON but not a JSON-RPC message gets rmcp's `-32600`, without an `id`. A
//! `tools/call` whose `arguments` are not an object gets `-32602`, naming the problem.
//!
//! # Mapping
//!
//! | toolgroup | MCP |
//! |---|---|
//! | tool name, description, canonical input schema | `name`, `description`, `inputSchema` |
//! | output schema (wrapped as `{"result": ...}` when it is not an object) | `outputSchema` |
//! | `read_only`, `destructive`, `idempotent`, `open_world` | `annotations` (`readOnlyHint`...) |
//! | the tool's group | `_meta["toolgroup/group"]` (and the hints: "Groups for clients that search their own tools") |
//! | [`CallResult`](toolgroup_core::CallResult) content, structured content, `is_error` | `content`, `structuredContent`, `isError` |
//! | an unknown tool (or one the client was not shown) | JSON-RPC error `-32602`, with a did-you-mean in the message |
//! | bad arguments, an inactive group, a tool's error, a panic, a timeout | `isError` result |
//! | `ToolContext::report` in a tool | `notifications/progress`, when the request has a progress token (in order, before the result) |
//! | `ToolContext::log` in a tool | `notifications/message` (logger: the tool's name), when the client asked for the level (below) |
//! | `notifications/cancelled`, an HTTP client that disconnects | the call is cancelled: the tool's future is dropped, `ToolContext::is_cancelled` turns true |
//! | the JSON-RPC request id | the call id |
//! | the HTTP request | per-call data: `Extension<http::request::Parts>` in a tool (headers, URI), and every value in the request's own extensions (what an auth layer inserted) as `Extension<T>` |
//!
//! A method the server does not have answers `-32601` with the message
//! ``method not found: `<method>` ``, the name escaped.
//!
//! Unknown tools are protocol errors as the MCP specification says (`-32602`), not `isError`
//! results: a client that lists before calling never produces one, and a tool outside the
//! list must not look like a tool that ran and failed. The message still names the closest
//! tool. Partial output (`ToolContext::partial`) has no MCP notification and is not sent.
//!
//! Tool titles: toolgroup tools have none, so `title` is never set.
//!
//! # Skills: the MCP skills extension
//!
//! When the toolkit's groups carry Agent Skills ([`toolgroup_core::skill`]), the server
//! declares the skills extension (SEP-2640, `io.modelcontextprotocol/skills`) and the
//! `resources` capability it rides on; a toolkit without skills declares neither, and answers
//! the methods below (and `resources/templates/list`) `-32601` (method not found), as any
//! method it does not have. With skills it answers:
//!
//! | request | answer |
//! |---|---|
//! | `skills/list` | every skill of the toolkit, whatever the connection's mode and active groups (the extension is the host's catalog; the model's access follows the groups, below) |
//! | `skills/get` | one skill by the URI of its `SKILL.md`, `skill://<name>/SKILL.md` |
//! | `resources/list` | each skill's `SKILL.md` (name, description, size); the other files are in the skill's manifest |
//! | `resources/read` | one file, `skill://<name>/<path>` (path segments percent-encoded): UTF-8 text as `text`, other files as a base64 `blob`, each with its MIME type |
//!
//! A skill's entry carries the frontmatter with every field (YAML converted to JSON, host keys
//! such as `user-invocable` included), the manifest of its files with the SHA-256 digest and
//! size computed when the files were embedded at compile time, and its group in `_meta` under
//! [`GROUP_META_KEY`] (`"toolgroup/group": "<group>"`, the key tools carry). A skill holds at
//! most 512 files ([`MAX_FILES`](toolgroup_core::skill::MAX_FILES)) and 16 MiB
//! ([`MAX_TOTAL_BYTES`](toolgroup_core::skill::MAX_TOTAL_BYTES)), checked when it is read (at
//! compile time for `skills = [...]`). The answers are the same for every client, so a
//! 2026-07-28 client gets them with `cacheScope: "public"`.
//!
//! An unknown skill, a URI outside `skill://`, a path with an empty, `.` or `..` segment (also
//! percent-encoded), a query or a fragment, or a file the skill does not have answer `-32602`,
//! naming the problem (with a did-you-mean), the client's text escaped; nothing changes.
//!
//! The model's tools stay: `Skill` and `read_skill_file` are listed and called like any tool
//! in every mode (in selected mode while the chosen groups show a skill), for clients without
//! the extension.
//!
//! # Log messages
//!
//! The server declares the `logging` capability and answers `logging/setLevel`. A tool's
//! `ToolContext::log` reaches the client as `notifications/message`, in order and before the
//! call's result, when the client asked for that level: a request whose `_meta` carries
//! `io.modelcontextprotocol/logLevel` gets the messages at or above it (any revision);
//! without it, a 2026-07-28 request gets none (that revision forbids unrequested log
//! messages), and an older client gets those at or above the level it set with
//! `logging/setLevel` on its connection, or every message before it sets one (those
//! revisions state no default; the official TypeScript and Python SDK servers send
//! everything). A stateless HTTP request has no connection to remember a `logging/setLevel`:
//! use the `_meta` level there. Messages the client does not get are `tracing` events, as
//! outside MCP.
//!
//! # Telemetry
//!
//! Every request the handler answers runs in a `tracing` span named `mcp_server`, and every
//! `tools/call` of the client in one named `mcp_client`, with the fields of the OpenTelemetry
//! semantic conventions for MCP (`semantic-conventions-genai`, `docs/gen-ai/mcp.md` at commit
//! `0393513c`, status "development"): `otel.name` (`{mcp.method.name} {gen_ai.tool.name}`;
//! the method alone for a name that is no tool), `otel.kind` (`server`, `client`),
//! `mcp.method.name`, `mcp.protocol.version`, `mcp.session.id` (over HTTP, when the client has
//! one), `jsonrpc.request.id`, `network.transport` (`tcp` over HTTP, `pipe` otherwise),
//! `gen_ai.tool.name`, `gen_ai.operation.name`, `error.type` (the JSON-RPC code, or
//! `tool_error`) and an error status. The tool's own `execute_tool` span is the server span's
//! child. Each request ends with a `mcp.server.operation.duration` (or
//! `mcp.client.operation.duration`) histogram event and each refused call with a
//! `toolgroup.mcp.refused_calls` counter event, at the target [`METRICS_TARGET`], which
//! `tracing-opentelemetry`'s `MetricsLayer` turns into metrics. Without a subscriber, nothing
//! is gathered.
//!
//! With the `otel` feature, the server span's parent is the trace context in the request's
//! `params._meta` (`traceparent`, `tracestate`, `baggage`: W3C Trace Context and Baggage, as
//! SEP-414 says), and the client writes its span's context there, so one trace runs from an
//! agent through the client into the server's tool. A context that is malformed, of an
//! unsupported version, all zeros, too long or not a string is no parent: the request is
//! served as a root. `docs/observability.md` in the repository maps every field.
//!
//! # Authorization
//!
//! With the `auth` feature, [`McpServer::with_auth`] makes the HTTP endpoint an OAuth
//! resource server (MCP specification 2026-07-28, "Authorization"): bearer tokens checked by
//! the `auth` module's validators, the RFC 9728 metadata, `401`/`403` challenges, and each
//! principal served the toolkit its scopes entitle it to. See the `auth` module and
//! `docs/authorization.md` in the repository.
//!
//! # The client side
//!
//! With the `client` feature, the `client` module reaches other MCP servers (a stdio child process or
//! a Streamable HTTP URL): their tools, kept up to date, and calls that answer error results
//! for every failure, reconnecting with backoff.

#![warn(missing_docs, unreachable_pub, missing_debug_implementations)]
#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(feature = "auth")]
#[cfg_attr(docsrs, doc(cfg(feature = "auth")))]
pub mod auth;
#[cfg(feature = "client")]
#[cfg_attr(docsrs, doc(cfg(feature = "client")))]
pub mod client;
mod elicit;
mod group_names;
mod groups;
mod handler;
mod hints;
#[cfg(feature = "http")]
mod http_service;
mod input;
mod jsonrpc;
mod logging;
mod random;
#[cfg(feature = "http")]
mod selection;
mod skills;
mod stdio;
mod store;
pub mod tasks;
mod telemetry;
#[cfg(feature = "testing")]
#[cfg_attr(docsrs, doc(cfg(feature = "testing")))]
pub mod testing;

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use rmcp::model::{Implementation, Tool};
use toolgroup_core::provider::{Provider, Rendered};
use toolgroup_core::{Registry, Session, ToolDefinition, Toolkit, registry::GroupId};

use group_names::GroupNames;

#[cfg(feature = "axum")]
#[cfg_attr(docsrs, doc(cfg(feature = "axum")))]
pub use axum;
pub use elicit::ElicitationApprover;
pub use group_names::GroupNameProblem;
pub use groups::{Mode, UnknownMode};
pub use handler::McpHandler;
pub use hints::{ALWAYS_LOAD_META_KEY, ClientHints, GROUPS_META_KEY, SEARCH_HINT_META_KEY};
#[cfg(feature = "http")]
pub use http_service::McpHttpService;
pub use input::RequestStateKeyError;
pub use rmcp;
#[cfg(feature = "redis")]
pub use store::RedisStore;
pub use store::{GroupStore, MemoryStore, StoreError};
#[cfg(feature = "redis")]
pub use tasks::RedisTaskStore;
pub use tasks::{MemoryTaskStore, TaskRecord, TaskStore};
pub use telemetry::METRICS_TARGET;

/// The `_meta` key of a tool's group in `tools/list`, and of a skill's group in
/// `skills/list`, `skills/get` and `resources/list`.
pub const GROUP_META_KEY: &str = "toolgroup/group";

/// The "did you mean" of every toolgroup crate (one algorithm and threshold for every message).
pub(crate) use toolgroup_skills::did_you_mean;

/// A name the client sent, as it may be shown back: control characters escaped, capped.
pub(crate) use toolgroup_core::__private::echo;
/// The runtime's words for a JSON value's kind ("a string", "an array", ...).
pub(crate) use toolgroup_core::__private::json_kind;

/// A key function: which stored active set a stateless HTTP request uses.
#[cfg(feature = "http")]
pub(crate) type KeyFn = dyn Fn(&http::request::Parts) -> Option<String> + Send + Sync;

/// `def`'s MCP definition with its `_meta` (its group and the hints `shared` turns on).
pub(crate) fn decorate<R: Registry>(shared: &Shared<R>, tool: Tool, def: &ToolDefinition) -> Tool {
    hints::decorate(tool, def.group, shared.hints, &shared.names, R::GROUPS)
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
            let output = def
                .output_schema
                .as_ref()
                .map(toolgroup_core::provider::mcp_output_schema);
            if let Some(output) = &output
                && output.reserved_key_taken
            {
                // A programming error that no compile-time check can see: the field names
                // of a `JsonSchema` type exist only in the schema built at run time.
                panic!(
                    "toolgroup-mcp: the output of the tool `{}` has a field named `{}`, which MCP servers reserve for the group a first call activates (its tools and instructions); rename the field (`#[serde(rename = \"...\")]`)",
                    def.name,
                    toolgroup_core::provider::ACTIVATED_GROUP_KEY
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
    shared: Arc<Shared<R>>,
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
    /// ([`ACTIVATED_GROUP_KEY`](toolgroup_core::provider::ACTIVATED_GROUP_KEY)), and the
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
        };
        shared.render_tools();
        McpServer {
            shared: Arc::new(shared),
        }
    }

    /// Clone on write: a builder method on a server that was cloned (or that handlers were
    /// built from) configures this copy alone, and what was built from the others keeps its
    /// configuration.
    fn shared_mut(&mut self) -> &mut Shared<R> {
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
    fn new(source: impl std::error::Error + Send + Sync + 'static) -> Self {
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
