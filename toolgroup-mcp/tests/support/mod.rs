//! A small toolkit for the MCP tests (a slow tool to cancel), and client helpers.
#![allow(dead_code, unreachable_pub)]

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use rmcp::model::{CallToolRequestParams, CallToolResult, ErrorCode};
use rmcp::service::{RunningService, ServiceError};
use rmcp::{ClientHandler, ClientServiceExt as _, RoleClient, ServiceExt as _};
use toolgroup::Extension;
use toolgroup::prelude::*;

/// How many slow calls were dropped before finishing (cancelled).
pub static SLOW_DROPPED: AtomicUsize = AtomicUsize::new(0);
/// How many slow calls started.
pub static SLOW_STARTED: AtomicUsize = AtomicUsize::new(0);
/// Held by a test of the counters above for as long as it compares them with its own
/// `slow` call's, so that another test's `slow` call in the same test binary cannot move them.
pub static SLOW_COUNTED: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

struct DropGuard(bool);
impl Drop for DropGuard {
    fn drop(&mut self) {
        if !self.0 {
            SLOW_DROPPED.fetch_add(1, Ordering::SeqCst);
        }
    }
}

/// Write a note.
#[tool]
pub fn note_write(
    /// The note.
    text: String,
) -> String {
    format!("noted: {text}")
}

/// Search the web.
#[tool(read_only, open_world)]
pub async fn web_search(
    /// What to search for.
    query: String,
) -> Vec<String> {
    vec![format!("hit for {query}")]
}

/// Fetch a page.
#[tool(read_only)]
pub async fn page_fetch(
    /// The URL.
    url: String,
) -> Result<String, String> {
    if url.starts_with("https://") {
        Ok(format!("page {url}"))
    } else {
        Err("cannot fetch a non-https URL".to_string())
    }
}

/// Wait a long time (to be cancelled).
#[tool]
pub async fn slow(
    /// Seconds to wait.
    seconds: u64,
) -> String {
    SLOW_STARTED.fetch_add(1, Ordering::SeqCst);
    let mut guard = DropGuard(false);
    tokio::time::sleep(Duration::from_secs(seconds)).await;
    guard.0 = true;
    "done".to_owned()
}

/// Counts of `slow` calls (for clients that check cancellation from outside the process).
#[derive(serde::Serialize, schemars::JsonSchema)]
pub struct SlowStats {
    /// Calls of `slow` that started.
    pub started: usize,
    /// Calls of `slow` that were dropped before finishing (cancelled).
    pub cancelled: usize,
}

/// How many `slow` calls started and how many were cancelled.
#[tool(read_only)]
pub fn slow_stats() -> SlowStats {
    SlowStats {
        started: SLOW_STARTED.load(Ordering::SeqCst),
        cancelled: SLOW_DROPPED.load(Ordering::SeqCst),
    }
}

#[tool_group(name = "notes", description = "Taking notes.", tools = [note_write])]
pub struct Notes;

/// Who is calling: the HTTP request's `x-user-id` header (HTTP only).
#[tool(read_only)]
pub fn whoami(parts: Extension<http::request::Parts>) -> String {
    parts
        .0
        .headers
        .get("x-user-id")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("anonymous")
        .to_owned()
}

#[tool_group(name = "probe", description = "Test probes.", tools = [slow_stats, whoami])]
pub struct Probe;

#[tool_group(
    name = "web_search",
    description = "Searching the web.",
    instructions = "Cite your sources.",
    tools = [web_search]
)]
pub struct WebSearch;

#[tool_group(
    name = "scraping",
    description = "Fetching pages.",
    instructions = "Only fetch pages found by a search.",
    tools = [page_fetch]
)]
pub struct Scraping;

/// Count to `n`, reporting progress at each step.
#[tool]
pub async fn count(
    /// Where to stop.
    n: u32,
    ctx: ToolContext<'_>,
) -> String {
    for i in 1..=n {
        ctx.report(f64::from(i), Some(f64::from(n)), Some(&format!("step {i}")));
        tokio::task::yield_now().await;
    }
    format!("counted to {n}")
}

#[tool_group(name = "waiting", description = "Waiting.", tools = [slow, count])]
pub struct Waiting;

#[toolkit]
pub struct Agent {
    #[basic]
    pub notes: Notes,
    #[basic]
    pub probe: Probe,
    pub web_search: WebSearch,
    pub scraping: Scraping,
    pub waiting: Waiting,
}

pub fn toolkit() -> Toolkit<Agent> {
    Toolkit::new(Agent {
        notes: Notes,
        probe: Probe,
        web_search: WebSearch,
        scraping: Scraping,
        waiting: Waiting,
    })
}

/// One progress notification: (progress, total, message).
pub type ProgressSeen = (f64, Option<f64>, Option<String>);

/// A client that counts `notifications/tools/list_changed`.
#[derive(Clone, Default)]
pub struct Counting {
    pub list_changed: Arc<AtomicUsize>,
    /// Progress notifications received.
    pub progress: Arc<std::sync::Mutex<Vec<ProgressSeen>>>,
    pub changed: Arc<tokio::sync::Notify>,
    /// With it, the client declares elicitation and its user accepts every form with this
    /// content.
    pub answer: Option<serde_json::Map<String, serde_json::Value>>,
    /// The messages of the forms it was shown.
    pub asked: Arc<std::sync::Mutex<Vec<String>>>,
}

impl ClientHandler for Counting {
    fn get_info(&self) -> rmcp::model::ClientConfig {
        let mut info = rmcp::model::ClientConfig::default();
        if self.answer.is_some() {
            info.capabilities = rmcp::model::ClientCapabilities::builder()
                .enable_elicitation()
                .build();
        }
        info
    }

    async fn create_elicitation(
        &self,
        request: rmcp::model::ElicitRequestParams,
        _context: rmcp::service::RequestContext<RoleClient>,
    ) -> Result<rmcp::model::ElicitResult, rmcp::model::ErrorData> {
        if let rmcp::model::ElicitRequestParams::FormElicitationParams { message, .. } = &request {
            self.asked.lock().unwrap().push(message.clone());
        }
        match &self.answer {
            Some(content) => Ok(rmcp::model::ElicitResult::new(
                rmcp::model::ElicitationAction::Accept,
            )
            .with_content(serde_json::Value::Object(content.clone()))),
            None => Ok(rmcp::model::ElicitResult::new(
                rmcp::model::ElicitationAction::Decline,
            )),
        }
    }

    async fn on_tool_list_changed(&self, _context: rmcp::service::NotificationContext<RoleClient>) {
        self.list_changed.fetch_add(1, Ordering::SeqCst);
        self.changed.notify_one();
    }

    async fn on_progress(
        &self,
        params: rmcp::model::ProgressNotificationParam,
        _context: rmcp::service::NotificationContext<RoleClient>,
    ) {
        self.progress
            .lock()
            .unwrap()
            .push((params.progress, params.total, params.message));
    }
}

pub type Client = RunningService<RoleClient, Counting>;

pub fn args(value: serde_json::Value) -> CallToolRequestParams {
    let serde_json::Value::Object(map) = value else {
        panic!("arguments must be an object")
    };
    CallToolRequestParams::new("").with_arguments(map)
}

pub async fn call(
    client: &Client,
    name: &'static str,
    arguments: serde_json::Value,
) -> Result<CallToolResult, ServiceError> {
    let mut params = args(arguments);
    params.name = name.into();
    client.call_tool(params).await
}

pub fn text(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect::<Vec<_>>()
        .join("\n")
}

pub async fn names(client: &Client) -> Vec<String> {
    client
        .list_all_tools()
        .await
        .expect("tools/list")
        .into_iter()
        .map(|t| t.name.into_owned())
        .collect()
}

/// The JSON-RPC error of a failed request.
pub fn rpc_error(e: ServiceError) -> (ErrorCode, String) {
    match e {
        ServiceError::McpError(e) => (e.code, e.message.into_owned()),
        other => panic!("expected a JSON-RPC error, got {other}"),
    }
}

/// A client of a handler of `server` (starting with `groups`), over an in-process byte
/// stream (what stdio carries).
pub async fn connect<R: toolgroup::Registry>(
    server: &toolgroup_mcp::McpServer<R>,
    groups: toolgroup::Session<R>,
) -> (Client, Counting) {
    connect_with(server, groups, rmcp::ClientLifecycleMode::Initialize).await
}

/// [`connect`] with a lifecycle of the client's choice (`initialize`, or `server/discover`
/// for 2026-07-28).
pub async fn connect_with<R: toolgroup::Registry>(
    server: &toolgroup_mcp::McpServer<R>,
    groups: toolgroup::Session<R>,
    lifecycle: rmcp::ClientLifecycleMode,
) -> (Client, Counting) {
    connect_as(server, groups, lifecycle, Counting::default()).await
}

/// [`connect_with`] with a client of the caller's (one that answers forms, say).
pub async fn connect_as<R: toolgroup::Registry>(
    server: &toolgroup_mcp::McpServer<R>,
    groups: toolgroup::Session<R>,
    lifecycle: rmcp::ClientLifecycleMode,
    counting: Counting,
) -> (Client, Counting) {
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    let handler = server.handler_with(groups);
    tokio::spawn(async move {
        if let Ok(running) = handler.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let client = counting
        .clone()
        .serve_with_lifecycle(client_io, lifecycle)
        .await
        .expect("the client connects");
    (client, counting)
}

/// Serve `service` at `http://127.0.0.1:PORT/mcp` on a free loopback port, until the test's
/// runtime stops; the URL.
pub async fn serve_loopback<R: toolgroup::Registry>(
    service: toolgroup_mcp::McpHttpService<R>,
) -> String {
    let app = axum::Router::new().nest_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    format!("http://{addr}/mcp")
}

/// Stateless Streamable HTTP answered as JSON: each POST stands alone.
pub fn stateless() -> rmcp::transport::StreamableHttpServerConfig {
    rmcp::transport::StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
        .with_json_response(true)
}

/// An example binary of this workspace, built on demand (`cargo build ... --example NAME`).
pub fn example(args: &[&str], name: &str) -> std::path::PathBuf {
    let status = std::process::Command::new(env!("CARGO"))
        .args(["build", "--quiet"])
        .args(args)
        .args(["--example", name])
        .status()
        .expect("cargo runs");
    assert!(status.success(), "building the example {name} failed");
    // target/debug/deps/client-HASH -> target/debug/examples/NAME
    let exe = std::env::current_exe().unwrap();
    exe.parent()
        .and_then(|deps| deps.parent())
        .unwrap()
        .join("examples")
        .join(format!("{name}{}", std::env::consts::EXE_SUFFIX))
}

/// The Python interpreter of the venv `.ci/run` creates, or `None` (the test is skipped).
pub fn python() -> Option<std::path::PathBuf> {
    match std::env::var_os("MCP_VENV") {
        Some(venv) => Some(std::path::PathBuf::from(venv).join("bin").join("python")),
        None => {
            eprintln!(
                "skipped: MCP_VENV is not set (a venv with the PyPI `mcp` package; .ci/run creates one)"
            );
            None
        }
    }
}

/// The entry point of npm's `@modelcontextprotocol/server-everything` (its `dist/index.js`),
/// from `SERVER_EVERYTHING`; `None`, with a note, when it is not set.
pub fn server_everything() -> Option<std::path::PathBuf> {
    match std::env::var_os("SERVER_EVERYTHING") {
        Some(path) => Some(std::path::PathBuf::from(path)),
        None => {
            eprintln!(
                "skipped: SERVER_EVERYTHING is not set (the `dist/index.js` of npm's @modelcontextprotocol/server-everything; .ci/run installs it)"
            );
            None
        }
    }
}

pub mod race;

/// One stateless JSON-RPC POST to `url` as `user` (its `x-user` header), 2025-06-18, answered
/// as JSON: the whole response.
pub async fn post_as(url: &str, user: &str, body: &serde_json::Value) -> serde_json::Value {
    let text = reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-06-18")
        .header("x-user", user)
        .body(body.to_string())
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// The key of a stateless request (its groups, its tasks): its `x-user` header.
pub fn user_key(parts: &http::request::Parts) -> Option<String> {
    parts
        .headers
        .get("x-user")?
        .to_str()
        .ok()
        .map(str::to_owned)
}

/// The text blocks of a `tools/call` result (as JSON), joined by newlines.
pub fn joined(result: &serde_json::Value) -> String {
    result["content"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["text"].as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Helpers for the client tests (feature `client`): killable stdio servers, the Python
/// SDK's remote server script.
#[cfg(feature = "client")]
mod remote_servers {
    use std::path::PathBuf;

    use toolgroup_mcp::client::RemoteServer;

    /// `program args...` run through `sh`, which writes the server's process id to `pid_file`
    /// (and `exec`s, so the id is the server's).
    pub fn with_pid_file(
        pid_file: &std::path::Path,
        program: &std::path::Path,
        args: &[&str],
    ) -> RemoteServer {
        let mut script = format!(
            "echo $$ > '{}'; exec '{}'",
            pid_file.display(),
            program.display()
        );
        for arg in args {
            script.push_str(&format!(" '{arg}'"));
        }
        RemoteServer::stdio("sh", ["-c".to_owned(), script])
    }

    pub fn kill(pid_file: &std::path::Path) {
        let pid = std::fs::read_to_string(pid_file).unwrap();
        let status = std::process::Command::new("kill")
            .args(["-9", pid.trim()])
            .status()
            .unwrap();
        assert!(status.success());
    }

    pub fn python_script() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/mcp_interop/remote_server.py")
    }
}
#[cfg(feature = "client")]
#[allow(unused_imports)]
pub use remote_servers::*;
