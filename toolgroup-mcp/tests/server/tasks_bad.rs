//! Tasks and input requests under bad input and bad tools: a tool that panics or never ends
//! inside a task, answers that do not fit, answers to questions never asked, and 100
//! concurrent tasks from several clients (none lost, none crossed).

use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ClientCapabilities, ClientConfig, GetTaskParams,
    ProtocolVersion, TaskPayload, TaskStatus,
};
use rmcp::service::RunningService;
use rmcp::{ClientHandler, ClientLifecycleMode, ClientServiceExt, RoleClient, ServiceExt};
use serde_json::{Value, json};
use toolgroup::context::Question;
use toolgroup::prelude::*;
use toolgroup::{Session, Toolkit};
use toolgroup_mcp::{McpServer, Mode};

/// Panic.
#[tool(task = "optional")]
async fn explode() -> String {
    panic!("the tool blew up")
}

/// Never end.
#[tool(task = "optional")]
async fn forever() -> String {
    std::future::pending().await
}

/// Echo `n` after a short wait.
#[tool(task = "optional")]
async fn echo_later(n: u32) -> String {
    tokio::time::sleep(Duration::from_millis(u64::from(n % 7) * 5)).await;
    format!("n={n}")
}

/// Ask a number.
#[tool]
async fn ask_number(ctx: ToolContext<'_>) -> Result<String, String> {
    let answer = ctx
        .ask(Question::new("A number?").integer("n", "N"))
        .await
        .map_err(|e| e.to_string())?;
    Ok(format!(
        "got {}",
        answer.get("n").cloned().unwrap_or(Value::Null)
    ))
}

/// Ask two questions at once.
#[tool(task = "optional")]
async fn ask_two(ctx: ToolContext<'_>) -> String {
    let (a, b) = tokio::join!(
        ctx.ask(Question::new("First?").boolean("yes", "Yes")),
        ctx.ask(Question::new("Second?").boolean("yes", "Yes")),
    );
    format!(
        "{} {}",
        a.is_ok_and(|a| a.is_yes("yes")),
        b.is_ok_and(|b| b.is_yes("yes"))
    )
}

#[tool_group(name = "bad", description = "Bad tools.", tools = [explode, forever, echo_later, ask_number, ask_two])]
struct Bad;

#[toolkit]
struct Kit {
    #[basic]
    bad: Bad,
}

/// A 2026-07-28 client that declares the tasks extension (and elicitation, answered by
/// hand here).
#[derive(Clone)]
struct Client;

impl ClientHandler for Client {
    fn get_info(&self) -> ClientConfig {
        let mut info = ClientConfig::default();
        let mut caps = ClientCapabilities::builder().enable_elicitation().build();
        caps.extensions = ClientCapabilities::builder()
            .enable_tasks()
            .build()
            .extensions;
        info.capabilities = caps;
        info
    }
}

type Running = RunningService<RoleClient, Client>;

async fn client_of(server: &McpServer<Kit>) -> Running {
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    let handler = server.handler_with(Session::new());
    tokio::spawn(async move {
        if let Ok(running) = handler.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    Client
        .serve_with_lifecycle(
            client_io,
            ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            },
        )
        .await
        .expect("the client connects")
}

fn server(ttl: Duration) -> McpServer<Kit> {
    McpServer::new(Toolkit::new(Kit { bad: Bad }), Mode::Mask).with_task_ttl(ttl)
}

fn params(tool: &'static str, arguments: Value) -> CallToolRequestParams {
    CallToolRequestParams::new(tool).with_arguments(arguments.as_object().unwrap().clone())
}

async fn start(client: &Running, tool: &'static str, arguments: Value) -> String {
    match client
        .peer()
        .call_tool_once(params(tool, arguments))
        .await
        .expect("tools/call")
    {
        CallToolResponse::Task(created) => created.task.task_id,
        other => panic!("not a task: {other:?}"),
    }
}

async fn ended(client: &Running, id: &str, limit: Duration) -> rmcp::model::DetailedTask {
    let deadline = tokio::time::Instant::now() + limit;
    loop {
        let got = client
            .peer()
            .get_task(GetTaskParams::new(id))
            .await
            .expect("tasks/get");
        if got.task.status().is_terminal() {
            return got.task;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the task did not end"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test]
async fn a_tool_that_panics_in_a_task_completes_with_an_error_and_the_server_stays_up() {
    let server = server(Duration::from_secs(60));
    let client = client_of(&server).await;
    let id = start(&client, "explode", json!({})).await;
    let task = ended(&client, &id, Duration::from_secs(5)).await;
    let TaskPayload::Completed { result } = &task.payload else {
        panic!("not completed: {task:?}");
    };
    assert_eq!(result["isError"], true);
    // The server goes on.
    let id = start(&client, "echo_later", json!({"n": 1})).await;
    let task = ended(&client, &id, Duration::from_secs(5)).await;
    assert_eq!(task.status(), TaskStatus::Completed);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_tool_that_never_ends_fails_as_expired_at_its_ttl() {
    let server = server(Duration::from_millis(300));
    let client = client_of(&server).await;
    let id = start(&client, "forever", json!({})).await;
    let task = ended(&client, &id, Duration::from_secs(5)).await;
    let TaskPayload::Failed { error } = &task.payload else {
        panic!("not failed: {task:?}");
    };
    assert!(
        error["message"].as_str().unwrap().contains("expired"),
        "{error:?}"
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn input_responses_that_do_not_fit_or_were_not_asked() {
    let server = server(Duration::from_secs(60));
    let client = client_of(&server).await;
    // Each retry with a state of its own: a state is good for one retry.
    let fresh = || async {
        let CallToolResponse::InputRequired(input) = client
            .peer()
            .call_tool_once(params("ask_number", json!({})))
            .await
            .expect("tools/call")
        else {
            panic!("no input request");
        };
        input.request_state.unwrap()
    };
    let retry = |state: String, responses: Value| {
        let responses = responses
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        params("ask_number", json!({}))
            .with_input_responses(responses)
            .with_request_state(state)
    };
    // An answer of the wrong type reaches the tool as an error naming the field.
    let CallToolResponse::Complete(r) = client
        .peer()
        .call_tool_once(retry(
            fresh().await,
            json!({"q1": {"action": "accept", "content": {"n": "seven"}}}),
        ))
        .await
        .unwrap()
    else {
        panic!("not complete");
    };
    assert_eq!(r.is_error, Some(true));
    let text = &r.content[0].as_text().unwrap().text;
    assert!(
        text.contains("field `n` must be an integer, not a string"),
        "{text}"
    );
    assert!(!text.contains("seven"));
    // An answer to a question never asked is ignored: the question is asked again.
    let answer = client
        .peer()
        .call_tool_once(retry(
            fresh().await,
            json!({"q7": {"action": "accept", "content": {"n": 1}}}),
        ))
        .await
        .unwrap();
    assert!(
        matches!(answer, CallToolResponse::InputRequired(_)),
        "{answer:?}"
    );
    // A response that is no elicitation result is refused without running, unquoted; the
    // refused retry does not use its state up.
    let state = fresh().await;
    let refused = client
        .peer()
        .call_tool_once(retry(
            state.clone(),
            json!({"q1": {"action": "sure-thing-secret"}}),
        ))
        .await
        .expect_err("not an elicitation result");
    let text = refused.to_string();
    assert!(text.contains("is not an elicitation result"), "{text}");
    assert!(!text.contains("sure-thing-secret"), "{text}");
    // The right answer.
    let CallToolResponse::Complete(r) = client
        .peer()
        .call_tool_once(retry(
            state,
            json!({"q1": {"action": "accept", "content": {"n": 7}}}),
        ))
        .await
        .unwrap()
    else {
        panic!("not complete");
    };
    assert_eq!(r.content[0].as_text().unwrap().text, "got 7");
    client.cancel().await.unwrap();
}

/// 100 tasks from four clients at once, on loopback in-process streams: each ends with its
/// own result.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hundred_concurrent_tasks_from_several_clients_are_neither_lost_nor_crossed() {
    let server = server(Duration::from_secs(60));
    let mut clients = Vec::new();
    for _ in 0..4 {
        clients.push(std::sync::Arc::new(client_of(&server).await));
    }
    let mut work = tokio::task::JoinSet::new();
    for n in 0..100u32 {
        let client = clients[n as usize % clients.len()].clone();
        work.spawn(async move {
            let id = start(&client, "echo_later", json!({"n": n})).await;
            let task = ended(&client, &id, Duration::from_secs(20)).await;
            let TaskPayload::Completed { result } = &task.payload else {
                panic!("task {n} did not complete: {task:?}");
            };
            assert_eq!(result["content"][0]["text"], format!("n={n}"));
            id
        });
    }
    let ids = tokio::time::timeout(Duration::from_secs(60), work.join_all())
        .await
        .expect("100 tasks end within a minute");
    let unique: std::collections::HashSet<_> = ids.iter().collect();
    assert_eq!(unique.len(), 100);
}

/// Two questions asked at once inside a task wait side by side; each answer ends its own.
#[tokio::test]
async fn a_task_waits_on_two_questions_at_once() {
    use rmcp::model::UpdateTaskParams;
    let server = server(Duration::from_secs(60));
    let client = client_of(&server).await;
    let id = start(&client, "ask_two", json!({})).await;
    let mut keys = Vec::new();
    for _ in 0..500 {
        let got = client
            .peer()
            .get_task(GetTaskParams::new(id.clone()))
            .await
            .unwrap();
        if let TaskPayload::InputRequired { input_requests } = &got.task.payload
            && input_requests.len() == 2
        {
            keys = input_requests.keys().cloned().collect();
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(keys, ["q1", "q2"]);
    for key in ["q2", "q1"] {
        let mut responses = std::collections::BTreeMap::new();
        responses.insert(
            key.to_owned(),
            json!({"action": "accept", "content": {"yes": key == "q1"}}),
        );
        client
            .peer()
            .update_task(UpdateTaskParams::new(id.clone(), responses))
            .await
            .expect("tasks/update");
    }
    let task = ended(&client, &id, Duration::from_secs(10)).await;
    let TaskPayload::Completed { result } = &task.payload else {
        panic!("not completed: {task:?}");
    };
    assert_eq!(result["content"][0]["text"], "true false");
    client.cancel().await.unwrap();
}

/// Responses without the state they answer are not trusted: the call asks again (SEP-2322
/// prefers that to an error).
#[tokio::test]
async fn input_responses_without_a_request_state_ask_again() {
    let server = server(Duration::from_secs(60));
    let client = client_of(&server).await;
    let mut responses = std::collections::BTreeMap::new();
    responses.insert(
        "q1".to_owned(),
        json!({"action": "accept", "content": {"n": 1}}),
    );
    let answer = client
        .peer()
        .call_tool_once(params("ask_number", json!({})).with_input_responses(responses))
        .await
        .expect("tools/call");
    assert!(
        matches!(answer, CallToolResponse::InputRequired(_)),
        "{answer:?}"
    );
    client.cancel().await.unwrap();
}

/// A 2026-07-28 client over stateless Streamable HTTP, as `user` (its `x-user` header).
async fn http_client_as(url: &str, user: &str) -> Running {
    let mut headers = std::collections::HashMap::new();
    headers.insert(
        http::HeaderName::from_static("x-user"),
        http::HeaderValue::from_str(user).unwrap(),
    );
    let transport = rmcp::transport::StreamableHttpClientTransport::from_config(
        rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig::with_uri(url)
            .custom_headers(headers),
    );
    Client
        .serve_with_lifecycle(
            transport,
            ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            },
        )
        .await
        .expect("the client connects")
}

/// `tasks/get` and `tasks/cancel` of `id` by `client`: the errors that refused them.
async fn refused(client: &Running, id: &str) -> [String; 2] {
    let got = client
        .peer()
        .get_task(GetTaskParams::new(id))
        .await
        .expect_err("tasks/get of another's task")
        .to_string();
    let cancelled = client
        .peer()
        .cancel_task(rmcp::model::CancelTaskParams::new(id))
        .await
        .expect_err("tasks/cancel of another's task")
        .to_string();
    [got, cancelled]
}

/// A task is bound to what tells its client apart: the request's key over stateless HTTP
/// (`with_key`), the connection otherwise. Anyone else's `tasks/get` and `tasks/cancel` are
/// the "unknown task" of a wrong id, and the owner's task runs on.
#[tokio::test]
async fn a_task_is_its_owners_alone_by_key_or_connection() {
    // Stateless HTTP, keyed by user: dave cannot see or cancel carol's task.
    let keyed = server(Duration::from_secs(60)).with_key(crate::http::user_key);
    let url = crate::support::serve_loopback(keyed.http_service(crate::support::stateless())).await;
    let carol = http_client_as(&url, "carol").await;
    let dave = http_client_as(&url, "dave").await;
    let id = start(&carol, "forever", json!({})).await;
    for error in refused(&dave, &id).await {
        assert!(error.contains("unknown task"), "{error}");
    }
    // Carol, from a new client with the same key, still sees it working, and cancels it.
    let carol_again = http_client_as(&url, "carol").await;
    let got = carol_again
        .peer()
        .get_task(GetTaskParams::new(id.clone()))
        .await
        .expect("the owner's tasks/get");
    assert_eq!(got.task.status(), TaskStatus::Working);
    carol_again
        .peer()
        .cancel_task(rmcp::model::CancelTaskParams::new(id.clone()))
        .await
        .expect("the owner's tasks/cancel");
    assert_eq!(
        ended(&carol, &id, Duration::from_secs(10)).await.status(),
        TaskStatus::Cancelled
    );

    // Two connections of one server (stdio, in-process streams): each its own tasks.
    let shared = server(Duration::from_secs(60));
    let (one, other) = (client_of(&shared).await, client_of(&shared).await);
    let id = start(&one, "forever", json!({})).await;
    for error in refused(&other, &id).await {
        assert!(error.contains("unknown task"), "{error}");
    }
    let got = one
        .peer()
        .get_task(GetTaskParams::new(id))
        .await
        .expect("the owner's tasks/get");
    assert_eq!(got.task.status(), TaskStatus::Working);
    for client in [carol, dave, carol_again, one, other] {
        client.cancel().await.unwrap();
    }
}
