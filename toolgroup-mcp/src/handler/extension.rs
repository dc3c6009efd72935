//! The groups drafts, server side: the progressive-disclosure working group's
//! `io.modelcontextprotocol/groups` extension (`groups/list`, `groups/get`, and the view of a
//! client that declares it: the switchable groups' tools scoped, callable without
//! activation) and the interest group's `io.modelcontextprotocol/grouping` (`groups/list`,
//! which resolves the tools' membership labels).

use std::fmt::Write as _;

use rmcp::RoleServer;
use rmcp::model::{
    CacheScope, CallToolRequestParams, CallToolResponse, CustomRequest, CustomResult, ErrorCode,
    ErrorData, ListToolsResult, ServerCapabilities,
};
use rmcp::service::RequestContext;
use serde_json::{Map, Value, json};
use toolgroup_core::meta::GroupInfo;
use toolgroup_core::{CallOutcome, Registry, Session, ToolDefinition, ToolKind, Toolkit};

use super::call::forward_call;
use super::{Handler, is_2026_or_later};
use crate::group_names::wire_name;
use crate::server::Shared;
use crate::{GROUP_META_KEY, Mode};

/// The progressive-disclosure working group's extension.
pub(crate) const GROUPS_EXTENSION_ID: &str = "io.modelcontextprotocol/groups";
/// The interest group's extension (membership labels and `groups/list`).
pub(crate) const GROUPING_EXTENSION_ID: &str = "io.modelcontextprotocol/grouping";
/// Where a 2026-07-28 request declares its client's capabilities.
const CLIENT_CAPABILITIES_META_KEY: &str = "io.modelcontextprotocol/clientCapabilities";

/// Whether a request served in `mode` is offered `io.modelcontextprotocol/groups`: in mask
/// and list mode only. In selected mode the chosen groups' tools are top-level, and the
/// draft places a tool either top-level or scoped, never both.
fn groups_declared<R: Registry>(shared: &Shared<R>, mode: Mode) -> bool {
    shared.groups_offered() && matches!(mode, Mode::Mask | Mode::List)
}

/// Add the groups extensions a request served in `mode` is offered to `capabilities`. No
/// list of groups ever changes (they are compiled in): `groups` declares no `listChanged`,
/// `grouping` declares it `false`.
pub(super) fn declare<R: Registry>(
    shared: &Shared<R>,
    mode: Mode,
    capabilities: &mut ServerCapabilities,
) {
    if groups_declared(shared, mode) {
        capabilities
            .extensions
            .get_or_insert_with(Default::default)
            .insert(GROUPS_EXTENSION_ID.to_owned(), Map::new());
    }
    if shared.labels_offered() {
        let mut settings = Map::new();
        settings.insert("listChanged".to_owned(), Value::Bool(false));
        capabilities
            .extensions
            .get_or_insert_with(Default::default)
            .insert(GROUPING_EXTENSION_ID.to_owned(), settings);
    }
}

/// Whether the client of this request declared `io.modelcontextprotocol/groups`: in the
/// request's own `_meta` when it carries capabilities there (any revision; a declaration that
/// is not valid client capabilities declares nothing), else at `initialize`.
fn declares_groups(ctx: &RequestContext<RoleServer>) -> bool {
    let capabilities = if ctx.meta.contains_key(CLIENT_CAPABILITIES_META_KEY) {
        ctx.meta.client_capabilities()
    } else {
        ctx.client_capabilities()
    };
    capabilities
        .and_then(|c| c.extensions)
        .is_some_and(|e| e.contains_key(GROUPS_EXTENSION_ID))
}

/// The group named `group`, if the toolkit has it.
fn group_info<R: Registry>(group: &str) -> Option<&'static GroupInfo> {
    R::GROUPS.iter().find(|info| info.name == group)
}

/// Whether `def` is a top-level tool for a client that declared the extension: a basic
/// group's tool or a skill tool (`reset_tools` is not: the client activates groups).
fn is_top_level<R: Registry>(def: &ToolDefinition, reset: Option<&ToolDefinition>) -> bool {
    match def.group {
        None => reset.is_none_or(|reset| !std::ptr::eq(reset, def)),
        Some(group) => group_info::<R>(group).is_some_and(|info| info.basic),
    }
}

/// Whether the skills of `group` are scoped (the group is switchable).
pub(super) fn is_switchable<R: Registry>(group: &str) -> bool {
    group_info::<R>(group).is_some_and(|info| !info.basic)
}

/// `{"resultType": "complete", "ttlMs", "cacheScope"}` added to `result` for a 2026-07-28
/// request (rmcp adds them to the results it knows).
fn hinted(result: &mut Map<String, Value>, modern: bool, ttl_ms: u64, scope: CacheScope) {
    if modern {
        result.insert("resultType".to_owned(), json!("complete"));
        result.insert("ttlMs".to_owned(), json!(ttl_ms));
        result.insert("cacheScope".to_owned(), json!(scope));
    }
}

impl<R: Registry> Handler<R> {
    /// Whether this request is served the view of a client of the groups extension: the
    /// switchable groups' tools scoped (in `groups/get`, callable without activation).
    pub(super) fn scoped(&self, ctx: &RequestContext<RoleServer>) -> bool {
        groups_declared(&self.shared, self.mode(ctx)) && declares_groups(ctx)
    }

    /// `tools/list` of the scoped view: the skill tools and the basic groups' tools. It
    /// differs from the flat list by declared capability, so a 2026-07-28 client gets it as
    /// private (a shared cache that ignored `_meta` would serve it to clients that declared
    /// nothing).
    pub(super) fn scoped_list(&self, ctx: &RequestContext<RoleServer>) -> ListToolsResult {
        let toolkit = self.kit(ctx);
        let reset = toolkit.reset_definition();
        let tools = toolkit
            .all_definitions()
            .filter(|d| is_top_level::<R>(d, reset))
            .map(|d| self.tool_of(d).into_owned())
            .collect();
        let result = ListToolsResult::with_all_items(tools);
        if is_2026_or_later(ctx) {
            result
                .with_ttl_ms(self.shared.list_ttl_ms)
                .with_cache_scope(CacheScope::Private)
        } else {
            result
        }
    }

    /// `tools/call` in the scoped view: any tool of any group runs, with every switchable
    /// group active for this call alone ("discovery gating is not access control"); the
    /// toolkit's policies and approval still apply. Nothing is kept.
    pub(super) async fn scoped_call(
        &self,
        request: CallToolRequestParams,
        ctx: &RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let name = request.name.as_ref();
        let toolkit = &*self.kit(ctx);
        let mut session = Session::<R>::all();
        match toolkit.resolve(&session, name) {
            Some(resolved) if resolved.kind() != ToolKind::ResetTools => {}
            _ => {
                crate::telemetry::note_outcome(&ctx.extensions, CallOutcome::UnknownTool);
                return Err(self.scoped_unknown(toolkit, name));
            }
        }
        let arguments = Value::Object(request.arguments.unwrap_or_default());
        let result = match forward_call(toolkit, &mut session, name, &arguments, ctx, false).await {
            Ok(result) => result,
            Err(input) => return Ok(input),
        };
        self.to_mcp(name, result)
    }

    /// `-32602` for a name that is no tool of the scoped view, with a did-you-mean.
    fn scoped_unknown(&self, toolkit: &Toolkit<R>, name: &str) -> ErrorData {
        let reset = toolkit.reset_definition();
        let callable = toolkit
            .all_definitions()
            .filter(|d| reset.is_none_or(|reset| !std::ptr::eq(reset, *d)))
            .map(|d| d.name);
        let mut message = format!("unknown tool `{}`.", crate::echo(name, 64));
        if let Some(guess) = crate::did_you_mean(name, callable) {
            let _ = write!(message, " Did you mean `{guess}`?");
        }
        message.push_str(" The tools are ");
        let top: Vec<String> = toolkit
            .all_definitions()
            .filter(|d| is_top_level::<R>(d, reset))
            .map(|d| format!("`{}`", d.name))
            .collect();
        message.push_str(if top.is_empty() { "none" } else { "" });
        message.push_str(&top.join(", "));
        let _ = write!(
            message,
            "; the groups' tools are in their `groups/get`: {}.",
            self.group_list()
        );
        ErrorData::invalid_params(message, None)
    }

    /// `` `web-search`, `scraping` `` (every switchable group's wire name).
    fn group_list(&self) -> String {
        let names: Vec<String> = self
            .shared
            .names
            .iter()
            .map(|(_, name)| format!("`{name}`"))
            .collect();
        if names.is_empty() {
            "none".to_owned()
        } else {
            names.join(", ")
        }
    }

    /// The answer to `groups/list` or `groups/get` (`None` for other methods).
    pub(super) fn extension_request(
        &self,
        request: &CustomRequest,
        ctx: &RequestContext<RoleServer>,
    ) -> Option<Result<CustomResult, ErrorData>> {
        let mode = self.mode(ctx);
        let method = request.method.as_str();
        let offered = match method {
            "groups/list" => groups_declared(&self.shared, mode) || self.shared.labels_offered(),
            "groups/get" => groups_declared(&self.shared, mode),
            _ => return None,
        };
        if !offered {
            return Some(Err(ErrorData::new(
                ErrorCode::METHOD_NOT_FOUND,
                format!("method not found: `{method}`"),
                None,
            )));
        }
        let params = match request.params.as_ref() {
            None | Some(Value::Null) => None,
            Some(Value::Object(params)) => Some(params),
            Some(other) => {
                return Some(Err(ErrorData::invalid_params(
                    format!(
                        "invalid params: the params of `{method}` are an object, not {}",
                        crate::json_kind(other)
                    ),
                    None,
                )));
            }
        };
        Some(if method == "groups/list" {
            self.groups_list(params, mode, ctx)
        } else {
            self.groups_get(params, ctx)
        })
    }

    /// `{"groups": [{"name", "description", "_meta": {"toolgroup/group"}}]}`: the switchable
    /// groups (the chosen ones, for a request served in selected mode), in one page.
    fn groups_list(
        &self,
        params: Option<&Map<String, Value>>,
        mode: Mode,
        ctx: &RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        match params.and_then(|p| p.get("cursor")) {
            None | Some(Value::Null) => {}
            Some(cursor) => {
                let shown = match cursor {
                    Value::String(s) => format!("`{}`", crate::echo(s, 64)),
                    other => crate::json_kind(other).to_owned(),
                };
                return Err(ErrorData::invalid_params(
                    format!(
                        "invalid cursor {shown}: this server lists every group in one page and gives no cursor"
                    ),
                    None,
                ));
            }
        }
        let chosen = (mode == Mode::Selected).then(|| self.selection(ctx));
        let toolkit = self.kit(ctx);
        let groups: Vec<Value> = self
            .shared
            .names
            .iter()
            // A principal sees the groups it is entitled to (some tool of them).
            .filter(|(i, _)| {
                toolkit
                    .all_definitions()
                    .any(|d| d.group == Some(R::GROUPS[*i].name))
            })
            .filter(|(i, _)| {
                chosen.is_none_or(|session| {
                    session
                        .active_names()
                        .any(|name| name == R::GROUPS[*i].name)
                })
            })
            .map(|(i, wire)| {
                let info = &R::GROUPS[i];
                json!({
                    "name": wire,
                    "description": info.description,
                    "_meta": {GROUP_META_KEY: info.name},
                })
            })
            .collect();
        let mut result = Map::new();
        result.insert("groups".to_owned(), Value::Array(groups));
        let scope = if chosen.is_some() || super::entitled::has_principal(ctx) {
            CacheScope::Private
        } else {
            CacheScope::Public
        };
        hinted(
            &mut result,
            is_2026_or_later(ctx),
            self.shared.list_ttl_ms,
            scope,
        );
        Ok(CustomResult::new(Value::Object(result)))
    }

    /// `{"instructions"?, "contents": {"tools", "resources"?}}` of the group `params.name`:
    /// its instructions, its tools' definitions as `tools/list` gives them, and its skills'
    /// `SKILL.md` resources when the server serves skills. A stateless fetch: nothing changes.
    fn groups_get(
        &self,
        params: Option<&Map<String, Value>>,
        ctx: &RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        let info = match params.and_then(|p| p.get("name")) {
            Some(Value::String(name)) => match self.shared.names.find(name) {
                Some(i) => &R::GROUPS[i],
                None => return Err(self.unknown_group(name)),
            },
            None | Some(Value::Null) => {
                return Err(ErrorData::invalid_params(
                    format!(
                        "invalid params: `groups/get` needs the group's `name`, a string; the groups are {}",
                        self.group_list()
                    ),
                    None,
                ));
            }
            Some(other) => {
                return Err(ErrorData::invalid_params(
                    format!(
                        "invalid params: the `name` of `groups/get` is a string naming a group, not {}; the groups are {}",
                        crate::json_kind(other),
                        self.group_list()
                    ),
                    None,
                ));
            }
        };
        let kit = self.kit(ctx);
        let tools: Vec<Value> = kit
            .all_definitions()
            .filter(|d| d.group == Some(info.name))
            .map(|d| serde_json::to_value(&*self.tool_of(d)).expect("a Tool is JSON"))
            .collect();
        if tools.is_empty() && super::entitled::has_principal(ctx) {
            // A group the principal is not entitled to is no group of its own.
            return Err(self.unknown_group(info.name));
        }
        let mut contents = Map::new();
        contents.insert("tools".to_owned(), Value::Array(tools));
        if !self.shared.skills.is_empty() {
            let resources = self
                .shared
                .skills
                .resources(&|skill| skill.group == info.name && kit.skill(skill.name).is_some());
            if !resources.is_empty() {
                contents.insert(
                    "resources".to_owned(),
                    serde_json::to_value(resources).expect("resources are JSON"),
                );
            }
        }
        let mut result = Map::new();
        if let Some(instructions) = info.instructions {
            result.insert("instructions".to_owned(), json!(instructions));
        }
        // Always present (tools may be empty): the draft's result carries instructions or
        // contents.
        result.insert("contents".to_owned(), Value::Object(contents));
        hinted(
            &mut result,
            is_2026_or_later(ctx),
            self.shared.list_ttl_ms,
            CacheScope::Public,
        );
        Ok(CustomResult::new(Value::Object(result)))
    }

    /// `-32002` (resource not found, the draft's code; rmcp answers it `-32602` to 2026-07-28
    /// requests, as that revision answers an unknown resource) for a name that names no group.
    fn unknown_group(&self, name: &str) -> ErrorData {
        let mut message = format!("group not found: `{}`", crate::echo(name, 64));
        // Our own form of a name (`web_search`) is the closest guess there is.
        let wire = wire_name(name);
        let guess = match self.shared.names.find(&wire) {
            Some(_) if wire != name => Some(wire.as_str()),
            _ => crate::did_you_mean(name, self.shared.names.iter().map(|(_, n)| n)),
        };
        if let Some(guess) = guess {
            let _ = write!(message, " (did you mean `{guess}`?)");
        }
        let _ = write!(message, "; the groups are {}", self.group_list());
        ErrorData::new(ErrorCode::RESOURCE_NOT_FOUND, message, None)
    }
}
