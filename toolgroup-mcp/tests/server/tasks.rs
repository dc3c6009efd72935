//! Long-running calls as tasks (the Tasks extension, SEP-2663) and questions to the user on
//! 2026-07-28 (input requests, SEP-2322), driven by rmcp's own client over an in-process
//! stream: a task that reports progress and ends, one that is cancelled, one that asks its
//! user through the task's `input_required` status, plain results for clients that did not
//! declare the extension, `-32021` for a tool that requires it, and bad task ids.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, ClientCapabilities, ClientConfig,
    ElicitRequestParams, ElicitResult, ElicitationAction, ErrorData, GetTaskParams,
    ProtocolVersion, TaskPayload, TaskStatus, UpdateTaskParams,
};
use rmcp::service::{RequestContext, RunningService};
use rmcp::{ClientHandler, ClientLifecycleMode, ClientServiceExt, RoleClient, ServiceExt};
use serde_json::{Value, json};
use toolgroup::context::Question;
use toolgroup::prelude::*;
use toolgroup::{Session, Toolkit};
use toolgroup_mcp::{McpServer, MemoryTaskStore, Mode, TaskStore};

/// Write a report, reporting progress each step; runs until cancelled when `steps` is 0.
#[tool(task = "optional")]
async fn write_report(ctx: ToolContext<'_>, steps: u32) -> String {
    if steps == 0 {
        ctx.cancelled().await;
        return "stopped".to_owned();
    }
    for i in 0..steps {
        tokio::time::sleep(Duration::from_millis(20)).await;
        ctx.report(f64::from(i + 1), Some(f64::from(steps)), Some("writing"));
    }
    format!("a report in {steps} steps")
}

/// Archive everything, once the user agrees.
#[tool(task = "required")]
async fn archive_all(ctx: ToolContext<'_>) -> String {
    match ctx
        .ask(Question::confirm(
            "Archive everything?",
            "archive",
            "Archive",
        ))
        .await
    {
        Ok(answer) if answer.is_yes("archive") => "archived".to_owned(),
        Ok(_) => "kept".to_owned(),
        Err(e) => format!("could not ask: {e}"),
    }
}

/// Purge the cache (destructive: approved first).
#[tool(destructive, task = "optional")]
async fn purge_cache() -> String {
    "purged".to_owned()
}

/// Say hello (never a task).
#[tool]
fn hello() -> String {
    "hello".to_owned()
}

#[tool_group(name = "reports", description = "Reports.", tools = [write_report, archive_all, purge_cache, hello])]
struct Reports;

#[toolkit]
struct Kit {
    #[basic]
    reports: Reports,
}

/// A 2026-07-28 client that may declare the tasks extension; its user accepts every form.
#[derive(Clone)]
struct Client {
    tasks: bool,
    asked: Arc<Mutex<usize>>,
}

impl ClientHandler for Client {
    fn get_info(&self) -> ClientConfig {
        let mut info = ClientConfig::default();
        let builder = ClientCapabilities::builder().enable_elicitation();
        info.capabilities = if self.tasks {
            let mut caps = builder.build();
            let tasks = ClientCapabilities::builder().enable_tasks().build();
            caps.extensions = tasks.extensions;
            caps
        } else {
            builder.build()
        };
        info
    }

    async fn create_elicitation(
        &self,
        _request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        *self.asked.lock().unwrap() += 1;
        Ok(ElicitResult::new(ElicitationAction::Accept).with_content(json!({"archive": true})))
    }
}

type Running = RunningService<RoleClient, Client>;

async fn connect(tasks: bool) -> Running {
    connect_to(Toolkit::new(Kit { reports: Reports }), tasks).await
}

async fn connect_to(toolkit: Toolkit<Kit>, tasks: bool) -> Running {
    serve(McpServer::new(toolkit, Mode::Mask), tasks).await
}

async fn serve<R: toolgroup::Registry>(server: McpServer<R>, tasks: bool) -> Running {
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    let handler = server.handler_with(Session::new());
    tokio::spawn(async move {
        if let Ok(running) = handler.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let client = Client {
        tasks,
        asked: Arc::default(),
    };
    client
        .serve_with_lifecycle(
            client_io,
            ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            },
        )
        .await
        .expect("the client connects")
}

fn params(tool: &'static str, arguments: Value) -> CallToolRequestParams {
    CallToolRequestParams::new(tool).with_arguments(arguments.as_object().unwrap().clone())
}

/// Poll `tasks/get` until the task ends (at most 5 s), keeping each status message seen.
async fn until_ended(client: &Running, id: &str) -> (rmcp::model::DetailedTask, Vec<String>) {
    let mut messages = Vec::new();
    for _ in 0..500 {
        let got = client
            .peer()
            .get_task(GetTaskParams::new(id))
            .await
            .expect("tasks/get");
        if let Some(m) = &got.task.task.status_message
            && messages.last() != Some(m)
        {
            messages.push(m.clone());
        }
        if got.task.status().is_terminal() {
            return (got.task, messages);
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the task did not end");
}

#[tokio::test]
async fn a_task_reports_progress_and_delivers_its_result() {
    let client = connect(true).await;
    let answer = client
        .peer()
        .call_tool_once(params("write_report", json!({"steps": 3})))
        .await
        .expect("tools/call");
    let CallToolResponse::Task(created) = answer else {
        panic!("not a task: {answer:?}");
    };
    assert_eq!(created.task.status, TaskStatus::Working);
    assert_eq!(created.task.task_id.len(), 32);
    let (task, messages) = until_ended(&client, &created.task.task_id).await;
    let TaskPayload::Completed { result } = &task.payload else {
        panic!("not completed: {task:?}");
    };
    assert_eq!(result["content"][0]["text"], "a report in 3 steps");
    assert!(
        messages.iter().any(|m| m.starts_with("writing (")),
        "{messages:?}"
    );
    client.cancel().await.unwrap();
}

/// The server keeps its tasks in the store it is given, shared through an `Arc` or boxed as
/// `dyn TaskStore`.
#[tokio::test]
async fn a_shared_or_boxed_task_store_keeps_the_servers_tasks() {
    let shared = Arc::new(MemoryTaskStore::new());
    let boxed: Box<dyn TaskStore> = Box::new(shared.clone());
    let kit = || Toolkit::new(Kit { reports: Reports });
    let servers = [
        McpServer::new(kit(), Mode::Mask).with_task_store(shared.clone()),
        McpServer::new(kit(), Mode::Mask).with_task_store(boxed),
    ];
    for server in servers {
        let client = serve(server, true).await;
        let answer = client
            .peer()
            .call_tool_once(params("write_report", json!({"steps": 1})))
            .await
            .expect("tools/call");
        let CallToolResponse::Task(created) = answer else {
            panic!("not a task: {answer:?}");
        };
        let id = created.task.task_id;
        let (task, _) = until_ended(&client, &id).await;
        let record = shared
            .get(&id)
            .await
            .unwrap()
            .expect("the task is in the store");
        assert_eq!(record.task.status(), task.status());
        assert_eq!(record.task.status(), TaskStatus::Completed);
        client.cancel().await.unwrap();
    }
}

#[tokio::test]
async fn a_client_that_did_not_declare_tasks_gets_a_plain_result_or_32021() {
    let client = connect(false).await;
    let answer = client
        .peer()
        .call_tool_once(params("write_report", json!({"steps": 1})))
        .await
        .expect("tools/call");
    let CallToolResponse::Complete(result) = answer else {
        panic!("not a plain result: {answer:?}");
    };
    assert_eq!(
        result.content[0].as_text().unwrap().text,
        "a report in 1 steps"
    );
    let refused = client
        .peer()
        .call_tool_once(params("archive_all", json!({})))
        .await
        .expect_err("a required task without the extension");
    let text = refused.to_string();
    assert!(
        text.contains("-32021") || text.contains("Missing required client capability"),
        "{text}"
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_task_is_cancelled_and_cancelling_again_is_acknowledged() {
    let client = connect(true).await;
    let CallToolResponse::Task(created) = client
        .peer()
        .call_tool_once(params("write_report", json!({"steps": 0})))
        .await
        .expect("tools/call")
    else {
        panic!("not a task");
    };
    let id = created.task.task_id.clone();
    client
        .peer()
        .cancel_task(CancelTaskParams::new(id.clone()))
        .await
        .expect("tasks/cancel");
    let (task, _) = until_ended(&client, &id).await;
    assert_eq!(task.status(), TaskStatus::Cancelled);
    client
        .peer()
        .cancel_task(CancelTaskParams::new(id))
        .await
        .expect("a cancel after the end is acknowledged");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_task_asks_its_user_through_input_required() {
    let client = connect(true).await;
    let CallToolResponse::Task(created) = client
        .peer()
        .call_tool_once(params("archive_all", json!({})))
        .await
        .expect("tools/call")
    else {
        panic!("not a task");
    };
    let id = created.task.task_id.clone();
    let mut keys = Vec::new();
    for _ in 0..500 {
        let got = client
            .peer()
            .get_task(GetTaskParams::new(id.clone()))
            .await
            .unwrap();
        if let TaskPayload::InputRequired { input_requests } = &got.task.payload {
            keys = input_requests.keys().cloned().collect();
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(keys, ["q1"]);
    // An answer to a question that was not asked is ignored; the real one ends the wait.
    let mut responses = std::collections::BTreeMap::new();
    responses.insert(
        "q9".to_owned(),
        json!({"action": "accept", "content": {"archive": false}}),
    );
    responses.insert(
        "q1".to_owned(),
        json!({"action": "accept", "content": {"archive": true}}),
    );
    client
        .peer()
        .update_task(UpdateTaskParams::new(id.clone(), responses))
        .await
        .expect("tasks/update");
    let (task, _) = until_ended(&client, &id).await;
    let TaskPayload::Completed { result } = &task.payload else {
        panic!("not completed: {task:?}");
    };
    assert_eq!(result["content"][0]["text"], "archived");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn unknown_long_and_forged_task_ids_are_refused_without_echo() {
    let client = connect(true).await;
    for id in ["nope".to_owned(), "x".repeat(10 * 1024), "0".repeat(32)] {
        for error in [
            client
                .peer()
                .get_task(GetTaskParams::new(id.clone()))
                .await
                .err(),
            client
                .peer()
                .cancel_task(CancelTaskParams::new(id.clone()))
                .await
                .err(),
        ] {
            let text = error.expect("refused").to_string();
            assert!(text.contains("unknown task"), "{text}");
            assert!(
                !text.contains(&id),
                "the id is echoed: {}",
                &text[..text.len().min(200)]
            );
        }
    }
    client.cancel().await.unwrap();
}

/// Approval comes before the task: the first call answers `input_required` with the
/// approval form, the retry with the user's yes gets the task, and the task does not ask
/// again.
#[tokio::test]
async fn approval_is_asked_before_the_task_starts() {
    use toolgroup::policy::RequireApproval;
    use toolgroup_mcp::ElicitationApprover;
    let toolkit = Toolkit::new(Kit { reports: Reports })
        .with_policy(RequireApproval::new(ElicitationApprover::new()));
    let client = connect_to(toolkit, true).await;
    let first = client
        .peer()
        .call_tool_once(params("purge_cache", json!({})))
        .await
        .expect("tools/call");
    let CallToolResponse::InputRequired(input) = first else {
        panic!("not an input request: {first:?}");
    };
    let requests = input.input_requests.clone().expect("input requests");
    assert_eq!(requests.keys().collect::<Vec<_>>(), ["q1"]);
    let state = input.request_state.clone().expect("a request state");
    let mut responses = std::collections::BTreeMap::new();
    responses.insert(
        "q1".to_owned(),
        json!({"action": "accept", "content": {"approve": true}}),
    );
    let retry = params("purge_cache", json!({}))
        .with_input_responses(responses.clone())
        .with_request_state(state.clone());
    let CallToolResponse::Task(created) = client.peer().call_tool_once(retry).await.expect("retry")
    else {
        panic!("not a task after approval");
    };
    let (task, _) = until_ended(&client, &created.task.task_id).await;
    let TaskPayload::Completed { result } = &task.payload else {
        panic!("not completed: {task:?}");
    };
    assert_eq!(result["content"][0]["text"], "purged");
    // The state belongs to this call: other arguments, or a tampered state, are refused.
    let other = params("write_report", json!({"steps": 1}))
        .with_input_responses(responses.clone())
        .with_request_state(state.clone());
    let refused = client
        .peer()
        .call_tool_once(other)
        .await
        .expect_err("another call");
    assert!(
        refused.to_string().contains("belongs to another call"),
        "{refused}"
    );
    let mut tampered = state.clone();
    tampered.push('x');
    let forged = params("purge_cache", json!({}))
        .with_input_responses(responses)
        .with_request_state(tampered);
    let refused = client
        .peer()
        .call_tool_once(forged)
        .await
        .expect_err("a forged state");
    let text = refused.to_string();
    assert!(text.contains("was not issued by this server"), "{text}");
    assert!(!text.contains(&state), "the state is echoed");
    client.cancel().await.unwrap();
}

/// The `reports` group switchable: a task tool called while its group is off.
#[toolkit]
struct Switchable {
    #[basic]
    other: Other,
    reports: Reports,
}

/// Nothing.
#[tool]
fn noop() -> String {
    String::new()
}

#[tool_group(name = "other", description = "Other.", tools = [noop])]
struct Other;

async fn connect_switchable(tasks: bool) -> RunningService<RoleClient, Client> {
    let server = McpServer::new(
        Toolkit::new(Switchable {
            other: Other,
            reports: Reports,
        }),
        Mode::Mask,
    );
    serve(server, tasks).await
}

/// A first use of a task tool activates its group and runs as a task; a tool that
/// requires a task is refused with `-32021` on first use too, for a client without the
/// extension.
#[tokio::test]
async fn a_first_use_runs_as_a_task_and_activates_the_group() {
    let client = connect_switchable(true).await;
    let answer = client
        .peer()
        .call_tool_once(params("write_report", json!({"steps": 1})))
        .await
        .expect("tools/call");
    let CallToolResponse::Task(created) = answer else {
        panic!("not a task: {answer:?}");
    };
    let (task, _) = until_ended(&client, &created.task.task_id).await;
    assert_eq!(task.status(), TaskStatus::Completed);
    // The group is active now: its other tool runs without activating it.
    let CallToolResponse::Complete(hello) = client
        .peer()
        .call_tool_once(params("hello", json!({})))
        .await
        .unwrap()
    else {
        panic!("hello");
    };
    let text: Vec<_> = hello
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect();
    assert_eq!(text, ["hello"], "the group was not active");
    client.cancel().await.unwrap();

    let client = connect_switchable(false).await;
    let refused = client
        .peer()
        .call_tool_once(params("archive_all", json!({})))
        .await
        .expect_err("a required task without the extension, on first use");
    assert!(
        refused.to_string().contains("-32021")
            || refused
                .to_string()
                .contains("Missing required client capability"),
        "{refused}"
    );
    client.cancel().await.unwrap();
}

/// Tidy up.
#[tool]
fn tidy() -> String {
    "tidied".to_owned()
}

#[tool_group(name = "extra", description = "Extra.", tools = [tidy])]
struct Extra;

#[toolkit]
struct Capped {
    #[basic]
    other: Other,
    reports: Reports,
    extra: Extra,
}

/// The text of a complete `tools/call` answer.
fn complete_text(answer: CallToolResponse) -> String {
    let CallToolResponse::Complete(result) = answer else {
        panic!("not a complete result: {answer:?}");
    };
    crate::support::text(&result)
}

/// Under lifecycle rules, a call run as a task is a call and a use like any other: it counts
/// towards `idle_requests`, and what the rules switch off is told with the next result (the
/// task's own arrives through `tasks/result`).
#[tokio::test]
async fn a_task_started_on_first_use_is_under_the_rules() {
    let toolkit = Toolkit::new(Capped {
        other: Other,
        reports: Reports,
        extra: Extra,
    })
    .with_lifecycle(toolgroup::lifecycle::Lifecycle::new().idle_requests(2))
    .unwrap();
    let client = serve(McpServer::new(toolkit, Mode::Mask), true).await;
    let tidy = || params("tidy", json!({}));
    let text = complete_text(client.peer().call_tool_once(tidy()).await.unwrap());
    assert!(text.contains("activated the group `extra`"), "{text}");
    let answer = client
        .peer()
        .call_tool_once(params("write_report", json!({"steps": 1})))
        .await
        .expect("tools/call");
    let CallToolResponse::Task(created) = answer else {
        panic!("not a task: {answer:?}");
    };
    until_ended(&client, &created.task.task_id).await;
    let text = complete_text(
        client
            .peer()
            .call_tool_once(params("hello", json!({})))
            .await
            .unwrap(),
    );
    // `tidy`, the task, `hello`: `extra` is unused by the last two calls.
    assert!(
        text.contains("`extra` (unused by the last 2 tool call(s))"),
        "{text}"
    );
    assert!(!text.contains("activated"), "reports stayed active: {text}");
    // `extra` was switched off: calling its tool brings it back.
    let text = complete_text(client.peer().call_tool_once(tidy()).await.unwrap());
    assert!(text.contains("activated the group `extra`"), "{text}");
    client.cancel().await.unwrap();
}
