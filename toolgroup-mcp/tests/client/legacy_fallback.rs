//! `Protocol::V2026_07_28` against rmcp servers that do not serve 2026-07-28, over
//! Streamable HTTP: one answers `server/discover` with `-32601`, as a server of an earlier
//! revision does (rmcp's lifecycle then sends `initialize` on the same connection); one
//! supports only the revisions up to 2025-11-25 and refuses the request's 2026-07-28 (the
//! client starts again on a new connection with `initialize`). Either way the session is a
//! 2025-11-25 one, and the calls work as with the default handshake.

use std::borrow::Cow;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, DiscoverResult,
    ErrorCode, ErrorData, ListToolsResult, PaginatedRequestParams, ProtocolVersion,
    ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::transport::StreamableHttpServerConfig;
use rmcp::transport::StreamableHttpService;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::{RoleServer, ServerHandler};
use serde_json::{Value, json};
use toolgroup_mcp::client::{Protocol, RemoteServer, RemoteTools};

use super::{Killable, ok_text};

/// A server with one tool, `revision`, which answers the revision of the request.
#[derive(Clone)]
struct Legacy {
    /// Supports only the revisions up to 2025-11-25 (rmcp refuses any other before
    /// `server/discover` is handled); else refuses `server/discover` as an unknown method.
    older: bool,
    discovers: Arc<AtomicUsize>,
}

impl ServerHandler for Legacy {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        match self.older {
            true => Cow::Borrowed(ProtocolVersion::known_up_to(&ProtocolVersion::V_2025_11_25)),
            false => Cow::Borrowed(ProtocolVersion::KNOWN_VERSIONS),
        }
    }

    async fn discover(
        &self,
        _context: RequestContext<RoleServer>,
    ) -> Result<DiscoverResult, ErrorData> {
        self.discovers.fetch_add(1, Ordering::SeqCst);
        if self.older {
            return Ok(DiscoverResult::from_server_info(
                self.supported_protocol_versions().into_owned(),
                self.get_info(),
            ));
        }
        Err(ErrorData::new(
            ErrorCode::METHOD_NOT_FOUND,
            "Method not found: server/discover",
            None,
        ))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let Value::Object(schema) = json!({"type": "object", "properties": {}}) else {
            unreachable!()
        };
        let tool = Tool::new("revision", "The request's protocol revision.", schema);
        Ok(ListToolsResult::with_all_items(vec![tool]))
    }

    async fn call_tool(
        &self,
        _request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let revision = context
            .protocol_version()
            .map_or_else(|| "none".to_owned(), |v| v.to_string());
        Ok(CallToolResult::success(vec![ContentBlock::text(revision)]).into())
    }
}

/// Connect with `Protocol::V2026_07_28`; answers how many `server/discover` the handler saw.
async fn falls_back(older: bool) -> usize {
    let legacy = Legacy {
        older,
        discovers: Arc::default(),
    };
    let discovers = legacy.discovers.clone();
    let server = Killable::start(
        move || {
            let service = StreamableHttpService::new(
                move || Ok(legacy.clone()),
                Arc::new(LocalSessionManager::default()),
                StreamableHttpServerConfig::default(),
            );
            axum::Router::new().nest_service("/mcp", service)
        },
        "127.0.0.1:0",
    );
    let remote =
        RemoteTools::connect(RemoteServer::http(server.url()).with_protocol(Protocol::V2026_07_28))
            .await
            .expect("the client falls back to initialize");
    let r = remote.call("revision", &json!({})).await;
    assert_eq!(ok_text(&r), "2025-11-25");
    discovers.load(Ordering::SeqCst)
}

#[tokio::test]
async fn a_server_that_refuses_discover_gets_initialize() {
    assert_eq!(falls_back(false).await, 1);
}

#[tokio::test]
async fn a_server_without_2026_07_28_gets_initialize() {
    // Refused before the handler, for the revision the request names.
    assert_eq!(falls_back(true).await, 0);
}
