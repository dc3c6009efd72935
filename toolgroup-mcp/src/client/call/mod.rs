//! One `tools/call`: sending it, following its progress, cancelling it, answering the server's
//! input requests (the rounds of a multi-round-trip call, SEP-2322) or following the task it
//! starts ([`task`]), and turning its answer or failure into a call result.

mod task;

use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{
    CallToolRequest, CallToolRequestParams, CancelledNotificationParam, ClientRequest,
    DEFAULT_MRTR_MAX_ROUNDS, ProgressNotificationParam, ProgressToken, RequestId, ServerResult,
};
use rmcp::service::{PeerRequestOptions, ServiceError};
use serde_json::{Map, Value};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use toolgroup_core::CallResult;
use toolgroup_core::context::UserInput;

use tracing::Instrument as _;

use super::connection::{Connection, Inner};
use super::convert;
use super::error::seconds;
use super::input;
use super::list::RemoteTool;
use super::options::OnRemoteProgress;
use super::server::Endpoint;
use crate::telemetry::client::{ClientCall, Ending, Peer};
use task::Snapshot;

/// A sent request: unless [`finish`](Self::finish)ed, dropping it sends
/// `notifications/cancelled` (on its own task, so that the caller returns at once: after a
/// cancellation, a timeout, or when the call's future itself is dropped); either way it stops
/// routing the request's progress.
pub(super) struct InFlight {
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

/// An answered `tools/call`, with what still routes its progress (a task's server may report
/// on the call's progress token while the task runs).
pub(super) struct Sent {
    result: ServerResult,
    pub(super) progress: mpsc::UnboundedReceiver<ProgressNotificationParam>,
    pub(super) in_flight: InFlight,
}

/// A remote tool's two names: the one a call sends, and the one error texts show (the name
/// the caller used: the exposed, perhaps prefixed, name when the call came through a group).
#[derive(Clone, Copy)]
pub(super) struct Names<'a> {
    pub(super) remote: &'a str,
    pub(super) shown: &'a str,
}

/// One call's settings, shared by its rounds and its task.
pub(super) struct Call<'a> {
    pub(super) conn: &'a Arc<Connection>,
    pub(super) names: Names<'a>,
    pub(super) timeout: Duration,
    pub(super) cancel: &'a CancellationToken,
    pub(super) progress: Option<OnRemoteProgress<'a>>,
    /// Who answers the server's questions: the server's asker, else the call's.
    pub(super) asker: Option<&'a UserInput>,
}

impl Call<'_> {
    pub(super) fn report(&self, done: f64, total: Option<f64>, message: Option<&str>) {
        if let Some(progress) = self.progress {
            progress(done, total, message);
        }
    }
}

/// How a call ended: its result, and what its client span records.
pub(super) struct Done {
    pub(super) result: CallResult,
    pub(super) ending: End,
}

/// [`Ending`], owned.
pub(super) enum End {
    Answered,
    Refused { code: i32, message: String },
    Failed(&'static str),
}

impl Done {
    pub(super) fn answered(result: CallResult) -> Done {
        Done {
            result,
            ending: End::Answered,
        }
    }

    pub(super) fn failed(kind: &'static str, result: CallResult) -> Done {
        Done {
            result,
            ending: End::Failed(kind),
        }
    }
}

/// The call's timeout, started again whenever the server shows the call is alive.
pub(super) struct Deadline {
    sleep: Pin<Box<tokio::time::Sleep>>,
    timeout: Duration,
}

impl Deadline {
    pub(super) fn new(timeout: Duration) -> Self {
        Deadline {
            sleep: Box::pin(tokio::time::sleep(timeout)),
            timeout,
        }
    }

    pub(super) fn reset(&mut self) {
        let now = tokio::time::Instant::now();
        // A timeout too far to represent is as good as none (`sleep` clamps it the same way).
        let at = now
            .checked_add(self.timeout)
            .unwrap_or_else(|| now + Duration::from_secs(86_400 * 365 * 30));
        self.sleep.as_mut().reset(at);
    }

    pub(super) async fn expired(&mut self) {
        self.sleep.as_mut().await;
    }
}

/// The server's answer to one `tools/call`, as the client acts on it.
enum Answer {
    Complete(CallResult),
    /// SEP-2322: answer `requests` (key -> request) and send the call again, echoing `state`.
    InputRequired {
        requests: Map<String, Value>,
        state: Option<String>,
    },
    /// SEP-2663: the server runs the call as a task.
    Task(Snapshot),
    /// The error result's text, after the tool's name.
    Unreadable(&'static str),
}

impl Inner {
    /// Run one call: send `tools/call`, answer the server's input requests and send it again,
    /// or follow its task, until a result, the cancellation or the timeout; every progress
    /// report received before the end is passed on before this returns.
    pub(super) async fn send(&self, call: &Call<'_>, arguments: Map<String, Value>) -> CallResult {
        let traced = ClientCall::open(call.names.remote, self.peer(call.conn));
        let run = self.run(call, arguments, traced.as_ref());
        let done = match &traced {
            Some(traced) => run.instrument(traced.span().clone()).await,
            None => run.await,
        };
        if let Some(traced) = traced {
            traced.finish(match &done.ending {
                End::Answered => Ending::Answered {
                    is_error: done.result.is_error,
                },
                End::Refused { code, message } => Ending::Refused {
                    code: *code,
                    message,
                },
                End::Failed(kind) => Ending::Failed(kind),
            });
        }
        done.result
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

    async fn run(
        &self,
        call: &Call<'_>,
        arguments: Map<String, Value>,
        traced: Option<&ClientCall>,
    ) -> Done {
        let name = call.names.shown;
        let server = &self.server.label;
        // For the server's own `elicitation/create` requests during the call.
        let _entered = call.conn.callers.enter(call.asker.cloned());
        let mut params =
            CallToolRequestParams::new(call.names.remote.to_owned()).with_arguments(arguments);
        if let Some(traced) = traced {
            traced.inject(&mut params);
        }
        let mut state_only = 0u32;
        for round in 1..=DEFAULT_MRTR_MAX_ROUNDS {
            let sent = match self.request(call, params.clone(), traced).await {
                Ok(sent) => sent,
                Err(done) => return done,
            };
            let (requests, state) = match answer(sent.result) {
                Answer::Complete(result) => return Done::answered(result),
                Answer::Unreadable(what) => {
                    return Done::failed(
                        "_OTHER",
                        CallResult::error(format!(
                            "`{name}` failed: the MCP server `{server}` answered with {what}. Retrying is unlikely to help."
                        )),
                    );
                }
                Answer::Task(snapshot) => {
                    return task::follow(self, call, snapshot, sent.progress, sent.in_flight).await;
                }
                Answer::InputRequired { requests, state } => (requests, state),
            };
            if round == DEFAULT_MRTR_MAX_ROUNDS {
                break;
            }
            if requests.is_empty() {
                // Only `requestState`: the server asks to be called again later (load
                // shedding), as rmcp's own client waits.
                let wait = Duration::from_millis((50u64 << state_only.min(3)).min(250));
                state_only += 1;
                tokio::select! {
                    () = tokio::time::sleep(wait) => {}
                    () = call.cancel.cancelled() => {
                        return Done::failed("cancelled", cancelled(name));
                    }
                }
            } else {
                state_only = 0;
            }
            let asked = tokio::select! {
                asked = input::fulfil(&requests, call.asker, |_| false) => asked,
                () = call.cancel.cancelled() => return Done::failed("cancelled", cancelled(name)),
            };
            let responses = match asked {
                Ok(responses) => responses,
                Err(refusal) => {
                    return Done::answered(CallResult::error(refusal.text(name, server)));
                }
            };
            params.input_responses =
                (!responses.is_empty()).then(|| responses.into_iter().collect());
            params.request_state = state;
        }
        Done::answered(CallResult::error(format!(
            "`{name}` did not finish: the MCP server `{server}` still asked for input after {DEFAULT_MRTR_MAX_ROUNDS} rounds. Retrying is unlikely to help."
        )))
    }

    /// Send one `tools/call` and wait for its answer, the cancellation or the timeout (which
    /// starts again at each progress report); every report received before the answer is
    /// passed on before this returns.
    async fn request(
        &self,
        call: &Call<'_>,
        params: CallToolRequestParams,
        traced: Option<&ClientCall>,
    ) -> Result<Sent, Done> {
        let conn = call.conn;
        let name = call.names.shown;
        let request = ClientRequest::CallToolRequest(CallToolRequest::new(params));
        let handle = match conn
            .service
            .peer()
            .send_request_with_option(request, PeerRequestOptions::no_options())
            .await
        {
            Ok(handle) => handle,
            Err(e) => {
                let kind = failure_kind(&e);
                return Err(Done::failed(kind, self.failed(conn, name, e, false).await));
            }
        };
        if let Some(traced) = traced {
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
        let mut deadline = Deadline::new(call.timeout);
        let report = |p: ProgressNotificationParam| {
            call.report(p.progress, p.total, p.message.as_deref());
        };
        let response = loop {
            tokio::select! {
                biased;
                r = &mut response => break r,
                () = call.cancel.cancelled() => {
                    in_flight.reason = "cancelled by the application";
                    return Err(Done::failed("cancelled", cancelled(name)));
                }
                () = deadline.expired() => {
                    in_flight.reason = "timed out";
                    return Err(Done::failed("timeout", self.timed_out(name, call.timeout, false)));
                }
                Some(p) = receiver.recv() => {
                    report(p);
                    deadline.reset();
                }
            }
        };
        // The reports read before the response are in the channel already (they are routed
        // as the connection reads them, in wire order).
        while let Ok(p) = receiver.try_recv() {
            report(p);
        }
        in_flight.finish();
        match response {
            Ok(result) => Ok(Sent {
                result,
                progress: receiver,
                in_flight,
            }),
            Err(ServiceError::McpError(e)) => {
                let ending = End::Refused {
                    code: e.code.0,
                    message: e.message.to_string(),
                };
                let result = self
                    .failed(conn, name, ServiceError::McpError(e), true)
                    .await;
                Err(Done { result, ending })
            }
            Err(e) => {
                let kind = failure_kind(&e);
                Err(Done::failed(kind, self.failed(conn, name, e, true).await))
            }
        }
    }

    /// The error result of a call that went `timeout` without news from the server (`task`:
    /// its task was cancelled too).
    pub(super) fn timed_out(&self, name: &str, timeout: Duration, task: bool) -> CallResult {
        CallResult::error(format!(
            "`{name}` timed out after {} without news from the MCP server `{}` and {} cancelled on it; it may have had some effect. You may retry, perhaps with a smaller request.",
            seconds(timeout),
            self.server.label,
            if task { "its task was" } else { "was" }
        ))
    }

    /// The error result of a request that failed; a lost connection is forgotten.
    pub(super) async fn failed(
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
pub(super) fn failure_kind(error: &ServiceError) -> &'static str {
    match error {
        ServiceError::TransportSend(_) | ServiceError::TransportClosed => "transport_closed",
        ServiceError::Cancelled { .. } => "cancelled",
        ServiceError::Timeout { .. } => "timeout",
        _ => "_OTHER",
    }
}

const NOT_A_RESULT: &str = "something that is not a tool result";

/// What the server's answer to a `tools/call` asks of the client. rmcp reads an answer into
/// the first variant of its union that fits, so one it could not read as an input request or
/// a task (an input request of a kind rmcp does not know, a malformed task) is read again here
/// by its `resultType`.
fn answer(result: ServerResult) -> Answer {
    match result {
        ServerResult::CallToolResult(result) => Answer::Complete(convert::result(result)),
        // `{}` (no content) parses as an empty result.
        ServerResult::EmptyResult(_) | ServerResult::TaskAckResult(_) => {
            Answer::Complete(CallResult::empty())
        }
        ServerResult::InputRequiredResult(result) => match serde_json::to_value(&result) {
            Ok(value) => input_required(&value),
            Err(_) => Answer::Unreadable(NOT_A_RESULT),
        },
        ServerResult::CreateTaskResult(result) => match serde_json::to_value(&result) {
            Ok(value) => created(&value),
            Err(_) => Answer::Unreadable(NOT_A_RESULT),
        },
        ServerResult::CustomResult(custom) => {
            match custom.0.get("resultType").and_then(Value::as_str) {
                Some("input_required") => input_required(&custom.0),
                Some("task") => created(&custom.0),
                _ => match serde_json::from_value::<rmcp::model::CallToolResult>(custom.0) {
                    Ok(result) => Answer::Complete(convert::result(result)),
                    Err(_) => Answer::Unreadable(NOT_A_RESULT),
                },
            }
        }
        _ => Answer::Unreadable(NOT_A_RESULT),
    }
}

/// An `input_required` answer: its `inputRequests` (an object, perhaps absent) and its
/// `requestState` (a string, perhaps absent; one of them must be there).
fn input_required(value: &Value) -> Answer {
    const BAD: &str = "an `input_required` result this client cannot read";
    let requests = match value.get("inputRequests") {
        None | Some(Value::Null) => None,
        Some(Value::Object(requests)) => Some(requests.clone()),
        Some(_) => return Answer::Unreadable(BAD),
    };
    let state = match value.get("requestState") {
        None | Some(Value::Null) => None,
        Some(Value::String(state)) => Some(state.clone()),
        Some(_) => return Answer::Unreadable(BAD),
    };
    if requests.is_none() && state.is_none() {
        return Answer::Unreadable(BAD);
    }
    Answer::InputRequired {
        requests: requests.unwrap_or_default(),
        state,
    }
}

fn created(value: &Value) -> Answer {
    match task::created(value) {
        Some(snapshot) => Answer::Task(snapshot),
        None => Answer::Unreadable("a task this client cannot read"),
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
