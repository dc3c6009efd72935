//! The rmcp server the `tasks` and `user_input` tests call over HTTP: tools run as tasks by
//! rmcp's own `TaskManager` (SEP-2663), a tool that asks through `elicitation/create`, one
//! that reports progress, a task whose id is far too long and one that never changes. The
//! answers rmcp's `ServerHandler` does not send come from `odd_server.rs`.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, CancelTaskParams, ClientResult,
    ContentBlock, CreateTaskResult, DetailedTask, ElicitRequest, ElicitRequestParams, ErrorData,
    GetTaskParams, GetTaskResult, InputRequest, ListToolsResult, PaginatedRequestParams,
    ProgressNotificationParam, ServerCapabilities, ServerConfig, ServerRequest, Task, TaskPayload,
    TaskStatus, Tool, UpdateTaskParams,
};
use rmcp::service::RequestContext;
use rmcp::task_manager::{TaskContext, TaskExit, TaskManager, TaskOptions};
use rmcp::transport::StreamableHttpService;
use rmcp::transport::streamable_http_server::StreamableHttpServerConfig;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::{RoleServer, ServerHandler};
use serde_json::{Value, json};

/// What the server saw, for the tests to check.
#[derive(Clone, Default)]
pub struct Record {
    /// `tasks/get` requests received.
    pub polls: Arc<AtomicUsize>,
    /// Tasks started by `stuck` and `asks`.
    pub started: Arc<AtomicUsize>,
    /// Tasks that stopped because `tasks/cancel` came.
    pub cancelled: Arc<AtomicUsize>,
    /// The length of the task id each `tasks/cancel` named.
    pub cancels: Arc<Mutex<Vec<usize>>>,
}

impl Record {
    pub fn cancels_of(&self, len: usize) -> usize {
        self.cancels
            .lock()
            .unwrap()
            .iter()
            .filter(|&&l| l == len)
            .count()
    }
}

/// A task id this long: far over what the client accepts.
pub const LONG_ID: usize = 10 * 1024;

#[derive(Clone)]
struct Tasks {
    manager: TaskManager,
    record: Record,
}

fn tool(name: &str, properties: Value) -> Tool {
    let Value::Object(schema) = json!({"type": "object", "properties": properties}) else {
        unreachable!()
    };
    Tool::new(name.to_owned(), format!("The tool {name}."), schema)
}

fn text(text: impl Into<String>) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(text.into())])
}

fn number(request: &CallToolRequestParams, key: &str) -> u64 {
    request
        .arguments
        .as_ref()
        .and_then(|a| a.get(key))
        .and_then(Value::as_u64)
        .unwrap_or(0)
}

/// The form the tools ask: a required name, and an optional yes/no.
pub fn who() -> Value {
    json!({
        "message": "Who is asking?",
        "requestedSchema": {
            "type": "object",
            "properties": {
                "name": {"type": "string", "title": "Name"},
                "ok": {"type": "boolean", "description": "Go ahead"}
            },
            "required": ["name"]
        }
    })
}

pub fn elicitation(params: Value) -> InputRequest {
    serde_json::from_value(json!({"method": "elicitation/create", "params": params})).unwrap()
}

/// What an elicitation result said, as the tools answer it.
pub fn said(response: &Value) -> String {
    match response["action"].as_str() {
        Some("accept") => format!(
            "hello {}",
            response["content"]["name"].as_str().unwrap_or("?")
        ),
        Some(action) => format!("the user chose {action}"),
        None => "no action".to_owned(),
    }
}

/// Wait until the client polled after this point (so that it saw the status set before),
/// at most a few seconds.
async fn polled_after(polls: &AtomicUsize) {
    let seen = polls.load(Ordering::SeqCst);
    for _ in 0..1000 {
        if polls.load(Ordering::SeqCst) > seen {
            return;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

fn fast() -> TaskOptions {
    TaskOptions::new().with_poll_interval_ms(100)
}

impl Tasks {
    fn spawn(
        &self,
        options: TaskOptions,
        run: impl FnOnce(TaskContext, Record) -> rmcp::task_manager::TaskFuture,
    ) -> CallToolResponse {
        let record = self.record.clone();
        let task = self.manager.spawn(options, move |ctx| run(ctx, record));
        CallToolResponse::Task(CreateTaskResult::new(task))
    }
}

impl ServerHandler for Tasks {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_tasks()
                .build(),
        )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let n = json!({"n": {"type": "integer"}, "hold_ms": {"type": "integer"}});
        let mut tools = vec![tool("steps", n.clone()), tool("ticks", n)];
        for name in [
            "stuck",
            "broken",
            "expiring",
            "self_cancel",
            "asks",
            "elicit",
            "long_id",
            "never",
        ] {
            tools.push(tool(name, json!({})));
        }
        Ok(ListToolsResult::with_all_items(tools))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let n = number(&request, "n");
        let hold = Duration::from_millis(number(&request, "hold_ms"));
        Ok(match request.name.as_ref() {
            // `n` status messages, each seen by a poll and held `hold_ms`.
            "steps" => self.spawn(fast().with_status_message("queued"), move |ctx, record| {
                Box::pin(async move {
                    for i in 1..=n {
                        ctx.set_status_message(format!("step {i}"));
                        polled_after(&record.polls).await;
                        tokio::time::sleep(hold).await;
                    }
                    Ok(text(format!("did {n} steps")))
                })
            }),
            "stuck" => self.spawn(
                fast().with_status_message("working on it"),
                |ctx, record| {
                    Box::pin(async move {
                        record.started.fetch_add(1, Ordering::SeqCst);
                        ctx.cancelled().await;
                        record.cancelled.fetch_add(1, Ordering::SeqCst);
                        Err(TaskExit::Cancelled)
                    })
                },
            ),
            "broken" => self.spawn(fast(), |_, _| {
                Box::pin(async {
                    let message = format!("the build broke\n\u{1b}[31m{}", "x".repeat(5000));
                    Err(TaskExit::Error(ErrorData::internal_error(message, None)))
                })
            }),
            // Expires after 50 ms; a busy server (here, a loop) sweeps it away before the
            // client's first poll, a second later.
            "expiring" => {
                let manager = self.manager.clone();
                tokio::spawn(async move {
                    for _ in 0..150 {
                        manager.running_task_count();
                        tokio::time::sleep(Duration::from_millis(20)).await;
                    }
                });
                let options = TaskOptions::new()
                    .with_ttl_ms(50)
                    .with_poll_interval_ms(1000);
                self.spawn(options, |_, _| {
                    Box::pin(async {
                        tokio::time::sleep(Duration::from_secs(60)).await;
                        Ok(text("too late"))
                    })
                })
            }
            "self_cancel" => {
                self.spawn(fast(), |_, _| Box::pin(async { Err(TaskExit::Cancelled) }))
            }
            "asks" => self.spawn(fast(), |ctx, record| {
                Box::pin(async move {
                    record.started.fetch_add(1, Ordering::SeqCst);
                    match ctx.request_input("who", elicitation(who())).await {
                        Ok(response) => Ok(text(said(&response))),
                        Err(exit) => {
                            record.cancelled.fetch_add(1, Ordering::SeqCst);
                            Err(exit)
                        }
                    }
                })
            }),
            // Reports `n` steps, `hold_ms` apart, then answers.
            "ticks" => {
                if let Some(token) = context.meta.get_progress_token() {
                    for i in 1..=n {
                        tokio::time::sleep(hold).await;
                        let param = ProgressNotificationParam::new(token.clone(), i as f64)
                            .with_total(n as f64);
                        let _ = context.peer.notify_progress(param).await;
                    }
                }
                text(format!("ticked {n}")).into()
            }
            // Asks with `elicitation/create`, as servers do up to 2025-11-25.
            "elicit" => {
                let params: ElicitRequestParams = serde_json::from_value(who()).unwrap();
                let request = ServerRequest::ElicitRequest(ElicitRequest::new(params));
                match context.peer.send_request(request).await {
                    Ok(ClientResult::ElicitResult(result)) => {
                        text(said(&serde_json::to_value(result).unwrap())).into()
                    }
                    Ok(_) => text("not an elicitation result").into(),
                    Err(e) => text(format!("refused: {e}")).into(),
                }
            }
            "long_id" => CallToolResponse::Task(CreateTaskResult::new(task("t".repeat(LONG_ID)))),
            "never" => CallToolResponse::Task(CreateTaskResult::new(task("never".to_owned()))),
            other => text(format!("no tool {other}")).into(),
        })
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        self.record.polls.fetch_add(1, Ordering::SeqCst);
        if request.task_id == "never" {
            let never = DetailedTask::new(task("never".to_owned()), TaskPayload::Working);
            return Ok(GetTaskResult::new(never));
        }
        Ok(GetTaskResult::new(self.manager.get_task(&request.task_id)?))
    }

    async fn update_task(
        &self,
        request: UpdateTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.manager
            .update_task(&request.task_id, request.input_responses)
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.record
            .cancels
            .lock()
            .unwrap()
            .push(request.task_id.len());
        if request.task_id == "never" || request.task_id.len() == LONG_ID {
            return Ok(());
        }
        self.manager.cancel_task(&request.task_id)
    }
}

fn task(id: String) -> Task {
    Task::new(
        id,
        TaskStatus::Working,
        "2026-01-01T00:00:00Z",
        "2026-01-01T00:00:00Z",
    )
    .with_poll_interval_ms(100)
    .with_status_message("still working")
}

/// The server on a loopback port, serving until the test's runtime ends: its URL and what it
/// records.
pub async fn start() -> (String, Record) {
    let record = Record::default();
    let tasks = Tasks {
        manager: TaskManager::new(),
        record: record.clone(),
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let service = StreamableHttpService::new(
        move || Ok(tasks.clone()),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    let app = axum::Router::new().nest_service("/mcp", service);
    tokio::spawn(async move { axum::serve(listener, app).await });
    (url, record)
}
