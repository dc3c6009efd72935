//! A plain rmcp server: every page of a paginated `tools/list`, protocol errors, and
//! `list_changed`.

use std::sync::{Arc, Mutex};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorData,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::transport::StreamableHttpServerConfig;
use rmcp::transport::StreamableHttpService;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::{RoleServer, ServerHandler};
use serde_json::{Value, json};

use super::*;

/// A server with paginated `tools/list` (two tools a page), a tool answering a JSON-RPC
/// error, and a tool that adds a tool and notifies `list_changed`.
#[derive(Clone)]
struct Paged {
    tools: Arc<Mutex<Vec<Tool>>>,
}

fn plain_tool(name: &str) -> Tool {
    let schema = json!({"type": "object", "properties": {}});
    let Value::Object(schema) = schema else {
        unreachable!()
    };
    Tool::new(name.to_owned(), format!("The tool {name}."), schema)
}

impl ServerHandler for Paged {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_tool_list_changed()
                .build(),
        )
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let start = match request.and_then(|r| r.cursor) {
            Some(cursor) => cursor
                .parse::<usize>()
                .map_err(|_| ErrorData::invalid_params("bad cursor", None))?,
            None => 0,
        };
        let tools = self.tools.lock().unwrap().clone();
        let end = (start + 2).min(tools.len());
        let mut result = ListToolsResult::with_all_items(tools[start..end].to_vec());
        if end < tools.len() {
            result.next_cursor = Some(end.to_string());
        }
        Ok(result)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        match request.name.as_ref() {
            "broken" => Err(ErrorData::internal_error("the database is down", None)),
            "grow" => {
                self.tools.lock().unwrap().push(plain_tool("grown"));
                let _ = context.peer.notify_tool_list_changed().await;
                Ok(CallToolResult::success(vec![ContentBlock::text("grew")]).into())
            }
            name => {
                Ok(CallToolResult::success(vec![ContentBlock::text(format!("ran {name}"))]).into())
            }
        }
    }
}

#[tokio::test]
async fn every_page_protocol_errors_and_list_changed_from_an_rmcp_server() {
    let paged = Paged {
        tools: Arc::new(Mutex::new(
            ["t1", "t2", "t3", "broken", "grow"]
                .map(plain_tool)
                .to_vec(),
        )),
    };
    let server = Killable::start(
        move || {
            let service = StreamableHttpService::new(
                move || Ok(paged.clone()),
                Arc::new(LocalSessionManager::default()),
                StreamableHttpServerConfig::default(),
            );
            axum::Router::new().nest_service("/mcp", service)
        },
        "127.0.0.1:0",
    );
    let remote = connect(&server).await;
    assert_eq!(names(&remote), ["t1", "t2", "t3", "broken", "grow"]);
    assert_eq!(ok_text(&remote.call("t3", "").await), "ran t3");

    let r = remote.call("broken", &json!({})).await;
    let message = err_text(&r);
    assert!(
        message.contains("refused the call (JSON-RPC error -32603): the database is down"),
        "{message}"
    );

    assert_eq!(ok_text(&remote.call("grow", &json!({})).await), "grew");
    next_list(&remote, 0).await;
    assert_eq!(
        names(&remote),
        ["t1", "t2", "t3", "broken", "grow", "grown"]
    );
    assert_eq!(
        ok_text(&remote.call("grown", &json!({})).await),
        "ran grown"
    );
}
