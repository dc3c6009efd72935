//! The Redis store against a real `redis-server` (at `REDIS_URL`): two server replicas share
//! the active groups of stateless HTTP clients. Skipped, with a notice, when `REDIS_URL` is
//! not set (`.ci/run` starts a server and sets it).

mod support;

use std::time::{SystemTime, UNIX_EPOCH};

use rmcp::transport::StreamableHttpServerConfig;
use serde_json::{Value, json};
use toolgroup_mcp::{GroupStore, McpServer, Mode, RedisStore};

fn redis_url() -> Option<String> {
    match std::env::var("REDIS_URL") {
        Ok(url) if !url.is_empty() => Some(url),
        _ => {
            // Written to the stderr handle itself: the test harness captures `eprintln!`.
            use std::io::Write as _;
            let _ = writeln!(
                std::io::stderr(),
                "skipped: REDIS_URL is not set (the URL of a Redis server to test the Redis store against)"
            );
            None
        }
    }
}

/// A key prefix of its own for each run, so runs never see each other's keys.
fn prefix() -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    format!("toolgroup-test:{}:{nanos}:", std::process::id())
}

async fn replica(url: &str, prefix: &str) -> String {
    let store = RedisStore::connect(url)
        .await
        .unwrap()
        .with_prefix(prefix)
        .with_ttl_seconds(600);
    let server = McpServer::new(support::toolkit(), Mode::Gated)
        .with_store(store)
        .with_key(|parts| {
            parts
                .headers
                .get("x-user")?
                .to_str()
                .ok()
                .map(str::to_owned)
        });
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
        .with_json_response(true);
    let app = server.router("/mcp", config);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let _ = toolgroup_mcp::axum::serve(listener, app).await;
    });
    format!("http://{addr}/mcp")
}

async fn call(
    http: &reqwest::Client,
    url: &str,
    user: &str,
    name: &str,
    arguments: Value,
) -> Value {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": name, "arguments": arguments}});
    let text = http
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
    let v: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    v["result"].clone()
}

#[tokio::test]
async fn two_replicas_share_the_active_groups() {
    let Some(url) = redis_url() else { return };
    let prefix = prefix();
    let a = replica(&url, &prefix).await;
    let b = replica(&url, &prefix).await;
    let http = reqwest::Client::new();

    let r = call(&http, &b, "ann", "web_search", json!({"query": "q"})).await;
    assert_eq!(r["isError"], true, "nothing active yet: {r}");
    let r = call(
        &http,
        &a,
        "ann",
        "reset_tools",
        json!({"web_search": true, "scraping": false, "waiting": false}),
    )
    .await;
    assert_eq!(r["isError"], false, "{r}");
    let r = call(&http, &b, "ann", "web_search", json!({"query": "q"})).await;
    assert_eq!(
        r["isError"], false,
        "a reset through A is seen through B: {r}"
    );
    let r = call(&http, &b, "ben", "web_search", json!({"query": "q"})).await;
    assert_eq!(r["isError"], true, "another user's set is separate: {r}");

    // Switched off through B, seen through A.
    let r = call(
        &http,
        &b,
        "ann",
        "reset_tools",
        json!({"web_search": false, "scraping": true, "waiting": false}),
    )
    .await;
    assert_eq!(r["isError"], false, "{r}");
    let r = call(&http, &a, "ann", "web_search", json!({"query": "q"})).await;
    assert_eq!(r["isError"], true, "{r}");
    let r = call(&http, &a, "ann", "page_fetch", json!({"url": "https://a"})).await;
    assert_eq!(r["isError"], false, "{r}");

    // A refused reset saves nothing.
    let r = call(&http, &a, "ann", "reset_tools", json!({"scrapin": true})).await;
    assert_eq!(r["isError"], true, "{r}");
    let store = RedisStore::connect(&url)
        .await
        .unwrap()
        .with_prefix(prefix.as_str());
    assert_eq!(
        store.load("ann").await.unwrap(),
        Some(vec!["scraping".to_owned()])
    );
    assert_eq!(store.load("nobody").await.unwrap(), None);
}

#[tokio::test]
async fn a_corrupt_value_is_an_error_result_and_changes_nothing() {
    let Some(url) = redis_url() else { return };
    let prefix = prefix();
    let client = redis::Client::open(url.as_str()).unwrap();
    let mut conn = client.get_multiplexed_async_connection().await.unwrap();
    redis::cmd("SET")
        .arg(format!("{prefix}eve"))
        .arg("not json")
        .query_async::<()>(&mut conn)
        .await
        .unwrap();
    let a = replica(&url, &prefix).await;
    let http = reqwest::Client::new();
    let r = call(&http, &a, "eve", "web_search", json!({"query": "q"})).await;
    assert_eq!(r["isError"], true);
    assert!(
        r["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("could not be loaded"),
        "{r}"
    );
    let r = call(
        &http,
        &a,
        "eve",
        "reset_tools",
        json!({"web_search": true, "scraping": false, "waiting": false}),
    )
    .await;
    assert_eq!(r["isError"], true, "{r}");
    let value: String = redis::cmd("GET")
        .arg(format!("{prefix}eve"))
        .query_async(&mut conn)
        .await
        .unwrap();
    assert_eq!(value, "not json");
    // A bad URL is an error, not a panic.
    assert!(RedisStore::connect("not a url").await.is_err());
}
