//! The client (feature `client`) against real servers: this crate's own MCP server (in
//! process over HTTP, and its `interop_server` example as a stdio child), a paginating rmcp
//! server, and a server on the official Python SDK (`tests/mcp_interop/remote_server.py`,
//! run with the venv that `.ci/run` creates; skipped without `MCP_VENV`).

mod support;

use support::{example, kill, python, python_script, with_pid_file};

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorData,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::transport::StreamableHttpServerConfig;
use rmcp::transport::StreamableHttpService;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::{RoleServer, ServerHandler};
use serde_json::{Value, json};
use toolgroup_core::{CallResult, Content};
use toolgroup_mcp::client::{
    CallOptions, CancellationToken, RemoteError, RemoteServer, RemoteTools, Stderr,
};
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
        let server = McpServer::new(support::toolkit(), mode);
        axum::Router::new().nest_service(
            "/mcp",
            server.http_service(StreamableHttpServerConfig::default()),
        )
    }
}

/// A client of `server` with the default settings.
async fn connect(server: &Killable) -> RemoteTools {
    RemoteTools::connect(RemoteServer::http(server.url()))
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

#[tokio::test]
async fn own_server_over_http_list_call_errors_and_validation() {
    let server = Killable::start(own_server(Mode::Gated), "127.0.0.1:0");
    let remote = connect(&server).await;
    assert_eq!(
        names(&remote),
        [
            "reset_tools",
            "note_write",
            "slow_stats",
            "whoami",
            "web_search",
            "page_fetch",
            "slow",
            "count"
        ]
    );
    assert_eq!(remote.version(), 0);
    let tools = remote.tools();
    let search = tools.iter().find(|t| t.name == "web_search").unwrap();
    assert_eq!(search.annotations.read_only, Some(true));
    assert_eq!(search.annotations.open_world, Some(true));
    assert_eq!(search.description.as_deref(), Some("Search the web."));
    assert_eq!(search.input_schema["required"], json!(["query"]));
    assert!(search.output_schema.is_some());

    // A call, with arguments as a value and as text.
    let r = remote.call("note_write", &json!({"text": "hi"})).await;
    assert_eq!(ok_text(&r), "noted: hi");
    let r = remote.call("note_write", r#"{"text": "there"}"#).await;
    assert_eq!(ok_text(&r), "noted: there");

    // A remote isError: the group is off on the server.
    let r = remote.call("web_search", &json!({"query": "q"})).await;
    assert!(err_text(&r).contains("reset_tools"), "{}", r.text_joined());

    // Switch every group on (reset_tools is a remote tool like any other), then a tool's own
    // error and a structured result.
    let r = remote
        .call(
            "reset_tools",
            &json!({"web_search": true, "scraping": true, "waiting": true}),
        )
        .await;
    ok_text(&r);
    let r = remote
        .call("page_fetch", &json!({"url": "http://plain"}))
        .await;
    assert!(err_text(&r).contains("non-https"), "{}", r.text_joined());
    let r = remote.call("web_search", &json!({"query": "q"})).await;
    ok_text(&r);
    assert_eq!(r.structured_content, Some(json!({"result": ["hit for q"]})));

    // Arguments refused before sending, by path, without echoing values.
    let r = remote.call("note_write", &json!({})).await;
    assert_eq!(
        err_text(&r),
        "`note_write` was not run: invalid argument `text`: missing required property"
    );
    let r = remote
        .call("note_write", &json!({"text": {"secret": "s3cr3t"}}))
        .await;
    let message = err_text(&r);
    assert!(
        message.contains("`text`: expected a string, got an object"),
        "{message}"
    );
    assert!(!message.contains("s3cr3t"));
    let r = remote.call("note_write", "[1, 2]").await;
    assert!(
        err_text(&r).contains("must be a JSON object"),
        "{}",
        r.text_joined()
    );
    let r = remote.call("note_write", "{\"text\": ").await;
    assert!(
        err_text(&r).contains("not valid JSON"),
        "{}",
        r.text_joined()
    );
    let r = remote.call("count", &json!({"n": "five"})).await;
    assert!(
        err_text(&r).contains("`n`: expected an integer, got a string"),
        "{}",
        r.text_joined()
    );

    // A tool the server does not list.
    let r = remote.call("note_wirte", &json!({"text": "x"})).await;
    let message = err_text(&r);
    assert!(message.contains("Did you mean `note_write`?"), "{message}");
    assert!(remote.is_connected().await);
}

#[tokio::test]
async fn timeouts_cancellation_and_progress() {
    let server = Killable::start(own_server(Mode::Gated), "127.0.0.1:0");
    let remote = RemoteTools::connect(
        RemoteServer::http(server.url()).with_call_timeout(Duration::from_secs(1)),
    )
    .await
    .unwrap();
    ok_text(
        &remote
            .call(
                "reset_tools",
                &json!({"web_search": false, "scraping": false, "waiting": true}),
            )
            .await,
    );

    // The server's call timeout: an error result, and the tool is cancelled on the server
    // (this test's server runs in this process: its counter of dropped calls moves).
    let dropped = support::SLOW_DROPPED.load(Ordering::SeqCst);
    let r = remote.call("slow", &json!({"seconds": 30})).await;
    let message = err_text(&r);
    assert!(message.contains("timed out after 1 s"), "{message}");
    assert!(message.contains("You may retry"), "{message}");
    slow_dropped_after(dropped).await;

    // The application's cancellation token, cancelled once the tool runs: the tool is
    // cancelled on the server too.
    let token = CancellationToken::new();
    let cancel = token.clone();
    let started = support::SLOW_STARTED.load(Ordering::SeqCst);
    let dropped = support::SLOW_DROPPED.load(Ordering::SeqCst);
    tokio::spawn(async move {
        slow_started_after(started).await;
        cancel.cancel();
    });
    let r = remote
        .call_with(
            "slow",
            &json!({"seconds": 30}),
            CallOptions::new()
                .with_cancellation(token)
                .with_timeout(Duration::from_secs(120)),
        )
        .await;
    assert!(
        err_text(&r).contains("cancelled by the application"),
        "{}",
        r.text_joined()
    );
    slow_dropped_after(dropped).await;

    // A call whose future is dropped (the caller stopped waiting) is cancelled as well.
    let started = support::SLOW_STARTED.load(Ordering::SeqCst);
    let dropped = support::SLOW_DROPPED.load(Ordering::SeqCst);
    let args = json!({"seconds": 30});
    tokio::select! {
        r = remote.call("slow", &args) => panic!("slow finished: {r:?}"),
        () = slow_started_after(started) => {}
    }
    slow_dropped_after(dropped).await;

    // Progress, forwarded in order before the result.
    let (r, seen) = with_progress(&remote, "count", json!({"n": 4})).await;
    assert_eq!(ok_text(&r), "counted to 4");
    assert_eq!(seen, steps(4));
    // The connection survived all of this.
    assert_eq!(
        ok_text(&remote.call("note_write", &json!({"text": "x"})).await),
        "noted: x"
    );
}

#[tokio::test]
async fn list_changed_refreshes_the_tools() {
    let server = Killable::start(own_server(Mode::Dynamic), "127.0.0.1:0");
    let remote = connect(&server).await;
    assert_eq!(
        names(&remote),
        ["reset_tools", "note_write", "slow_stats", "whoami"]
    );
    let r = remote
        .call(
            "reset_tools",
            &json!({"web_search": true, "scraping": false, "waiting": false}),
        )
        .await;
    ok_text(&r);
    next_list(&remote, 0).await;
    assert_eq!(remote.version(), 1);
    assert_eq!(
        names(&remote),
        [
            "reset_tools",
            "note_write",
            "slow_stats",
            "whoami",
            "web_search"
        ]
    );
    let r = remote.call("web_search", &json!({"query": "rust"})).await;
    ok_text(&r);
}

#[tokio::test]
async fn http_server_killed_mid_session_then_back() {
    let mut server = Killable::start(own_server(Mode::Gated), "127.0.0.1:0");
    let url = server.url();
    let addr = server.addr;
    let remote = RemoteTools::connect(
        RemoteServer::http(url)
            .with_label("own")
            .with_backoff(Duration::from_millis(50), Duration::from_millis(200))
            .with_connect_timeout(Duration::from_secs(5)),
    )
    .await
    .unwrap();
    ok_text(&remote.call("note_write", &json!({"text": "1"})).await);

    server.kill();
    let r = remote.call("note_write", &json!({"text": "2"})).await;
    let message = err_text(&r);
    assert!(message.contains("the MCP server `own`"), "{message}");
    assert!(
        message.contains("retry") || message.contains("Retry"),
        "{message}"
    );
    // While it is down, calls keep answering error results (reconnection fails, then waits).
    let r = remote.call("note_write", &json!({"text": "3"})).await;
    let message = err_text(&r);
    assert!(message.contains("reconnect"), "{message}");

    // Back on the same address: a later call reconnects (after the backoff) and works.
    let _server = Killable::start(own_server(Mode::Gated), &addr.to_string());
    let recovered = tokio::time::timeout(PATIENCE, async {
        loop {
            let r = remote.call("note_write", &json!({"text": "4"})).await;
            if !r.is_error {
                return r;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await
    .expect("the client reconnected");
    assert_eq!(recovered.text_joined(), "noted: 4");
    assert!(remote.is_connected().await);
    // Same server, same tools: the version did not move.
    assert_eq!(remote.version(), 0);
}

#[tokio::test]
async fn connect_errors_are_clear() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    drop(listener);
    let err = RemoteTools::connect(
        RemoteServer::http(format!("http://{addr}/mcp")).with_label("nowhere"),
    )
    .await
    .unwrap_err();
    assert!(matches!(err, RemoteError::Handshake { .. }), "{err:?}");
    assert!(
        err.to_string().contains("`nowhere` could not be reached"),
        "{err}"
    );

    let err = RemoteTools::connect(RemoteServer::stdio(
        "/nonexistent/toolgroup-test-server",
        ["x"],
    ))
    .await
    .unwrap_err();
    assert!(matches!(err, RemoteError::Spawn { .. }), "{err:?}");
}

/// A server with paginated `tools/list` (two tools a page), a tool answering a JSON-RPC
/// error, and a tool that adds a tool and notifies `list_changed`.
#[derive(Clone)]
struct Paged {
    tools: Arc<Mutex<Vec<Tool>>>,
}

fn plain_tool(name: &str) -> Tool {
    let schema = json!({"type": "object", "properties": {}});
    let Value::Object(schema) = schema else {
        unreachable!()
    };
    Tool::new(name.to_owned(), format!("The tool {name}."), schema)
}

impl ServerHandler for Paged {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_tool_list_changed()
                .build(),
        )
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let start = match request.and_then(|r| r.cursor) {
            Some(cursor) => cursor
                .parse::<usize>()
                .map_err(|_| ErrorData::invalid_params("bad cursor", None))?,
            None => 0,
        };
        let tools = self.tools.lock().unwrap().clone();
        let end = (start + 2).min(tools.len());
        let mut result = ListToolsResult::with_all_items(tools[start..end].to_vec());
        if end < tools.len() {
            result.next_cursor = Some(end.to_string());
        }
        Ok(result)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        match request.name.as_ref() {
            "broken" => Err(ErrorData::internal_error("the database is down", None)),
            "grow" => {
                self.tools.lock().unwrap().push(plain_tool("grown"));
                let _ = context.peer.notify_tool_list_changed().await;
                Ok(CallToolResult::success(vec![ContentBlock::text("grew")]).into())
            }
            name => {
                Ok(CallToolResult::success(vec![ContentBlock::text(format!("ran {name}"))]).into())
            }
        }
    }
}

#[tokio::test]
async fn every_page_protocol_errors_and_list_changed_from_an_rmcp_server() {
    let paged = Paged {
        tools: Arc::new(Mutex::new(
            ["t1", "t2", "t3", "broken", "grow"]
                .map(plain_tool)
                .to_vec(),
        )),
    };
    let server = Killable::start(
        move || {
            let service = StreamableHttpService::new(
                move || Ok(paged.clone()),
                Arc::new(LocalSessionManager::default()),
                StreamableHttpServerConfig::default(),
            );
            axum::Router::new().nest_service("/mcp", service)
        },
        "127.0.0.1:0",
    );
    let remote = connect(&server).await;
    assert_eq!(names(&remote), ["t1", "t2", "t3", "broken", "grow"]);
    assert_eq!(ok_text(&remote.call("t3", "").await), "ran t3");

    let r = remote.call("broken", &json!({})).await;
    let message = err_text(&r);
    assert!(
        message.contains("refused the call (JSON-RPC error -32603): the database is down"),
        "{message}"
    );

    assert_eq!(ok_text(&remote.call("grow", &json!({})).await), "grew");
    next_list(&remote, 0).await;
    assert_eq!(
        names(&remote),
        ["t1", "t2", "t3", "broken", "grow", "grown"]
    );
    assert_eq!(
        ok_text(&remote.call("grown", &json!({})).await),
        "ran grown"
    );
}

/// This crate's `interop_server` example (the tests' toolkit).
fn interop_server() -> PathBuf {
    example(&["-p", "toolgroup-mcp"], "interop_server")
}

#[cfg(unix)]
#[tokio::test]
async fn own_example_over_stdio_killed_then_respawned() {
    let exe = interop_server();
    let dir = std::env::temp_dir().join(format!("toolgroup-client-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pid_file = dir.join("own.pid");
    let remote = RemoteTools::connect(
        with_pid_file(&pid_file, &exe, &["gated", "stdio", "waiting"])
            .with_label("own-stdio")
            .with_stderr(Stderr::Discard),
    )
    .await
    .unwrap();
    assert_eq!(names(&remote).len(), 8);
    let r = remote.call("count", &json!({"n": 2})).await;
    assert_eq!(ok_text(&r), "counted to 2");

    let first = std::fs::read_to_string(&pid_file).unwrap();
    kill(&pid_file);
    // The child is gone: this call fails (or, if the exit was already seen, reconnects).
    let r = remote.call("count", &json!({"n": 1})).await;
    if r.is_error {
        let message = r.text_joined();
        assert!(message.contains("`own-stdio`"), "{message}");
        let r = remote.call("count", &json!({"n": 1})).await;
        assert_eq!(ok_text(&r), "counted to 1");
    }
    let second = std::fs::read_to_string(&pid_file).unwrap();
    assert_ne!(first, second, "a new child was spawned");
    std::fs::remove_dir_all(&dir).ok();
}

/// The project's own MCP server example (`examples/mcp_server.rs`, the facade's `mcp`
/// feature) over stdio: its `bar_chart` answers with a real PNG image.
#[tokio::test]
async fn project_mcp_server_example_over_stdio() {
    let exe = example(&["-p", "toolgroup", "--features", "mcp"], "mcp_server");
    let remote = RemoteTools::connect(
        RemoteServer::stdio(
            &exe,
            [
                "--transport",
                "stdio",
                "--mode",
                "selected",
                "--groups",
                "charts",
            ],
        )
        .with_label("mcp_server"),
    )
    .await
    .unwrap();
    assert_eq!(names(&remote), ["note_write", "bar_chart"]);
    let r = remote
        .call("bar_chart", &json!({"values": [1, 2.5, 4]}))
        .await;
    ok_text(&r);
    let Content::Image {
        data, mime_type, ..
    } = &r.content[0]
    else {
        panic!("not an image: {r:?}")
    };
    assert_eq!(mime_type, "image/png");
    assert_eq!(&data[..4], b"\x89PNG");
    // The tool's own error, and arguments refused before sending.
    let r = remote.call("bar_chart", &json!({"values": []})).await;
    assert!(
        err_text(&r).contains("give at least one value"),
        "{}",
        r.text_joined()
    );
    let r = remote.call("bar_chart", &json!({"values": "1,2"})).await;
    assert_eq!(
        err_text(&r),
        "`bar_chart` was not run: invalid argument `values`: expected an array, got a string"
    );
}

#[tokio::test]
async fn python_sdk_server() {
    let Some(python) = python() else { return };
    let remote = RemoteTools::connect(
        RemoteServer::stdio(&python, [python_script()])
            .with_label("python")
            .with_stderr(Stderr::Discard)
            .with_call_timeout(Duration::from_secs(10)),
    )
    .await
    .unwrap();
    assert_eq!(
        names(&remote),
        ["add", "fail", "nap", "progress", "picture", "grow", "crash"]
    );
    let tools = remote.tools();
    let add = tools.iter().find(|t| t.name == "add").unwrap();
    assert_eq!(add.description.as_deref(), Some("Add two integers."));

    let r = remote.call("add", &json!({"a": 2, "b": 3})).await;
    assert_eq!(ok_text(&r), "5");
    assert_eq!(r.structured_content, Some(json!({"result": 5})));

    let r = remote.call("fail", &json!({"reason": "testing"})).await;
    assert!(
        err_text(&r).contains("failed on purpose: testing"),
        "{}",
        r.text_joined()
    );

    let r = remote.call("add", &json!({"a": 2})).await;
    assert_eq!(
        err_text(&r),
        "`add` was not run: invalid argument `b`: missing required property"
    );
    let r = remote.call("add", &json!({"a": 2, "b": "3"})).await;
    assert!(
        err_text(&r).contains("`b`: expected an integer, got a string"),
        "{}",
        r.text_joined()
    );

    let r = remote.call("picture", &json!({})).await;
    ok_text(&r);
    assert_eq!(
        r.content[0],
        Content::image(b"\x89PNG".to_vec(), "image/png")
    );

    let (r, seen) = with_progress(&remote, "progress", json!({"steps": 3})).await;
    assert_eq!(ok_text(&r), "3 steps");
    assert_eq!(seen, steps(3));

    let r = remote
        .call_with(
            "nap",
            &json!({"seconds": 30}),
            CallOptions::new().with_timeout(Duration::from_millis(200)),
        )
        .await;
    assert!(
        err_text(&r).contains("timed out after 200 ms"),
        "{}",
        r.text_joined()
    );

    // list_changed from a server nobody here wrote.
    assert_eq!(ok_text(&remote.call("grow", &json!({})).await), "grown");
    next_list(&remote, 0).await;
    assert!(names(&remote).contains(&"extra".to_owned()));
    assert_eq!(
        ok_text(&remote.call("extra", &json!({"text": "hi"})).await),
        "extra: hi"
    );
    let version = remote.version();

    // Killed mid-call: an error result, then a new process on the next call (whose list
    // lacks `extra` again: a new version).
    let r = remote.call("crash", &json!({})).await;
    let message = err_text(&r);
    assert!(
        message.contains("connection to the MCP server `python` was lost"),
        "{message}"
    );
    assert!(message.contains("may or may not have run"), "{message}");
    let r = remote.call("add", &json!({"a": 1, "b": 1})).await;
    assert_eq!(ok_text(&r), "2");
    assert_eq!(remote.version(), version + 1);
    assert!(!names(&remote).contains(&"extra".to_owned()));
    // The old name is refused locally now.
    let r = remote.call("extra", &json!({"text": "hi"})).await;
    assert!(
        err_text(&r).contains("does not list it"),
        "{}",
        r.text_joined()
    );
}
