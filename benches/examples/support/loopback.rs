//! Loopback helpers shared by the MCP examples (`mcp.rs`, `remote.rs`): an axum router served
//! on 127.0.0.1, rmcp's client over Streamable HTTP, and settings from the environment.

use rmcp::model::ClientConfig;
use rmcp::service::RunningService;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::{StreamableHttpClientTransport, StreamableHttpServerConfig};
use rmcp::{RoleClient, ServiceExt};
use toolgroup::mcp::axum as axum_router;

/// rmcp's own client, with no handler of its own.
pub type Client = RunningService<RoleClient, ClientConfig>;

/// The environment variable `name` as a number, else `default`.
pub fn env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Streamable HTTP without sessions, answering with plain JSON (no SSE stream per request).
pub fn stateless() -> StreamableHttpServerConfig {
    StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
        .with_json_response(true)
}

/// Serves `app` on 127.0.0.1 (an ephemeral port) from a task of the current runtime; the URL
/// of its `/mcp` path.
pub async fn serve(app: axum_router::Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let _ = axum_router::serve(listener, app).await;
    });
    format!("http://{addr}/mcp")
}

/// rmcp's client connected to `url` over Streamable HTTP (handshake done).
pub async fn http_client(url: &str) -> Client {
    let transport = StreamableHttpClientTransport::from_config(
        StreamableHttpClientTransportConfig::with_uri(url),
    );
    ClientConfig::default()
        .serve(transport)
        .await
        .expect("connect")
}
