//! The Redis store of active groups: two replicas share the active groups of stateless HTTP
//! clients, a corrupt value, and Redis restarted or paused.

use rmcp::transport::StreamableHttpServerConfig;
use serde_json::{Value, json};
use toolgroup_mcp::{GroupStore, McpServer, Mode, RedisStore};

use super::{OwnRedis, PROMPT, prefix, redis_url, support, timed};

/// A replica that refuses calls of inactive groups (the tests switch groups with
/// `reset_tools`, and read a refusal as "not active here").
async fn replica(url: &str, prefix: &str) -> String {
    replica_with(url, prefix, false).await
}

async fn replica_with(url: &str, prefix: &str, first_use: bool) -> String {
    let store = RedisStore::connect(url)
        .await
        .unwrap()
        .with_prefix(prefix)
        .with_ttl(std::time::Duration::from_secs(600));
    let server = McpServer::new(support::toolkit(), Mode::Mask)
        .with_first_use_activation(first_use)
        .with_store(store)
        .with_key(super::user_key);
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

async fn call(url: &str, user: &str, name: &str, arguments: Value) -> Value {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": name, "arguments": arguments}});
    support::post_as(url, user, &body).await["result"].clone()
}

#[tokio::test]
async fn an_activation_on_first_use_is_kept_in_the_store_for_every_replica() {
    let Some(url) = redis_url() else { return };
    let prefix = prefix();
    let a = replica_with(&url, &prefix, true).await;
    let b = replica_with(&url, &prefix, true).await;

    let r = call(&a, "eve", "web_search", json!({"query": "q"})).await;
    assert_eq!(r["isError"], false, "{r}");
    assert!(
        r.to_string()
            .contains("This call activated the group `web_search`"),
        "{r}"
    );
    // The other replica reads the activation from the store: the group is active there, so
    // its call carries no second activation.
    let r = call(&b, "eve", "web_search", json!({"query": "q"})).await;
    assert_eq!(r["isError"], false, "{r}");
    assert!(!r.to_string().contains("activated the group"), "{r}");
    // Another user's groups are their own.
    let r = call(&b, "mallory", "web_search", json!({"query": "q"})).await;
    assert!(r.to_string().contains("activated the group"), "{r}");
}

#[tokio::test]
async fn two_replicas_share_the_active_groups() {
    let Some(url) = redis_url() else { return };
    let prefix = prefix();
    let a = replica(&url, &prefix).await;
    let b = replica(&url, &prefix).await;

    let r = call(&b, "ann", "web_search", json!({"query": "q"})).await;
    assert_eq!(r["isError"], true, "nothing active yet: {r}");
    let r = call(
        &a,
        "ann",
        "reset_tools",
        json!({"web_search": true, "scraping": false, "waiting": false}),
    )
    .await;
    assert_eq!(r["isError"], false, "{r}");
    let r = call(&b, "ann", "web_search", json!({"query": "q"})).await;
    assert_eq!(
        r["isError"], false,
        "a reset through A is seen through B: {r}"
    );
    let r = call(&b, "ben", "web_search", json!({"query": "q"})).await;
    assert_eq!(r["isError"], true, "another user's set is separate: {r}");

    // Switched off through B, seen through A.
    let r = call(
        &b,
        "ann",
        "reset_tools",
        json!({"web_search": false, "scraping": true, "waiting": false}),
    )
    .await;
    assert_eq!(r["isError"], false, "{r}");
    let r = call(&a, "ann", "web_search", json!({"query": "q"})).await;
    assert_eq!(r["isError"], true, "{r}");
    let r = call(&a, "ann", "page_fetch", json!({"url": "https://a"})).await;
    assert_eq!(r["isError"], false, "{r}");

    // A refused reset saves nothing.
    let r = call(&a, "ann", "reset_tools", json!({"scrapin": true})).await;
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
    let r = call(&a, "eve", "web_search", json!({"query": "q"})).await;
    assert_eq!(r["isError"], true);
    assert!(
        r["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("could not be loaded"),
        "{r}"
    );
    let r = call(
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

fn text(r: &Value) -> &str {
    r["content"][0]["text"].as_str().unwrap_or_default()
}

#[tokio::test]
async fn the_store_reconnects_after_redis_restarts() {
    let Some(mut redis) = OwnRedis::start().await else {
        return;
    };
    let url = redis.url();
    let prefix = prefix();
    let a = replica(&url, &prefix).await;
    // B makes no call while Redis is down: its first call after the restart finds its
    // connection dead.
    let b = replica(&url, &prefix).await;
    let on = json!({"web_search": true, "scraping": false, "waiting": false});

    let r = call(&a, "ann", "reset_tools", on.clone()).await;
    assert_eq!(r["isError"], false, "{r}");
    let r = call(&b, "ann", "web_search", json!({"query": "q"})).await;
    assert_eq!(r["isError"], false, "{r}");

    redis.kill();
    for _ in 0..3 {
        let (r, took) = timed(call(&a, "ann", "web_search", json!({"query": "q"}))).await;
        assert_eq!(r["isError"], true, "{r}");
        assert!(
            text(&r).starts_with(
                "`web_search` was not run: the active groups could not be loaded: Redis GET failed: "
            ),
            "{r}"
        );
        assert!(
            took < PROMPT,
            "an error result while Redis is down took {took:?}"
        );
    }

    // The new server starts empty (nothing was saved): every replica recovers by itself, with
    // no call refused once the server answers.
    redis.restart().await;
    let (r, took) = timed(call(&a, "ann", "reset_tools", on.clone())).await;
    assert_eq!(r["isError"], false, "A after the restart ({took:?}): {r}");
    let (r, took) = timed(call(&b, "ann", "web_search", json!({"query": "q"}))).await;
    assert_eq!(r["isError"], false, "B after the restart ({took:?}): {r}");
    let (r, took) = timed(call(&b, "ben", "reset_tools", on)).await;
    assert_eq!(
        r["isError"], false,
        "B saves after the restart ({took:?}): {r}"
    );
    let store = RedisStore::connect(&url)
        .await
        .unwrap()
        .with_prefix(prefix.as_str());
    assert_eq!(
        store.load("ben").await.unwrap(),
        Some(vec!["web_search".to_owned()])
    );
}

#[tokio::test]
async fn basic_tools_answer_while_redis_is_paused() {
    let Some(redis) = OwnRedis::start().await else {
        return;
    };
    let url = redis.url();
    let prefix = prefix();
    let a = replica(&url, &prefix).await;
    let r = call(
        &a,
        "ann",
        "reset_tools",
        json!({"web_search": true, "scraping": false, "waiting": false}),
    )
    .await;
    assert_eq!(r["isError"], false, "{r}");

    redis.signal("-STOP");
    let (r, took) = timed(call(&a, "ann", "note_write", json!({"text": "hi"}))).await;
    assert_eq!(r["isError"], false, "a basic tool needs no active set: {r}");
    assert_eq!(text(&r), "noted: hi");
    assert!(took < PROMPT, "{took:?}");
    let (r, took) = timed(call(&a, "ann", "web_search", json!({"query": "q"}))).await;
    assert_eq!(r["isError"], true, "{r}");
    assert!(
        text(&r).starts_with(
            "`web_search` was not run: the active groups could not be loaded: Redis GET failed: "
        ),
        "{r}"
    );
    assert!(took < PROMPT, "{took:?}");

    redis.signal("-CONT");
    let (r, took) = timed(call(&a, "ann", "web_search", json!({"query": "q"}))).await;
    assert_eq!(r["isError"], false, "after the pause ({took:?}): {r}");
}

#[tokio::test]
async fn a_store_error_keeps_the_redis_error_as_its_source() {
    // No server needed: the URL is refused before any connection.
    let error = RedisStore::connect("not a redis url").await.unwrap_err();
    assert!(
        error.to_string().starts_with("invalid Redis URL: "),
        "{error}"
    );
    let source = std::error::Error::source(&error).expect("the redis error");
    assert!(
        source.downcast_ref::<redis::RedisError>().is_some(),
        "{source:?}"
    );
}

/// A single-use token (a `requestState`'s id) is used once across every store sharing the
/// Redis: of 32 concurrent uses through two connections, exactly one is the first; another
/// token is its own; and the record expires with its time to live.
#[tokio::test]
async fn a_single_use_token_is_used_once_across_replicas() {
    let Some(url) = redis_url() else { return };
    let prefix = prefix();
    let a = RedisStore::connect(&url)
        .await
        .unwrap()
        .with_prefix(&prefix);
    let b = RedisStore::connect(&url)
        .await
        .unwrap()
        .with_prefix(&prefix);
    let ttl = std::time::Duration::from_secs(60);
    let token = "0123456789abcdef0123456789abcdef";
    let uses = (0..32).map(|i| {
        let store = if i % 2 == 0 { a.clone() } else { b.clone() };
        tokio::spawn(async move { store.consume(token, ttl).await.unwrap() })
    });
    let mut firsts = 0;
    for use_ in uses {
        firsts += usize::from(use_.await.unwrap());
    }
    assert_eq!(firsts, 1);
    assert!(
        a.consume("fedcba9876543210fedcba9876543210", ttl)
            .await
            .unwrap()
    );
    let short = std::time::Duration::from_millis(50);
    assert!(
        b.consume("00000000000000000000000000000001", short)
            .await
            .unwrap()
    );
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    assert!(
        a.consume("00000000000000000000000000000001", short)
            .await
            .unwrap()
    );
}
