//! Remote groups' error texts (feature `client`) name the tool as the model called it — the
//! exposed, prefixed name — never its name on the server: refused arguments, JSON-RPC errors,
//! timeouts, and a connection lost mid-call (this crate's `interop_server` over stdio, killed).

use crate::support;

use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorData,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::transport::StreamableHttpService;
use rmcp::transport::streamable_http_server::StreamableHttpServerConfig;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::{RoleServer, ServerHandler};
use serde_json::{Value, json};
use support::{example, kill, with_pid_file};
use toolgroup::dynamic::Dynamic;
use toolgroup::prelude::*;
use toolgroup_mcp::client::{Remote, RemoteServer, RemoteTools, Stderr};

/// Bounds the waits for something that happens on its own; never a timing assertion.
const PATIENCE: Duration = Duration::from_secs(20);

/// An rmcp server with tools named as `server-everything` names them: `get-sum` adds,
/// `broken` answers a JSON-RPC error, `hang` never answers.
#[derive(Clone)]
struct Everything;

fn tool(name: &str, schema: Value) -> Tool {
    let Value::Object(schema) = schema else {
        unreachable!()
    };
    Tool::new(name.to_owned(), format!("The tool {name}."), schema)
}

impl ServerHandler for Everything {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let empty = json!({"type": "object", "properties": {}});
        Ok(ListToolsResult::with_all_items(vec![
            tool(
                "get-sum",
                json!({
                    "type": "object",
                    "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
                    "required": ["a", "b"],
                }),
            ),
            tool("broken", empty.clone()),
            tool("hang", empty),
        ]))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        match request.name.as_ref() {
            "broken" => Err(ErrorData::internal_error("the database is down", None)),
            "hang" => std::future::pending().await,
            _ => {
                let arg = |k: &str| {
                    request
                        .arguments
                        .as_ref()
                        .and_then(|a| a.get(k))
                        .and_then(Value::as_f64)
                        .unwrap_or_default()
                };
                let sum = arg("a") + arg("b");
                Ok(CallToolResult::success(vec![ContentBlock::text(sum.to_string())]).into())
            }
        }
    }
}

/// The `Everything` server on a loopback port, serving until the test's runtime ends.
async fn everything_server() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let service = StreamableHttpService::new(
        || Ok(Everything),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    let app = axum::Router::new().nest_service("/mcp", service);
    tokio::spawn(async move { axum::serve(listener, app).await });
    url
}

#[tool_group(name = "ev", description = "Tools of a remote server.", dynamic)]
struct Ev;

#[toolkit]
struct Kit {
    #[basic]
    ev: Dynamic<Ev, Remote>,
}

async fn kit_of(remote: RemoteTools, prefix: &str) -> (Toolkit<Kit>, Session<Kit>) {
    let kit = Toolkit::new(Kit {
        ev: Dynamic::new(Remote::new(remote).with_prefix(prefix)),
    });
    let session = kit.session();
    (kit, session)
}

fn error_text(result: &CallResult) -> String {
    assert!(result.is_error, "expected an error: {result:?}");
    result.text_joined()
}

#[tokio::test]
async fn refusals_errors_and_timeouts_name_the_exposed_tool() {
    let remote = RemoteTools::connect(
        RemoteServer::http(everything_server().await)
            .with_label("everything")
            .with_call_timeout(Duration::from_millis(300)),
    )
    .await
    .expect("the server answers");
    let (kit, mut session) = kit_of(remote, "ev_").await;
    let sum = kit
        .call(&mut session, "ev_get-sum", &json!({"a": 2, "b": 3}))
        .await;
    assert_eq!(sum.text_joined(), "5");

    let wrong = kit
        .call(&mut session, "ev_get-sum", &json!({"a": "two", "b": 3}))
        .await;
    assert_eq!(
        error_text(&wrong),
        "`ev_get-sum` was not run: invalid argument `a`: expected a number, got a string"
    );
    let missing = kit.call(&mut session, "ev_get-sum", &json!({"a": 2})).await;
    assert_eq!(
        error_text(&missing),
        "`ev_get-sum` was not run: invalid argument `b`: missing required property"
    );

    let broken = kit.call(&mut session, "ev_broken", &json!({})).await;
    assert_eq!(
        error_text(&broken),
        "`ev_broken` failed: the MCP server `everything` refused the call (JSON-RPC error -32603): the database is down. Check the tool's name and arguments before retrying."
    );

    let hang = kit.call(&mut session, "ev_hang", &json!({})).await;
    assert_eq!(
        error_text(&hang),
        "`ev_hang` timed out after 300 ms without news from the MCP server `everything` and was cancelled on it; it may have had some effect. You may retry, perhaps with a smaller request."
    );
}

#[cfg(unix)]
#[tokio::test]
async fn a_connection_lost_mid_call_names_the_exposed_tool() {
    let dir = std::env::temp_dir().join(format!("toolgroup-remote-names-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pid_file = dir.join("own.pid");
    let exe = example(&["-p", "toolgroup-mcp"], "interop_server");
    let remote = RemoteTools::connect(
        with_pid_file(&pid_file, &exe, &["mask", "stdio", "waiting"])
            .with_label("own")
            .with_stderr(Stderr::Discard)
            // Every tool top-level, `slow` and `slow_stats` in one group.
            .with_groups_extension(false),
    )
    .await
    .expect("the interop server starts");
    let (kit, mut session) = kit_of(remote, "own_").await;
    let slow = async {
        let mut session = kit.session();
        kit.call(&mut session, "own_slow", &json!({"seconds": 60}))
            .await
    };
    // Kill the server once `slow` runs there (its `slow_stats` says so).
    let killer = async {
        tokio::time::timeout(PATIENCE, async {
            loop {
                let stats = kit.call(&mut session, "own_slow_stats", &json!({})).await;
                if stats.structured_content.as_ref().map(|s| &s["started"]) == Some(&json!(1)) {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        })
        .await
        .expect("`slow` started on the server");
        kill(&pid_file);
    };
    let (lost, ()) = tokio::join!(slow, killer);
    let text = error_text(&lost);
    assert!(
        text.starts_with("`own_slow` failed: the connection to the MCP server `own` was lost ("),
        "{text}"
    );
    assert!(
        text.ends_with(
            "; the tool may or may not have run. The client reconnects at the next call: you may retry."
        ),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
