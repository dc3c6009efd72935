//! The client (feature `client`) against real servers: this crate's own MCP server (in
//! process over HTTP, and its `interop_server` example as a stdio child), a paginating rmcp
//! server, and a server on the official Python SDK (`tests/mcp_interop/remote_server.py`,
//! run with the venv that `.ci/run` creates; skipped without `MCP_VENV`), and rmcp servers
//! with the groups extension (`groups_extension`, `groups_hidden`; this crate's server:
//! `groups_own_server`). With it, in one test binary, the remote
//! groups that use the client: `remote_groups`, `remote_progress`,
//! `remote_names`, and `server_everything` (npm's reference server, skipped without
//! `SERVER_EVERYTHING`). Remote tasks (`tasks`) and a server asking the user (`user_input`)
//! against an rmcp server with rmcp's `TaskManager` (`task_server`) and the Python SDK's.
//! The client on MCP 2026-07-28 against the facade's `mcp_server` example, with and without
//! the opt-in (`modern`), and its fallback to `initialize` (`legacy_fallback`).

#[path = "../support/mod.rs"]
mod support;

#[cfg(feature = "code-mode")]
#[path = "../support/python.rs"]
mod python;

#[cfg(feature = "code-mode")]
mod code_mode;

mod groups_extension;
mod groups_hidden;
mod groups_own_server;
mod groups_server;
mod http;
mod legacy_fallback;
mod modern;
mod remote_groups;
mod remote_names;
mod remote_progress;
mod rmcp_server;
mod server_everything;
mod stdio;
mod task_server;
mod tasks;
mod user_input;

use support::example;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::Ordering;
use std::time::Duration;

use rmcp::transport::StreamableHttpServerConfig;
use serde_json::Value;
use toolgroup_core::CallResult;
use toolgroup_mcp::client::{CallOptions, RemoteServer, RemoteTools};
use toolgroup_mcp::{McpServer, Mode};

/// Bounds the waits for something that happens on its own (a notification, a process
/// restart); never a timing assertion.
const PATIENCE: Duration = Duration::from_secs(20);

/// An MCP server on its own runtime, so that the test can kill it (every socket closes).
struct Killable {
    runtime: Option<tokio::runtime::Runtime>,
    addr: SocketAddr,
}

impl Killable {
    fn start(app: impl FnOnce() -> axum::Router, addr: &str) -> Killable {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let listener = std::net::TcpListener::bind(addr).unwrap();
        listener.set_nonblocking(true).unwrap();
        let addr = listener.local_addr().unwrap();
        let app = app();
        runtime.spawn(async move {
            let listener = tokio::net::TcpListener::from_std(listener).unwrap();
            let _ = axum::serve(listener, app).await;
        });
        Killable {
            runtime: Some(runtime),
            addr,
        }
    }

    fn url(&self) -> String {
        format!("http://{}/mcp", self.addr)
    }

    fn kill(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

impl Drop for Killable {
    fn drop(&mut self) {
        self.kill();
    }
}

fn own_server(mode: Mode) -> impl FnOnce() -> axum::Router {
    move || {
        // Refusing calls of inactive groups: the tests read a remote `isError` from it.
        let server = McpServer::new(support::toolkit(), mode).with_first_use_activation(false);
        axum::Router::new().nest_service(
            "/mcp",
            server.http_service(StreamableHttpServerConfig::default()),
        )
    }
}

/// A client of `server` with the default settings, except that it does not declare the
/// groups extension: this crate's server then lists every tool at the top level, as for most
/// clients (`groups_own_server` tests the other view).
async fn connect(server: &Killable) -> RemoteTools {
    RemoteTools::connect(RemoteServer::http(server.url()).with_groups_extension(false))
        .await
        .expect("the client connects")
}

fn names(remote: &RemoteTools) -> Vec<String> {
    remote.tools().iter().map(|t| t.name.clone()).collect()
}

fn ok_text(result: &CallResult) -> String {
    assert!(
        !result.is_error,
        "unexpected error: {}",
        result.text_joined()
    );
    result.text_joined()
}

fn err_text(result: &CallResult) -> String {
    assert!(result.is_error, "expected an error: {result:?}");
    result.text_joined()
}

/// Wait until more `slow` calls started than `before` (the server runs in this process).
async fn slow_started_after(before: usize) {
    wait_until(|| support::SLOW_STARTED.load(Ordering::SeqCst) > before).await;
}

/// Wait until more `slow` calls were cancelled on the server than `before`.
async fn slow_dropped_after(before: usize) {
    wait_until(|| support::SLOW_DROPPED.load(Ordering::SeqCst) > before).await;
}

async fn wait_until(condition: impl Fn() -> bool) {
    tokio::time::timeout(PATIENCE, async {
        while !condition() {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await
    .expect("the condition came true");
}

/// One progress report: (progress, total, message).
type Report = (f64, Option<f64>, Option<String>);

/// Call `name` and collect its progress reports.
async fn with_progress(remote: &RemoteTools, name: &str, args: Value) -> (CallResult, Vec<Report>) {
    let seen = Mutex::new(Vec::new());
    let record = |done: f64, total: Option<f64>, message: Option<&str>| {
        let report = (done, total, message.map(str::to_owned));
        seen.lock().unwrap().push(report);
    };
    let options = CallOptions::new().with_progress(&record);
    let result = remote.call_with(name, &args, options).await;
    (result, seen.into_inner().unwrap())
}

/// `n` steps as the test servers report them: `i` of `n`, "step i".
fn steps(n: u32) -> Vec<Report> {
    (1..=n)
        .map(|i| (f64::from(i), Some(f64::from(n)), Some(format!("step {i}"))))
        .collect()
}

/// Wait for the next tool list (version above `after`).
async fn next_list(remote: &RemoteTools, after: u64) {
    let mut watch = remote.watch();
    tokio::time::timeout(PATIENCE, watch.wait_for(|l| l.version > after))
        .await
        .expect("the tool list changed")
        .unwrap();
}

/// This crate's `interop_server` example (the tests' toolkit).
fn interop_server() -> PathBuf {
    example(&["-p", "toolgroup-mcp"], "interop_server")
}

/// Each remote group as (name, instructions, tool names): what the groups tests compare.
fn group_summary(
    groups: &[toolgroup_mcp::client::RemoteGroup],
) -> Vec<(&str, Option<&str>, Vec<&str>)> {
    groups
        .iter()
        .map(|g| {
            (
                g.name.as_str(),
                g.instructions.as_deref(),
                g.tools.iter().map(|t| t.name.as_str()).collect(),
            )
        })
        .collect()
}
