//! The clients: each one HTTP/1.1 connection of its own (kept alive, no pool), sending the mix
//! one request after another and timing each from its first byte sent to its last received.
//! Every answer is checked (status, a JSON-RPC `result`, no `isError`): a server that answers
//! fast but wrong fails the run instead of winning it.
//!
//! Why not `wrk` or `oha` for the stateless era: both time requests well, but neither reads
//! what comes back, and a 2026-07-28 request carries per-request `_meta` and `Mcp-Method` /
//! `Mcp-Name` headers that change with the mix. One driver for both eras also puts the same
//! client cost on every server.

use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt as _, Full};
use hyper::client::conn::http1::SendRequest;
use hyper::header::HeaderValue;
use hyper_util::rt::TokioIo;

use crate::serve::Kind;

/// The two ways a client talks to a Streamable HTTP server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Era {
    /// 2025-11-25: `initialize`, then every request in the `Mcp-Session-Id` it opened.
    Sessions,
    /// 2026-07-28: no handshake, no session; each request self-contained, keyed by
    /// `x-user-id` (toolgroup keeps its active groups under that key).
    Stateless,
}

impl Era {
    pub fn name(self) -> &'static str {
        match self {
            Era::Sessions => "2025-11-25 sessions",
            Era::Stateless => "2026-07-28 stateless",
        }
    }
}

/// One request of the mix.
#[derive(Clone, Copy, Debug)]
pub enum Op {
    /// `tools/list`.
    List,
    /// `echo`: a text answer.
    Cheap,
    /// `add`: a structured answer.
    Structured,
    /// `reset_tools` (math and text on, files off); `echo` on a server without it.
    Reset,
}

/// The mix each client cycles through: 10% listings, 50% cheap calls, 30% structured calls,
/// 10% `reset_tools`.
pub const MIX: [Op; 10] = [
    Op::List,
    Op::Cheap,
    Op::Structured,
    Op::Cheap,
    Op::Reset,
    Op::Cheap,
    Op::Structured,
    Op::Cheap,
    Op::Structured,
    Op::Cheap,
];

const META_2026: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"load","version":"0"},"io.modelcontextprotocol/clientCapabilities":{}}"#;

/// One client: its connection and, on 2025-11-25, its session.
pub struct Client {
    send: SendRequest<Full<Bytes>>,
    port: u16,
    /// Connections opened again after the server closed one (uvicorn closes a connection idle
    /// for 5 s, as while a thousand clients warm up): what any pooled HTTP client does.
    pub reconnects: usize,
    host: HeaderValue,
    user: HeaderValue,
    era: Era,
    groups: bool,
    session: Option<HeaderValue>,
    next_id: u64,
}

impl Client {
    /// Connects to `port` as client number `index`, and opens its session on 2025-11-25.
    pub async fn connect(port: u16, index: usize, era: Era, kind: Kind) -> Result<Client, String> {
        let mut client = Client {
            send: open(port).await?,
            port,
            reconnects: 0,
            host: HeaderValue::from_str(&format!("127.0.0.1:{port}")).unwrap(),
            user: HeaderValue::from_str(&format!("client-{index}")).unwrap(),
            era,
            groups: kind.has_groups(),
            session: None,
            next_id: 1,
        };
        if era == Era::Sessions {
            client.initialize().await?;
        }
        Ok(client)
    }

    async fn initialize(&mut self) -> Result<(), String> {
        let body = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"load","version":"0"}}}"#;
        let (status, headers, answer) = self.post(body.to_owned(), None).await?;
        check(status, &answer, "initialize")?;
        self.session = Some(
            headers
                .get("mcp-session-id")
                .cloned()
                .ok_or("initialize: no Mcp-Session-Id")?,
        );
        let note = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
        let (status, _, _) = self.post(note.to_owned(), None).await?;
        if status != 202 {
            return Err(format!("notifications/initialized: HTTP {status}"));
        }
        Ok(())
    }

    /// Sends `op`, checks its answer, and returns how long it took.
    pub async fn run(&mut self, op: Op) -> Result<Duration, String> {
        let id = self.next_id;
        self.next_id += 1;
        let meta = match self.era {
            Era::Sessions => "",
            Era::Stateless => META_2026,
        };
        let sep = if meta.is_empty() { "" } else { "," };
        const CHEAP: &str = r#""name":"echo","arguments":{"text":"hello"}"#;
        let (method, name, params) = match op {
            Op::List => ("tools/list", None, ""),
            Op::Cheap => ("tools/call", Some("echo"), CHEAP),
            Op::Structured => (
                "tools/call",
                Some("add"),
                r#""name":"add","arguments":{"a":40,"b":2,"label":"answer"}"#,
            ),
            Op::Reset if self.groups => (
                "tools/call",
                Some("reset_tools"),
                r#""name":"reset_tools","arguments":{"math":true,"text":true,"files":false}"#,
            ),
            Op::Reset => ("tools/call", Some("echo"), CHEAP),
        };
        let params_sep = if params.is_empty() { "" } else { sep };
        let body = format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{{{params}{params_sep}{meta}}}}}"#
        );
        let started = Instant::now();
        let (status, _, answer) = self.post(body, Some((method, name))).await?;
        let took = started.elapsed();
        check(status, &answer, method)?;
        Ok(took)
    }

    async fn reopen(&mut self) -> Result<(), String> {
        self.send = open(self.port).await?;
        self.reconnects += 1;
        self.send
            .ready()
            .await
            .map_err(|e| format!("connection: {e}"))
    }

    async fn post(
        &mut self,
        body: String,
        routing: Option<(&'static str, Option<&'static str>)>,
    ) -> Result<(u16, hyper::HeaderMap, Bytes), String> {
        let mut request = hyper::Request::post("/mcp")
            .header("host", self.host.clone())
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("x-user-id", self.user.clone());
        match self.era {
            Era::Sessions => {
                if let Some(session) = &self.session {
                    request = request
                        .header("mcp-session-id", session.clone())
                        .header("mcp-protocol-version", "2025-11-25");
                }
            }
            Era::Stateless => {
                request = request.header("mcp-protocol-version", "2026-07-28");
                if let Some((method, name)) = routing {
                    request = request.header("mcp-method", method);
                    if let Some(name) = name {
                        request = request.header("mcp-name", name);
                    }
                }
            }
        }
        let request = request
            .body(Full::new(Bytes::from(body)))
            .map_err(|e| e.to_string())?;
        if self.send.ready().await.is_err() {
            self.reopen().await?;
        }
        // A connection the server closes just as a request goes out gives the request back
        // unsent: it is sent once more on a new connection, never twice.
        let response = match self.send.try_send_request(request).await {
            Ok(response) => response,
            Err(mut e) => match e.take_message() {
                Some(request) => {
                    self.reopen().await?;
                    self.send
                        .send_request(request)
                        .await
                        .map_err(|e| format!("request: {e}"))?
                }
                None => return Err(format!("request: {}", e.error())),
            },
        };
        let status = response.status().as_u16();
        let (parts, body) = response.into_parts();
        let body = body
            .collect()
            .await
            .map_err(|e| format!("body: {e}"))?
            .to_bytes();
        Ok((status, parts.headers, body))
    }
}

/// A new HTTP/1.1 connection to `port`, its driver task spawned.
async fn open(port: u16) -> Result<SendRequest<Full<Bytes>>, String> {
    let stream = tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .map_err(|e| format!("connect: {e}"))?;
    stream.set_nodelay(true).map_err(|e| e.to_string())?;
    let (send, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .map_err(|e| format!("HTTP handshake: {e}"))?;
    tokio::spawn(connection);
    Ok(send)
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// A 200 whose JSON-RPC message (plain, or the `data:` of an SSE event) is a `result` that is
/// not a tool error.
fn check(status: u16, body: &[u8], what: &str) -> Result<(), String> {
    let ok = status == 200
        && contains(body, br#""result":"#)
        && !contains(body, br#""isError":true"#)
        && !contains(body, br#""error":{"#);
    if ok {
        return Ok(());
    }
    let shown = String::from_utf8_lossy(&body[..body.len().min(300)]).into_owned();
    Err(format!("{what}: HTTP {status}: {shown}"))
}
