//! The toolkit against the MCP server where outside testing found two defects: npm's
//! `@modelcontextprotocol/server-everything` (its `SERVER_EVERYTHING` entry point, run with
//! node over stdio; skipped when it is not set, and `.ci/run` sets it). Its
//! `trigger-long-running-operation` sends its last progress report right before its result,
//! which the toolkit's observer once missed; its tools' errors once named the server-side
//! tool instead of the prefixed one the model called. Its elicitation form has every kind of
//! field MCP 2025-11-25 defines. (Its tasks are those of the 2025-11-25 experimental tasks,
//! not the `io.modelcontextprotocol/tasks` extension the client follows.)

use crate::support;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::json;
use support::server_everything;
use toolgroup::context::{Progress, UserInput};
use toolgroup::dynamic::Dynamic;
use toolgroup::prelude::*;
use toolgroup_mcp::client::{Remote, RemoteServer, RemoteTools, Stderr};

use super::user_input::Scripted;

/// Calls of the long-running tool: the lost report showed in 2 of 20.
const CALLS: u32 = 20;

/// Bounds each test's calls together; never a timing assertion.
const PATIENCE: Duration = Duration::from_secs(90);

#[tool_group(
    name = "everything",
    description = "The tools of the MCP reference server.",
    dynamic
)]
struct Everything;

#[toolkit]
struct Kit {
    #[basic]
    everything: Dynamic<Everything, Remote>,
}

async fn kit() -> Option<(Toolkit<Kit>, Session<Kit>)> {
    let entry = server_everything()?;
    let remote = RemoteTools::connect(
        RemoteServer::stdio("node", [entry.as_os_str(), "stdio".as_ref()])
            .with_label("server-everything")
            .with_stderr(Stderr::Discard),
    )
    .await
    .expect("server-everything starts");
    let kit = Toolkit::new(Kit {
        everything: Dynamic::new(Remote::new(remote).with_prefix("ev_")),
    });
    let session = kit.session();
    Some((kit, session))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn every_report_of_the_long_running_operation_arrives_before_its_result() {
    let Some((kit, mut session)) = kit().await else {
        return;
    };
    tokio::time::timeout(PATIENCE, async {
        for call in 0..CALLS {
            let events: Arc<Mutex<Vec<String>>> = Arc::default();
            let seen = Arc::clone(&events);
            let cx = CallContext::new().on_progress(move |event| {
                if let Progress::Step { done, total, .. } = event.progress {
                    seen.lock()
                        .unwrap()
                        .push(format!("{} {done}/{total:?}", event.tool));
                }
            });
            let result = kit
                .call_with(
                    &mut session,
                    "ev_trigger-long-running-operation",
                    &json!({"duration": 0.3, "steps": 3}),
                    &cx,
                )
                .await;
            assert!(!result.is_error, "{}", result.text_joined());
            assert!(
                result
                    .text_joined()
                    .starts_with("Long running operation completed"),
                "{}",
                result.text_joined()
            );
            let expected: Vec<String> = (1..=3)
                .map(|i| format!("ev_trigger-long-running-operation {i}/Some(3.0)"))
                .collect();
            assert_eq!(*events.lock().unwrap(), expected, "call {call}");
        }
    })
    .await
    .expect("the calls finished in time");
}

#[tokio::test]
async fn an_argument_error_names_the_tool_the_model_called() {
    let Some((kit, mut session)) = kit().await else {
        return;
    };
    let result = kit
        .call(&mut session, "ev_get-sum", &json!({"a": "two", "b": 3}))
        .await;
    assert!(result.is_error, "{result:?}");
    let text = result.text_joined();
    assert!(text.starts_with("`ev_get-sum` was not run"), "{text}");
    assert!(!text.contains("`get-sum`"), "{text}");
    // The toolkit and the server are unchanged: a good call still works.
    let result = kit
        .call(&mut session, "ev_get-sum", &json!({"a": 2, "b": 3}))
        .await;
    assert!(!result.is_error, "{}", result.text_joined());
    assert!(
        result.text_joined().contains('5'),
        "{}",
        result.text_joined()
    );
}

/// The reference server's elicitation form (every kind of field of MCP 2025-11-25): the
/// client asks the connection's user, leaving out the optional multiple choices it cannot
/// ask, and the server reads the answer.
#[tokio::test]
async fn the_reference_servers_elicitation_form_is_asked_and_answered() {
    let Some(entry) = server_everything() else {
        return;
    };
    let (asker, questions) = Scripted::accepting(json!({"name": "Ada", "check": true}));
    let remote = RemoteTools::connect(
        RemoteServer::stdio("node", [entry.as_os_str(), "stdio".as_ref()])
            .with_label("server-everything")
            .with_stderr(Stderr::Discard)
            .with_user_input(UserInput::new(asker)),
    )
    .await
    .expect("server-everything starts");
    let result = remote.call("trigger-elicitation-request", &json!({})).await;
    assert!(!result.is_error, "{}", result.text_joined());
    let text = result.text_joined();
    assert!(text.contains("- Name: Ada"), "{text}");
    assert!(text.contains("- Agreed to terms: true"), "{text}");
    let questions = questions.lock().unwrap();
    let schema = questions[0].schema();
    let fields: Vec<&String> = schema["properties"].as_object().unwrap().keys().collect();
    assert!(
        fields.contains(&&"titledSingleSelectEnum".to_owned()),
        "{fields:?}"
    );
    assert!(
        !fields.contains(&&"untitledMultipleSelectEnum".to_owned()),
        "{fields:?}"
    );
    assert_eq!(schema["required"], json!(["name"]));
}
