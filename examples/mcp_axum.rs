//! Mount the MCP endpoint in an axum app: the README's example, kept identical to it by
//! `toolgroup-mcp/tests/server/readme.rs`. `cargo run --example mcp_axum --features mcp`.

use toolgroup::mcp::axum::{Router, routing::get};
use toolgroup::mcp::rmcp::transport::StreamableHttpServerConfig;
use toolgroup::mcp::{McpServer, Mode};
use toolgroup::prelude::*;

/// Search the web and return the top results.
#[tool(read_only, open_world)]
async fn web_search(
    /// What to search for.
    query: String,
) -> Vec<String> {
    vec![format!("{query}: the first result")]
}

/// Write a note.
#[tool]
fn note_write(
    /// The text of the note.
    text: String,
) -> String {
    format!("noted: {text}")
}

#[tool_group(name = "notes", description = "Taking notes.", tools = [note_write])]
struct Notes;

#[tool_group(name = "web", description = "Searching the web.", tools = [web_search])]
struct Web;

#[toolkit]
struct Agent {
    #[basic]
    notes: Notes,
    web: Web,
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let toolkit = Toolkit::new(Agent {
        notes: Notes,
        web: Web,
    });
    let server = McpServer::new(toolkit, Mode::Mask)
        // Stateless requests keep their active groups per user (here a header set by your
        // auth proxy); without a key, `reset_tools` is refused and nothing is saved.
        .with_key(|parts| {
            parts
                .headers
                .get("x-user-id")?
                .to_str()
                .ok()
                .map(str::to_owned)
        });
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false) // every request stateless: any replica can serve it
        .with_allowed_hosts(["localhost", "127.0.0.1", "mcp.example.com"]);
    let app = Router::new()
        .route("/health", get(|| async { "ok" }))
        .nest_service("/mcp", server.http_service(config));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:8000").await?;
    toolgroup::mcp::axum::serve(listener, app).await
}
