//! Messages that are not JSON-RPC: over HTTP (raw requests on loopback) a `400` with `-32700`
//! or `-32600`; over stdio (the `interop_server` example as a child process) no answer to a
//! line that is not JSON, as in rmcp and the official SDKs, and `-32600` to JSON that is not a
//! JSON-RPC message, the server serving the next request either way; and a `tools/call` whose
//! `arguments` are not an object is `-32602` on both.

use crate::support;

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use rmcp::transport::StreamableHttpServerConfig;
use serde_json::{Value, json};
use std::io::{BufRead as _, Write as _};
use support::{Agent, serve_loopback, stateless};
use toolgroup_mcp::{McpServer, Mode};

async fn spawn(config: StreamableHttpServerConfig) -> String {
    let server: McpServer<Agent> = McpServer::new(support::toolkit(), Mode::Mask);
    serve_loopback(server.http_service(config)).await
}

/// One POST of `body` as JSON: the status, the `Content-Type` and the body.
async fn post(url: &str, body: impl Into<reqwest::Body>) -> (u16, String, String) {
    post_as(url, "application/json", body).await
}

async fn post_as(
    url: &str,
    content_type: &str,
    body: impl Into<reqwest::Body>,
) -> (u16, String, String) {
    let response = reqwest::Client::new()
        .post(url)
        .header("content-type", content_type)
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-06-18")
        .body(body)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let content_type = response
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default();
    (status, content_type, response.text().await.unwrap())
}

/// The JSON-RPC error of a response body: (code, message, id).
fn error(body: &str) -> (i64, String, Value) {
    let v: Value = serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"));
    assert_eq!(v["jsonrpc"], "2.0", "{body}");
    assert!(v.as_object().unwrap().contains_key("id"), "no `id`: {body}");
    (
        v["error"]["code"]
            .as_i64()
            .unwrap_or_else(|| panic!("no error code: {body}")),
        v["error"]["message"].as_str().unwrap().to_owned(),
        v["id"].clone(),
    )
}

fn nested(depth: usize) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{{"a":{}{}}}}}"#,
        "[".repeat(depth),
        "]".repeat(depth)
    )
}

#[tokio::test]
async fn http_bodies_that_are_not_json_are_parse_errors() {
    let url = spawn(stateless()).await;
    let bodies: Vec<(&str, Vec<u8>)> = vec![
        (
            "truncated",
            br#"{"jsonrpc": "2.0", "id": 1, "method": "tools/list""#.to_vec(),
        ),
        ("empty", Vec::new()),
        (
            "not UTF-8",
            b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/\xff\xfe\"}".to_vec(),
        ),
        ("too deep", nested(200).into_bytes()),
    ];
    for (what, body) in bodies {
        let (status, content_type, body) = post(&url, body).await;
        assert_eq!(status, 400, "{what}: {body}");
        assert_eq!(content_type, "application/json", "{what}");
        let (code, message, id) = error(&body);
        assert_eq!((code, id), (-32700, Value::Null), "{what}: {body}");
        assert!(message.starts_with("parse error: "), "{what}: {message}");
    }
}

#[tokio::test]
async fn http_json_that_is_not_json_rpc_is_an_invalid_request() {
    let url = spawn(stateless()).await;
    let cases = [
        (
            json!([{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}]),
            Value::Null,
            "batches are not supported",
        ),
        (json!({"jsonrpc": "2.0", "id": 3}), json!(3), "no `method`"),
        (
            json!({"jsonrpc": "2.0", "id": {"a": 1}, "method": "tools/list"}),
            Value::Null,
            "`id` must be a string or an integer, not an object",
        ),
        (
            json!({"jsonrpc": "2.0", "id": true, "method": "tools/list"}),
            Value::Null,
            "not a boolean",
        ),
        (
            json!({"jsonrpc": "2.0", "id": [1], "method": "tools/list"}),
            Value::Null,
            "not an array",
        ),
        (
            json!({"jsonrpc": "1.0", "id": 4, "method": "tools/list"}),
            json!(4),
            "`jsonrpc` must be \"2.0\", not \"1.0\"",
        ),
        (
            json!({"jsonrpc": "2.0", "id": "five", "method": "tools/list", "params": "x"}),
            json!("five"),
            "`params` must be an object, not a string",
        ),
    ];
    for (body, expected_id, expected) in cases {
        let (status, content_type, answer) = post(&url, body.to_string()).await;
        assert_eq!(status, 400, "{body}: {answer}");
        assert_eq!(content_type, "application/json", "{body}");
        let (code, message, id) = error(&answer);
        assert_eq!((code, &id), (-32600, &expected_id), "{body}: {answer}");
        assert!(message.contains(expected), "{body}: {message}");
    }
}

#[tokio::test]
async fn http_refusals_hold_in_session_mode_too() {
    let url = spawn(StreamableHttpServerConfig::default()).await;
    let (status, _, body) = post(&url, "{not json").await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(error(&body).0, -32700);
}

#[tokio::test]
async fn tools_call_arguments_that_are_not_an_object_are_invalid_params_over_http() {
    let url = spawn(stateless()).await;
    for (arguments, kind) in [(json!("text"), "a string"), (json!([1, 2]), "an array")] {
        let body = json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call",
                          "params": {"name": "note_write", "arguments": arguments}});
        let (status, _, answer) = post(&url, body.to_string()).await;
        assert_eq!(status, 200, "{answer}");
        let (code, message, id) = error(&answer);
        assert_eq!((code, id), (-32602, json!(9)), "{answer}");
        assert_eq!(
            message,
            format!(
                "invalid params: the `arguments` of `note_write` must be an object of the tool's arguments by name, not {kind}"
            )
        );
    }
}

#[tokio::test]
async fn http_keeps_everything_else() {
    let url = spawn(stateless().with_max_request_body_bytes(4096)).await;
    // A response or a notification from the client is legal: both reach rmcp, which
    // accepts the notification and (stateless) answers the response itself, as before.
    let (status, _, body) = post(
        &url,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    )
    .await;
    assert_eq!(status, 202, "{body}");
    let (status, _, body) = post(&url, r#"{"jsonrpc":"2.0","id":1,"result":{}}"#).await;
    assert_eq!(status, 400, "{body}");
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        v["error"]["message"], "stateless server does not accept JSON-RPC responses",
        "{body}"
    );
    // A wrong `Content-Type` is still rmcp's `415`, an oversized body its `413`, whatever
    // the body.
    let (status, _, _) = post_as(&url, "text/plain", "{not json").await;
    assert_eq!(status, 415);
    let (status, _, _) = post(&url, format!("{{not json{}", " ".repeat(5000))).await;
    assert_eq!(status, 413);
    // An unknown method is still `-32601`, and a good call is served.
    let (status, _, body) = post(
        &url,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/explode","params":{}}"#,
    )
    .await;
    assert_eq!((status, error(&body).0), (200, -32601), "{body}");
    let call = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                      "params": {"name": "note_write", "arguments": {"text": "ok"}}});
    let (status, _, body) = post(&url, call.to_string()).await;
    assert_eq!(status, 200, "{body}");
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["result"]["content"][0]["text"], "noted: ok", "{body}");
}

/// This crate's `interop_server` example, built on demand.
fn interop_server() -> PathBuf {
    let status = std::process::Command::new(env!("CARGO"))
        .args([
            "build",
            "--quiet",
            "-p",
            "toolgroup-mcp",
            "--example",
            "interop_server",
        ])
        .status()
        .expect("cargo runs");
    assert!(status.success(), "building the example failed");
    // target/debug/deps/server-HASH -> target/debug/examples/interop_server
    let exe = std::env::current_exe().unwrap();
    let examples = exe
        .parent()
        .and_then(|deps| deps.parent())
        .unwrap()
        .join("examples");
    let built = examples.join(format!("interop_server{}", std::env::consts::EXE_SUFFIX));
    // A target directory shared with other checkouts may see the example rebuilt from
    // their sources at any time: run a link to the file just built.
    let own = examples.join(format!(
        "interop_server-jsonrpc-test-{}{}",
        std::process::id(),
        std::env::consts::EXE_SUFFIX
    ));
    let _ = std::fs::remove_file(&own);
    std::fs::hard_link(&built, &own).expect("the example can be linked");
    own
}

/// The example serving stdio as a child process, its output read line by line on a thread
/// (so that a missing answer is a timeout, not a hang).
struct StdioServer {
    exe: PathBuf,
    child: std::process::Child,
    stdin: Option<std::process::ChildStdin>,
    lines: std::sync::mpsc::Receiver<String>,
}

impl StdioServer {
    fn spawn() -> Self {
        let exe = interop_server();
        let mut child = std::process::Command::new(&exe)
            .args(["mask", "stdio"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the example starts");
        let stdin = child.stdin.take();
        let stdout = std::io::BufReader::new(child.stdout.take().unwrap());
        let (sender, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in stdout.lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        StdioServer {
            exe,
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &[u8]) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(line).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    /// The next line the server writes, as JSON.
    fn answer(&mut self) -> Value {
        let line = self
            .lines
            .recv_timeout(Duration::from_secs(10))
            .expect("the server answers within 10 s");
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"))
    }
}

impl Drop for StdioServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_file(&self.exe);
    }
}

#[test]
fn stdio_lines_that_are_not_json_get_no_answer_and_invalid_requests_their_id() {
    let mut server = StdioServer::spawn();
    // Before the handshake, as at any time. An answer to a line would go out before the
    // answer to any request sent after it: the first line out answering the handshake shows
    // that nothing answered the lines before it.
    server.send(b"{not json");
    server.send(b"\xff\xfe{}");
    server.send(b"plain text, as a peer's log line");
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "raw", "version": "0"}}});
    server.send(initialize.to_string().as_bytes());
    let answer = server.answer();
    assert_eq!(answer["id"], 1, "{answer}");
    assert!(answer["result"]["serverInfo"].is_object(), "{answer}");
    server.send(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);

    // After it too: no answer, and the next request is served.
    server.send(br#"{"jsonrpc": "2.0", "id": 2, "method": "tools/list""#);
    server.send(br#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#);
    let answer = server.answer();
    assert_eq!(answer["id"], 3, "{answer}");
    assert_eq!(answer["result"], json!({}), "{answer}");

    // A request that is not valid JSON-RPC 2.0 but whose id can be read: `-32600` with that
    // id (JSON-RPC 2.0 section 5), whatever its kind; nothing is run.
    for (line, id) in [
        (
            &br#"{"jsonrpc":"1.0","id":7,"method":"tools/list"}"#[..],
            json!(7),
        ),
        (br#"{"id":"seven","method":"tools/list"}"#, json!("seven")),
        (
            br#"{"jsonrpc":"2.0","id":9,"method":"tools/list","result":{}}"#,
            json!(9),
        ),
    ] {
        server.send(line);
        let answer = server.answer();
        assert_eq!(answer["jsonrpc"], "2.0", "{answer}");
        assert_eq!(answer["error"]["code"], -32600, "{answer}");
        assert_eq!(answer["id"], id, "{answer}");
    }
    // One whose id cannot be read (a batch, an id of the wrong type): rmcp's `-32600`,
    // without an id.
    for line in [
        &br#"[{"jsonrpc":"2.0","id":8,"method":"tools/list"}]"#[..],
        br#"{"jsonrpc":"1.0","id":{"x":1},"method":"tools/list"}"#,
    ] {
        server.send(line);
        let answer = server.answer();
        assert_eq!(answer["error"]["code"], -32600, "{answer}");
        assert_eq!(
            answer.get("id").unwrap_or(&Value::Null),
            &Value::Null,
            "{answer}"
        );
    }

    // Calls go on.
    for (id, arguments, kind) in [
        (4, json!("text"), "a string"),
        (5, json!([1, 2]), "an array"),
    ] {
        let call = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                          "params": {"name": "note_write", "arguments": arguments}});
        server.send(call.to_string().as_bytes());
        let answer = server.answer();
        assert_eq!(answer["id"], id, "{answer}");
        assert_eq!(answer["error"]["code"], -32602, "{answer}");
        assert_eq!(
            answer["error"]["message"],
            format!(
                "invalid params: the `arguments` of `note_write` must be an object of the tool's arguments by name, not {kind}"
            )
        );
    }
    let call = json!({"jsonrpc": "2.0", "id": 6, "method": "tools/call",
                      "params": {"name": "note_write", "arguments": {"text": "ok"}}});
    server.send(call.to_string().as_bytes());
    let answer = server.answer();
    assert_eq!(answer["id"], 6, "{answer}");
    assert_eq!(
        answer["result"]["content"][0]["text"], "noted: ok",
        "{answer}"
    );

    // The end of stdin ends the server, successfully.
    drop(server.stdin.take());
    for _ in 0..1000 {
        if let Some(status) = server.child.try_wait().unwrap() {
            assert!(status.success(), "{status}");
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("the server did not exit at the end of its stdin");
}
