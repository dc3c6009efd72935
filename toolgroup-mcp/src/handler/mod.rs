//! The rmcp `ServerHandler` over a toolkit.

mod call;
#[cfg(feature = "code-mode")]
mod code;
mod connection;
mod entitled;
mod extension;
mod lifecycle;
mod place;
mod result;
mod service;
mod skills;
mod tasks;

use std::borrow::Cow;
use std::sync::Arc;

use rmcp::model::{
    CacheScope, CallToolRequestParams, CallToolResponse, CancelTaskParams, CustomRequest,
    CustomResult, DiscoverResult, ErrorData, GetSkillRequestParams, GetSkillResult, GetTaskParams,
    GetTaskResult, InitializeRequestParams, InitializeResult, ListResourcesResult,
    ListSkillsResult, ListToolsResult, PaginatedRequestParams, ProtocolVersion,
    ReadResourceRequestParams, ReadResourceResponse, ServerCapabilities, ServerConfig, Tool,
    UpdateTaskParams,
};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, ServerHandler};
use serde_json::Value;
use toolgroup_core::lifecycle::ManagedSession;
use toolgroup_core::provider::Provider;
use toolgroup_core::{CallOutcome, Registry, Session, ToolDefinition, ToolKind, Toolkit};

use crate::Mode;
use crate::server::{Shared, group_instructions};

use self::call::{forward_call, tools_call_problem};
use self::connection::Connection;
use self::entitled::has_principal;
use self::place::Place;
pub use self::service::McpHandler;

/// The rmcp [`ServerHandler`] of one connection, served inside
/// [`McpHandler`](crate::McpHandler)'s telemetry. Holds the connection's active set (stdio,
/// HTTP protocol sessions); stateless HTTP requests use the server's store.
pub(crate) struct Handler<R: Registry> {
    shared: Arc<Shared<R>>,
    /// The connection's own state, in one allocation: a 2025-11-25 server holds one handler
    /// per open session, however idle.
    connection: Arc<Connection<R>>,
    /// Selected mode: the groups chosen for the connection (when not taken from the URL).
    fixed: Session<R>,
}

impl<R: Registry> Clone for Handler<R> {
    fn clone(&self) -> Self {
        Handler {
            shared: self.shared.clone(),
            connection: self.connection.clone(),
            fixed: self.fixed,
        }
    }
}

impl<R: Registry> std::fmt::Debug for Handler<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Handler")
            .field("mode", &self.shared.mode)
            .finish_non_exhaustive()
    }
}

fn is_2026_or_later(ctx: &RequestContext<RoleServer>) -> bool {
    ctx.protocol_version()
        .is_some_and(|v| v.as_str() >= ProtocolVersion::V_2026_07_28.as_str())
}

impl<R: Registry> Handler<R> {
    pub(crate) fn new(shared: Arc<Shared<R>>, groups: Session<R>) -> Self {
        let (local, fixed) = match shared.mode {
            Mode::Selected => (Session::new(), groups),
            _ => (groups, Session::new()),
        };
        Handler {
            shared,
            connection: Arc::new(Connection {
                local: std::sync::Mutex::new(ManagedSession::new(local)),
                reset_gate: tokio::sync::Mutex::new(()),
                id: std::sync::OnceLock::new(),
                log_level: crate::logging::ClientLogLevel::new(),
            }),
            fixed,
        }
    }

    /// The connection's active set and lifecycle state, locked. A poisoned lock is taken
    /// anyway: a call that panicked must not leave the connection unusable for good.
    fn local(&self) -> std::sync::MutexGuard<'_, ManagedSession<R>> {
        self.connection
            .local
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn local_session(&self) -> Session<R> {
        *self.local().session()
    }

    fn toolkit(&self) -> &Toolkit<R> {
        &self.shared.toolkit
    }

    /// The mode this request is served in: selected for a request that selects groups (over
    /// HTTP), and list falls back to mask for 2026-07-28.
    fn mode(&self, ctx: &RequestContext<RoleServer>) -> Mode {
        self.mode_for(ctx, is_2026_or_later(ctx))
    }

    /// [`mode`](Self::mode) for a request of the revision `modern` says.
    fn mode_for(&self, ctx: &RequestContext<RoleServer>, modern: bool) -> Mode {
        match self.shared.mode {
            _ if self.requested(ctx).is_some() => Mode::Selected,
            Mode::List if modern => Mode::Mask,
            mode => mode,
        }
    }

    /// The tools this request's client is shown, in listing order.
    fn listed<'a>(
        &'a self,
        toolkit: &'a Toolkit<R>,
        mode: Mode,
        session: &'a Session<R>,
    ) -> Vec<Cow<'a, Tool>> {
        // Asked once per listing, not per tool.
        let reset_listed = self.reset_listed();
        let listed_here = |name: &str| reset_listed || name != toolgroup_core::meta::RESET_TOOLS;
        #[cfg_attr(not(feature = "code-mode"), allow(unused_mut))]
        let mut listed: Vec<Cow<'a, Tool>> = match mode {
            // A principal's toolkit: its own tools, in the same order.
            Mode::Mask if !std::ptr::eq(toolkit, self.toolkit()) => toolkit
                .all_definitions()
                .filter(|d| listed_here(d.name))
                .map(|d| self.tool_of(d))
                .collect(),
            Mode::Mask => self
                .shared
                .tools
                .iter()
                .filter(|t| listed_here(&t.name))
                .map(Cow::Borrowed)
                .chain(
                    toolkit
                        .all_definitions()
                        .filter(|d| !self.shared.index.contains_key(d.name))
                        .map(|d| Cow::Owned(self.found_tool(d))),
                )
                .collect(),
            // Selected: reset_tools is hidden; the skill tools (which have no group either)
            // are listed while the chosen groups show a skill.
            Mode::Selected => toolkit
                .definitions(session)
                .filter(|d| {
                    toolkit
                        .reset_definition()
                        .is_none_or(|reset| !std::ptr::eq(reset, *d))
                })
                .map(|d| self.tool_of(d))
                .collect(),
            _ => toolkit
                .definitions(session)
                .map(|d| self.tool_of(d))
                .collect(),
        };
        #[cfg(feature = "code-mode")]
        if let Some(code) = &self.shared.code {
            let own = std::ptr::eq(toolkit, self.toolkit());
            listed.push(self.program_tool(code, toolkit, own, mode, session));
        }
        listed
    }

    /// The MCP definition of a listed tool: rendered once for compiled-in tools, now for
    /// tools found at run time.
    fn tool_of<'a>(&'a self, def: &ToolDefinition) -> Cow<'a, Tool> {
        // Only the skill tools' definitions naming every skill are pre-rendered: a session
        // that sees fewer skills lists definitions of its own, with a shorter enum.
        let prerendered = self
            .toolkit()
            .definition(def.name)
            .is_some_and(|d| std::ptr::eq(d, def));
        match self.shared.index.get(def.name) {
            Some(&i) if prerendered => Cow::Borrowed(&self.shared.tools[i]),
            _ => Cow::Owned(self.found_tool(def)),
        }
    }

    /// The MCP definition of a tool found at run time (or of a skill tool naming fewer
    /// skills), with its `_meta`.
    fn found_tool(&self, def: &ToolDefinition) -> Tool {
        let json = Provider::Mcp.render_definition(def);
        let tool =
            serde_json::from_value(json).expect("the MCP rendering of a tool is an MCP Tool");
        crate::server::decorate(&self.shared, tool, def)
    }

    /// What the server declares to a request served in `mode` (`selection`: the chosen
    /// groups in selected mode). `tools.listChanged` only where the list can change: list
    /// mode, which 2026-07-28 requests are never served in.
    fn info(&self, mode: Mode, selection: Option<&Session<R>>) -> ServerConfig {
        #[allow(deprecated)] // MCP logging (SEP-2577), still on the wire: see `logging`
        let mut capabilities = ServerCapabilities::builder()
            .enable_logging()
            .enable_tools();
        if mode == Mode::List {
            capabilities = capabilities.enable_tool_list_changed();
        }
        let mut capabilities = capabilities.build();
        if !self.shared.skills.is_empty() {
            // The skills extension serves the files as resources, and requires the capability.
            capabilities.resources = Some(rmcp::model::ResourcesCapability::default());
            let declared = ServerCapabilities::builder().enable_skills().build();
            capabilities
                .extensions
                .get_or_insert_with(Default::default)
                .extend(declared.extensions.unwrap_or_default());
        }
        extension::declare(&self.shared, mode, &mut capabilities);
        self.declare_tasks(&mut capabilities);
        let mut info = ServerConfig::new(capabilities).with_server_info(self.shared.info.clone());
        let mut instructions = self.shared.instructions.clone().unwrap_or_default();
        if let Some(selection) = selection {
            let groups = group_instructions(selection);
            if !groups.is_empty() {
                if !instructions.is_empty() {
                    instructions.push_str("\n\n");
                }
                instructions.push_str(&groups);
            }
        }
        if !instructions.is_empty() {
            info = info.with_instructions(instructions);
        }
        info
    }

    /// [`info`](Self::info) for a request of the revision `modern` says.
    fn info_for(&self, ctx: &RequestContext<RoleServer>, modern: bool) -> ServerConfig {
        match self.mode_for(ctx, modern) {
            Mode::Selected => self.info(Mode::Selected, Some(&self.selection(ctx))),
            mode => self.info(mode, None),
        }
    }
}

impl<R: Registry> ServerHandler for Handler<R> {
    fn get_info(&self) -> ServerConfig {
        match self.shared.mode {
            Mode::Selected => self.info(Mode::Selected, Some(&self.fixed)),
            mode => self.info(mode, None),
        }
    }

    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        context.peer.set_peer_info(request.clone());
        // A session of the HTTP endpoint keeps this connection's state over hibernation, and
        // takes back what it held before (see `http_sessions`).
        #[cfg(feature = "http")]
        if let Some(slot) = context
            .extensions
            .get::<crate::http_sessions::SessionSlot>()
            && let Some(before) = slot.keep(self.connection.clone())
            && let Ok(before) = before.downcast::<Connection<R>>()
            && !Arc::ptr_eq(&before, &self.connection)
        {
            self.connection.take_over(&before);
        }
        let mut result = self.negotiate_initialize(&request)?;
        // Declared for the negotiated revision, not the one asked for (a client that asks for
        // 2026-07-28, which has no `initialize`, gets 2025-11-25 and is served for it).
        let modern = result.protocol_version.as_str() >= ProtocolVersion::V_2026_07_28.as_str();
        let info = self.info_for(&context, modern);
        result.capabilities = info.capabilities;
        result.instructions = info.instructions;
        Ok(result)
    }

    async fn discover(
        &self,
        context: RequestContext<RoleServer>,
    ) -> Result<DiscoverResult, ErrorData> {
        let modern = is_2026_or_later(&context);
        Ok(DiscoverResult::from_server_info(
            self.supported_protocol_versions().into_owned(),
            self.info_for(&context, modern),
        ))
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        self.get_task_of(request, &context).await
    }

    async fn update_task(
        &self,
        request: UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.update_task_of(request, &context).await
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.cancel_task_of(request, &context).await
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        skills::refuse_cursor(request, "tool")?;
        if self.scoped(&context) {
            return Ok(self.scoped_list(&context));
        }
        let mode = self.mode(&context);
        let place = self.place(&context);
        let session = match mode {
            Mode::Mask => Session::new(),
            _ => self
                .load(&place)
                .await
                .map_err(|e| ErrorData::internal_error(e.to_string(), None))?,
        };
        let toolkit = self.kit(&context);
        let tools = self
            .listed(&toolkit, mode, &session)
            .into_iter()
            .map(Cow::into_owned)
            .collect();
        let mut result = ListToolsResult::with_all_items(tools);
        if is_2026_or_later(&context) {
            result = match mode {
                // A principal's list is its own: no shared cache may serve it to another.
                Mode::Mask if has_principal(&context) => result
                    .with_ttl_ms(self.shared.list_ttl_ms)
                    .with_cache_scope(CacheScope::Private),
                Mode::Mask => result
                    .with_ttl_ms(self.shared.list_ttl_ms)
                    .with_cache_scope(CacheScope::Public),
                Mode::Selected => result
                    .with_ttl_ms(self.shared.list_ttl_ms)
                    .with_cache_scope(CacheScope::Private),
                _ => result.with_ttl_ms(0).with_cache_scope(CacheScope::Private),
            };
        }
        Ok(result)
    }

    async fn list_skills(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListSkillsResult, ErrorData> {
        self.skills_list(request, &context)
    }

    async fn get_skill(
        &self,
        request: GetSkillRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetSkillResult, ErrorData> {
        self.skills_get(&request.uri, &context)
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        self.resources_list(request, &context)
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        self.resource_read(&request.uri, &context).map(Into::into)
    }

    #[allow(deprecated)] // MCP logging (SEP-2577), still on the wire: see `logging`
    async fn set_level(
        &self,
        request: rmcp::model::SetLevelRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.connection.log_level.set(request.level);
        Ok(())
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.toolkit()
            .definition(name)
            .map(|def| self.tool_of(def).into_owned())
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        // rmcp hands over as "custom" a `tools/call` whose params it could not read.
        if request.method == "tools/call" {
            return Err(ErrorData::invalid_params(
                tools_call_problem(request.params.as_ref()),
                None,
            ));
        }
        if let Some(answer) = self.extension_request(&request, &context) {
            return answer;
        }
        Err(ErrorData::new(
            rmcp::model::ErrorCode::METHOD_NOT_FOUND,
            format!("method not found: `{}`", crate::echo(&request.method, 64)),
            None,
        ))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        mut context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        context
            .extensions
            .insert(self.connection.clone() as Arc<dyn crate::logging::HasLogLevel>);
        if is_2026_or_later(&context) {
            let round = self.round_trip(&request, &context).await?;
            context.extensions.insert(round);
        }
        if self.scoped(&context) {
            return self.scoped_call(request, &context).await;
        }
        #[cfg(feature = "code-mode")]
        if request.name == toolgroup_core::code::RUN_PROGRAM
            && let Some(code) = &self.shared.code
        {
            let arguments = Value::Object(request.arguments.unwrap_or_default());
            return self.program_call(&arguments, &context, code.limits()).await;
        }
        let name = request.name.as_ref();
        let arguments = Value::Object(request.arguments.unwrap_or_default());
        let mode = self.mode(&context);
        let place = self.place(&context);
        let toolkit = &*self.kit(&context);
        // Resolved once: against the connection's selection when it has one; otherwise what
        // the name stands for does not depend on the session, which is loaded below only for
        // the calls that need it.
        let probe = match &place {
            Place::Fixed(selection) => *selection,
            _ => Session::new(),
        };
        let resolved = toolkit.resolve(&probe, name);
        if resolved.is_none() && toolkit.missing_scopes(name).is_some() {
            return self
                .refused_for_scopes(toolkit, name, &arguments, &context)
                .await;
        }

        if let Place::Fixed(selection) = &place {
            // The connection's groups are the ones it selected: `reset_tools` is not listed.
            let Some(resolved) =
                resolved.filter(|r| r.is_available() && r.kind() != ToolKind::ResetTools)
            else {
                crate::telemetry::note_outcome(&context.extensions, CallOutcome::UnknownTool);
                return Err(self.unknown_tool(toolkit, name, mode, selection));
            };
            if let Some(answer) = self
                .as_task(&resolved, *selection, name, &arguments, &context)
                .await
            {
                return answer;
            }
            let mut session = *selection;
            // The selection is the connection's groups: a call activates none.
            let result = match forward_call(
                toolkit,
                &mut session,
                name,
                &arguments,
                &context,
                false,
            )
            .await
            {
                Ok(result) => result,
                Err(input) => return Ok(input),
            };
            if resolved.changes_session() && session != *selection {
                return Ok(Self::error_result(format!(
                    "`{name}` was not run: loading this skill would activate its group, but this connection's groups are the ones it selected. Nothing was changed."
                )));
            }
            return self.to_mcp(name, result);
        }
        let Some(resolved) = resolved else {
            let session = self.load(&place).await.unwrap_or_default();
            crate::telemetry::note_outcome(&context.extensions, CallOutcome::UnknownTool);
            return Err(self.unknown_tool(toolkit, name, mode, &session));
        };

        // A basic tool needs no active set: it answers while the store is down.
        let basic = resolved.group().is_some_and(|g| g.basic);
        let ahead = match self.lifecycle_before(&place, toolkit).await {
            Ok(ahead) => ahead,
            Err(e) if basic => {
                tracing::warn!(error = %e, "the lifecycle state could not be read before a basic tool's call");
                lifecycle::Ahead::default()
            }
            Err(e) => {
                return Ok(Self::error_result(format!(
                    "`{name}` was not run: the active groups could not be loaded: {e}"
                )));
            }
        };
        if ahead.changed && mode == Mode::List {
            // Best effort: a client that went away does not need the notification.
            let _ = context.peer.notify_tool_list_changed().await;
        }
        let changes = self.served(&resolved).changes_session();
        if !changes {
            let loaded = match (&place, ahead.session) {
                (Place::Keyed(_), Some(session)) => Ok(session),
                (Place::Keyed(_), None) if basic => Ok(Session::new()),
                _ => self.load(&place).await,
            };
            let mut session = match loaded {
                Ok(s) => s,
                Err(e) => {
                    return Ok(Self::error_result(format!(
                        "`{name}` was not run: the active groups could not be loaded: {e}"
                    )));
                }
            };
            if let Some(answer) = self
                .as_task(&resolved, session, name, &arguments, &context)
                .await
            {
                if answer.is_ok() {
                    match self
                        .lifecycle_task(&place, toolkit, &session, &session, name)
                        .await
                    {
                        Ok(true) if mode == Mode::List => {
                            // Best effort: a client that went away does not need it.
                            let _ = context.peer.notify_tool_list_changed().await;
                        }
                        Ok(_) => {}
                        Err(e) => {
                            // The task runs: its use is not recorded.
                            tracing::warn!(error = %e, tool = name, "the lifecycle state could not be saved after a task started");
                        }
                    }
                }
                return answer;
            }
            let before = session;
            let mut result = match forward_call(
                toolkit,
                &mut session,
                name,
                &arguments,
                &context,
                false,
            )
            .await
            {
                Ok(result) => result,
                Err(input) => return Ok(input),
            };
            let changed = match &place {
                Place::Keyed(key) if self.keyed_rules() => self
                    .keyed_after(key, false, toolkit, &before, &session, name, &mut result)
                    .await
                    .unwrap_or_else(|e| {
                        // The call ran: its answer stands. Its use is not recorded, so its
                        // group may be switched off sooner than the rules say.
                        tracing::warn!(error = %e, tool = name, "the lifecycle state could not be saved after a call");
                        false
                    }),
                _ => self.lifecycle_after(&place, toolkit, &before, name, &mut result),
            };
            if changed && mode == Mode::List {
                // Best effort: a client that went away does not need the notification.
                let _ = context.peer.notify_tool_list_changed().await;
            }
            return self.to_mcp(name, result);
        }

        if let Some(answer) = self
            .first_use_task(&place, mode, &resolved, name, &arguments, &context)
            .await
        {
            return answer;
        }
        self.changing_call(&place, mode, name, &arguments, &context, resolved.kind())
            .await
    }
}
