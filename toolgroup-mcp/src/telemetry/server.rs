//! The server span of one MCP request (kind `SERVER`) and the server's metrics.

use std::future::Future;
use std::time::Instant;

use rmcp::RoleServer;
use rmcp::model::ErrorData;
use rmcp::service::RequestContext;
use tracing::field::Empty;
use tracing::{Instrument as _, Level, Span};

use super::{METRICS_TARGET, OutcomeSlot, refusal, status_description};

/// What a request's span and metrics need once it has been answered.
struct ServerRequest {
    span: Span,
    started: Instant,
    method: &'static str,
    /// The tool of a `tools/call`, when the server knows it (a low-cardinality name).
    tool: Option<String>,
    transport: &'static str,
    protocol: Option<String>,
    outcome: OutcomeSlot,
}

/// The server span of one request, when a subscriber wants it or the metrics.
pub(crate) struct Traced(Option<ServerRequest>);

impl Traced {
    /// Opens the span of a `method` request (`None` inside when no subscriber wants it:
    /// nothing is gathered). `tool` is a `tools/call`'s name and whether it is one of the
    /// server's tools: an unknown name is kept out of the span's name.
    pub(crate) fn open(
        method: &'static str,
        tool: Option<(&str, bool)>,
        ctx: &mut RequestContext<RoleServer>,
    ) -> Traced {
        let spans = tracing::level_enabled!(Level::INFO)
            && tracing::enabled!(target: "toolgroup_mcp", Level::INFO);
        let metrics = tracing::enabled!(target: METRICS_TARGET, Level::INFO);
        if !spans && !metrics {
            return Traced(None);
        }
        Traced(Some(ServerRequest::open(method, tool, ctx)))
    }

    /// Records the URI of a `resources/read`.
    pub(crate) fn resource(&self, uri: &str) {
        if let Some(request) = &self.0 {
            request
                .span
                .record("mcp.resource.uri", crate::echo(uri, 256).as_str());
        }
    }

    /// Runs the request's handling in the span, then records how it was answered.
    /// `tool_error` says whether an answer is a tool's error result.
    ///
    /// The handling is boxed here, before any future holds it: rmcp awaits a handler's
    /// future inside a 2025-11-25 session's own task until the handshake is done, so that
    /// task is allocated at the size of the largest handler future and keeps it for the
    /// session's life. Boxed, each session's task holds a pointer, and a request's state
    /// lives only while the request runs.
    pub(crate) fn run<T>(
        self,
        handling: impl Future<Output = Result<T, ErrorData>>,
        tool_error: impl FnOnce(&T) -> bool,
    ) -> impl Future<Output = Result<T, ErrorData>> {
        let handling = Box::pin(handling);
        async move {
            let Some(request) = self.0 else {
                return handling.await;
            };
            let result = handling.instrument(request.span.clone()).await;
            request.finish(result.as_ref().map(tool_error));
            result
        }
    }
}

impl ServerRequest {
    #[inline(never)]
    fn open(
        method: &'static str,
        tool: Option<(&str, bool)>,
        ctx: &mut RequestContext<RoleServer>,
    ) -> ServerRequest {
        let (tool, tool_field) = match tool {
            Some((name, true)) => (Some(name.to_owned()), Some(name.to_owned())),
            Some((name, false)) => (None, Some(crate::echo(name, 64))),
            None => (None, None),
        };
        let http = http_facts(ctx);
        let transport = if http.is_some() { "tcp" } else { "pipe" };
        let protocol = ctx.protocol_version().map(|v| v.as_str().to_owned());
        let span = tracing::info_span!(
            target: "toolgroup_mcp",
            parent: None,
            "mcp_server",
            otel.name = match &tool {
                Some(tool) => format!("{method} {tool}"),
                None => method.to_owned(),
            },
            otel.kind = "server",
            otel.status_code = Empty,
            otel.status_description = Empty,
            mcp.method.name = method,
            mcp.protocol.version = protocol.as_deref(),
            mcp.session.id = Empty,
            jsonrpc.request.id = %ctx.id,
            network.transport = transport,
            network.protocol.name = Empty,
            network.protocol.version = Empty,
            gen_ai.operation.name = tool_field.as_ref().map(|_| "execute_tool"),
            gen_ai.tool.name = tool_field.as_deref(),
            mcp.resource.uri = Empty,
            error.type = Empty,
            rpc.response.status_code = Empty,
            toolgroup.outcome = Empty,
        );
        if let Some(http) = &http {
            span.record("network.protocol.name", "http");
            span.record("network.protocol.version", http.version);
            if let Some(session) = &http.session {
                span.record("mcp.session.id", session.as_str());
            }
        }
        #[cfg(feature = "otel")]
        super::propagation::adopt_remote_parent(&span, &ctx.meta);
        let outcome = OutcomeSlot::default();
        ctx.extensions.insert(outcome.clone());
        ServerRequest {
            span,
            started: Instant::now(),
            method,
            tool,
            transport,
            protocol,
            outcome,
        }
    }

    /// Records how the request was answered on its span, its duration as
    /// `mcp.server.operation.duration` and, for a refused tool call,
    /// `toolgroup.mcp.refused_calls`.
    fn finish(self, result: Result<bool, &ErrorData>) {
        let (error_type, code): (Option<String>, Option<String>) = match result {
            Err(error) => {
                let code = error.code.0.to_string();
                (Some(code.clone()), Some(code))
            }
            Ok(true) => (Some("tool_error".to_owned()), None),
            Ok(false) => (None, None),
        };
        let outcome = self.outcome.get();
        if !self.span.is_disabled() {
            if let Some(outcome) = outcome {
                self.span.record("toolgroup.outcome", outcome.as_str());
            }
            if let Some(error_type) = &error_type {
                self.span.record("error.type", error_type.as_str());
                self.span.record("otel.status_code", "error");
            }
            if let Some(code) = &code {
                self.span.record("rpc.response.status_code", code.as_str());
            }
            if let Err(error) = result {
                self.span.record(
                    "otel.status_description",
                    status_description(&error.message).as_str(),
                );
            }
        }
        let seconds = self.started.elapsed().as_secs_f64();
        tracing::event!(
            target: METRICS_TARGET,
            Level::INFO,
            histogram.mcp.server.operation.duration = seconds,
            "mcp.method.name" = self.method,
            "mcp.protocol.version" = self.protocol.as_deref(),
            "network.transport" = self.transport,
            "gen_ai.tool.name" = self.tool.as_deref(),
            "error.type" = error_type.as_deref(),
            "rpc.response.status_code" = code.as_deref(),
        );
        if let Some(reason) = outcome.and_then(refusal) {
            tracing::event!(
                target: METRICS_TARGET,
                Level::INFO,
                monotonic_counter.toolgroup.mcp.refused_calls = 1_u64,
                "toolgroup.refusal.reason" = reason,
                "network.transport" = self.transport,
            );
        }
    }
}

/// What the HTTP request carrying an MCP request says about it.
struct HttpFacts {
    version: &'static str,
    session: Option<String>,
}

#[cfg(feature = "http")]
fn http_facts(ctx: &RequestContext<RoleServer>) -> Option<HttpFacts> {
    let parts = ctx.extensions.get::<http::request::Parts>()?;
    let version = match parts.version {
        http::Version::HTTP_09 => "0.9",
        http::Version::HTTP_10 => "1.0",
        http::Version::HTTP_2 => "2",
        http::Version::HTTP_3 => "3",
        _ => "1.1",
    };
    // A session id is the server's own token (visible ASCII); anything else is not recorded.
    let session = parts
        .headers
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok())
        .filter(|v| v.len() <= 128)
        .map(str::to_owned);
    Some(HttpFacts { version, session })
}

#[cfg(not(feature = "http"))]
fn http_facts(_: &RequestContext<RoleServer>) -> Option<HttpFacts> {
    None
}
