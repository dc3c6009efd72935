//! What the task tests share: tools that run as tasks, server replicas that keep their tasks
//! in Redis (each on a runtime of its own, so that a test can end one as a process would end,
//! each serving stateless Streamable HTTP on loopback, its clients told apart by their
//! `x-user` header), and a 2026-07-28 client that declares the tasks extension (SEP-2663).

use std::time::{Duration, Instant};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ClientCapabilities, ClientConfig, DetailedTask,
    GetTaskParams, ProtocolVersion,
};
use rmcp::service::{RunningService, ServiceError};
use rmcp::{ClientHandler, ClientLifecycleMode, ClientServiceExt, RoleClient};
use serde_json::{Value, json};
use toolgroup::Toolkit;
use toolgroup::context::Question;
use toolgroup::prelude::*;
use toolgroup_mcp::{McpServer, Mode, RedisTaskStore};

/// Wait until cancelled.
#[tool(task = "optional")]
async fn wait_for_cancel(ctx: ToolContext<'_>) -> String {
    ctx.cancelled().await;
    "stopped".to_owned()
}

/// Say `label` back after `millis` milliseconds.
#[tool(task = "optional")]
async fn echo_later(label: String, millis: u64) -> String {
    tokio::time::sleep(Duration::from_millis(millis)).await;
    format!("done {label}")
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

/// Write `bytes` bytes.
#[tool(task = "optional")]
async fn write_bytes(bytes: usize) -> String {
    "x".repeat(bytes)
}

#[tool_group(name = "jobs", description = "Jobs.", tools = [wait_for_cancel, echo_later, archive_all, write_bytes])]
struct Jobs;

#[toolkit]
pub(super) struct Kit {
    #[basic]
    jobs: Jobs,
}

/// The `requestState` key every replica shares (from a secret store in production).
const STATE_KEY: [u8; 32] = [7; 32];

/// A server replica: its own runtime (its tasks and its HTTP server run there, and end with
/// it), its own connection to Redis.
pub(super) struct Replica {
    url: String,
    runtime: Option<tokio::runtime::Runtime>,
}

impl Replica {
    /// A replica whose tasks live `ttl` in Redis at `url` under `prefix`.
    pub(super) async fn start(url: &str, prefix: &str, ttl: Duration) -> Replica {
        Self::with_store(url, prefix, ttl, |store| store).await
    }

    /// The same, its store set up by `setup`.
    pub(super) async fn with_store(
        url: &str,
        prefix: &str,
        ttl: Duration,
        setup: impl FnOnce(RedisTaskStore) -> RedisTaskStore,
    ) -> Replica {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let url = url.to_owned();
        let connect = async move { RedisTaskStore::connect(&url).await };
        let store = runtime.spawn(connect).await.unwrap().unwrap();
        let server = McpServer::new(Toolkit::new(Kit { jobs: Jobs }), Mode::Mask)
            .with_task_store(setup(store.with_prefix(prefix)))
            .with_task_ttl(ttl)
            .with_request_state_key(STATE_KEY)
            .unwrap()
            .with_key(super::user_key);
        let service = server.http_service(crate::support::stateless());
        let serve = async move {
            let app = axum::Router::new().nest_service("/mcp", service);
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let addr = listener.local_addr().unwrap();
            tokio::spawn(async move {
                let _ = axum::serve(listener, app).await;
            });
            format!("http://{addr}/mcp")
        };
        let url = runtime.spawn(serve).await.unwrap();
        Replica {
            url,
            runtime: Some(runtime),
        }
    }

    /// A new client of this replica for the user `carol`.
    pub(super) async fn client(&self) -> Client {
        self.client_as("carol").await
    }

    /// A new client of this replica for `user` (its `x-user` header).
    pub(super) async fn client_as(&self, user: &str) -> Client {
        let mut headers = std::collections::HashMap::new();
        headers.insert(
            http::HeaderName::from_static("x-user"),
            http::HeaderValue::from_str(user).unwrap(),
        );
        let transport = rmcp::transport::StreamableHttpClientTransport::from_config(
            rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig::with_uri(
                self.url.as_str(),
            )
            .custom_headers(headers),
        );
        TasksClient
            .serve_with_lifecycle(
                transport,
                ClientLifecycleMode::Discover {
                    preferred_versions: vec![ProtocolVersion::V_2026_07_28],
                },
            )
            .await
            .expect("the client connects")
    }

    /// End the replica as its process would end: its connections and the tasks it runs stop.
    pub(super) fn kill(mut self) {
        self.runtime.take().unwrap().shutdown_background();
    }
}

impl Drop for Replica {
    fn drop(&mut self) {
        // A runtime dropped in async code would block on its tasks: leave them instead.
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

/// A 2026-07-28 client that declares the tasks extension.
#[derive(Clone)]
pub(super) struct TasksClient;

impl ClientHandler for TasksClient {
    fn get_info(&self) -> ClientConfig {
        let mut info = ClientConfig::default();
        info.capabilities = ClientCapabilities::builder().enable_tasks().build();
        info
    }
}

pub(super) type Client = RunningService<RoleClient, TasksClient>;

/// Call `tool` as a task: its id, or the error that refused it.
pub(super) async fn start(client: &Client, tool: &str, arguments: Value) -> Result<String, String> {
    let params = CallToolRequestParams::new(tool.to_owned())
        .with_arguments(arguments.as_object().unwrap().clone());
    match client.peer().call_tool_once(params).await {
        Ok(CallToolResponse::Task(created)) => Ok(created.task.task_id),
        Ok(other) => panic!("not a task: {other:?}"),
        Err(e) => Err(error_text(&e)),
    }
}

/// A client-side error as text, bounded (a test's message never dumps a huge value).
pub(super) fn error_text(e: &ServiceError) -> String {
    let text = e.to_string();
    text.chars().take(2000).collect()
}

/// `tasks/get`: the task, or the error.
pub(super) async fn get(client: &Client, id: &str) -> Result<DetailedTask, String> {
    client
        .peer()
        .get_task(GetTaskParams::new(id.to_owned()))
        .await
        .map(|got| got.task)
        .map_err(|e| error_text(&e))
}

/// Poll `tasks/get` until `done` holds for the task (at most `within`).
pub(super) async fn until(
    client: &Client,
    id: &str,
    within: Duration,
    done: impl Fn(&DetailedTask) -> bool,
) -> DetailedTask {
    let start = Instant::now();
    loop {
        let task = get(client, id).await.expect("tasks/get");
        if done(&task) {
            return task;
        }
        assert!(
            start.elapsed() < within,
            "not there within {within:?}: {task:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Poll `tasks/get` until the task ends (at most `within`).
pub(super) async fn until_ended(client: &Client, id: &str, within: Duration) -> DetailedTask {
    until(client, id, within, |task| task.status().is_terminal()).await
}

/// A completed task's text, or a panic naming what it ended as.
pub(super) fn result_text(task: &DetailedTask) -> String {
    match &task.payload {
        rmcp::model::TaskPayload::Completed { result } => result["content"][0]["text"]
            .as_str()
            .unwrap_or_default()
            .to_owned(),
        other => panic!("not completed: {other:?}"),
    }
}

/// The arguments of `echo_later`.
pub(super) fn echo(label: &str, millis: u64) -> Value {
    json!({"label": label, "millis": millis})
}
