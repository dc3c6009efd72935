//! Remote progress (feature `client`): every `notifications/progress` a server sends before
//! its result reaches the call's observer, in order, before the call returns — over HTTP
//! from an rmcp server that sends its reports immediately before the result, through a
//! toolkit's remote group, and over stdio from this crate's `interop_server` example and
//! from the official Python SDK (skipped without `MCP_VENV`).
//!
//! The runtimes have several workers: on one thread, a task that handles a notification
//! tends to run before the call that the response wakes, which would hide a lost report.

use crate::support;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorData,
    ListToolsResult, PaginatedRequestParams, ProgressNotificationParam, ServerCapabilities,
    ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::transport::StreamableHttpService;
use rmcp::transport::streamable_http_server::StreamableHttpServerConfig;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::{RoleServer, ServerHandler};
use serde_json::{Value, json};
use support::{example, python, python_script};
use toolgroup::context::Progress;
use toolgroup::dynamic::Dynamic;
use toolgroup::prelude::*;
use toolgroup_mcp::client::{CallOptions, Remote, RemoteServer, RemoteTools, Stderr};

/// Calls per server: the lost report showed in most calls, so a handful would do; this many
/// makes a rare reordering visible too.
const CALLS: u32 = 30;

/// Bounds every test's calls together; never a timing assertion.
const PATIENCE: Duration = Duration::from_secs(60);

/// One progress report: (progress, total, message).
type Report = (f64, Option<f64>, Option<String>);

/// `n` steps as the test servers report them: `i` of `n`, "step i".
fn steps(n: u32) -> Vec<Report> {
    (1..=n)
        .map(|i| (f64::from(i), Some(f64::from(n)), Some(format!("step {i}"))))
        .collect()
}

/// Call `name` with `args` and collect the reports the observer saw before the call returned.
async fn with_progress(
    remote: &RemoteTools,
    name: &str,
    args: &Value,
) -> (CallResult, Vec<Report>) {
    let seen = Mutex::new(Vec::new());
    let record = |done: f64, total: Option<f64>, message: Option<&str>| {
        seen.lock()
            .unwrap()
            .push((done, total, message.map(str::to_owned)));
    };
    let result = remote
        .call_with(name, args, CallOptions::new().with_progress(&record))
        .await;
    (result, seen.into_inner().unwrap())
}

/// `CALLS` calls of `name` (which reports `n` steps), each seeing every step before its result
/// `text(n)`.
async fn every_call_sees_every_step(
    remote: &RemoteTools,
    name: &str,
    args: impl Fn(u32) -> Value,
    text: impl Fn(u32) -> String,
) {
    tokio::time::timeout(PATIENCE, async {
        for call in 0..CALLS {
            let n = 3 + call % 3;
            let (result, seen) = with_progress(remote, name, &args(n)).await;
            assert!(!result.is_error, "{}", result.text_joined());
            assert_eq!(result.text_joined(), text(n));
            assert_eq!(seen, steps(n), "call {call} of `{name}`");
        }
    })
    .await
    .expect("the calls finished in time");
}

/// An rmcp server whose `burst` reports `n` steps, one right after the other, and answers at
/// once after the last: nothing in between for the client to catch up.
#[derive(Clone)]
struct Burst;

impl ServerHandler for Burst {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let Value::Object(schema) = json!({
            "type": "object",
            "properties": {"n": {"type": "integer"}},
            "required": ["n"],
        }) else {
            unreachable!()
        };
        Ok(ListToolsResult::with_all_items(vec![Tool::new(
            "burst",
            "Report `n` steps, then answer.",
            schema,
        )]))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let n = request
            .arguments
            .as_ref()
            .and_then(|a| a.get("n"))
            .and_then(Value::as_u64)
            .ok_or_else(|| ErrorData::invalid_params("`n` is missing", None))?;
        if let Some(token) = context.meta.get_progress_token() {
            for i in 1..=n {
                let param = ProgressNotificationParam::new(token.clone(), i as f64)
                    .with_total(n as f64)
                    .with_message(format!("step {i}"));
                context
                    .peer
                    .notify_progress(param)
                    .await
                    .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
            }
        }
        Ok(CallToolResult::success(vec![ContentBlock::text(format!("burst {n}"))]).into())
    }
}

/// The `Burst` server on a loopback port, serving until the test's runtime ends.
async fn burst_server() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let service = StreamableHttpService::new(
        || Ok(Burst),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    let app = axum::Router::new().nest_service("/mcp", service);
    tokio::spawn(async move { axum::serve(listener, app).await });
    url
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn reports_sent_just_before_the_result_all_arrive_over_http() {
    let remote = RemoteTools::connect(RemoteServer::http(burst_server().await).with_label("burst"))
        .await
        .expect("the burst server answers");
    every_call_sees_every_step(
        &remote,
        "burst",
        |n| json!({ "n": n }),
        |n| format!("burst {n}"),
    )
    .await;
}

#[tool_group(
    name = "bursts",
    description = "A server that reports progress.",
    dynamic
)]
struct Bursts;

#[toolkit]
struct Kit {
    bursts: Dynamic<Bursts, Remote>,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_remote_groups_reports_all_reach_the_toolkits_observer() {
    let remote = RemoteTools::connect(RemoteServer::http(burst_server().await).with_label("burst"))
        .await
        .expect("the burst server answers");
    let kit = Toolkit::new(Kit {
        bursts: Dynamic::new(Remote::new(remote).with_prefix("b_")),
    });
    let mut session = kit.session();
    let on = kit
        .call(&mut session, "reset_tools", &json!({"bursts": true}))
        .await;
    assert!(!on.is_error, "{}", on.text_joined());
    tokio::time::timeout(PATIENCE, async {
        for call in 0..CALLS {
            let n = 3 + call % 3;
            let events: Arc<Mutex<Vec<String>>> = Arc::default();
            let seen = Arc::clone(&events);
            let cx = CallContext::new().on_progress(move |event| {
                if let Progress::Step {
                    done,
                    total,
                    message,
                } = event.progress
                {
                    let line = format!("{} {done}/{total:?} {message:?}", event.tool);
                    seen.lock().unwrap().push(line);
                }
            });
            let result = kit
                .call_with(&mut session, "b_burst", &json!({ "n": n }), &cx)
                .await;
            assert_eq!(result.text_joined(), format!("burst {n}"));
            let expected: Vec<String> = (1..=n)
                .map(|i| format!("b_burst {i}/Some({n}.0) Some(\"step {i}\")"))
                .collect();
            assert_eq!(*events.lock().unwrap(), expected, "call {call}");
        }
    })
    .await
    .expect("the calls finished in time");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn reports_all_arrive_over_stdio_from_this_crates_server() {
    let exe = example(&["-p", "toolgroup-mcp"], "interop_server");
    let remote = RemoteTools::connect(
        RemoteServer::stdio(&exe, ["mask", "stdio", "waiting"])
            .with_label("own-stdio")
            .with_stderr(Stderr::Discard),
    )
    .await
    .expect("the interop server starts");
    every_call_sees_every_step(
        &remote,
        "count",
        |n| json!({ "n": n }),
        |n| format!("counted to {n}"),
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn reports_all_arrive_over_stdio_from_the_python_sdk() {
    let Some(python) = python() else { return };
    let remote = RemoteTools::connect(
        RemoteServer::stdio(&python, [python_script()])
            .with_label("python")
            .with_stderr(Stderr::Discard),
    )
    .await
    .expect("the Python server starts");
    every_call_sees_every_step(
        &remote,
        "progress",
        |n| json!({ "steps": n }),
        |n| format!("{n} steps"),
    )
    .await;
}
