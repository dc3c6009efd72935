//! One `tools/call`: sending it, following its progress, cancelling it, and turning its
//! answer or failure into a call result.

use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{
    CallToolRequest, CallToolRequestParams, CancelledNotificationParam, ClientRequest,
    ProgressToken, RequestId, ServerResult,
};
use rmcp::service::{PeerRequestOptions, ServiceError};
use serde_json::{Map, Value};
use tokio_util::sync::CancellationToken;
use toolgroup_core::CallResult;

use tracing::Instrument as _;

use super::connection::{Connection, Inner};
use super::convert;
use super::error::seconds;
use super::list::RemoteTool;
use super::options::OnRemoteProgress;
use super::server::Endpoint;
use crate::telemetry::client::{ClientCall, Ending, Peer};

/// A sent request: unless [`finish`](Self::finish)ed, dropping it sends
/// `notifications/cancelled` (on its own task, so that the caller returns at once: after a
/// cancellation, a timeout, or when the call's future itself is dropped); either way it stops
/// routing the request's progress.
struct InFlight {
    conn: Arc<Connection>,
    id: Option<RequestId>,
    token: Option<ProgressToken>,
    reason: &'static str,
}

impl InFlight {
    /// The request is answered: nothing to cancel.
    fn finish(&mut self) {
        self.id = None;
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        if let Some(token) = self.token.take() {
            self.conn.progress.unsubscribe(&token);
        }
        if let Some(id) = self.id.take()
            && let Ok(runtime) = tokio::runtime::Handle::try_current()
        {
            let peer = self.conn.service.peer().clone();
            let reason = self.reason.to_owned();
            // Best effort: a server that went away needs no cancellation.
            runtime.spawn(async move {
                let _ = peer
                    .notify_cancelled(CancelledNotificationParam::new(Some(id), Some(reason)))
                    .await;
            });
        }
    }
}

enum Outcome {
    Response(Box<Result<ServerResult, ServiceError>>),
    Cancelled,
    TimedOut,
}

/// A remote tool's two names: the one a call sends, and the one error texts show (the name
/// the caller used: the exposed, perhaps prefixed, name when the call came through a group).
#[derive(Clone, Copy)]
pub(super) struct Names<'a> {
    pub(super) remote: &'a str,
    pub(super) shown: &'a str,
}

impl Inner {
    /// Send one `tools/call` and wait for its answer, the cancellation or the timeout; every
    /// progress report received before the answer is passed on before this returns.
    pub(super) async fn send(
        &self,
        conn: &Arc<Connection>,
        names: Names<'_>,
        arguments: Map<String, Value>,
        timeout: Duration,
        cancel: &CancellationToken,
        progress: Option<OnRemoteProgress<'_>>,
    ) -> CallResult {
        let traced = ClientCall::open(names.remote, self.peer(conn));
        let Some(traced) = traced else {
            return self
                .send_traced(conn, names, arguments, timeout, cancel, progress, None)
                .await;
        };
        let span = traced.span().clone();
        self.send_traced(
            conn,
            names,
            arguments,
            timeout,
            cancel,
            progress,
            Some(traced),
        )
        .instrument(span)
        .await
    }

    /// What the client span says of the server.
    fn peer(&self, conn: &Connection) -> Peer<'_> {
        let url = match &self.server.endpoint {
            Endpoint::Http { url, .. } => Some(url.as_str()),
            Endpoint::Stdio { .. } => None,
        };
        Peer {
            transport: if url.is_some() { "tcp" } else { "pipe" },
            url,
            protocol: conn
                .service
                .peer()
                .peer_info()
                .map(|info| info.protocol_version.as_str().to_owned()),
        }
    }

    #[allow(clippy::too_many_arguments)]
    async fn send_traced(
        &self,
        conn: &Arc<Connection>,
        names: Names<'_>,
        arguments: Map<String, Value>,
        timeout: Duration,
        cancel: &CancellationToken,
        progress: Option<OnRemoteProgress<'_>>,
        traced: Option<ClientCall>,
    ) -> CallResult {
        let name = names.shown;
        let mut params =
            CallToolRequestParams::new(names.remote.to_owned()).with_arguments(arguments);
        if let Some(traced) = &traced {
            traced.inject(&mut params);
        }
        let request = ClientRequest::CallToolRequest(CallToolRequest::new(params));
        let handle = match conn
            .service
            .peer()
            .send_request_with_option(request, PeerRequestOptions::no_options())
            .await
        {
            Ok(handle) => handle,
            Err(e) => {
                if let Some(traced) = traced {
                    traced.finish(Ending::Failed(failure_kind(&e)));
                }
                return self.failed(conn, name, e, false).await;
            }
        };
        if let Some(traced) = &traced {
            traced.sent(&handle.id);
        }
        // Subscribed even without an observer, so that this call's reports do not linger
        // among the early ones.
        let mut receiver = conn.progress.subscribe(&handle.progress_token);
        let mut in_flight = InFlight {
            conn: conn.clone(),
            id: Some(handle.id.clone()),
            token: Some(handle.progress_token.clone()),
            reason: "the caller stopped waiting",
        };
        let response = handle.await_response();
        tokio::pin!(response);
        let deadline = tokio::time::sleep(timeout);
        tokio::pin!(deadline);
        let report = |p: rmcp::model::ProgressNotificationParam| {
            if let Some(progress) = progress {
                progress(p.progress, p.total, p.message.as_deref());
            }
        };
        let outcome = loop {
            tokio::select! {
                biased;
                r = &mut response => break Outcome::Response(Box::new(r)),
                () = cancel.cancelled() => break Outcome::Cancelled,
                () = &mut deadline => break Outcome::TimedOut,
                Some(p) = receiver.recv() => report(p),
            }
        };
        // The reports read before the response are in the channel already (they are routed
        // as the connection reads them, in wire order).
        while let Ok(p) = receiver.try_recv() {
            report(p);
        }
        if let Some(traced) = traced {
            traced.finish(match &outcome {
                Outcome::Response(response) => match &**response {
                    Ok(ServerResult::CallToolResult(result)) => Ending::Answered {
                        is_error: result.is_error == Some(true),
                    },
                    Ok(_) => Ending::Answered { is_error: false },
                    Err(ServiceError::McpError(e)) => Ending::Refused {
                        code: e.code.0,
                        message: &e.message,
                    },
                    Err(e) => Ending::Failed(failure_kind(e)),
                },
                Outcome::Cancelled => Ending::Failed("cancelled"),
                Outcome::TimedOut => Ending::Failed("timeout"),
            });
        }
        match outcome {
            Outcome::Response(response) => {
                in_flight.finish();
                match *response {
                    Ok(result) => answer(name, result),
                    Err(e) => self.failed(conn, name, e, true).await,
                }
            }
            Outcome::Cancelled => {
                in_flight.reason = "cancelled by the application";
                cancelled(name)
            }
            Outcome::TimedOut => {
                in_flight.reason = "timed out";
                CallResult::error(format!(
                    "`{name}` timed out after {} and was cancelled on the MCP server `{}`; it may have had some effect. You may retry, perhaps with a smaller request.",
                    seconds(timeout),
                    self.server.label
                ))
            }
        }
    }

    /// The error result of a request that failed; a lost connection is forgotten.
    async fn failed(
        &self,
        conn: &Connection,
        name: &str,
        error: ServiceError,
        sent: bool,
    ) -> CallResult {
        let server = &self.server.label;
        match error {
            ServiceError::McpError(e) => CallResult::error(format!(
                "`{name}` failed: the MCP server `{server}` refused the call (JSON-RPC error {}): {}. Check the tool's name and arguments before retrying.",
                e.code.0,
                crate::echo(&e.message, 500)
            )),
            ServiceError::TransportSend(_) | ServiceError::TransportClosed => {
                let detail = crate::echo(&error.to_string(), 300);
                self.lost(conn.generation, &detail).await;
                let ran = if sent {
                    "the tool may or may not have run"
                } else {
                    "the call was not sent"
                };
                CallResult::error(format!(
                    "`{name}` failed: the connection to the MCP server `{server}` was lost ({detail}); {ran}. The client reconnects at the next call: you may retry."
                ))
            }
            ServiceError::Cancelled { reason } => CallResult::error(format!(
                "`{name}` was cancelled by the MCP server `{server}`{}",
                reason
                    .map(|r| format!(": {}", crate::echo(&r, 300)))
                    .unwrap_or_default()
            )),
            ServiceError::Timeout { timeout } => CallResult::error(format!(
                "`{name}` timed out after {} on the MCP server `{server}`. You may retry.",
                seconds(timeout)
            )),
            other => CallResult::error(format!(
                "`{name}` failed: the MCP server `{server}` answered something this client does not understand ({}). Retrying is unlikely to help.",
                crate::echo(&other.to_string(), 300)
            )),
        }
    }
}

/// `error.type` of a request that got no answer.
fn failure_kind(error: &ServiceError) -> &'static str {
    match error {
        ServiceError::TransportSend(_) | ServiceError::TransportClosed => "transport_closed",
        ServiceError::Cancelled { .. } => "cancelled",
        ServiceError::Timeout { .. } => "timeout",
        _ => "_OTHER",
    }
}

/// The call's result from the server's answer.
fn answer(name: &str, result: ServerResult) -> CallResult {
    match result {
        ServerResult::CallToolResult(result) => convert::result(result),
        // `{}` (no content) parses as an empty result.
        ServerResult::EmptyResult(_) => CallResult::empty(),
        ServerResult::CustomResult(custom) => {
            match serde_json::from_value::<rmcp::model::CallToolResult>(custom.0) {
                Ok(result) => convert::result(result),
                Err(_) => CallResult::error(format!(
                    "`{name}` failed: the MCP server answered with something that is not a tool result. Retrying is unlikely to help."
                )),
            }
        }
        ServerResult::InputRequiredResult(_) => CallResult::error(format!(
            "`{name}` did not finish: it asked for input from the user, which this client cannot provide."
        )),
        ServerResult::CreateTaskResult(_) => CallResult::error(format!(
            "`{name}` did not finish: the MCP server started it as a background task, which this client does not follow."
        )),
        _ => CallResult::error(format!(
            "`{name}` failed: the MCP server answered with something that is not a tool result. Retrying is unlikely to help."
        )),
    }
}

pub(super) fn cancelled(name: &str) -> CallResult {
    CallResult::error(format!(
        "`{name}` was cancelled by the application before it finished"
    ))
}

/// A tool the caller knows under `shown` that the server's current list lacks.
pub(super) fn no_longer_listed(shown: &str, server: &str) -> CallResult {
    CallResult::error(format!(
        "`{shown}` was not run: the MCP server `{server}` no longer lists it; list the tools again"
    ))
}

pub(super) fn unknown_tool<'a>(
    name: &str,
    tools: impl IntoIterator<Item = &'a RemoteTool>,
) -> CallResult {
    let mut text = format!(
        "unknown tool `{}`: the MCP server does not list it.",
        crate::echo(name, 64)
    );
    if let Some(guess) = crate::did_you_mean(name, tools.into_iter().map(|t| t.name.as_str())) {
        text.push_str(&format!(" Did you mean `{guess}`?"));
    }
    CallResult::error(text)
}
