//! The authorization server of the tests, a child process driven over its standard input,
//! and a toolkit whose groups need scopes.
#![allow(dead_code)]

use std::io::{BufRead as _, BufReader, Write as _};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Mutex;
use std::time::Duration;

use serde_json::{Value, json};
use toolgroup::prelude::*;
use toolgroup_mcp::auth::{BearerAuth, JwtValidator, Principal};
use toolgroup_mcp::{McpServer, Mode};

/// A running `oauth2-mock-server` (stopped when dropped).
pub struct Idp {
    pub issuer: String,
    child: Child,
    io: Mutex<(ChildStdin, BufReader<ChildStdout>)>,
}

impl Idp {
    /// Starts one, or `None` (with a note) when `AUTH_IDP` is not set.
    pub fn start() -> Option<Idp> {
        let Some(folder) = std::env::var_os("AUTH_IDP") else {
            eprintln!(
                "skipped: AUTH_IDP is not set (a folder with npm's oauth2-mock-server; .ci/run installs one)"
            );
            return None;
        };
        let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/auth/idp.mjs");
        let mut child = Command::new("node")
            .arg(script)
            .arg(folder)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("node runs");
        let stdin = child.stdin.take().unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        let hello: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"));
        Some(Idp {
            issuer: hello["issuer"].as_str().unwrap().to_owned(),
            child,
            io: Mutex::new((stdin, stdout)),
        })
    }

    fn ask(&self, command: Value) -> Value {
        let mut io = self.io.lock().unwrap();
        writeln!(io.0, "{command}").unwrap();
        let mut line = String::new();
        io.1.read_line(&mut line).unwrap();
        let answer: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"));
        assert!(answer.get("error").is_none(), "{answer}");
        answer
    }

    /// A token signed with `kid`, its payload merged with `claims` (`null` removes a claim).
    pub fn token_with(&self, kid: &str, claims: Value, expires_in: i64) -> String {
        let answer =
            self.ask(json!({"op": "token", "kid": kid, "claims": claims, "expiresIn": expires_in}));
        answer["token"].as_str().unwrap().to_owned()
    }

    /// A valid token for `audience`, of `subject` with `scope`, signed with `k1`.
    pub fn token(&self, audience: &str, subject: &str, scope: &str) -> String {
        self.token_with(
            "k1",
            json!({"aud": audience, "sub": subject, "scope": scope}),
            3600,
        )
    }

    /// Adds a signing key to the JWKS.
    pub fn add_key(&self, kid: &str, alg: &str) {
        self.ask(json!({"op": "add_key", "kid": kid, "alg": alg}));
    }

    /// Stops serving (the JWKS endpoint is down); tokens are still signed.
    pub fn stop(&self) {
        self.ask(json!({"op": "stop"}));
    }
}

impl Drop for Idp {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Write a note.
#[tool]
pub fn note_write(
    /// The note.
    text: String,
) -> String {
    format!("noted: {text}")
}

/// Who is calling: the principal's subject and scopes.
#[tool(read_only)]
pub fn whoami(principal: toolgroup::Extension<Principal>) -> String {
    format!("{} [{}]", principal.0.subject, principal.0.scopes)
}

/// Search the web.
#[tool(read_only)]
pub fn web_search(
    /// What to search for.
    query: String,
) -> String {
    format!("hit for {query}")
}

/// Fetch a page.
#[tool(read_only)]
pub fn page_fetch(
    /// The URL.
    url: String,
) -> String {
    format!("page {url}")
}

#[tool_group(name = "notes", description = "Taking notes.", tools = [note_write, whoami])]
pub struct Notes;

#[tool_group(name = "web_search", description = "Searching the web.", scopes = ["web:read"], tools = [web_search])]
pub struct WebSearch;

#[tool_group(
    name = "scraping",
    description = "Fetching pages.",
    scopes = ["web:fetch"],
    tools = [page_fetch],
    skills = ["tests/skills/release-checklist"]
)]
pub struct Scraping;

#[toolkit]
pub struct Agent {
    #[basic]
    pub notes: Notes,
    pub web_search: WebSearch,
    pub scraping: Scraping,
}

/// A server for `idp`'s tokens at `http://ADDR/mcp`, served on a free loopback port, with
/// `validator` (from [`validator`]) and `auth` adjusted by `configure`; the endpoint's URL.
pub async fn serve(
    idp: &Idp,
    mode: Mode,
    config: rmcp::transport::StreamableHttpServerConfig,
    tune: impl FnOnce(JwtValidator) -> JwtValidator,
    configure: impl FnOnce(BearerAuth) -> BearerAuth,
) -> String {
    serve_toolkit(idp, mode, config, tune, configure, |toolkit| toolkit).await
}

/// [`serve`], with the toolkit adjusted by `toolkit` (lifecycle rules, say).
pub async fn serve_toolkit(
    idp: &Idp,
    mode: Mode,
    config: rmcp::transport::StreamableHttpServerConfig,
    tune: impl FnOnce(JwtValidator) -> JwtValidator,
    configure: impl FnOnce(BearerAuth) -> BearerAuth,
    adjust: impl FnOnce(Toolkit<Agent>) -> Toolkit<Agent>,
) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let validator =
        tune(JwtValidator::new(&idp.issuer, &url).with_fetch_timeout(Duration::from_secs(2)));
    let auth = BearerAuth::new(&url, validator)
        .unwrap()
        .with_authorization_server(&idp.issuer);
    let toolkit = adjust(Toolkit::new(Agent {
        notes: Notes,
        web_search: WebSearch,
        scraping: Scraping,
    }));
    // `reset_tools` listed in mask mode too: these tests read which groups it offers each
    // principal.
    let server = McpServer::new(toolkit, mode)
        .with_reset_tools_listed(true)
        .with_auth(configure(auth));
    tokio::spawn(async move {
        let _ = server.serve_http(listener, "/mcp", config).await;
    });
    url
}

/// One raw JSON-RPC POST (stateless: no session) with `token` as the bearer token, if any.
pub async fn post(url: &str, token: Option<&str>, body: &Value) -> reqwest::Response {
    let mut request = reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-06-18")
        .body(body.to_string());
    if let Some(token) = token {
        request = request.header("authorization", format!("Bearer {token}"));
    }
    request.send().await.unwrap()
}

pub fn list_body() -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
}

pub fn call_body(name: &str, arguments: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": name, "arguments": arguments}})
}

/// The `WWW-Authenticate` header of a response.
pub fn challenge(response: &reqwest::Response) -> String {
    response
        .headers()
        .get("www-authenticate")
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default()
}
