//! Following a task a remote server started for a `tools/call` (the
//! `io.modelcontextprotocol/tasks` extension, SEP-2663, as rmcp 3.11 implements it): polling
//! `tasks/get`, passing status messages on as progress, answering `input_required` with
//! `tasks/update`, cancelling with `tasks/cancel`, and its terminal status as the call's result.
//! Task answers are read from their JSON here, so that a malformed one is an error result that
//! says what is wrong without quoting it.

use std::collections::HashSet;
use std::time::Duration;

use rmcp::model::{
    CancelTaskParams, ClientRequest, ErrorCode, GetTaskParams, GetTaskRequest,
    ProgressNotificationParam, UpdateTaskParams,
};
use rmcp::service::ServiceError;
use rmcp::{Peer, RoleClient};
use serde_json::{Map, Value};
use tokio::sync::mpsc;
use toolgroup_core::CallResult;

use super::{Call, Deadline, Done, End, InFlight, cancelled, failure_kind};
use crate::client::connection::Inner;
use crate::client::convert;
use crate::client::error::seconds;
use crate::client::input;

/// The poll interval when the server suggests none, and the bounds a suggestion is clamped to.
const POLL_DEFAULT: Duration = Duration::from_secs(1);
const POLL_MIN: Duration = Duration::from_millis(100);
const POLL_MAX: Duration = Duration::from_secs(30);
/// A longer task id is refused: it would go back to the server in every request.
const MAX_TASK_ID: usize = 1024;
/// How long the `tasks/cancel` of a task left behind may take, on its own task.
const CANCEL_PATIENCE: Duration = Duration::from_secs(30);

/// What a `CreateTaskResult` says of the new task.
pub(super) struct Snapshot {
    id: String,
    message: Option<String>,
    poll: Option<u64>,
    ttl: Option<u64>,
}

/// A `CreateTaskResult`'s task, or `None` when it is not one (no string `taskId` and
/// `status`, or a field of the wrong type). Its status is not acted on: the result of a task
/// that finished at once comes with the first `tasks/get`.
pub(super) fn created(value: &Value) -> Option<Snapshot> {
    let id = value.get("taskId")?.as_str()?.to_owned();
    value.get("status")?.as_str()?;
    Some(Snapshot {
        id,
        message: optional(value, "statusMessage", Value::as_str)?.map(str::to_owned),
        poll: optional(value, "pollIntervalMs", Value::as_u64)?,
        ttl: optional(value, "ttlMs", Value::as_u64)?,
    })
}

/// The field `key`, absent or `null` as `None`; `None` outside when it has another type.
fn optional<'a, T>(
    value: &'a Value,
    key: &str,
    read: fn(&'a Value) -> Option<T>,
) -> Option<Option<T>> {
    match value.get(key) {
        None | Some(Value::Null) => Some(None),
        Some(v) => read(v).map(Some),
    }
}

/// A task's status with its payload, as `tasks/get` answers it.
enum State {
    Working,
    InputRequired(Map<String, Value>),
    Completed(Value),
    Failed(Map<String, Value>),
    Cancelled,
}

/// One `tasks/get` answer.
struct Polled {
    state: State,
    status: String,
    message: Option<String>,
    poll: Option<u64>,
    ttl: Option<u64>,
}

/// A `tasks/get` answer about the task `id`, or what is wrong with it.
fn polled(value: &Value, id: &str) -> Result<Polled, &'static str> {
    const NOT_A_TASK: &str = "something that is not a task";
    match value.get("taskId").and_then(Value::as_str) {
        Some(answered) if answered == id => {}
        Some(_) => return Err("the state of another task"),
        None => return Err(NOT_A_TASK),
    }
    let status = value
        .get("status")
        .and_then(Value::as_str)
        .ok_or(NOT_A_TASK)?;
    let payload = |key: &str| value.get(key).filter(|v| v.is_object());
    let state = match status {
        "working" => State::Working,
        "input_required" => State::InputRequired(
            payload("inputRequests")
                .and_then(Value::as_object)
                .ok_or("an `input_required` task without its `inputRequests`")?
                .clone(),
        ),
        "completed" => State::Completed(
            payload("result")
                .ok_or("a `completed` task without its `result`")?
                .clone(),
        ),
        "failed" => State::Failed(
            payload("error")
                .and_then(Value::as_object)
                .ok_or("a `failed` task without its `error`")?
                .clone(),
        ),
        "cancelled" => State::Cancelled,
        _ => return Err("a task status the tasks extension does not define"),
    };
    Ok(Polled {
        state,
        status: status.to_owned(),
        message: optional(value, "statusMessage", Value::as_str)
            .ok_or(NOT_A_TASK)?
            .map(str::to_owned),
        poll: optional(value, "pollIntervalMs", Value::as_u64).ok_or(NOT_A_TASK)?,
        ttl: optional(value, "ttlMs", Value::as_u64).ok_or(NOT_A_TASK)?,
    })
}

/// The wait before the next `tasks/get`: the server's suggestion, clamped, and at most half
/// the call's timeout, so that a quiet task is asked for news before the timeout ends it.
fn interval(poll: Option<u64>, timeout: Duration) -> Duration {
    let suggested = poll.map_or(POLL_DEFAULT, |ms| {
        Duration::from_millis(ms).clamp(POLL_MIN, POLL_MAX)
    });
    suggested.min((timeout / 2).max(POLL_MIN))
}

/// A followed task: unless [`finish`](Self::finish)ed, dropping it sends `tasks/cancel` (on
/// its own task, best effort, as [`InFlight`] sends `notifications/cancelled`).
struct Guard {
    peer: Peer<RoleClient>,
    id: Option<String>,
}

impl Guard {
    /// The task ended, or the server no longer knows it: nothing to cancel.
    fn finish(&mut self) {
        self.id = None;
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        if let Some(id) = self.id.take()
            && let Ok(runtime) = tokio::runtime::Handle::try_current()
        {
            let peer = self.peer.clone();
            runtime.spawn(async move {
                let cancel = peer.cancel_task(CancelTaskParams::new(id));
                let _ = tokio::time::timeout(CANCEL_PATIENCE, cancel).await;
            });
        }
    }
}

/// Why the wait for the server stopped.
enum Stop {
    Cancelled,
    TimedOut,
}

/// Follow the task `seed` until it ends, the call is cancelled or it times out (the timeout
/// starts again at each change of status or status message, each progress report and each
/// answer of the user). `progress` and `in_flight` still route the `tools/call`'s progress.
pub(super) async fn follow(
    inner: &Inner,
    call: &Call<'_>,
    seed: Snapshot,
    progress: mpsc::UnboundedReceiver<ProgressNotificationParam>,
    in_flight: InFlight,
) -> Done {
    let peer = call.conn.service.peer().clone();
    let len = seed.id.len();
    let guard = Guard {
        peer: peer.clone(),
        id: Some(seed.id.clone()),
    };
    if len == 0 || len > MAX_TASK_ID {
        // The guard asks the server to cancel the task nobody will follow.
        return Done::failed(
            "_OTHER",
            CallResult::error(format!(
                "`{}` failed: the MCP server `{}` started a task with an id of {len} bytes (this client accepts 1 to {MAX_TASK_ID}); it was asked to cancel it. Retrying is unlikely to help.",
                call.names.shown, inner.server.label
            )),
        );
    }
    let mut follower = Follower {
        inner,
        call,
        peer,
        guard,
        progress,
        _in_flight: in_flight,
        deadline: Deadline::new(call.timeout),
        reports: 0,
    };
    let done = follower.run(seed).await;
    // Reports read before the task ended still reach the caller before the call returns.
    while let Ok(p) = follower.progress.try_recv() {
        call.report(p.progress, p.total, p.message.as_deref());
    }
    done
}

struct Follower<'a, 'c> {
    inner: &'a Inner,
    call: &'a Call<'c>,
    peer: Peer<RoleClient>,
    guard: Guard,
    progress: mpsc::UnboundedReceiver<ProgressNotificationParam>,
    _in_flight: InFlight,
    deadline: Deadline,
    /// Status messages passed on so far: each goes out as that many steps done.
    reports: u32,
}

impl Follower<'_, '_> {
    async fn run(&mut self, seed: Snapshot) -> Done {
        let name = self.call.names.shown;
        let server = self.inner.server.label.clone();
        let id = seed.id;
        let timeout = self.call.timeout;
        let mut poll = interval(seed.poll, timeout);
        let mut ttl = seed.ttl;
        let mut last = (String::new(), seed.message);
        if let Some(message) = last.1.clone() {
            self.say(&message);
        }
        // Input requests answered already: `tasks/update` is acknowledged before the task
        // shows the answer, so the next `tasks/get` may still list them.
        let mut answered = HashSet::new();
        loop {
            if let Err(stop) = self.wait(tokio::time::sleep(poll)).await {
                return self.stopped(stop);
            }
            let peer = self.peer.clone();
            let request =
                ClientRequest::GetTaskRequest(GetTaskRequest::new(GetTaskParams::new(id.clone())));
            let answer = match self.wait(peer.send_request(request)).await {
                Ok(answer) => answer,
                Err(stop) => return self.stopped(stop),
            };
            let value = match answer {
                Ok(result) => serde_json::to_value(&result).unwrap_or(Value::Null),
                Err(e) => return self.refused(e, "tasks/get", ttl).await,
            };
            let polled = match polled(&value, &id) {
                Ok(polled) => polled,
                Err(what) => {
                    return Done::failed(
                        "_OTHER",
                        CallResult::error(format!(
                            "`{name}` failed: the MCP server `{server}` answered `tasks/get` with {what}; the task was cancelled. Retrying is unlikely to help."
                        )),
                    );
                }
            };
            poll = interval(polled.poll, timeout);
            ttl = polled.ttl;
            let now = (polled.status, polled.message);
            if now != last {
                self.deadline.reset();
                if now.1 != last.1
                    && let Some(message) = &now.1
                {
                    self.say(message);
                }
                last = now;
            }
            match polled.state {
                State::Working => {}
                State::InputRequired(requests) => {
                    // The user's time to answer is not the server's: no timeout meanwhile.
                    let skip = |key: &str| answered.contains(key);
                    let asked = tokio::select! {
                        asked = input::fulfil(&requests, self.call.asker, skip) => asked,
                        () = self.call.cancel.cancelled() => return self.stopped(Stop::Cancelled),
                    };
                    let responses = match asked {
                        Ok(responses) => responses,
                        // The guard cancels the task that waits for the answer.
                        Err(refusal) => {
                            return Done::answered(CallResult::error(refusal.text(name, &server)));
                        }
                    };
                    self.deadline.reset();
                    if responses.is_empty() {
                        continue;
                    }
                    answered.extend(responses.keys().cloned());
                    let update = UpdateTaskParams::new(id.clone(), responses.into_iter().collect());
                    let peer = self.peer.clone();
                    match self.wait(peer.update_task(update)).await {
                        Ok(Ok(())) => {}
                        Ok(Err(e)) => return self.refused(e, "tasks/update", ttl).await,
                        Err(stop) => return self.stopped(stop),
                    }
                    // The answer may be all the task waited for.
                    poll = POLL_MIN;
                }
                State::Completed(result) => {
                    self.guard.finish();
                    return match serde_json::from_value::<rmcp::model::CallToolResult>(result) {
                        Ok(result) => Done::answered(convert::result(result)),
                        Err(_) => Done::failed(
                            "_OTHER",
                            CallResult::error(format!(
                                "`{name}` failed: its task on the MCP server `{server}` completed with something that is not a tool result. Retrying is unlikely to help."
                            )),
                        ),
                    };
                }
                State::Failed(error) => {
                    self.guard.finish();
                    return failed(name, &server, &error);
                }
                State::Cancelled => {
                    self.guard.finish();
                    return Done::failed(
                        "cancelled",
                        CallResult::error(format!(
                            "`{name}` did not finish: the MCP server `{server}` cancelled its task."
                        )),
                    );
                }
            }
        }
    }

    /// Pass a status message on as progress.
    fn say(&mut self, message: &str) {
        self.reports += 1;
        self.call
            .report(f64::from(self.reports), None, Some(message));
    }

    /// Wait for `future`, passing progress reports on, until the call is cancelled or times
    /// out.
    async fn wait<F: Future>(&mut self, future: F) -> Result<F::Output, Stop> {
        tokio::pin!(future);
        loop {
            tokio::select! {
                biased;
                out = &mut future => return Ok(out),
                () = self.call.cancel.cancelled() => return Err(Stop::Cancelled),
                () = self.deadline.expired() => return Err(Stop::TimedOut),
                Some(p) = self.progress.recv() => {
                    self.call.report(p.progress, p.total, p.message.as_deref());
                    self.deadline.reset();
                }
            }
        }
    }

    /// The call stopped waiting: the guard cancels the task.
    fn stopped(&self, stop: Stop) -> Done {
        let name = self.call.names.shown;
        match stop {
            Stop::Cancelled => Done::failed("cancelled", cancelled(name)),
            Stop::TimedOut => Done::failed(
                "timeout",
                self.inner.timed_out(name, self.call.timeout, true),
            ),
        }
    }

    /// A task request (`method`) failed. `-32602` (invalid params) is how the extension
    /// says the server does not know the task: it expired or was deleted.
    async fn refused(&mut self, error: ServiceError, method: &str, ttl: Option<u64>) -> Done {
        let name = self.call.names.shown;
        let server = &self.inner.server.label;
        let e = match error {
            ServiceError::McpError(e) => e,
            ServiceError::UnexpectedResponse => {
                return Done::failed(
                    "_OTHER",
                    CallResult::error(format!(
                        "`{name}` failed: the MCP server `{server}` answered `{method}` with something this client cannot read; the task was cancelled. Retrying is unlikely to help."
                    )),
                );
            }
            other => {
                let kind = failure_kind(&other);
                let result = self.inner.failed(self.call.conn, name, other, true).await;
                return Done::failed(kind, result);
            }
        };
        let message = crate::echo(&e.message, 300);
        let ending = End::Refused {
            code: e.code.0,
            message: e.message.to_string(),
        };
        let text = if e.code == ErrorCode::INVALID_PARAMS {
            self.guard.finish();
            let lived = ttl
                .map(|ms| {
                    format!(
                        " (its time to live was {})",
                        seconds(Duration::from_millis(ms))
                    )
                })
                .unwrap_or_default();
            format!(
                "`{name}` did not finish: the MCP server `{server}` no longer knows its task (JSON-RPC error {}: {message}): it expired{lived} or was deleted. You may retry.",
                e.code.0
            )
        } else {
            format!(
                "`{name}` failed: the MCP server `{server}` refused `{method}` for its task (JSON-RPC error {}): {message}; the task was cancelled. Retrying is unlikely to help.",
                e.code.0
            )
        };
        Done {
            result: CallResult::error(text),
            ending,
        }
    }
}

/// The result of a task that failed with the JSON-RPC `error`.
fn failed(name: &str, server: &str, error: &Map<String, Value>) -> Done {
    let code = error
        .get("code")
        .and_then(Value::as_i64)
        .and_then(|c| i32::try_from(c).ok());
    let message = error.get("message").and_then(Value::as_str);
    let text = format!(
        "`{name}` failed: its task on the MCP server `{server}` failed ({}): {}.",
        code.map_or("no JSON-RPC error code".to_owned(), |c| format!(
            "JSON-RPC error {c}"
        )),
        message.map_or("no message".to_owned(), |m| crate::echo(m, 500))
    );
    let result = CallResult::error(text);
    match code {
        Some(code) => Done {
            result,
            ending: End::Refused {
                code,
                message: message.unwrap_or_default().to_owned(),
            },
        },
        None => Done::failed("_OTHER", result),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn task_answers_are_read_or_refused_with_a_reason() {
        let seed = created(
            &json!({"resultType": "task", "taskId": "t1", "status": "working",
            "ttlMs": null, "pollIntervalMs": 250, "createdAt": "", "lastUpdatedAt": ""}),
        )
        .unwrap();
        assert_eq!(
            (seed.id.as_str(), seed.poll, seed.ttl),
            ("t1", Some(250), None)
        );
        assert!(created(&json!({"taskId": 7, "status": "working"})).is_none());
        assert!(
            created(&json!({"taskId": "t", "status": "working", "pollIntervalMs": "soon"}))
                .is_none()
        );

        let ok = |v: Value| polled(&v, "t1").map(|p| p.status);
        assert_eq!(
            ok(json!({"taskId": "t1", "status": "working"})),
            Ok("working".to_owned())
        );
        assert_eq!(
            ok(json!({"taskId": "t2", "status": "working"})),
            Err("the state of another task")
        );
        assert_eq!(
            ok(json!({"taskId": "t1", "status": "completed"})),
            Err("a `completed` task without its `result`")
        );
        assert_eq!(
            ok(json!({"taskId": "t1", "status": "\u{1b}[31mdone"})),
            Err("a task status the tasks extension does not define")
        );
        assert_eq!(
            ok(json!({"hello": "world"})),
            Err("something that is not a task")
        );
    }

    #[test]
    fn poll_intervals_are_clamped_and_within_half_the_timeout() {
        let minute = Duration::from_secs(60);
        assert_eq!(interval(None, minute), POLL_DEFAULT);
        assert_eq!(interval(Some(0), minute), POLL_MIN);
        assert_eq!(interval(Some(250), minute), Duration::from_millis(250));
        assert_eq!(interval(Some(u64::MAX), minute), POLL_MAX);
        assert_eq!(
            interval(Some(5000), Duration::from_secs(2)),
            Duration::from_secs(1)
        );
        assert_eq!(interval(None, Duration::from_millis(50)), POLL_MIN);
    }

    #[test]
    fn a_failed_task_names_the_error_without_quoting_much() {
        let long = "x".repeat(2000);
        let done = failed(
            "t",
            "s",
            json!({"code": -32603, "message": long})
                .as_object()
                .unwrap(),
        );
        let text = done.result.text_joined();
        assert!(text.starts_with(
            "`t` failed: its task on the MCP server `s` failed (JSON-RPC error -32603): xxx"
        ));
        assert!(text.len() < 600, "{}", text.len());
        let done = failed("t", "s", &Map::new());
        assert_eq!(
            done.result.text_joined(),
            "`t` failed: its task on the MCP server `s` failed (no JSON-RPC error code): no message."
        );
    }
}
