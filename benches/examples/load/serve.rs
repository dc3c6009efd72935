//! The servers under load, each in a process of its own (`load serve KIND`), so the driver
//! reads each one's CPU time and resident memory from `/proc` and nothing else is counted.
//!
//! Every Rust server is configured the same: Streamable HTTP at `/mcp` on 127.0.0.1, rmcp's
//! default settings (sessions for 2025-11-25 clients; 2026-07-28 requests are served without
//! one) and JSON answers where no stream is needed. toolgroup's is the README's server,
//! `McpServer::new(toolkit, Mode::Mask)`, keyed by `x-user-id` for stateless clients, which
//! hibernates sessions idle for 30 s (1 s where the memory figure of sessions arriving over
//! time sets it).

use std::sync::Arc;

use rmcp::transport::StreamableHttpServerConfig;
use rmcp::transport::StreamableHttpService;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use toolgroup::mcp::axum as axum_router;
use toolgroup::mcp::axum::serve::ListenerExt as _;
use toolgroup::mcp::{IdleSessions, McpServer, MemoryStore, Mode, RedisStore};
use toolgroup_bench::served::{RmcpServed, Served};

/// The servers the benchmark compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// toolgroup's `McpServer`, stateless clients' groups in a `MemoryStore`.
    Toolgroup,
    /// The same, stateless clients' groups in a `RedisStore` on a real `redis-server`.
    ToolgroupRedis,
    /// rmcp's `StreamableHttpService` over a flat `#[tool_router]` server.
    Rmcp,
    /// FastMCP (Python), `fastmcp_server.py`.
    FastMcp,
}

impl Kind {
    pub const ALL: [Kind; 4] = [
        Kind::Rmcp,
        Kind::Toolgroup,
        Kind::ToolgroupRedis,
        Kind::FastMcp,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Kind::Toolgroup => "toolgroup",
            Kind::ToolgroupRedis => "toolgroup-redis",
            Kind::Rmcp => "rmcp",
            Kind::FastMcp => "fastmcp",
        }
    }

    pub fn parse(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|kind| kind.name() == name)
    }

    /// Whether the server has `reset_tools` (the mix calls `echo` in its place where not).
    pub fn has_groups(self) -> bool {
        matches!(self, Kind::Toolgroup | Kind::ToolgroupRedis)
    }
}

fn config() -> StreamableHttpServerConfig {
    StreamableHttpServerConfig::default().with_json_response(true)
}

/// Serve `kind` (a Rust one) on an ephemeral loopback port until killed; the port is printed
/// on stdout (`port N`) once the listener is bound.
pub fn serve(kind: Kind, idle: Option<std::time::Duration>) -> std::io::Result<()> {
    // The process is pinned to one core by the driver; the runtime's worker count follows the
    // affinity, as it would for a container given one CPU.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        println!("port {}", listener.local_addr()?.port());
        let app = match kind {
            Kind::Rmcp => {
                let service: StreamableHttpService<RmcpServed, _> = StreamableHttpService::new(
                    || Ok(RmcpServed),
                    Arc::new(LocalSessionManager::default()),
                    config(),
                );
                axum_router::Router::new().nest_service("/mcp", service)
            }
            Kind::Toolgroup | Kind::ToolgroupRedis => {
                let server = McpServer::new(Served::toolkit(), Mode::Mask).with_key(|parts| {
                    parts
                        .headers
                        .get("x-user-id")?
                        .to_str()
                        .ok()
                        .map(str::to_owned)
                });
                let server = match idle {
                    Some(idle) => server.with_idle_sessions(IdleSessions::hibernate_after(idle)),
                    None => server,
                };
                let server = if kind == Kind::ToolgroupRedis {
                    let url = std::env::var("REDIS_URL")
                        .unwrap_or_else(|_| "redis://127.0.0.1:6379".to_owned());
                    let store = RedisStore::connect(&url)
                        .await
                        .map_err(std::io::Error::other)?
                        .with_prefix(format!("toolgroup-load:{}:", std::process::id()));
                    server.with_store(store)
                } else {
                    server.with_store(MemoryStore::new())
                };
                // The product's own way to serve, `TCP_NODELAY` included.
                return server.serve_http(listener, "/mcp", config()).await;
            }
            Kind::FastMcp => unreachable!("FastMCP is served by Python"),
        };
        // As `McpServer::serve_http` does: without it, SSE answers wait on delayed ACKs.
        let listener = listener.tap_io(|tcp| {
            let _ = tcp.set_nodelay(true);
        });
        axum_router::serve(listener, app).await
    })
}
