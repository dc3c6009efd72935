//! The client span of one `tools/call` to a remote MCP server (kind `CLIENT`) and the client's
//! duration metric.

use std::time::Instant;

use rmcp::model::{CallToolRequestParams, RequestId};
use tracing::field::Empty;
use tracing::{Level, Span};

use super::{METRICS_TARGET, status_description};

/// Where the remote server is, as the conventions' attributes say it.
pub(crate) struct Peer<'a> {
    /// `pipe` (a child process's stdio) or `tcp` (Streamable HTTP).
    pub(crate) transport: &'static str,
    /// The URL of an HTTP server (its host and port become `server.address`, `server.port`).
    pub(crate) url: Option<&'a str>,
    /// The protocol revision agreed with the server, when known.
    pub(crate) protocol: Option<String>,
}

/// How a remote call ended, for `error.type`.
pub(crate) enum Ending<'a> {
    /// A result (`tool_error` when it is an error result).
    Answered { is_error: bool },
    /// A JSON-RPC error: its code and message.
    Refused { code: i32, message: &'a str },
    /// No answer: `timeout`, `cancelled`, `transport_closed` or `_OTHER`.
    Failed(&'static str),
}

/// The open client span of one `tools/call`.
pub(crate) struct ClientCall {
    span: Span,
    started: Instant,
    tool: String,
    transport: &'static str,
    protocol: Option<String>,
}

impl ClientCall {
    /// Opens the span (a child of the current one: the tool's `execute_tool` span) when a
    /// subscriber wants it or the duration metric.
    pub(crate) fn open(tool: &str, peer: Peer<'_>) -> Option<ClientCall> {
        let spans = tracing::level_enabled!(Level::INFO)
            && tracing::enabled!(target: "toolgroup_mcp", Level::INFO);
        let metrics = tracing::enabled!(target: METRICS_TARGET, Level::INFO);
        if !spans && !metrics {
            return None;
        }
        Some(Self::open_slow(tool, peer))
    }

    #[inline(never)]
    fn open_slow(tool: &str, peer: Peer<'_>) -> ClientCall {
        let (address, port) = peer.url.and_then(address_of).unzip();
        let span = tracing::info_span!(
            target: "toolgroup_mcp",
            "mcp_client",
            otel.name = format!("tools/call {tool}"),
            otel.kind = "client",
            otel.status_code = Empty,
            otel.status_description = Empty,
            mcp.method.name = "tools/call",
            mcp.protocol.version = peer.protocol.as_deref(),
            jsonrpc.request.id = Empty,
            network.transport = peer.transport,
            network.protocol.name = peer.url.map(|_| "http"),
            server.address = address.as_deref(),
            server.port = port,
            gen_ai.operation.name = "execute_tool",
            gen_ai.tool.name = tool,
            error.type = Empty,
            rpc.response.status_code = Empty,
        );
        ClientCall {
            span,
            started: Instant::now(),
            tool: tool.to_owned(),
            transport: peer.transport,
            protocol: peer.protocol,
        }
    }

    pub(crate) fn span(&self) -> &Span {
        &self.span
    }

    /// Writes the span's trace context into the request's `_meta` (the `otel` feature).
    pub(crate) fn inject(&self, params: &mut CallToolRequestParams) {
        #[cfg(feature = "otel")]
        {
            let meta = params.meta.get_or_insert_with(Default::default);
            super::propagation::inject(&self.span, meta);
        }
        #[cfg(not(feature = "otel"))]
        let _ = params;
    }

    pub(crate) fn sent(&self, id: &RequestId) {
        self.span
            .record("jsonrpc.request.id", tracing::field::display(id));
    }

    /// Records how the call ended and its duration (`mcp.client.operation.duration`).
    pub(crate) fn finish(self, ending: Ending<'_>) {
        let (error_type, code, message) = match ending {
            Ending::Answered { is_error: false } => (None, None, None),
            Ending::Answered { is_error: true } => (Some("tool_error".to_owned()), None, None),
            Ending::Refused { code, message } => (
                Some(code.to_string()),
                Some(code.to_string()),
                Some(message),
            ),
            Ending::Failed(kind) => (Some(kind.to_owned()), None, None),
        };
        if !self.span.is_disabled() {
            if let Some(error_type) = &error_type {
                self.span.record("error.type", error_type.as_str());
                self.span.record("otel.status_code", "error");
            }
            if let Some(code) = &code {
                self.span.record("rpc.response.status_code", code.as_str());
            }
            if let Some(message) = message {
                self.span.record(
                    "otel.status_description",
                    status_description(message).as_str(),
                );
            }
        }
        tracing::event!(
            target: METRICS_TARGET,
            Level::INFO,
            histogram.mcp.client.operation.duration = self.started.elapsed().as_secs_f64(),
            "mcp.method.name" = "tools/call",
            "mcp.protocol.version" = self.protocol.as_deref(),
            "network.transport" = self.transport,
            "gen_ai.tool.name" = self.tool.as_str(),
            "error.type" = error_type.as_deref(),
            "rpc.response.status_code" = code.as_deref(),
        );
    }
}

/// The host and port of an HTTP URL (the scheme's default port when none is written).
fn address_of(url: &str) -> Option<(String, u16)> {
    let uri: http::Uri = url.parse().ok()?;
    let host = uri.host()?.trim_start_matches('[').trim_end_matches(']');
    let port = uri.port_u16().unwrap_or(match uri.scheme_str() {
        Some("https") => 443,
        _ => 80,
    });
    Some((host.to_owned(), port))
}
