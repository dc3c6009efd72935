//! The Redis store against a real `redis-server` (at `REDIS_URL`): two server replicas share
//! the active groups of stateless HTTP clients. Skipped, with a notice, when `REDIS_URL` is
//! not set (`.ci/run` starts a server and sets it).
//!
//! The outage tests start a `redis-server` child of their own on a free loopback port, so that
//! they can kill, restart, pause and resume it mid-run. Skipped, with a notice, when
//! `redis-server` is not installed and `REDIS_URL` is not set either.

mod support;

use std::future::Future;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

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
async fn an_activation_on_first_use_is_kept_in_the_store_for_every_replica() {
    let Some(url) = redis_url() else { return };
    let prefix = prefix();
    let a = replica_with(&url, &prefix, true).await;
    let b = replica_with(&url, &prefix, true).await;
    let http = reqwest::Client::new();

    let r = call(&http, &a, "eve", "web_search", json!({"query": "q"})).await;
    assert_eq!(r["isError"], false, "{r}");
    assert!(
        r.to_string()
            .contains("This call activated the group `web_search`"),
        "{r}"
    );
    // The other replica reads the activation from the store: the group is active there, so
    // its call carries no second activation.
    let r = call(&http, &b, "eve", "web_search", json!({"query": "q"})).await;
    assert_eq!(r["isError"], false, "{r}");
    assert!(!r.to_string().contains("activated the group"), "{r}");
    // Another user's groups are their own.
    let r = call(&http, &b, "mallory", "web_search", json!({"query": "q"})).await;
    assert!(r.to_string().contains("activated the group"), "{r}");
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

/// A `redis-server` child process on a loopback port of its own, killed when dropped.
struct OwnRedis {
    child: Child,
    port: u16,
}

impl OwnRedis {
    /// Start one, or `None` (with a notice) where neither `redis-server` nor `REDIS_URL` is
    /// there. `REDIS_URL` without the binary fails: CI means these tests to run.
    async fn start() -> Option<OwnRedis> {
        let installed = Command::new("redis-server")
            .arg("--version")
            .stdout(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !installed {
            if std::env::var("REDIS_URL").is_ok_and(|url| !url.is_empty()) {
                panic!(
                    "REDIS_URL is set but `redis-server` is not installed: the outage tests \
                     stop and start a server of their own (Debian package `redis-server`)"
                );
            }
            use std::io::Write as _;
            let _ = writeln!(
                std::io::stderr(),
                "skipped: `redis-server` is not installed and REDIS_URL is not set (the outage tests start a server of their own)"
            );
            return None;
        }
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Self::spawn(port).await;
        Some(OwnRedis { child, port })
    }

    async fn spawn(port: u16) -> Child {
        let mut child = Command::new("redis-server")
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no"])
            .arg("--dir")
            .arg(std::env::temp_dir())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start redis-server");
        // Up to 100 tries, 100 ms apart: the server answers `PING` within 10 s or the test fails.
        for _ in 0..100 {
            if ping(port).await {
                return child;
            }
            if let Ok(Some(status)) = child.try_wait() {
                panic!("redis-server on port {port} exited: {status}");
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let _ = child.kill();
        panic!("redis-server on port {port} did not answer PING within 10 s");
    }

    fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/", self.port)
    }

    /// Kill the server (its data goes with it: nothing is saved).
    fn kill(&mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }

    /// Start a new server on the same port.
    async fn restart(&mut self) {
        self.child = Self::spawn(self.port).await;
    }

    /// Stop (`SIGSTOP`) or continue (`SIGCONT`) the server: its connections stay open.
    fn signal(&self, signal: &str) {
        let status = Command::new("kill")
            .arg(signal)
            .arg(self.child.id().to_string())
            .status()
            .unwrap();
        assert!(status.success(), "kill {signal}");
    }
}

impl Drop for OwnRedis {
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .arg("-CONT")
            .arg(self.child.id().to_string())
            .status();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Whether a Redis server on this port answers `PING` within 500 ms.
async fn ping(port: u16) -> bool {
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
    let attempt = async {
        let mut stream = tokio::net::TcpStream::connect(("127.0.0.1", port)).await?;
        stream.write_all(b"PING\r\n").await?;
        let mut reply = [0; 7];
        stream.read_exact(&mut reply).await?;
        Ok::<_, std::io::Error>(&reply == b"+PONG\r\n")
    };
    matches!(
        tokio::time::timeout(Duration::from_millis(500), attempt).await,
        Ok(Ok(true))
    )
}

/// A call's answer and how long it took; a call that takes over 10 s fails the test.
async fn timed(call: impl Future<Output = Value>) -> (Value, Duration) {
    let start = Instant::now();
    let r = tokio::time::timeout(Duration::from_secs(10), call)
        .await
        .expect("the call answered within 10 s");
    (r, start.elapsed())
}

fn text(r: &Value) -> &str {
    r["content"][0]["text"].as_str().unwrap_or_default()
}

/// How long a store call may take while Redis is down or paused.
const PROMPT: Duration = Duration::from_secs(3);

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
    let http = reqwest::Client::new();
    let on = json!({"web_search": true, "scraping": false, "waiting": false});

    let r = call(&http, &a, "ann", "reset_tools", on.clone()).await;
    assert_eq!(r["isError"], false, "{r}");
    let r = call(&http, &b, "ann", "web_search", json!({"query": "q"})).await;
    assert_eq!(r["isError"], false, "{r}");

    redis.kill();
    for _ in 0..3 {
        let (r, took) = timed(call(&http, &a, "ann", "web_search", json!({"query": "q"}))).await;
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
    let (r, took) = timed(call(&http, &a, "ann", "reset_tools", on.clone())).await;
    assert_eq!(r["isError"], false, "A after the restart ({took:?}): {r}");
    let (r, took) = timed(call(&http, &b, "ann", "web_search", json!({"query": "q"}))).await;
    assert_eq!(r["isError"], false, "B after the restart ({took:?}): {r}");
    let (r, took) = timed(call(&http, &b, "ben", "reset_tools", on)).await;
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
    let http = reqwest::Client::new();
    let r = call(
        &http,
        &a,
        "ann",
        "reset_tools",
        json!({"web_search": true, "scraping": false, "waiting": false}),
    )
    .await;
    assert_eq!(r["isError"], false, "{r}");

    redis.signal("-STOP");
    let (r, took) = timed(call(&http, &a, "ann", "note_write", json!({"text": "hi"}))).await;
    assert_eq!(r["isError"], false, "a basic tool needs no active set: {r}");
    assert_eq!(text(&r), "noted: hi");
    assert!(took < PROMPT, "{took:?}");
    let (r, took) = timed(call(&http, &a, "ann", "web_search", json!({"query": "q"}))).await;
    assert_eq!(r["isError"], true, "{r}");
    assert!(
        text(&r).starts_with(
            "`web_search` was not run: the active groups could not be loaded: Redis GET failed: "
        ),
        "{r}"
    );
    assert!(took < PROMPT, "{took:?}");

    redis.signal("-CONT");
    let (r, took) = timed(call(&http, &a, "ann", "web_search", json!({"query": "q"}))).await;
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
