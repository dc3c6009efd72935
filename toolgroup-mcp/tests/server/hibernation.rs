//! Idle protocol sessions of the HTTP endpoint are hibernated and restored unseen
//! (`IdleSessions`): raw 2025-11-25 requests (a client with no `GET` stream open, as most
//! request/response clients are), and rmcp's client, which listens on `GET`.

use crate::support;

use std::time::{Duration, Instant};

use rmcp::transport::StreamableHttpServerConfig;
use serde_json::{Value, json};
use support::{Agent, call, serve_loopback, text};
use toolgroup_mcp::{IdleSessions, McpHttpService, McpServer, Mode, SessionCounts};

fn service(idle: IdleSessions) -> McpHttpService<Agent> {
    McpServer::new(support::toolkit(), Mode::Mask)
        // A call of an inactive group is refused: what proves the groups were kept.
        .with_first_use_activation(false)
        .with_idle_sessions(idle)
        .http_service(StreamableHttpServerConfig::default().with_json_response(true))
}

/// A 2025-11-25 client over plain HTTP requests, one session.
struct Raw {
    http: reqwest::Client,
    url: String,
    session: String,
    next: u64,
}

impl Raw {
    async fn open(url: &str) -> Raw {
        let http = reqwest::Client::new();
        let response = http
            .post(url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .body(
                json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                    "protocolVersion": "2025-11-25", "capabilities": {},
                    "clientInfo": {"name": "raw", "version": "1"}}})
                .to_string(),
            )
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200);
        let session = response.headers()["mcp-session-id"]
            .to_str()
            .unwrap()
            .to_owned();
        let raw = Raw {
            http,
            url: url.to_owned(),
            session,
            next: 1,
        };
        let (status, _) = raw
            .send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        assert_eq!(status, 202);
        raw
    }

    /// The `notifications/message` levels of an answer's SSE stream, in order.
    fn logged(body: &str) -> Vec<String> {
        body.lines()
            .filter_map(|line| line.strip_prefix("data:"))
            .filter_map(|data| serde_json::from_str::<Value>(data.trim()).ok())
            .filter(|m| m["method"] == "notifications/message")
            .map(|m| m["params"]["level"].as_str().unwrap_or_default().to_owned())
            .collect()
    }

    async fn send(&self, body: Value) -> (u16, String) {
        let response = self
            .http
            .post(&self.url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-session-id", &self.session)
            .header("mcp-protocol-version", "2025-11-25")
            .body(body.to_string())
            .send()
            .await
            .unwrap();
        let status = response.status().as_u16();
        (status, response.text().await.unwrap())
    }

    /// A request's `result`; panics on anything else.
    async fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next;
        self.next += 1;
        let (status, body) = self
            .send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await;
        assert_eq!(status, 200, "{method}: {body}");
        let answer = message(&body);
        answer
            .get("result")
            .cloned()
            .unwrap_or_else(|| panic!("{method}: no result: {body}"))
    }

    async fn call(&mut self, name: &str, arguments: Value) -> Value {
        self.request("tools/call", json!({"name": name, "arguments": arguments}))
            .await
    }

    async fn delete(&self) -> u16 {
        self.http
            .delete(&self.url)
            .header("mcp-session-id", &self.session)
            .header("mcp-protocol-version", "2025-11-25")
            .send()
            .await
            .unwrap()
            .status()
            .as_u16()
    }
}

/// The JSON-RPC message of an answer: plain JSON, or the `data:` of an SSE event.
fn message(body: &str) -> Value {
    if let Ok(value) = serde_json::from_str(body) {
        return value;
    }
    body.lines()
        .rev()
        .filter_map(|line| line.strip_prefix("data:"))
        .find_map(|data| serde_json::from_str(data.trim()).ok())
        .unwrap_or_else(|| panic!("no JSON-RPC message in {body}"))
}

/// Waits (up to 10 s) until `service` holds `want`.
async fn until(service: &McpHttpService<Agent>, want: SessionCounts) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while service.session_counts() != want {
        assert!(
            Instant::now() < deadline,
            "still {:?}, waiting for {want:?}",
            service.session_counts()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn counts(live: usize, hibernated: usize) -> SessionCounts {
    let mut counts = SessionCounts::default();
    counts.live = live;
    counts.hibernated = hibernated;
    counts
}

fn is_error(result: &Value) -> bool {
    result["isError"] == true
}

#[tokio::test]
async fn an_idle_session_is_hibernated_and_wakes_with_its_groups() {
    let service = service(IdleSessions::hibernate_after(Duration::from_millis(200)));
    let url = serve_loopback(service.clone()).await;
    let mut a = Raw::open(&url).await;
    let mut b = Raw::open(&url).await;
    let r = a
        .call(
            "reset_tools",
            json!({"web_search": true, "scraping": false, "waiting": false}),
        )
        .await;
    assert!(!is_error(&r), "{r}");
    assert_eq!(service.session_counts(), counts(2, 0));

    until(&service, counts(0, 2)).await;
    // The same session, with the groups it chose; the other's stay its own.
    let r = a.call("web_search", json!({"query": "q"})).await;
    assert!(!is_error(&r), "web_search stayed on for a: {r}");
    assert_eq!(service.session_counts(), counts(1, 1));
    let r = b.call("web_search", json!({"query": "q"})).await;
    assert!(is_error(&r), "b never switched web_search on: {r}");
    let tools = a.request("tools/list", json!({})).await;
    assert!(tools["tools"].as_array().unwrap().len() > 1, "{tools}");

    // Hibernated again, and switched again after waking: each wake sees the last state.
    until(&service, counts(0, 2)).await;
    let r = a
        .call(
            "reset_tools",
            json!({"web_search": false, "scraping": true, "waiting": false}),
        )
        .await;
    assert!(!is_error(&r), "{r}");
    until(&service, counts(0, 2)).await;
    let r = a.call("web_search", json!({"query": "q"})).await;
    assert!(is_error(&r), "web_search was switched off: {r}");
    let r = a
        .call("page_fetch", json!({"url": "https://example.com"}))
        .await;
    assert!(!is_error(&r), "scraping was switched on: {r}");
}

#[tokio::test]
async fn delete_ends_a_hibernated_session() {
    let service = service(IdleSessions::hibernate_after(Duration::from_millis(100)));
    let url = serve_loopback(service.clone()).await;
    let a = Raw::open(&url).await;
    until(&service, counts(0, 1)).await;
    assert_eq!(a.delete().await, 202);
    assert_eq!(service.session_counts(), counts(0, 0));
    let (status, body) = a
        .send(json!({"jsonrpc": "2.0", "id": 9, "method": "tools/list"}))
        .await;
    assert_eq!(status, 404, "an ended session is not restored: {body}");
}

#[tokio::test]
async fn a_hibernated_session_is_forgotten_after_its_time() {
    let idle = IdleSessions::hibernate_after(Duration::from_millis(100))
        .forget_after(Duration::from_millis(400));
    let service = service(idle);
    let url = serve_loopback(service.clone()).await;
    let a = Raw::open(&url).await;
    until(&service, counts(0, 1)).await;
    until(&service, counts(0, 0)).await;
    let (status, body) = a
        .send(json!({"jsonrpc": "2.0", "id": 9, "method": "tools/list"}))
        .await;
    assert_eq!(status, 404, "the client initializes again: {body}");
}

#[tokio::test]
async fn never_keeps_every_session_live() {
    let service = service(IdleSessions::never());
    let url = serve_loopback(service.clone()).await;
    let mut a = Raw::open(&url).await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(service.session_counts(), counts(1, 0));
    let r = a.call("note_write", json!({"text": "t"})).await;
    assert!(!is_error(&r), "{r}");
    assert_eq!(a.delete().await, 202);
    assert_eq!(service.session_counts(), counts(0, 0));
}

#[tokio::test]
async fn a_session_listening_on_get_is_never_idle() {
    let service = service(IdleSessions::hibernate_after(Duration::from_millis(100)));
    let url = serve_loopback(service.clone()).await;
    // rmcp's client keeps a `GET` stream open for the server's notifications.
    let client = crate::http::client(&url, &[]).await;
    let r = call(
        &client,
        "reset_tools",
        json!({"web_search": true, "scraping": false, "waiting": false}),
    )
    .await
    .unwrap();
    assert_eq!(r.is_error, Some(false), "{}", text(&r));
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(service.session_counts(), counts(1, 0));
    let r = call(&client, "web_search", json!({"query": "q"}))
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(false), "{}", text(&r));
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sessions_sleeping_and_waking_at_once_lose_no_request() {
    // Pauses around the delay, so that requests meet sessions being hibernated and restored.
    let service = service(IdleSessions::hibernate_after(Duration::from_millis(100)));
    let url = serve_loopback(service.clone()).await;
    let clients: Vec<_> = (0..32u64)
        .map(|n| {
            let url = url.clone();
            tokio::spawn(async move {
                let mut raw = Raw::open(&url).await;
                let on = n % 2 == 0;
                let r = raw
                    .call(
                        "reset_tools",
                        json!({"web_search": on, "scraping": false, "waiting": false}),
                    )
                    .await;
                assert!(!is_error(&r), "{r}");
                for round in 0..6u64 {
                    let pause = 40 + (n * 7 + round * 13) % 140;
                    tokio::time::sleep(Duration::from_millis(pause)).await;
                    let r = raw.call("web_search", json!({"query": "q"})).await;
                    assert_eq!(!is_error(&r), on, "client {n}, round {round}: {r}");
                }
            })
        })
        .collect();
    for client in clients {
        tokio::time::timeout(Duration::from_secs(60), client)
            .await
            .expect("the clients finish")
            .unwrap();
    }
    let total = service.session_counts();
    assert_eq!(total.live + total.hibernated, 32, "{total:?}");
}

/// Log one message at every level, least severe first.
#[toolgroup::prelude::tool]
async fn chatty(ctx: toolgroup::prelude::ToolContext<'_>) -> String {
    for level in toolgroup::context::LogLevel::ALL {
        ctx.log(level, format_args!("a {level} message"));
    }
    "logged".to_owned()
}

#[toolgroup::prelude::tool_group(name = "talk", description = "Talking.", tools = [chatty])]
struct Talk;

#[toolgroup::prelude::toolkit]
struct Kit {
    #[basic]
    talk: Talk,
}

/// The levels of the first `count` `notifications/message` events on `stream` (a `GET`).
async fn levels_on(mut stream: reqwest::Response, count: usize) -> Vec<String> {
    let mut text = String::new();
    let read = async {
        loop {
            let levels = Raw::logged(&text);
            if levels.len() >= count {
                return levels;
            }
            let chunk = stream
                .chunk()
                .await
                .unwrap()
                .expect("the stream stays open");
            text.push_str(&String::from_utf8_lossy(&chunk));
        }
    };
    tokio::time::timeout(Duration::from_secs(10), read)
        .await
        .expect("the messages arrive")
}

#[tokio::test]
async fn a_woken_session_keeps_the_log_level_its_client_set() {
    let service = McpServer::new(toolgroup::Toolkit::new(Kit { talk: Talk }), Mode::Mask)
        .with_idle_sessions(IdleSessions::hibernate_after(Duration::from_millis(100)))
        .http_service(StreamableHttpServerConfig::default().with_json_response(true));
    let url = serve_loopback(service.clone()).await;
    let mut a = Raw::open(&url).await;
    a.request("logging/setLevel", json!({"level": "error"}))
        .await;
    until_hibernated(&service).await;

    // Log messages go out on the session's `GET` stream: opened now, it wakes the session.
    let stream = a
        .http
        .get(&a.url)
        .header("accept", "text/event-stream")
        .header("mcp-session-id", &a.session)
        .header("mcp-protocol-version", "2025-11-25")
        .send()
        .await
        .unwrap();
    assert_eq!(stream.status(), 200);
    let r = a.call("chatty", json!({})).await;
    assert!(!is_error(&r), "{r}");
    let severe = ["error", "critical", "alert", "emergency"];
    assert_eq!(
        levels_on(stream, 4).await,
        severe,
        "the level survived hibernation"
    );
}

async fn until_hibernated(service: &McpHttpService<Kit>) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while service.session_counts().hibernated != 1 {
        assert!(Instant::now() < deadline, "never hibernated");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A session store shared by two replicas, as a Redis one would be.
#[derive(Clone, Default)]
struct SharedSessions(
    std::sync::Arc<
        std::sync::Mutex<
            std::collections::HashMap<
                String,
                rmcp::transport::streamable_http_server::session::store::SessionState,
            >,
        >,
    >,
);

#[async_trait::async_trait]
impl rmcp::transport::streamable_http_server::session::store::SessionStore for SharedSessions {
    async fn load(
        &self,
        id: &str,
    ) -> Result<
        Option<rmcp::transport::streamable_http_server::session::store::SessionState>,
        rmcp::transport::streamable_http_server::session::store::SessionStoreError,
    > {
        Ok(self.0.lock().unwrap().get(id).cloned())
    }

    async fn store(
        &self,
        id: &str,
        state: &rmcp::transport::streamable_http_server::session::store::SessionState,
    ) -> Result<(), rmcp::transport::streamable_http_server::session::store::SessionStoreError>
    {
        self.0.lock().unwrap().insert(id.to_owned(), state.clone());
        Ok(())
    }

    async fn delete(
        &self,
        id: &str,
    ) -> Result<(), rmcp::transport::streamable_http_server::session::store::SessionStoreError>
    {
        self.0.lock().unwrap().remove(id);
        Ok(())
    }
}

#[tokio::test]
async fn a_replica_sharing_the_configs_store_takes_a_session_over_and_hibernates_it() {
    let shared = SharedSessions::default();
    let replica = || {
        let mut config = StreamableHttpServerConfig::default().with_json_response(true);
        config.session_store = Some(std::sync::Arc::new(shared.clone()));
        McpServer::new(support::toolkit(), Mode::Mask)
            .with_first_use_activation(false)
            .with_idle_sessions(IdleSessions::hibernate_after(Duration::from_millis(100)))
            .http_service(config)
    };
    let (a, b) = (replica(), replica());
    let url_b = serve_loopback(b.clone()).await;
    let mut raw = Raw::open(&serve_loopback(a.clone()).await).await;
    assert!(
        shared.0.lock().unwrap().contains_key(&raw.session),
        "the config's store has the session's parameters"
    );
    assert_eq!(a.session_counts(), counts(1, 0));

    // The same session on the other replica: restored there, with the server's default
    // groups (a connection's state stays in its process).
    raw.url = url_b;
    let r = raw.call("web_search", json!({"query": "q"})).await;
    assert!(is_error(&r), "web_search starts inactive there: {r}");
    assert_eq!(b.session_counts(), counts(1, 0));
    let r = raw
        .call(
            "reset_tools",
            json!({"web_search": true, "scraping": false, "waiting": false}),
        )
        .await;
    assert!(!is_error(&r), "{r}");
    // It hibernates there too, and wakes with what it chose there.
    until(&b, counts(0, 1)).await;
    let r = raw.call("web_search", json!({"query": "q"})).await;
    assert!(!is_error(&r), "{r}");
    assert_eq!(raw.delete().await, 202);
    assert!(!shared.0.lock().unwrap().contains_key(&raw.session));
}

/// A config's session store that has gone away: every operation fails.
struct GoneSessions;

#[async_trait::async_trait]
impl rmcp::transport::streamable_http_server::session::store::SessionStore for GoneSessions {
    async fn load(
        &self,
        _id: &str,
    ) -> Result<
        Option<rmcp::transport::streamable_http_server::session::store::SessionState>,
        rmcp::transport::streamable_http_server::session::store::SessionStoreError,
    > {
        Err("the store went away".into())
    }

    async fn store(
        &self,
        _id: &str,
        _state: &rmcp::transport::streamable_http_server::session::store::SessionState,
    ) -> Result<(), rmcp::transport::streamable_http_server::session::store::SessionStoreError>
    {
        Err("the store went away".into())
    }

    async fn delete(
        &self,
        _id: &str,
    ) -> Result<(), rmcp::transport::streamable_http_server::session::store::SessionStoreError>
    {
        Err("the store went away".into())
    }
}

#[tokio::test]
async fn a_config_store_that_went_away_leaves_this_process_sessions_working() {
    let mut config = StreamableHttpServerConfig::default().with_json_response(true);
    config.session_store = Some(std::sync::Arc::new(GoneSessions));
    let service = McpServer::new(support::toolkit(), Mode::Mask)
        .with_first_use_activation(false)
        .with_idle_sessions(IdleSessions::hibernate_after(Duration::from_millis(100)))
        .http_service(config);
    let url = serve_loopback(service.clone()).await;
    let mut a = Raw::open(&url).await;
    let r = a
        .call(
            "reset_tools",
            json!({"web_search": true, "scraping": false, "waiting": false}),
        )
        .await;
    assert!(!is_error(&r), "{r}");
    // Kept and restored in this process, whatever the shared store does.
    until(&service, counts(0, 1)).await;
    let r = a.call("web_search", json!({"query": "q"})).await;
    assert!(!is_error(&r), "{r}");
    assert_eq!(a.delete().await, 202);
    assert_eq!(service.session_counts(), counts(0, 0));
    // A session unknown here is asked of the store, which fails: a server error saying to
    // retry (the session may exist), the store's own error not shown, nothing made.
    let mut stranger = a;
    stranger.session = "not-a-session-of-this-server".to_owned();
    let (status, body) = stranger
        .send(json!({"jsonrpc": "2.0", "id": 9, "method": "tools/list"}))
        .await;
    assert_eq!(status, 500, "{body}");
    assert!(body.contains("retry"), "{body}");
    assert!(
        !body.contains("went away"),
        "the store's error is not echoed: {body}"
    );
    assert_eq!(service.session_counts(), counts(0, 0));
}
