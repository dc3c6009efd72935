//! First-use activation over MCP (`McpServer::with_first_use_activation`): a call of a tool
//! of an inactive group activates the group and runs, its result carrying the group's
//! instructions once; the activation is kept where the active set lives (the connection, the
//! store under the request's key), sends `list_changed` in list mode, and never happens for a
//! call the policy denies, an error result, a selected connection, or a request without a key.

use crate::support;

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use serde_json::{Value, json};
use support::{Agent, call, connect, joined, names, rpc_error, serve_loopback, stateless, text};
use toolgroup::Session;
use toolgroup::policy::{Decision, PolicyRequest};
use toolgroup_mcp::{GroupStore, McpServer, MemoryStore, Mode};

fn server(mode: Mode) -> McpServer<Agent> {
    McpServer::new(support::toolkit(), mode).with_first_use_activation(true)
}

const INSTRUCTIONS: &str = "Cite your sources.";

#[tokio::test]
async fn a_first_call_activates_its_group_once_in_mask_and_list_mode() {
    for mode in [Mode::Mask, Mode::List] {
        let (client, counting) = connect(&server(mode), Session::new()).await;
        let r = call(&client, "web_search", json!({"query": "q"}))
            .await
            .unwrap();
        assert_eq!(r.is_error, Some(false), "{mode}: {}", text(&r));
        assert!(text(&r).contains("hit for q"), "{mode}: {}", text(&r));
        assert!(text(&r).contains(INSTRUCTIONS), "{mode}: {}", text(&r));
        // Active now: the next call carries no instructions.
        let r = call(&client, "web_search", json!({"query": "again"}))
            .await
            .unwrap();
        assert_eq!(r.is_error, Some(false));
        assert!(!text(&r).contains(INSTRUCTIONS), "{mode}: {}", text(&r));
        if mode == Mode::List {
            tokio::time::timeout(Duration::from_secs(10), counting.changed.notified())
                .await
                .expect("notifications/tools/list_changed");
            assert_eq!(
                names(&client).await,
                [
                    "reset_tools",
                    "note_write",
                    "slow_stats",
                    "whoami",
                    "web_search"
                ]
            );
            assert_eq!(counting.list_changed.load(Ordering::SeqCst), 1);
        } else {
            // Every tool but `reset_tools`, which first-use activation makes needless.
            assert_eq!(names(&client).await.len(), 7);
            assert_eq!(counting.list_changed.load(Ordering::SeqCst), 0);
        }
        client.cancel().await.unwrap();
    }
}

#[tokio::test]
async fn an_error_result_or_a_denial_activates_nothing() {
    let toolkit = support::toolkit().with_policy(|request: &PolicyRequest<'_>| {
        if request.tool == "page_fetch" {
            Decision::deny("no fetching here")
        } else {
            Decision::Allow
        }
    });
    let server = McpServer::new(toolkit, Mode::List).with_first_use_activation(true);
    let (client, counting) = connect(&server, Session::new()).await;
    let r = call(&client, "page_fetch", json!({"url": "https://a"}))
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(true), "{}", text(&r));
    assert!(text(&r).contains("no fetching here"), "{}", text(&r));
    // Bad arguments: the tool's error, nothing activated.
    let r = call(&client, "web_search", json!({"query": 5}))
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(true));
    assert_eq!(names(&client).await.len(), 4);
    assert_eq!(counting.list_changed.load(Ordering::SeqCst), 0);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn the_server_choice_overrides_the_toolkits() {
    // The toolkit refuses such calls by default; the server activates, by default.
    let toolkit = support::toolkit;
    assert!(!toolkit().first_use_activation());
    let (client, _) = connect(&McpServer::new(toolkit(), Mode::Mask), Session::new()).await;
    let r = call(&client, "web_search", json!({"query": "q"}))
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(false), "{}", text(&r));
    client.cancel().await.unwrap();
    // Turned off by the server: today's refusal.
    let server = McpServer::new(toolkit(), Mode::Mask).with_first_use_activation(false);
    let (client, _) = connect(&server, Session::new()).await;
    let r = call(&client, "web_search", json!({"query": "q"}))
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(true));
    assert!(text(&r).contains("which is not active"), "{}", text(&r));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_selected_connection_activates_nothing() {
    let (client, _) = connect(&server(Mode::Selected), "scraping".parse().unwrap()).await;
    let (code, message) = rpc_error(
        call(&client, "web_search", json!({"query": "q"}))
            .await
            .unwrap_err(),
    );
    assert_eq!(code, rmcp::model::ErrorCode::INVALID_PARAMS);
    assert!(message.contains("did not select"), "{message}");
    client.cancel().await.unwrap();
}

/// One stateless `tools/call` POST (2025-06-18): the result.
pub(crate) async fn post_call(
    url: &str,
    user: Option<&str>,
    tool: &str,
    arguments: Value,
) -> Value {
    let body = crate::http::call_body(1, tool, arguments);
    let (_, text) = crate::http::post(&reqwest::Client::new(), url, user, &body).await;
    let answer: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    answer["result"].clone()
}

#[tokio::test]
async fn stateless_requests_keep_it_under_their_key_or_not_at_all() {
    let store = Arc::new(MemoryStore::new());
    let keyed = || {
        server(Mode::Mask)
            .with_store(store.clone())
            .with_key(crate::http::user_key)
    };
    let a = serve_loopback(keyed().http_service(stateless())).await;
    let b = serve_loopback(keyed().http_service(stateless())).await;
    let r = post_call(&a, Some("alice"), "web_search", json!({"query": "q"})).await;
    assert_eq!(r["isError"], false, "{r}");
    assert!(joined(&r).contains(INSTRUCTIONS), "{r}");
    assert_eq!(
        store.load("alice").await.unwrap(),
        Some(vec!["web_search".to_owned()])
    );
    // Kept for alice, seen through another replica: no instructions again.
    let r = post_call(&b, Some("alice"), "web_search", json!({"query": "q"})).await;
    assert_eq!(r["isError"], false, "{r}");
    assert!(!joined(&r).contains(INSTRUCTIONS), "{r}");
    // A basic tool saves nothing.
    let r = post_call(&b, Some("bob"), "note_write", json!({"text": "x"})).await;
    assert_eq!(r["isError"], false, "{r}");
    assert_eq!(store.load("bob").await.unwrap(), None);
    // Without a key: it runs with its group for itself alone, every time.
    for _ in 0..2 {
        let r = post_call(&a, None, "web_search", json!({"query": "q"})).await;
        assert_eq!(r["isError"], false, "{r}");
        assert!(joined(&r).contains(INSTRUCTIONS), "{r}");
    }
    assert_eq!(store.len(), 1);
}
