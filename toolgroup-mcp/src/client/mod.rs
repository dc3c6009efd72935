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
//!   receivers wake up.
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
//!   says when the next attempt is. A new connection lists the tools again (and bumps the
//!   version if they changed). [`RemoteTools::reconnect`] reconnects now.
//! - **Names**: [`expose_names`] validates remote names against the provider-safe pattern
//!   and applies a prefix, reporting every problem.
//!
//! The client uses the `initialize` handshake (protocol revisions up to 2025-11-25), which
//! every current server accepts and over which servers send `list_changed` on their own.
//! It offers no sampling, roots or elicitation: a tool that asks the user for input
//! (`input_required`) or starts a task answers an error result.
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
