//! The Streamable HTTP endpoint on loopback: rmcp's HTTP client, raw requests, bad input,
//! disconnects, replicas sharing a store, and 200 concurrent clients.

use crate::skills_support;
use crate::support;

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use rmcp::ServiceExt;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::StreamableHttpServerConfig;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use serde_json::{Value, json};
use support::{Agent, Client, Counting, call, names, serve_loopback, stateless, text};
use toolgroup_mcp::{GroupStore, McpServer, MemoryStore, Mode};

async fn spawn<R: toolgroup::Registry>(
    server: &McpServer<R>,
    config: StreamableHttpServerConfig,
) -> String {
    serve_loopback(server.http_service(config)).await
}

pub(crate) async fn client(url: &str, headers: &[(&'static str, &str)]) -> Client {
    let mut custom = HashMap::new();
    for (name, value) in headers {
        custom.insert(
            http::HeaderName::from_static(name),
            http::HeaderValue::from_str(value).unwrap(),
        );
    }
    let transport = StreamableHttpClientTransport::from_config(
        StreamableHttpClientTransportConfig::with_uri(url).custom_headers(custom),
    );
    Counting::default()
        .serve(transport)
        .await
        .expect("the client connects")
}

fn keyed(store: Arc<MemoryStore>, mode: Mode) -> McpServer<Agent> {
    keyed_server(support::toolkit(), store, mode)
}

/// `toolkit` served with `store`, each client keyed by its `x-user` header.
fn keyed_server<R: toolgroup::Registry>(
    toolkit: toolgroup::Toolkit<R>,
    store: impl GroupStore,
    mode: Mode,
) -> McpServer<R> {
    McpServer::new(toolkit, mode)
        // These tests are about refusing calls of inactive groups (`first_use.rs` tests the
        // default, activation on first use).
        .with_first_use_activation(false)
        .with_store(store)
        .with_key(user_key)
}

pub(crate) use support::user_key;

/// One raw JSON-RPC POST (no session: stateless), answered as JSON.
pub(crate) async fn post(
    http: &reqwest::Client,
    url: &str,
    user: Option<&str>,
    body: &str,
) -> (u16, String) {
    let mut request = http
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-06-18")
        .body(body.to_owned());
    if let Some(user) = user {
        request = request.header("x-user", user);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.text().await.unwrap())
}

pub(crate) fn call_body(id: u64, name: &str, arguments: Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
           "params": {"name": name, "arguments": arguments}})
    .to_string()
}

/// The first text block of a `tools/call` result.
fn first_text(result: &Value) -> &str {
    result["content"][0]["text"].as_str().unwrap_or_default()
}

/// The `result` of a JSON-RPC response.
fn result(body: &str) -> Value {
    let v: Value = serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"));
    v.get("result")
        .cloned()
        .unwrap_or_else(|| panic!("no result: {body}"))
}

#[tokio::test]
async fn a_skill_load_that_activates_a_group_is_kept_for_its_key_on_every_replica() {
    let store = Arc::new(MemoryStore::new());
    let activating = || skills_support::toolkit().with_skill_activation(true);
    let a = keyed_server(activating(), store.clone(), Mode::Mask);
    let b = keyed_server(activating(), store.clone(), Mode::Mask);
    let url_a = spawn(&a, stateless()).await;
    let url_b = spawn(&b, stateless()).await;
    let http = reqwest::Client::new();
    let fill = || call_body(2, "form_fill", json!({"field": "a", "value": "b"}));

    let (_, body) = post(&http, &url_b, Some("alice"), &fill()).await;
    assert_eq!(
        result(&body)["isError"],
        true,
        "docs is inactive at first: {body}"
    );
    // Loaded through A: the group it activates is saved under alice's key.
    let load = call_body(1, "Skill", json!({"skill": "pdf-forms"}));
    let (_, body) = post(&http, &url_a, Some("alice"), &load).await;
    let r = result(&body);
    assert_eq!(r["isError"], false, "{body}");
    assert!(
        first_text(&r).contains("activated its group `docs`"),
        "{body}"
    );
    assert_eq!(
        store.load("alice").await.unwrap(),
        Some(vec!["docs".to_owned()])
    );
    // Seen through B, for alice only.
    let (_, body) = post(&http, &url_b, Some("alice"), &fill()).await;
    assert_eq!(result(&body)["isError"], false, "kept for alice: {body}");
    let (_, body) = post(&http, &url_b, Some("bob"), &fill()).await;
    assert_eq!(result(&body)["isError"], true, "bob loaded nothing: {body}");

    // Without a key the activation cannot be kept: refused, nothing saved, and the same
    // call's skill of a basic group still loads.
    let (_, body) = post(&http, &url_a, None, &load).await;
    let r = result(&body);
    assert_eq!(r["isError"], true, "{body}");
    assert!(first_text(&r).contains("Nothing was changed"), "{body}");
    assert_eq!(store.len(), 1);
    let basic = call_body(3, "Skill", json!({"skill": "release-checklist"}));
    let (_, body) = post(&http, &url_a, None, &basic).await;
    assert_eq!(result(&body)["isError"], false, "{body}");
}

#[tokio::test]
async fn protocol_sessions_keep_their_own_groups() {
    let server = McpServer::new(support::toolkit(), Mode::Mask).with_first_use_activation(false);
    let url = spawn(&server, StreamableHttpServerConfig::default()).await;
    let a = client(&url, &[]).await;
    let b = client(&url, &[]).await;
    assert_eq!(names(&a).await.len(), 8);
    let r = call(
        &a,
        "reset_tools",
        json!({"web_search": true, "scraping": false, "waiting": false}),
    )
    .await
    .unwrap();
    assert_eq!(r.is_error, Some(false), "{}", text(&r));
    let r = call(&a, "web_search", json!({"query": "q"})).await.unwrap();
    assert_eq!(r.is_error, Some(false), "{}", text(&r));
    let r = call(&b, "web_search", json!({"query": "q"})).await.unwrap();
    assert_eq!(
        r.is_error,
        Some(true),
        "session B did not switch web_search on"
    );
    a.cancel().await.unwrap();
    b.cancel().await.unwrap();
}

#[tokio::test]
async fn selected_groups_come_from_the_url() {
    let server = McpServer::new(support::toolkit(), Mode::Selected);
    let url = spawn(&server, StreamableHttpServerConfig::default()).await;
    let c = client(&format!("{url}?groups=web_search"), &[]).await;
    assert_eq!(
        names(&c).await,
        ["note_write", "slow_stats", "whoami", "web_search"]
    );
    let instructions = c
        .peer_info()
        .unwrap()
        .instructions
        .clone()
        .unwrap_or_default();
    assert!(
        instructions.contains("Cite your sources."),
        "{instructions}"
    );
    let r = call(&c, "web_search", json!({"query": "q"})).await.unwrap();
    assert_eq!(r.is_error, Some(false));
    c.cancel().await.unwrap();

    // Stateless too: each request carries its URL.
    let url2 = spawn(&server, stateless()).await;
    let http = reqwest::Client::new();
    let (status, body) = post(
        &http,
        &format!("{url2}?groups=scraping"),
        None,
        &call_body(1, "page_fetch", json!({"url": "https://a"})),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(result(&body)["isError"], false, "{body}");

    // Unknown names: 400, every problem, a did-you-mean, nothing served.
    let (status, body) = post(
        &http,
        &format!("{url}?groups=web_serch,scraping,nope"),
        None,
        &call_body(1, "note_write", json!({"text": "x"})),
    )
    .await;
    assert_eq!(status, 400);
    let body: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(body["error"], "unknown_groups");
    assert_eq!(
        body["unknown"][0],
        json!({"name": "web_serch", "did_you_mean": "web_search"})
    );
    assert_eq!(body["unknown"][1]["name"], "nope");
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("unknown group `nope`")
    );
}

#[tokio::test]
async fn stateless_replicas_share_the_store() {
    let store = Arc::new(MemoryStore::new());
    let a = keyed(store.clone(), Mode::Mask);
    let b = keyed(store.clone(), Mode::Mask);
    let url_a = spawn(&a, stateless()).await;
    let url_b = spawn(&b, stateless()).await;
    let http = reqwest::Client::new();

    let (_, body) = post(
        &http,
        &url_a,
        Some("alice"),
        &call_body(
            1,
            "reset_tools",
            json!({"web_search": true, "scraping": false, "waiting": false}),
        ),
    )
    .await;
    assert_eq!(result(&body)["isError"], false, "{body}");
    let (_, body) = post(
        &http,
        &url_b,
        Some("alice"),
        &call_body(2, "web_search", json!({"query": "q"})),
    )
    .await;
    assert_eq!(
        result(&body)["isError"],
        false,
        "a reset through A is seen through B: {body}"
    );
    let (_, body) = post(
        &http,
        &url_b,
        Some("bob"),
        &call_body(3, "web_search", json!({"query": "q"})),
    )
    .await;
    assert_eq!(result(&body)["isError"], true, "bob did not switch: {body}");
    assert_eq!(
        store.load("alice").await.unwrap(),
        Some(vec!["web_search".to_owned()])
    );

    // No key: basic tools work, reset_tools is refused and saves nothing.
    let (_, body) = post(
        &http,
        &url_a,
        None,
        &call_body(4, "note_write", json!({"text": "x"})),
    )
    .await;
    assert_eq!(result(&body)["isError"], false, "{body}");
    let (_, body) = post(
        &http,
        &url_a,
        None,
        &call_body(
            5,
            "reset_tools",
            json!({"web_search": true, "scraping": false, "waiting": false}),
        ),
    )
    .await;
    let r = result(&body);
    assert_eq!(r["isError"], true);
    assert!(
        first_text(&r).contains("cannot keep the active groups"),
        "{body}"
    );
    assert_eq!(store.len(), 1);

    // The same through rmcp's client, as a 2026-07-28 client would not hold a session.
    let c = client(&url_b, &[("x-user", "alice"), ("x-user-id", "alice-id")]).await;
    let r = call(&c, "web_search", json!({"query": "q"})).await.unwrap();
    assert_eq!(r.is_error, Some(false), "{}", text(&r));
    // The HTTP request's parts reach the tools.
    let r = call(&c, "whoami", json!({})).await.unwrap();
    assert_eq!(text(&r), "alice-id");
    c.cancel().await.unwrap();
}

/// A store chosen at run time, boxed as `dyn GroupStore`, keeps what the server saves.
#[tokio::test]
async fn a_boxed_store_keeps_the_active_groups() {
    let store = Arc::new(MemoryStore::new());
    let boxed: Box<dyn GroupStore> = Box::new(store.clone());
    let server = keyed_server(support::toolkit(), boxed, Mode::Mask);
    let url = spawn(&server, stateless()).await;
    let http = reqwest::Client::new();
    let (_, body) = post(
        &http,
        &url,
        Some("alice"),
        &call_body(
            1,
            "reset_tools",
            json!({"web_search": true, "scraping": false, "waiting": false}),
        ),
    )
    .await;
    assert_eq!(result(&body)["isError"], false, "{body}");
    assert_eq!(
        store.load("alice").await.unwrap(),
        Some(vec!["web_search".to_owned()])
    );
}

#[tokio::test]
async fn bad_http_input_is_refused_and_changes_nothing() {
    let store = Arc::new(MemoryStore::new());
    let server = keyed(store.clone(), Mode::Mask);
    let url = spawn(&server, stateless().with_max_request_body_bytes(4096)).await;
    let http = reqwest::Client::new();

    // Malformed JSON, not JSON-RPC, an unknown method, an oversized body.
    let (status, body) = post(&http, &url, Some("u"), "{not json").await;
    assert!((400..500).contains(&status), "{status} {body}");
    let (status, body) = post(&http, &url, Some("u"), r#"{"hello": "world"}"#).await;
    assert!((400..500).contains(&status), "{status} {body}");
    let (status, body) = post(
        &http,
        &url,
        Some("u"),
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/explode","params":{}}"#,
    )
    .await;
    if status == 200 {
        let v: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(v["error"]["code"], -32601, "{body}");
    } else {
        assert!((400..500).contains(&status), "{status} {body}");
    }
    let big = call_body(
        1,
        "reset_tools",
        json!({"web_search": true, "pad": "x".repeat(10_000)}),
    );
    let (status, _) = post(&http, &url, Some("u"), &big).await;
    assert_eq!(status, 413);
    // A `Host` that is not loopback (DNS rebinding) is refused.
    let status = http
        .post(&url)
        .header("host", "evil.example")
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(call_body(1, "note_write", json!({"text": "x"})))
        .send()
        .await
        .unwrap()
        .status()
        .as_u16();
    assert!((400..500).contains(&status), "{status}");
    // Nothing was stored, and the server goes on.
    assert!(store.is_empty());
    let (_, body) = post(
        &http,
        &url,
        Some("u"),
        &call_body(9, "note_write", json!({"text": "ok"})),
    )
    .await;
    assert_eq!(result(&body)["content"][0]["text"], "noted: ok");
}

#[tokio::test]
async fn an_http_client_that_disconnects_cancels_the_tool() {
    let server = McpServer::new(support::toolkit(), Mode::Selected);
    let url = spawn(&server, stateless()).await;
    let _counted = support::SLOW_COUNTED.lock().await;
    let dropped = support::SLOW_DROPPED.load(Ordering::SeqCst);
    let started = support::SLOW_STARTED.load(Ordering::SeqCst);
    let task = tokio::spawn(async move {
        let http = reqwest::Client::new();
        post(
            &http,
            &format!("{url}?groups=waiting"),
            None,
            &call_body(1, "slow", json!({"seconds": 60})),
        )
        .await
    });
    for _ in 0..1000 {
        if support::SLOW_STARTED.load(Ordering::SeqCst) > started {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(
        support::SLOW_STARTED.load(Ordering::SeqCst) > started,
        "the tool started"
    );
    task.abort();
    for _ in 0..1000 {
        if support::SLOW_DROPPED.load(Ordering::SeqCst) > dropped {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(
        support::SLOW_DROPPED.load(Ordering::SeqCst) > dropped,
        "the tool was cancelled"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_hundred_clients_switch_their_own_groups() {
    let store = Arc::new(MemoryStore::new());
    let server = keyed(store.clone(), Mode::Mask);
    let url = spawn(&server, stateless()).await;
    let mut tasks = Vec::new();
    for i in 0..200u64 {
        let url = url.clone();
        tasks.push(tokio::spawn(async move {
            // Each client has its own connection.
            let http = reqwest::Client::new();
            let user = format!("user-{i}");
            for round in 0..3u64 {
                let search = (i + round) % 2 == 0;
                let scraping = (i + round) % 3 == 0;
                let reset = json!({"web_search": search, "scraping": scraping, "waiting": false});
                let (_, body) = post(
                    &http,
                    &url,
                    Some(&user),
                    &call_body(1, "reset_tools", reset),
                )
                .await;
                assert_eq!(result(&body)["isError"], false, "{body}");
                let (_, body) = post(
                    &http,
                    &url,
                    Some(&user),
                    &call_body(2, "web_search", json!({"query": user})),
                )
                .await;
                assert_eq!(
                    result(&body)["isError"],
                    !search,
                    "{user} round {round}: {body}"
                );
                let (_, body) = post(
                    &http,
                    &url,
                    Some(&user),
                    &call_body(3, "page_fetch", json!({"url": "https://a"})),
                )
                .await;
                assert_eq!(
                    result(&body)["isError"],
                    !scraping,
                    "{user} round {round}: {body}"
                );
            }
        }));
    }
    for t in tasks {
        t.await.expect("no client failed");
    }
    assert_eq!(store.len(), 200);
    let http = reqwest::Client::new();
    let (_, body) = post(
        &http,
        &url,
        Some("user-0"),
        &call_body(1, "note_write", json!({"text": "x"})),
    )
    .await;
    assert_eq!(result(&body)["isError"], false);
}

#[tokio::test]
async fn the_memory_store_gives_back_exactly_what_was_saved() {
    let store = MemoryStore::new();
    let lists: [&[&str]; 5] = [
        &[],
        &["web_search"],
        &["web_search", "scraping"],
        &["", "a"],
        &["two\nlines", "b"],
    ];
    for (n, list) in lists.iter().enumerate() {
        let key = format!("key-{n}");
        let names: Vec<String> = list.iter().map(|s| (*s).to_owned()).collect();
        store.save(&key, names.clone()).await.unwrap();
        assert_eq!(store.load(&key).await.unwrap(), Some(names), "{list:?}");
    }
    assert_eq!(store.load("never-saved").await.unwrap(), None);
    assert_eq!(store.len(), lists.len());
}
