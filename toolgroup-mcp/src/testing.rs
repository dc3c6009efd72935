//! An in-process MCP client for tests (the `testing` feature): a [`McpServer`] served over an
//! in-memory pipe (`tokio::io::duplex`, the bytes stdio would carry), no socket and no child
//! process, in whatever [`Mode`](crate::Mode) the server was built with.
//!
//! ```
//! # use toolgroup::prelude::*;
//! use toolgroup_mcp::rmcp::model::CallToolRequestParams;
//! use toolgroup_mcp::{McpServer, Mode};
//! # /// Echo.
//! # #[tool] fn echo(
//! #     /// Text.
//! #     text: String,
//! # ) -> String { text }
//! # #[tool_group(name = "echo", description = "Echo.", tools = [echo])] struct Echo;
//! # #[toolkit] struct Kit { #[basic] echo: Echo }
//! # #[tokio::main(flavor = "current_thread")] async fn main() {
//! let server = McpServer::new(Toolkit::new(Kit { echo: Echo }), Mode::List);
//! let client = toolgroup_mcp::testing::connect(&server).await.unwrap();
//! let tools = client.list_all_tools().await.unwrap();
//! assert_eq!(tools[0].name, "echo");
//! let arguments = serde_json::json!({"text": "hi"}).as_object().unwrap().clone();
//! let result = client
//!     .call_tool(CallToolRequestParams::new("echo").with_arguments(arguments))
//!     .await
//!     .unwrap();
//! assert_eq!(result.content[0].as_text().unwrap().text, "hi");
//! client.cancel().await.unwrap();
//! # }
//! ```

use rmcp::service::{ClientInitializeError, ClientLifecycleMode, ClientServiceExt, RunningService};
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use toolgroup_core::{Registry, Session};

use crate::McpServer;

/// The pipe's buffer in each direction (what a `tools/list` of a large toolkit needs at once
/// without waiting for the reader).
const PIPE_BYTES: usize = 1 << 20;

/// An rmcp client connected to `server` (starting with no switchable group active, as
/// [`McpServer::handler`] does), with the `initialize` handshake done. The server runs on a
/// task of the current Tokio runtime until the client is dropped or cancelled.
///
/// # Errors
///
/// The handshake failed (rmcp's error).
///
/// # Panics
///
/// Outside a Tokio runtime.
pub async fn connect<R: Registry>(
    server: &McpServer<R>,
) -> Result<RunningService<RoleClient, ()>, ClientInitializeError> {
    connect_with(server, Session::new(), (), ClientLifecycleMode::Initialize).await
}

/// [`connect`] with the groups the connection starts with (the chosen groups in
/// [`Mode::Selected`](crate::Mode::Selected), else the starting active set), a client handler
/// of yours (to see `notifications/tools/list_changed`, progress, elicitation requests...) and
/// the lifecycle (`initialize`, or `server/discover` for 2026-07-28 clients).
///
/// # Errors
///
/// The handshake failed (rmcp's error).
///
/// # Panics
///
/// Outside a Tokio runtime.
pub async fn connect_with<R: Registry, H: ClientHandler>(
    server: &McpServer<R>,
    groups: Session<R>,
    client: H,
    lifecycle: ClientLifecycleMode,
) -> Result<RunningService<RoleClient, H>, ClientInitializeError> {
    let (server_io, client_io) = tokio::io::duplex(PIPE_BYTES);
    let handler = server.handler_with(groups);
    tokio::spawn(async move {
        // A failed handshake is the client's error to report; a served connection runs until
        // the client goes.
        if let Ok(running) = handler.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    client.serve_with_lifecycle(client_io, lifecycle).await
}
