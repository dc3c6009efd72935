//! The public handler: the connection's [`Handler`], each request it answers in its server
//! span (see [`crate::telemetry`]).

use std::borrow::Cow;
use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, CustomRequest, CustomResult,
    DiscoverResult, ErrorData, GetSkillRequestParams, GetSkillResult, GetTaskParams, GetTaskResult,
    InitializeRequestParams, InitializeResult, ListResourcesResult, ListSkillsResult,
    ListToolsResult, PaginatedRequestParams, ProtocolVersion, ReadResourceRequestParams,
    ReadResourceResponse, ServerConfig, Tool, UpdateTaskParams,
};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, ServerHandler};
use toolgroup_core::{Registry, Session};

use super::Handler;
use crate::server::Shared;
use crate::telemetry::server::Traced;

/// The MCP server of one connection: an rmcp [`ServerHandler`] built by
/// [`McpServer::handler`](crate::McpServer::handler), to serve with any rmcp transport
/// (`rmcp::ServiceExt::serve`). Holds the connection's active set (stdio, HTTP protocol
/// sessions); stateless HTTP requests use the server's store.
///
/// Each request it answers runs in a `tracing` span named `mcp_server` with the OpenTelemetry
/// MCP conventions' fields (see the crate docs, "Telemetry"); without a subscriber nothing is
/// gathered.
pub struct McpHandler<R: Registry> {
    inner: Handler<R>,
}

impl<R: Registry> McpHandler<R> {
    pub(crate) fn new(shared: Arc<Shared<R>>, groups: Session<R>) -> Self {
        McpHandler {
            inner: Handler::new(shared, groups),
        }
    }
}

impl<R: Registry> Clone for McpHandler<R> {
    fn clone(&self) -> Self {
        McpHandler {
            inner: self.inner.clone(),
        }
    }
}

impl<R: Registry> std::fmt::Debug for McpHandler<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpHandler")
            .field("mode", &self.inner.shared.mode)
            .finish_non_exhaustive()
    }
}

/// An answer that is never a tool's error result.
fn plain<T>(_: &T) -> bool {
    false
}

/// A custom method's name as a span attribute: the extension methods served here, else
/// `_OTHER` (a client's method name is not an attribute: cardinality).
fn custom_method(request: &CustomRequest) -> &'static str {
    const SERVED: &[&str] = &["tools/call", "groups/list", "groups/get"];
    SERVED
        .iter()
        .find(|m| **m == request.method)
        .copied()
        .unwrap_or("_OTHER")
}

// Every method `Handler` answers, each in its span; the others keep rmcp's defaults.
impl<R: Registry> ServerHandler for McpHandler<R> {
    fn get_info(&self) -> ServerConfig {
        self.inner.get_info()
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        self.inner.supported_protocol_versions()
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.inner.get_tool(name)
    }

    async fn ping(&self, mut context: RequestContext<RoleServer>) -> Result<(), ErrorData> {
        let traced = Traced::open("ping", None, &mut context);
        traced.run(self.inner.ping(context), plain).await
    }

    async fn initialize(
        &self,
        request: InitializeRequestParams,
        mut context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        let traced = Traced::open("initialize", None, &mut context);
        traced
            .run(self.inner.initialize(request, context), plain)
            .await
    }

    async fn discover(
        &self,
        mut context: RequestContext<RoleServer>,
    ) -> Result<DiscoverResult, ErrorData> {
        let traced = Traced::open("server/discover", None, &mut context);
        traced.run(self.inner.discover(context), plain).await
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        mut context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        let traced = Traced::open("tasks/get", None, &mut context);
        traced
            .run(self.inner.get_task(request, context), plain)
            .await
    }

    async fn update_task(
        &self,
        request: UpdateTaskParams,
        mut context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let traced = Traced::open("tasks/update", None, &mut context);
        traced
            .run(self.inner.update_task(request, context), plain)
            .await
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        mut context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let traced = Traced::open("tasks/cancel", None, &mut context);
        traced
            .run(self.inner.cancel_task(request, context), plain)
            .await
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        mut context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let traced = Traced::open("tools/list", None, &mut context);
        traced
            .run(self.inner.list_tools(request, context), plain)
            .await
    }

    async fn list_skills(
        &self,
        request: Option<PaginatedRequestParams>,
        mut context: RequestContext<RoleServer>,
    ) -> Result<ListSkillsResult, ErrorData> {
        let traced = Traced::open("skills/list", None, &mut context);
        traced
            .run(self.inner.list_skills(request, context), plain)
            .await
    }

    async fn get_skill(
        &self,
        request: GetSkillRequestParams,
        mut context: RequestContext<RoleServer>,
    ) -> Result<GetSkillResult, ErrorData> {
        let traced = Traced::open("skills/get", None, &mut context);
        traced
            .run(self.inner.get_skill(request, context), plain)
            .await
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        mut context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let traced = Traced::open("resources/list", None, &mut context);
        traced
            .run(self.inner.list_resources(request, context), plain)
            .await
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        mut context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let traced = Traced::open("resources/read", None, &mut context);
        traced.resource(&request.uri);
        traced
            .run(self.inner.read_resource(request, context), plain)
            .await
    }

    #[allow(deprecated)] // MCP logging (SEP-2577), still on the wire: see `logging`
    async fn set_level(
        &self,
        request: rmcp::model::SetLevelRequestParams,
        mut context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let traced = Traced::open("logging/setLevel", None, &mut context);
        traced
            .run(self.inner.set_level(request, context), plain)
            .await
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        mut context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        let traced = Traced::open(custom_method(&request), None, &mut context);
        traced
            .run(self.inner.on_custom_request(request, context), plain)
            .await
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        mut context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let name = request.name.as_ref();
        let known = self.inner.toolkit().definition(name).is_some();
        let traced = Traced::open("tools/call", Some((name, known)), &mut context);
        traced
            .run(self.inner.call_tool(request, context), |response| {
                matches!(response, CallToolResponse::Complete(r) if r.is_error == Some(true))
            })
            .await
    }
}
