//! The client side (feature `client`): the tools of a remote MCP server, listed, kept up to
//! date and called, with every failure as an error result a model can act on.
//!
//! ```no_run
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! use std::time::Duration;
//! use toolgroup_mcp::client::{RemoteServer, RemoteTools};
//!
//! let server = RemoteServer::stdio("uvx", ["mcp-server-git"])
//!     .with_call_timeout(Duration::from_secs(30));
//! let remote = RemoteTools::connect(server).await?;
//! for tool in remote.tools().iter() {
//!     println!("{}: {}", tool.name, tool.description.as_deref().unwrap_or(""));
//! }
//! let result = remote
//!     .call("git_status", &serde_json::json!({"repo_path": "."}))
//!     .await;
//! println!("{}", result.text_joined());
//! # Ok(()) }
//! ```
//!
//! # What it does
//!
//! - **Listing**: [`RemoteTools::connect`] lists every page of `tools/list`;
//!   [`tools`](RemoteTools::tools) is the current list. On
//!   `notifications/tools/list_changed` (revisions up to 2025-11-25: see
//!   [Protocol revisions](#protocol-revisions)) the client lists every page again; when the list
//!   differs, [`version`](RemoteTools::version) increases and [`watch`](RemoteTools::watch)
//!   receivers wake up. A server's groups are read too (see [Remote groups](#remote-groups)).
//! - **Calls** ([`RemoteTools::call`], [`call_with`](RemoteTools::call_with)) never fail
//!   with a Rust error and never panic: a remote `isError` result is an error result with the
//!   server's content; a protocol error, a timeout, a server that crashed or cannot be
//!   reached, a tool that is not listed, and arguments that do not fit the tool's input
//!   schema are each an error result saying what happened and whether to retry.
//! - **Arguments** are checked before sending: a JSON object, with the schema's `required`
//!   properties, the `type` of listed properties and array items, `enum` values, and no
//!   unknown property when `additionalProperties` is `false`, in nested objects too. Other
//!   keywords (`$ref`, `anyOf`, formats, ranges) are left to the server. Problems name the
//!   argument's path, never its value.
//! - **Content**: text, image, audio, embedded resources and resource links become
//!   [`Content`](toolgroup_core::Content) blocks (through MCP's JSON, which both sides
//!   share); structured content is kept.
//! - **Cancellation and progress**: a [`CancellationToken`] in [`CallOptions`] cancels the
//!   remote request (`notifications/cancelled`), as does a timeout or dropping the call's
//!   future; the server's `notifications/progress` for the call go to a callback, in the
//!   order they arrived, every one sent before the result passed on before the call returns.
//! - **Timeout**: the call timeout ([`RemoteServer::with_call_timeout`],
//!   [`CallOptions::with_timeout`]) bounds the time *without news*: it starts again at each
//!   progress report, each change of the call's task's status or status message, and after
//!   each answer from the user (whose time to answer does not count). A call that keeps
//!   reporting may run longer than the timeout: cancel it to stop it.
//! - **Tasks** and **user input**: see [Tasks](#tasks) and [User input](#user-input).
//! - **Reconnecting**: when the connection is lost (the child process exited, HTTP requests
//!   fail), the failing call answers an error result and the next call reconnects: at once
//!   the first time, then with exponential backoff between failed attempts
//!   ([`RemoteServer::with_backoff`]); calls made while waiting answer an error result that
//!   says when the next attempt is. A new connection lists the tools and groups again (and
//!   bumps the version if they changed). [`RemoteTools::reconnect`] reconnects now. rmcp's
//!   HTTP transport opens a new session by itself when the server no longer knows the old
//!   one (a server restarted between two calls): that is not a reconnection, and the lists
//!   are not read again.
//! - **Names**: [`expose_names`] validates remote names against the provider-safe pattern
//!   and applies a prefix, reporting every problem.
//!
//! The client declares form elicitation and the tasks extension; it offers no sampling and
//! no roots. It connects with the `initialize` handshake unless told to ask for MCP
//! 2026-07-28 (see [Protocol revisions](#protocol-revisions)).
//!
//! # Protocol revisions
//!
//! By default ([`Protocol::Initialize`]) the client starts with `initialize`, asking for
//! 2025-11-25 (the latest revision with that handshake; a server of an earlier revision
//! answers with its own), which every current server accepts. On such a session no server
//! runs a call as a task (SEP-2663 tasks are for 2026-07-28 requests), a server asks the
//! user with `elicitation/create`, and it sends `notifications/tools/list_changed` on its
//! own.
//!
//! [`RemoteServer::with_protocol(Protocol::V2026_07_28)`](RemoteServer::with_protocol) asks
//! for MCP 2026-07-28:
//!
//! - **Start**: `server/discover` (rmcp's `Discover` lifecycle) instead of `initialize`; its
//!   answer gives the server's revisions, capabilities and instructions. There is no
//!   session handshake.
//! - **Fallback**: a server that answers `server/discover` with a JSON-RPC error (a server
//!   of an earlier revision does not know the method) or not at all within 10 seconds
//!   (rmcp's bound) gets `initialize` on the same connection (rmcp's `Auto` lifecycle). When
//!   discovery fails otherwise (the server offers no 2026-07-28, an HTTP server refuses a
//!   request outside a session, a stdio server closes the connection), the client starts
//!   again with `initialize` on a new connection (a new child process over stdio); when that
//!   fails too, [`RemoteError::Handshake`] holds rmcp's `LegacyFallbackFailed` with both
//!   errors. An authorization failure is not retried. Each reconnection goes through the
//!   same steps, and the connect timeout bounds them all. The session is then a 2025-11-25
//!   one, as with the default.
//! - **Each request** carries the revision, the client's name and version and its
//!   capabilities (the tasks and groups extensions, form elicitation) in its `_meta`: rmcp
//!   copies them from the client's declaration. So a server may answer a `tools/call` with a
//!   task, or with `input_required` (see [Tasks](#tasks) and [User input](#user-input)).
//! - **Asking the user**: a server asks through input requests, a `tools/call`'s
//!   `input_required` answer or a task's `input_required` status (this crate's server does
//!   so on 2026-07-28). An `elicitation/create` request is still answered while a request of
//!   the client's is in flight; rmcp refuses one that comes outside any (SEP-2260).
//! - **List changes**: on 2026-07-28 a server sends `notifications/tools/list_changed` only
//!   on a `subscriptions/listen` stream, which this client does not open. The lists are read
//!   on connecting and on each reconnection (and when the server sends
//!   `notifications/groups/list_changed` all the same), so a change the server makes later
//!   is not seen until then; call [`RemoteTools::reconnect`] to read them now. A server whose
//!   list never changes within a session (this crate's server serves 2026-07-28 requests in
//!   mask mode, and declares no list change) loses nothing.
//!
//! rmcp's response cache (SEP-2549 `ttlMs`) is off on every connection: the client keeps
//! its own lists, and reads them again only when they may have changed.
//!
//! # Tasks
//!
//! The client declares the `io.modelcontextprotocol/tasks` extension (SEP-2663, as rmcp
//! 3.11 implements it: `{}` under `capabilities.extensions`), so a server may answer a
//! `tools/call` with a task (`resultType: "task"`). The call then follows it, and its caller
//! sees one call as before:
//!
//! - it polls `tasks/get` at the server's `pollIntervalMs`, kept between 100 ms and 30 s
//!   (1 s when the server suggests none) and within half the call timeout;
//! - each new `statusMessage` goes to the call's progress callback (and so to a remote
//!   group's progress observer) as one more step done, with no total;
//! - `completed`: its `result` is the call's result, read as any tool result; `failed`: an
//!   error result naming the server and the JSON-RPC error's code and message (escaped and
//!   shortened); `cancelled` (by the server): an error result saying so;
//! - `input_required`: its `inputRequests` are answered as below and sent with
//!   `tasks/update`; a request the client cannot answer fails the call, and the task is
//!   cancelled;
//! - a `tasks/get` that the server answers with `-32602` (it no longer knows the task: its
//!   time to live ran out, or it was deleted) is an error result saying so;
//! - the call's cancellation, its timeout, dropping its future, an answer the client cannot
//!   read and a task id longer than 1024 bytes send `tasks/cancel` (best effort, on a task of
//!   its own) and answer an error result.
//!
//! # User input
//!
//! A server asks the user through a form (MCP elicitation): an `elicitation/create` request
//! (revisions up to 2025-11-25), the `inputRequests` of an `input_required` answer to
//! `tools/call` (SEP-2322, multi round-trip: the client answers them and sends the call
//! again with `inputResponses` and the echoed `requestState`, at most 10 times in all, as
//! rmcp's `DEFAULT_MRTR_MAX_ROUNDS`), or those of a task's `input_required` status. Each
//! form becomes a [`Question`](toolgroup_core::context::Question) for a
//! [`UserInput`](toolgroup_core::context::UserInput) (one question at a time):
//!
//! - **Who answers**: the server's asker ([`RemoteServer::with_user_input`]) when set;
//!   else the call's ([`CallOptions::with_user_input`]; a [`Remote`] group's calls pass on
//!   their calling tool's `UserInput`, so a toolkit served over MCP asks its own client's
//!   user). An `elicitation/create` request does not say which call it belongs to: without
//!   a server asker, the call's asker answers it only when that call is the one in flight
//!   on the connection.
//! - **The form**: the request's message, and each field of its `requestedSchema`: booleans,
//!   strings, numbers, integers and single choices (`enum`, or titled `oneOf`), required as
//!   the schema says, titled by their `title`, else `description`, else name. Other
//!   constraints (formats, lengths, ranges, defaults) are left to the server. The user's
//!   answer must fit the form; it goes back as `accept` with its fields, a declined form as
//!   `decline` and a dismissed one as `cancel`.
//! - **Refused**, with an error result saying why (the call fails; an `elicitation/create`
//!   request gets a JSON-RPC error, never a `decline`, which would say the user refused):
//!   a question nobody can answer (no asker, or the asker has no user), a form the client
//!   cannot show (multiple choices, nested objects, URL mode), sampling and roots requests,
//!   kinds of request it does not know, and more than 16 requests at once. The client
//!   declares form elicitation whether or not an asker is set, since a call's asker only
//!   shows once the call is made.
//!
//! # Remote groups
//!
//! The client speaks the client side of the `io.modelcontextprotocol/groups` extension, the
//! MCP progressive-disclosure working group's draft "Progressive Disclosure via Groups"
//! (`seps/0000-progressive-disclosure-groups.md` in `modelcontextprotocol/progressive-disclosure-wg`
//! at commit `6de0195cd83b8f4f44e958c44ed21ea4b3752bee`, 2026-09-28; a draft, which may change).
//! A server with the extension lists some tools at the top level (`tools/list`) and the
//! others only inside named groups, each with instructions for the model.
//!
//! - **Declared**: the client declares the extension (`{}` under `capabilities.extensions` in
//!   `initialize`; rmcp copies the client's capabilities into each request's `_meta` on a
//!   2026-07-28 session), unless built with
//!   [`RemoteServer::with_groups_extension(false)`](RemoteServer::with_groups_extension):
//!   then a server with the extension lists every tool at the top level, as it does for a
//!   client without it, and no group is fetched.
//! - **Fetched** only from a server whose handshake declares it, on connecting, on each
//!   reconnection, and on `notifications/groups/list_changed` or
//!   `notifications/tools/list_changed` (both lists, whichever changed, since the rules below
//!   span them): every page of `groups/list`, then `groups/get` for each group, a few at a
//!   time, each within the call timeout. A server without the extension gets no request
//!   beyond `tools/list`, and its tools are all top-level, as before.
//! - **Kept**: [`RemoteTools::groups`], each [`RemoteGroup`] with its title, description,
//!   `_meta`, `instructions` and `contents.tools`; the version increases when they change. A
//!   group's prompts, resources and nested groups are not read.
//! - **Mounted**: [`Remote::group`] serves one remote group as the tools of a local
//!   `#[tool_group(..., dynamic)]` group, and its instructions come with the group's
//!   activation; [`Remote::new`] serves the top-level tools. The local `reset_tools` and the
//!   provider delivery modes then switch each remote group like any local group.
//! - **Called**: a group's tool is called like a top-level one, whether or not its group is
//!   mounted or active on the client: in the extension, groups guide discovery and do not
//!   gate calls (the toolkit's own switching still applies to the tools it lists).
//! - **Hidden**, with the reason in [`RemoteTools::hidden_groups`] and a `tracing` warning, the
//!   rest being offered: a group whose `groups/get` fails, times out or answers something
//!   the client cannot read (a tool definition included); one whose answer has neither
//!   `instructions` nor `contents` (the extension requires one); one with a tool that is
//!   also top-level, or with a tool another group defines differently (every group involved:
//!   the client cannot tell which definition is right); a `groups/list` entry without a
//!   name, without a description or with a field of the wrong type, and a name listed
//!   again. Remote text in a reason is escaped and shortened. A `groups/list` that fails or
//!   cannot be read fails the connection ([`RemoteError::ListGroups`]), as `tools/list`
//!   does; when re-listing, the previous lists are kept.
//!
//! Group names are used as the server spells them; the draft's name rule (lowercase letters,
//! digits and single hyphens) is not enforced.
//!
//! # HTTPS
//!
//! The HTTP transport is rmcp's reqwest client, built without TLS so that this feature adds
//! no TLS stack: plain `http://` URLs work as they are. For `https://`, enable reqwest's TLS in
//! your own `Cargo.toml` (Cargo unifies features): `reqwest = { version = "0.13",
//! default-features = false, features = ["rustls"] }`.

mod call;
mod connection;
mod convert;
mod error;
mod groups;
mod handler;
mod handshake;
mod input;
mod list;
mod names;
mod options;
mod progress;
mod remote;
mod remote_tools;
mod server;
mod validate;

pub use tokio_util::sync::CancellationToken;

pub use error::{GroupError, RemoteError, RemoteSource};
pub use list::{HiddenGroup, RemoteGroup, RemoteTool, ToolList};
pub use names::{
    ExposedName, ExposedNames, MAX_TOOL_NAME_LEN, NameProblem, expose_names, is_valid_tool_name,
};
pub use options::{CallOptions, OnRemoteProgress};
pub use remote::Remote;
pub use remote_tools::RemoteTools;
pub use server::{Protocol, RemoteServer, Stderr};
