//! Starting a session on a new connection: spawning or reaching the server, then the
//! lifecycle that [`Protocol`] asks for, with the fallback from `server/discover` (MCP
//! 2026-07-28) to `initialize` (revisions up to 2025-11-25).

use std::sync::Arc;

use rmcp::model::ProtocolVersion;
use rmcp::service::{ClientInitializeError, RunningService};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::{IntoTransport, StreamableHttpClientTransport, TokioChildProcess};
use rmcp::{ClientCacheConfig, ClientLifecycleMode, ClientServiceExt as _, RoleClient};

use super::error::RemoteError;
use super::handler::Handler;
use super::progress::{Progress, Routed};
use super::server::{Endpoint, Protocol, RemoteServer, Stderr};

pub(super) type Service = RunningService<RoleClient, Handler>;

/// Why one attempt failed.
enum Failure {
    /// The server could not be spawned.
    Spawn(RemoteError),
    /// The transport or the handshake failed.
    Handshake(Box<ClientInitializeError>),
}

/// Start a session with `server`, with a handler from `handler` for each attempt.
///
/// [`Protocol::V2026_07_28`] uses rmcp's `Auto` lifecycle: `server/discover` for 2026-07-28;
/// when the server answers it with a JSON-RPC error (a server of an earlier revision does
/// not know the method) or not at all within 10 seconds (rmcp's bound), `initialize` follows
/// on the same connection. A discovery that fails otherwise (an HTTP server of an earlier
/// revision may refuse a request outside a session at the HTTP level, a stdio server may
/// close the connection, a server may offer only other revisions) is followed by
/// `initialize` on a new connection (a new child process over stdio); when that fails too,
/// the error names both attempts. An authorization failure is not retried: `initialize`
/// would meet the same refusal.
pub(super) async fn start(
    server: &RemoteServer,
    handler: impl Fn() -> Handler,
    progress: &Arc<Progress>,
) -> Result<Service, RemoteError> {
    let service = lifecycle(server, handler, progress).await?;
    // The client keeps its own lists and reads them again only when they may have changed:
    // rmcp's response cache (SEP-2549 `ttlMs`) would answer such a re-list with the pages
    // read before the change, and a failed one with stale pages.
    service
        .peer()
        .set_response_cache_config(ClientCacheConfig::disabled())
        .await;
    Ok(service)
}

/// The handshake `server.protocol` asks for, with the fallback described on [`start`].
async fn lifecycle(
    server: &RemoteServer,
    handler: impl Fn() -> Handler,
    progress: &Arc<Progress>,
) -> Result<Service, RemoteError> {
    let handshake = |source: ClientInitializeError| RemoteError::Handshake {
        server: server.label.clone(),
        source: Arc::new(source),
    };
    let failed = |failure| match failure {
        Failure::Spawn(e) => e,
        Failure::Handshake(e) => handshake(*e),
    };
    let legacy = ClientLifecycleMode::Initialize;
    match server.protocol {
        Protocol::Initialize => attempt(server, handler(), legacy, progress)
            .await
            .map_err(failed),
        Protocol::V2026_07_28 => {
            let modern = ClientLifecycleMode::Auto {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
                // The handler's own version: the latest revision with `initialize`.
                legacy_version: None,
            };
            match attempt(server, handler(), modern, progress).await {
                Err(Failure::Handshake(discover)) if worth_initialize(&discover) => {
                    tracing::debug!(
                        server = %server.label,
                        error = %discover,
                        "server/discover failed; trying initialize on a new connection"
                    );
                    attempt(server, handler(), legacy, progress)
                        .await
                        .map_err(|failure| match failure {
                            Failure::Spawn(e) => e,
                            Failure::Handshake(fallback) => {
                                handshake(ClientInitializeError::LegacyFallbackFailed {
                                    discover,
                                    fallback,
                                })
                            }
                        })
                }
                other => other.map_err(failed),
            }
        }
    }
}

/// Whether a failed discovery leaves `initialize` worth trying on a new connection: not
/// when rmcp already tried it, nor when the server asks for authorization.
fn worth_initialize(error: &ClientInitializeError) -> bool {
    !matches!(
        error,
        ClientInitializeError::LegacyFallbackFailed { .. } | ClientInitializeError::Cancelled
    ) && !error.is_authorization_required()
}

/// Spawn or reach the server and run `lifecycle` on the new connection.
async fn attempt(
    server: &RemoteServer,
    handler: Handler,
    lifecycle: ClientLifecycleMode,
    progress: &Arc<Progress>,
) -> Result<Service, Failure> {
    match &server.endpoint {
        Endpoint::Stdio {
            program,
            args,
            env,
            dir,
            stderr,
        } => {
            let mut command = tokio::process::Command::new(program);
            command
                .args(args)
                .envs(env.iter().cloned())
                .kill_on_drop(true);
            if let Some(dir) = dir {
                command.current_dir(dir);
            }
            let stderr = match stderr {
                Stderr::Inherit => std::process::Stdio::inherit(),
                Stderr::Discard => std::process::Stdio::null(),
            };
            let (transport, _) = TokioChildProcess::builder(command)
                .stderr(stderr)
                .spawn()
                .map_err(|e| {
                    Failure::Spawn(RemoteError::Spawn {
                        server: server.label.clone(),
                        source: Arc::new(e),
                    })
                })?;
            let transport = IntoTransport::<RoleClient, _, _>::into_transport(transport);
            handler
                .serve_with_lifecycle(Routed::new(transport, progress.clone()), lifecycle)
                .await
                .map_err(|e| Failure::Handshake(Box::new(e)))
        }
        Endpoint::Http {
            url,
            bearer,
            headers,
        } => {
            let mut config = StreamableHttpClientTransportConfig::with_uri(url.as_str())
                .custom_headers(headers.clone());
            if let Some(token) = bearer {
                config = config.auth_header(token.clone());
            }
            let transport = StreamableHttpClientTransport::from_config(config);
            handler
                .serve_with_lifecycle(Routed::new(transport, progress.clone()), lifecycle)
                .await
                .map_err(|e| Failure::Handshake(Box::new(e)))
        }
    }
}
