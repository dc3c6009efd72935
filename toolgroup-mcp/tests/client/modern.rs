//! The client on MCP 2026-07-28 (`RemoteServer::with_protocol(Protocol::V2026_07_28)`)
//! against this project's own server, the facade's `mcp_server` example in mask mode, over
//! stdio and Streamable HTTP: `write_report` runs as a remote task (SEP-2663: the server
//! runs one only for a 2026-07-28 request whose `_meta` declares the tasks extension),
//! `retitle_report` asks for a title and `delete_report` for the user's approval through
//! input requests (SEP-2322); and the same calls with the default `initialize` handshake
//! (2025-11-25): a plain result with `notifications/progress`, and `elicitation/create`.

use std::io::{BufRead as _, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use serde_json::{Map, Value, json};
use toolgroup::context::{Answer, AskError, Asker, Question, UserInput};
use toolgroup_core::BoxFuture;
use toolgroup_mcp::client::{CallOptions, Protocol, RemoteServer, RemoteTools, Stderr};

use super::support::example;
use super::{Report, err_text, ok_text};

/// How long `write_report` takes, in seconds: one status message a second, so that the
/// client's polls (one a second, as the server suggests) see some before the task ends.
const REPORT_SECONDS: &str = "3";

/// The user: gives every report the title "Q3 figures", approves or not as told, and keeps
/// the questions' messages.
#[derive(Clone, Default)]
struct User {
    approves: Arc<AtomicBool>,
    asked: Arc<Mutex<Vec<String>>>,
}

impl User {
    fn approving(self, yes: bool) -> Self {
        self.approves.store(yes, Ordering::SeqCst);
        self
    }

    fn asked(&self) -> Vec<String> {
        std::mem::take(&mut *self.asked.lock().unwrap())
    }
}

impl Asker for User {
    fn ask<'a>(&'a self, question: &'a Question) -> BoxFuture<'a, Result<Answer, AskError>> {
        self.asked
            .lock()
            .unwrap()
            .push(question.message().to_owned());
        let schema = question.schema();
        let mut answer = Map::new();
        if schema["properties"].get("title").is_some() {
            answer.insert("title".into(), json!("Q3 figures"));
        }
        if schema["properties"].get("approve").is_some() {
            answer.insert(
                "approve".into(),
                json!(self.approves.load(Ordering::SeqCst)),
            );
        }
        Box::pin(std::future::ready(Ok(Answer::Accepted(answer))))
    }
}

fn mcp_server() -> PathBuf {
    example(&["-p", "toolgroup", "--features", "mcp"], "mcp_server")
}

/// The example over stdio, in mask mode.
fn stdio() -> RemoteServer {
    RemoteServer::stdio(
        mcp_server(),
        [
            "--transport",
            "stdio",
            "--mode",
            "mask",
            "--report-seconds",
            REPORT_SECONDS,
            "--no-first-use",
        ],
    )
    .with_label("mcp_server")
    .with_stderr(Stderr::Discard)
    .with_groups_extension(false)
}

/// The example over Streamable HTTP on a free port, killed when dropped.
struct Http {
    child: Child,
    url: String,
}

impl Http {
    fn start() -> Http {
        let mut child = Command::new(mcp_server())
            .args(["--transport", "http", "--mode", "mask", "--listen"])
            .args([
                "127.0.0.1:0",
                "--report-seconds",
                REPORT_SECONDS,
                "--no-first-use",
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the example starts");
        let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
        // "MCP server (mask mode) at http://127.0.0.1:PORT/mcp"
        let url = loop {
            let line = lines
                .next()
                .expect("the example prints its address")
                .unwrap();
            if let Some((_, url)) = line.split_once(" at ") {
                break url.to_owned();
            }
        };
        // Drained, so that the example never blocks on a full pipe.
        std::thread::spawn(move || lines.for_each(drop));
        Http { child, url }
    }

    /// A client whose active groups the example keeps under one key (2026-07-28 requests
    /// are stateless).
    fn server(&self) -> RemoteServer {
        RemoteServer::http(&self.url)
            .with_label("mcp_server")
            .with_groups_extension(false)
            .with_header(
                http::HeaderName::from_static("x-user-id"),
                http::HeaderValue::from_static("modern-test"),
            )
    }
}

impl Drop for Http {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Call `name` with `options`, collecting its progress reports.
async fn call(
    remote: &RemoteTools,
    name: &str,
    args: Value,
    options: CallOptions<'static>,
) -> (toolgroup_core::CallResult, Vec<Report>) {
    let seen = Mutex::new(Vec::new());
    let record = |done: f64, total: Option<f64>, message: Option<&str>| {
        let report = (done, total, message.map(str::to_owned));
        seen.lock().unwrap().push(report);
    };
    let result = remote
        .call_with(name, &args, options.with_progress(&record))
        .await;
    (result, seen.into_inner().unwrap())
}

const DONE: &str = "The report on Q3: all figures are in order.";

/// `reports` switched on with `reset_tools`. The example runs without activation on first
/// use: the server runs a call that may activate its group (any call of a switchable
/// group's tool, while that is on) at once, never as a task. The clients do not declare the
/// groups extension, so that the example lists `reset_tools`.
async fn switch_reports_on(remote: &RemoteTools) {
    let r = remote.call("reset_tools", &json!({"reports": true})).await;
    ok_text(&r);
}

/// `write_report` ran as a task: its status messages came as steps without a total.
async fn write_report_as_task(remote: &RemoteTools) {
    switch_reports_on(remote).await;
    let (r, reports) = call(
        remote,
        "write_report",
        json!({"topic": "Q3"}),
        CallOptions::new(),
    )
    .await;
    assert_eq!(ok_text(&r), DONE);
    assert!(!reports.is_empty(), "no status message came");
    for (i, (done, total, message)) in reports.iter().enumerate() {
        assert_eq!((*done, *total), ((i + 1) as f64, None), "{reports:?}");
        let message = message.as_deref().unwrap_or_default();
        assert!(message.starts_with("writing the report ("), "{reports:?}");
    }
}

/// `retitle_report` asks for the title; `delete_report` runs once approved, and is refused
/// with the reason when not.
async fn ask_the_user(
    remote: &RemoteTools,
    user: &User,
    options: impl Fn() -> CallOptions<'static>,
) {
    let (r, _) = call(remote, "retitle_report", json!({"topic": "Q3"}), options()).await;
    assert_eq!(
        ok_text(&r),
        "The report on Q3 is now titled \"Q3 figures\"."
    );
    assert_eq!(user.asked(), ["A new title for the report on Q3?"]);

    user.approves.store(true, Ordering::SeqCst);
    let (r, _) = call(remote, "delete_report", json!({"topic": "Q3"}), options()).await;
    assert_eq!(ok_text(&r), "Deleted the report on Q3.");
    let asked = user.asked();
    assert_eq!(asked.len(), 1, "{asked:?}");
    assert!(
        asked[0].starts_with("Allow the tool `delete_report` (group `reports`) to run?"),
        "{asked:?}"
    );

    user.approves.store(false, Ordering::SeqCst);
    let (r, _) = call(remote, "delete_report", json!({"topic": "Q3"}), options()).await;
    let message = err_text(&r);
    assert!(
        message.contains("the user did not approve running `delete_report`"),
        "{message}"
    );
    assert_eq!(user.asked().len(), 1);
}

#[tokio::test]
async fn own_example_over_stdio_runs_tasks_and_asks_on_2026_07_28() {
    let user = User::default().approving(true);
    let remote = RemoteTools::connect(
        stdio()
            .with_protocol(Protocol::V2026_07_28)
            .with_user_input(UserInput::new(user.clone())),
    )
    .await
    .unwrap();
    write_report_as_task(&remote).await;
    ask_the_user(&remote, &user, CallOptions::new).await;
}

#[tokio::test]
async fn own_example_over_http_runs_tasks_and_asks_on_2026_07_28() {
    let http = Http::start();
    let remote = RemoteTools::connect(http.server().with_protocol(Protocol::V2026_07_28))
        .await
        .unwrap();
    write_report_as_task(&remote).await;
    // The call's own asker this time (no server asker).
    let user = User::default();
    let asker = UserInput::new(user.clone());
    ask_the_user(&remote, &user, || {
        CallOptions::new().with_user_input(asker.clone())
    })
    .await;
}

/// Without the opt-in: `initialize`, 2025-11-25. No task: a plain result with
/// `notifications/progress`; the questions come as `elicitation/create` requests.
#[tokio::test]
async fn own_example_over_stdio_on_2025_11_25_by_default() {
    let user = User::default();
    let remote = RemoteTools::connect(stdio().with_user_input(UserInput::new(user.clone())))
        .await
        .unwrap();
    switch_reports_on(&remote).await;
    let (r, reports) = call(
        &remote,
        "write_report",
        json!({"topic": "Q3"}),
        CallOptions::new(),
    )
    .await;
    assert_eq!(ok_text(&r), DONE);
    let steps = |i: f64| (i, Some(3.0), Some("writing the report".to_owned()));
    assert_eq!(reports, [steps(1.0), steps(2.0), steps(3.0)]);
    ask_the_user(&remote, &user, CallOptions::new).await;
}
