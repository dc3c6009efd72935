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
//! its own active set for the session's lifetime.
//!
//! **Idle sessions are hibernated.** A live session costs about 94 KB (rmcp's worker, its
//! serving task and their channels), however idle. One with no answer or stream open for 30
//! seconds is hibernated: its worker and handler are dropped, and it keeps about 1 KB (the
//! client's `initialize` parameters and the connection's state: active groups, lifecycle
//! state, log level, task identity). Its next request restores it through rmcp's own restore
//! path (a new handler, the `initialize` handshake replayed inside the server); the client
//! sees the same session. A hibernated session is forgotten after an hour unused, at once on
//! `DELETE`. A client listening on `GET` for the server's notifications is never idle.
//! [`McpServer::with_idle_sessions`] sets the delays ([`IdleSessions`]);
//! [`McpHttpService::session_counts`] counts live and hibernated sessions. (rmcp alone ends a
//! session after five minutes without a message, and its client must initialize again.)
//!
//! A stateless request (every 2026-07-28
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
//! **Lifecycle rules.** A toolkit's [lifecycle](toolgroup_core::lifecycle) rules apply to
//! each connection's own active set (stdio, HTTP protocol sessions): every `tools/call` is a
//! use; `max_active`, `idle_requests` and `idle_for` switch groups off, the call's result says
//! so in its text and in its structured content (`deactivated_groups`, which the output
//! schemas then admit), and list mode sends `list_changed`. Turns do not exist over MCP, so
//! `idle_turns` and turn-scoped groups never act here. A stateless client's state (its
//! active groups, when each was last used, and the switch-offs not told yet) lives in the
//! server's store under its key (the principal's, when authorized), through
//! [`GroupStore::load_state`] and [`GroupStore::save_state`]: replicas sharing the store see
//! the same uses and switch the same groups off. Each call reads the state, and saves it back
//! only if no other save came in between (the store compares a revision); otherwise it reads
//! the state again and applies its own change and use to it, so that concurrent calls of one
//! client through several replicas lose nothing. Every call then writes to the store once
//! (its use is a change). A key saved before the rules were on starts from its names; a state
//! that is not one the server wrote refuses the call, and is left as it is. A call run as a
//! task is a use too, and the rules apply when it starts; what they switch off then is told
//! with the client's next result (the task's own arrives later, through `tasks/result`).
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
#[cfg(feature = "http")]
mod http_sessions;
mod input;
mod jsonrpc;
mod logging;
#[cfg(feature = "code-mode")]
mod program_tools;
mod random;
#[cfg(feature = "http")]
mod selection;
mod server;
mod skills;
mod stdio;
mod store;
pub mod tasks;
mod telemetry;
#[cfg(feature = "testing")]
#[cfg_attr(docsrs, doc(cfg(feature = "testing")))]
pub mod testing;

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
#[cfg(feature = "http")]
pub use http_sessions::{IdleSessions, SessionCounts};
pub use input::RequestStateKeyError;
pub use rmcp;
pub use server::{McpServer, ServeError};
// What the crate docs above link to.
#[cfg(feature = "redis")]
pub use store::RedisStore;
pub use store::{GroupStore, MemoryStore, StoreError, StoredState};
#[cfg(feature = "redis")]
pub use tasks::RedisTaskStore;
pub use tasks::{MemoryTaskStore, TaskRecord, TaskStore};
pub use telemetry::METRICS_TARGET;
#[cfg(doc)]
use toolgroup_core::{Session, Toolkit};

/// The `_meta` key of a tool's group in `tools/list`, and of a skill's group in
/// `skills/list`, `skills/get` and `resources/list`.
pub const GROUP_META_KEY: &str = "toolgroup/group";

/// The "did you mean" of every toolgroup crate (one algorithm and threshold for every message).
pub(crate) use toolgroup_skills::did_you_mean;

/// A name the client sent, as it may be shown back: control characters escaped, capped.
pub(crate) use toolgroup_core::__private::echo;
/// The runtime's words for a JSON value's kind ("a string", "an array", ...).
pub(crate) use toolgroup_core::__private::json_kind;
