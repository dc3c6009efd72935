//! Remote tasks (the `io.modelcontextprotocol/tasks` extension, SEP-2663): tools that rmcp's
//! `TaskManager` runs as tasks, followed to their end by the client: status messages as
//! progress, completion, failure, cancellation both ways, expiry, input, the timeout that
//! starts again at each change, and servers that answer badly.

use std::sync::atomic::Ordering;
use std::time::Duration;

use serde_json::json;
use toolgroup::context::{Progress, UserInput};
use toolgroup::dynamic::Dynamic;
use toolgroup::prelude::*;
use toolgroup_mcp::client::{CallOptions, CancellationToken, Remote, RemoteServer, RemoteTools};

use super::task_server::{self, LONG_ID, Record};
use super::user_input::{Scripted, cancelled_on, odd};
use super::{PATIENCE, err_text, ok_text, wait_until, with_progress};

async fn connect(server: RemoteServer) -> RemoteTools {
    RemoteTools::connect(server.with_label("tasks"))
        .await
        .expect("the task server answers")
}

async fn tasks() -> (RemoteTools, Record) {
    let (url, record) = task_server::start().await;
    (connect(RemoteServer::http(&url)).await, record)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_passes_on_its_status_messages_and_answers_its_result() {
    let (remote, _) = tasks().await;
    let (result, seen) = with_progress(&remote, "steps", json!({"n": 3})).await;
    assert_eq!(ok_text(&result), "did 3 steps");
    let expected: Vec<_> = ["queued", "step 1", "step 2", "step 3"]
        .iter()
        .enumerate()
        .map(|(i, m)| ((i + 1) as f64, None, Some((*m).to_owned())))
        .collect();
    assert_eq!(seen, expected);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn status_changes_keep_a_task_past_the_timeout_and_silence_ends_it() {
    let (remote, record) = tasks().await;
    // Ten changes 300 ms apart (and a poll each), with 1.5 s allowed between two.
    let options = CallOptions::new().with_timeout(Duration::from_millis(1500));
    let args = json!({"n": 10, "hold_ms": 300});
    let started = std::time::Instant::now();
    let result = remote.call_with("steps", &args, options).await;
    assert_eq!(ok_text(&result), "did 10 steps");
    assert!(started.elapsed() > Duration::from_secs(3));

    // A task whose status never changes: cancelled after the timeout.
    let options = CallOptions::new().with_timeout(Duration::from_millis(500));
    let result = remote.call_with("stuck", &json!({}), options).await;
    assert_eq!(
        err_text(&result),
        "`stuck` timed out after 500 ms without news from the MCP server `tasks` and its task was cancelled on it; it may have had some effect. You may retry, perhaps with a smaller request."
    );
    wait_until(|| record.cancelled.load(Ordering::SeqCst) == 1).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn progress_keeps_a_plain_call_past_the_timeout() {
    let (remote, _) = tasks().await;
    // Ten reports 250 ms apart, with 1.2 s allowed between two.
    let options = CallOptions::new().with_timeout(Duration::from_millis(1200));
    let args = json!({"n": 10, "hold_ms": 250});
    let result = remote.call_with("ticks", &args, options).await;
    assert_eq!(ok_text(&result), "ticked 10");
    let options = CallOptions::new().with_timeout(Duration::from_millis(300));
    let args = json!({"n": 1, "hold_ms": 2000});
    let result = remote.call_with("ticks", &args, options).await;
    assert!(
        err_text(&result).starts_with("`ticks` timed out after 300 ms without news"),
        "{}",
        result.text_joined()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancelling_or_dropping_the_call_cancels_the_task() {
    let (remote, record) = tasks().await;
    let token = CancellationToken::new();
    let options = CallOptions::new().with_cancellation(token.clone());
    let none = json!({});
    let call = remote.call_with("stuck", &none, options);
    // Once the client follows the task (its first poll): a call cancelled before the
    // server's answer arrives cancels the request, not the task it does not know yet.
    let polls = record.polls.load(Ordering::SeqCst);
    let cancel = async {
        wait_until(|| record.started.load(Ordering::SeqCst) == 1).await;
        wait_until(|| record.polls.load(Ordering::SeqCst) > polls).await;
        token.cancel();
    };
    let (result, ()) = tokio::join!(call, cancel);
    assert_eq!(
        err_text(&result),
        "`stuck` was cancelled by the application before it finished"
    );
    wait_until(|| record.cancelled.load(Ordering::SeqCst) == 1).await;

    // The call's future dropped while its task runs.
    let polls = record.polls.load(Ordering::SeqCst);
    tokio::select! {
        _ = remote.call("stuck", &none) => panic!("the task never ends by itself"),
        () = async {
            wait_until(|| record.started.load(Ordering::SeqCst) == 2).await;
            wait_until(|| record.polls.load(Ordering::SeqCst) > polls).await;
        } => {}
    }
    wait_until(|| record.cancelled.load(Ordering::SeqCst) == 2).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failed_cancelled_and_expired_tasks_are_error_results_saying_so() {
    let (remote, _) = tasks().await;
    let failed = err_text(&remote.call("broken", &json!({})).await);
    assert!(
        failed.starts_with("`broken` failed: its task on the MCP server `tasks` failed (JSON-RPC error -32603): the build broke\\n\\u{1b}[31mxxx"),
        "{failed}"
    );
    assert!(failed.len() < 700, "{}", failed.len());

    assert_eq!(
        err_text(&remote.call("self_cancel", &json!({})).await),
        "`self_cancel` did not finish: the MCP server `tasks` cancelled its task."
    );

    let expired = err_text(&remote.call("expiring", &json!({})).await);
    assert!(
        expired.starts_with("`expiring` did not finish: the MCP server `tasks` no longer knows its task (JSON-RPC error -32602: unknown task: "),
        "{expired}"
    );
    assert!(
        expired.ends_with("it expired (its time to live was 50 ms) or was deleted. You may retry."),
        "{expired}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_that_needs_input_asks_the_connections_user_or_fails_and_is_cancelled() {
    let (url, record) = task_server::start().await;
    let (asker, questions) = Scripted::accepting(json!({"name": "Ada"}));
    let server = RemoteServer::http(&url).with_user_input(UserInput::new(asker));
    let remote = connect(server).await;
    assert_eq!(ok_text(&remote.call("asks", &json!({})).await), "hello Ada");
    let questions = questions.lock().unwrap().clone();
    assert_eq!(questions.len(), 1);
    assert_eq!(questions[0].message(), "Who is asking?");
    assert_eq!(
        questions[0].schema(),
        json!({"type": "object", "properties": {
            "name": {"type": "string", "title": "Name"},
            "ok": {"type": "boolean", "title": "Go ahead"}
        }, "required": ["name"]})
    );

    // Nobody to ask: the call fails and the task waiting for the answer is cancelled.
    let remote = connect(RemoteServer::http(&url)).await;
    assert_eq!(
        err_text(&remote.call("asks", &json!({})).await),
        "`asks` did not finish: the MCP server `tasks` asked for the user's input (\"Who is asking?\"), and this client has no way to ask its user (neither the connection nor the call has a `UserInput`)."
    );
    wait_until(|| record.cancelled.load(Ordering::SeqCst) == 1).await;
}

#[tool_group(name = "tasks", description = "Tools that run as tasks.", dynamic)]
struct TaskTools;

#[toolkit]
struct Kit {
    #[basic]
    tasks: Dynamic<TaskTools, Remote>,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_remote_groups_task_asks_the_calling_tools_user_and_reports_to_its_observer() {
    let (remote, _) = tasks().await;
    let kit = Toolkit::new(Kit {
        tasks: Dynamic::new(Remote::new(remote).with_prefix("t_")),
    });
    let mut session = kit.session();
    let (asker, questions) = Scripted::accepting(json!({"name": "Grace", "ok": true}));
    let cx = CallContext::new().with_extension(UserInput::new(asker));
    let result = kit.call_with(&mut session, "t_asks", &json!({}), &cx).await;
    assert_eq!(ok_text(&result), "hello Grace");
    assert_eq!(questions.lock().unwrap().len(), 1);

    let events = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen = events.clone();
    let cx = CallContext::new().on_progress(move |event| {
        if let Progress::Step { done, message, .. } = event.progress {
            seen.lock()
                .unwrap()
                .push(format!("{} {done} {message:?}", event.tool));
        }
    });
    let result = kit
        .call_with(&mut session, "t_steps", &json!({"n": 1}), &cx)
        .await;
    assert_eq!(ok_text(&result), "did 1 steps");
    assert_eq!(
        *events.lock().unwrap(),
        ["t_steps 1 Some(\"queued\")", "t_steps 2 Some(\"step 1\")"]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_tasks_are_clean_error_results_and_are_cancelled() {
    let (remote, record) = tasks().await;
    let long = err_text(&remote.call("long_id", &json!({})).await);
    assert_eq!(
        long,
        format!(
            "`long_id` failed: the MCP server `tasks` started a task with an id of {LONG_ID} bytes (this client accepts 1 to 1024); it was asked to cancel it. Retrying is unlikely to help."
        )
    );
    wait_until(|| record.cancels_of(LONG_ID) == 1).await;

    let options = CallOptions::new().with_timeout(Duration::from_millis(400));
    let never = tokio::time::timeout(PATIENCE, remote.call_with("never", &json!({}), options))
        .await
        .expect("the call ends");
    assert!(
        err_text(&never).starts_with("`never` timed out after 400 ms without news"),
        "{}",
        never.text_joined()
    );
    wait_until(|| record.cancels_of("never".len()) == 1).await;

    let odd = connect(odd()).await;
    let garbage = err_text(&odd.call("garbage_task", &json!({})).await);
    assert_eq!(
        garbage,
        "`garbage_task` failed: the MCP server `tasks` answered `tasks/get` with something that is not a task; the task was cancelled. Retrying is unlikely to help."
    );
    cancelled_on(&odd, "garbage_task").await;
}
