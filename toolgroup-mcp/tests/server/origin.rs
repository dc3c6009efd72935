//! The HTTP endpoint refuses browser requests from other sites (DNS rebinding) unless told
//! to accept them: raw requests on loopback with an `Origin` header.

use crate::support;

use rmcp::transport::StreamableHttpServerConfig;
use serde_json::{Value, json};
use support::{Agent, serve_loopback, stateless};
use toolgroup_mcp::{McpHttpService, McpServer, Mode};

fn service(config: StreamableHttpServerConfig) -> McpHttpService<Agent> {
    McpServer::new(support::toolkit(), Mode::Mask).http_service(config)
}

/// A `tools/call` of `note_write` with this `Origin` (none for `None`): status and body.
async fn call_from(url: &str, origin: Option<&str>) -> (u16, String) {
    let mut request = reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-06-18")
        .body(
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                   "params": {"name": "note_write", "arguments": {"text": "x"}}})
            .to_string(),
        );
    if let Some(origin) = origin {
        request = request.header("origin", origin);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.text().await.unwrap())
}

fn served(url: &str, origin: Option<&str>, answer: (u16, String)) {
    let (status, body) = answer;
    assert_eq!(status, 200, "{origin:?} at {url}: {body}");
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["result"]["content"][0]["text"], "noted: x", "{body}");
}

/// A `403` with a JSON-RPC error naming the origin.
fn refused(origin: &str, answer: (u16, String)) {
    let (status, body) = answer;
    assert_eq!(status, 403, "{origin}: {body}");
    let v: Value = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body}"));
    assert_eq!(v["jsonrpc"], "2.0", "{body}");
    assert_eq!(v["id"], Value::Null, "{body}");
    assert_eq!(v["error"]["code"], -32000, "{body}");
    let message = v["error"]["message"].as_str().unwrap();
    assert!(message.starts_with("forbidden: "), "{message}");
    assert!(message.contains(origin), "{message}");
}

#[tokio::test]
async fn other_sites_are_refused_by_default() {
    let url = serve_loopback(service(stateless())).await;
    for origin in [
        "http://evil.example",
        "https://evil.example:8443",
        "http://localhost.evil.example",
        "http://127.0.0.2",
        "null",
    ] {
        refused(origin, call_from(&url, Some(origin)).await);
    }
    let (status, body) = call_from(&url, Some("not an origin")).await;
    assert_eq!(status, 403, "{body}");
    assert!(body.contains("is not an origin"), "{body}");
    // In session mode too, and for every HTTP method.
    let url = serve_loopback(service(StreamableHttpServerConfig::default())).await;
    refused(
        "http://evil.example",
        call_from(&url, Some("http://evil.example")).await,
    );
    let response = reqwest::Client::new()
        .get(&url)
        .header("accept", "text/event-stream")
        .header("origin", "http://evil.example")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 403);
}

#[tokio::test]
async fn loopback_origins_and_clients_without_origin_are_served() {
    let url = serve_loopback(service(stateless())).await;
    served(&url, None, call_from(&url, None).await);
    for origin in [
        "http://localhost",
        "http://localhost:3000",
        "https://localhost:8443",
        "http://127.0.0.1:5173",
        "https://127.0.0.1",
        "http://[::1]:8080",
        "HTTP://LOCALHOST:3000",
    ] {
        served(&url, Some(origin), call_from(&url, Some(origin)).await);
    }
}

#[tokio::test]
async fn allowed_origins_are_served() {
    let url = serve_loopback(service(stateless()).with_allowed_origins([
        "https://app.example.com",
        "http://dev.example.com:*",
        "https://other.example.com:8443",
        "null",
    ]))
    .await;
    for origin in [
        "https://app.example.com",
        "https://app.example.com:443",
        "http://dev.example.com",
        "http://dev.example.com:9000",
        "https://other.example.com:8443",
        "null",
        "http://localhost:3000",
    ] {
        served(&url, Some(origin), call_from(&url, Some(origin)).await);
    }
    for origin in [
        "https://app.example.com:8443",
        "http://app.example.com",
        "https://dev.example.com",
        "https://other.example.com",
        "http://evil.example",
    ] {
        refused(origin, call_from(&url, Some(origin)).await);
    }
}

#[tokio::test]
async fn any_origin_can_be_allowed() {
    let url = serve_loopback(service(stateless()).allow_any_origin()).await;
    for origin in ["http://evil.example", "null"] {
        served(&url, Some(origin), call_from(&url, Some(origin)).await);
    }
}

#[tokio::test]
async fn the_origins_of_rmcps_config_are_allowed_too() {
    let url = serve_loopback(service(
        stateless().with_allowed_origins(["https://app.example.com:*"]),
    ))
    .await;
    let origin = "https://app.example.com:8443";
    served(&url, Some(origin), call_from(&url, Some(origin)).await);
    refused(
        "http://evil.example",
        call_from(&url, Some("http://evil.example")).await,
    );
}

#[test]
#[should_panic(expected = "`app.example.com` is not an origin")]
fn an_allowed_origin_must_be_an_origin() {
    let _ = service(stateless()).with_allowed_origins(["app.example.com"]);
}
