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
//!   `notifications/tools/list_changed` the client lists every page again; when the list
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
//! The client uses the `initialize` handshake (protocol revisions up to 2025-11-25), which
//! every current server accepts and over which servers send `list_changed` on their own.
//! It offers no sampling, roots or elicitation: a tool that asks the user for input
//! (`input_required`) or starts a task answers an error result.
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
pub use server::{RemoteServer, Stderr};
