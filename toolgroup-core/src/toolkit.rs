//! The runtime toolkit: a registry of groups plus dispatch, definitions and options.

use std::fmt::Write as _;
use std::future::Future;
use std::ops::Deref;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rustc_hash::FxHashMap;
use serde_json::Value;
use tracing::Instrument as _;
use tracing::field::Empty;

use crate::args::{Arguments, ArgumentsBuf, truncate};
use crate::futures::{CatchUnwind, JoinAll};
use crate::group::GroupInfo;
use crate::policy::{Decision, Policy, PolicyRequest};
use crate::registry::{GroupId, Registry};
use crate::reset::{self, RESET_TOOLS, RESET_TOOLS_DESCRIPTION};
use crate::result::CallResult;
use crate::session::Session;
use crate::suggest::{did_you_mean, list_names};
use crate::tool::{BoxFuture, ToolAnnotations, ToolContext, ToolInfo};

/// A tool as shown to a model: name, description, schemas, hints.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolDefinition {
    /// The tool's name.
    pub name: &'static str,
    /// The tool's description.
    pub description: &'static str,
    /// The arguments' canonical JSON schema.
    pub input_schema: Value,
    /// The output's JSON schema, if any.
    pub output_schema: Option<Value>,
    /// MCP annotations.
    pub annotations: ToolAnnotations,
    /// The tool's group (`None` for `reset_tools`).
    pub group: Option<&'static str>,
    /// Whether the tool is always available (basic group or `reset_tools`).
    pub always_on: bool,
}

impl ToolDefinition {
    fn of(info: &ToolInfo, group: &GroupInfo) -> Self {
        ToolDefinition {
            name: info.name,
            description: info.description,
            input_schema: info.input_schema().clone(),
            output_schema: info.output_schema().cloned(),
            annotations: info.annotations,
            group: Some(group.name),
            always_on: group.basic,
        }
    }
}

/// One call of a batch.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCall {
    /// The provider's id for the call, if any.
    pub id: Option<String>,
    /// The tool's name.
    pub name: String,
    /// The arguments: raw JSON text or a value.
    pub arguments: ArgumentsBuf,
}

impl ToolCall {
    /// A call without an id.
    pub fn new(name: impl Into<String>, arguments: impl Into<ArgumentsBuf>) -> Self {
        ToolCall {
            id: None,
            name: name.into(),
            arguments: arguments.into(),
        }
    }

    /// Set the provider's call id.
    pub fn with_id(mut self, id: impl Into<String>) -> Self {
        self.id = Some(id.into());
        self
    }
}

#[derive(Debug, Clone, Copy)]
struct Slot {
    group: u32,
    tool: u32,
    /// The switchable slot; `None` for basic tools.
    switch: Option<u32>,
    info: &'static ToolInfo,
}

/// A toolkit: the groups of a `#[toolkit]` struct plus dispatch, tool definitions and
/// options. `Send + Sync`; share one behind an `Arc` across all sessions.
///
/// It dereferences to the registry, so group state stays reachable (`toolkit.database`).
pub struct Toolkit<R: Registry> {
    registry: R,
    index: FxHashMap<&'static str, Slot>,
    /// Every tool, in listing order (basic groups first, then groups in declaration order).
    tools: Vec<ToolDefinition>,
    /// Parallel to `tools`: each tool's switchable slot (`None` for basic tools).
    switches: Vec<Option<u32>>,
    reset: Option<ToolDefinition>,
    /// Switchable group names, in slot order, indexed by name.
    names: reset::GroupNames,
    expose_reset: bool,
    default_timeout: Option<Duration>,
    policy: Option<Arc<dyn Policy>>,
}

impl<R: Registry> Toolkit<R> {
    /// Build the toolkit: index the tools and build every definition, once.
    pub fn new(registry: R) -> Self {
        let groups = R::GROUPS;
        let mut slot_of_group = vec![None; groups.len()];
        for (slot, &g) in R::SWITCHABLE.iter().enumerate() {
            slot_of_group[g] = Some(slot as u32);
        }
        let mut index = FxHashMap::default();
        let mut tools = Vec::new();
        let mut switches = Vec::new();
        let basic_first = groups
            .iter()
            .enumerate()
            .filter(|(_, g)| g.basic)
            .chain(groups.iter().enumerate().filter(|(_, g)| !g.basic));
        for (g, group) in basic_first {
            for (t, info) in group.tools.iter().enumerate() {
                index.insert(
                    info.name,
                    Slot {
                        group: g as u32,
                        tool: t as u32,
                        switch: slot_of_group[g],
                        info,
                    },
                );
                tools.push(ToolDefinition::of(info, group));
                switches.push(slot_of_group[g]);
            }
        }
        let names = reset::GroupNames::new(R::SWITCHABLE.iter().map(|&g| groups[g].name).collect());
        let reset = (!names.is_empty()).then(|| ToolDefinition {
            name: RESET_TOOLS,
            description: RESET_TOOLS_DESCRIPTION,
            input_schema: reset::schema(groups, R::SWITCHABLE),
            output_schema: None,
            annotations: ToolAnnotations {
                read_only: Some(false),
                destructive: Some(false),
                idempotent: Some(true),
                open_world: Some(false),
            },
            group: None,
            always_on: true,
        });
        Toolkit {
            registry,
            index,
            tools,
            switches,
            reset,
            names,
            expose_reset: true,
            default_timeout: None,
            policy: None,
        }
    }

    /// Whether to show `reset_tools` to the model (default `true`). With `false` the
    /// application alone switches groups (through [`Session`]), and a model's call to
    /// `reset_tools` is an unknown tool.
    pub fn with_reset_tools(mut self, expose: bool) -> Self {
        self.expose_reset = expose;
        self
    }

    /// A timeout for tools that do not set their own. Calls with a timeout need a Tokio
    /// runtime with the time driver enabled.
    pub fn with_default_timeout(mut self, timeout: Duration) -> Self {
        self.default_timeout = Some(timeout);
        self
    }

    /// A policy evaluated before every call, `reset_tools` included.
    pub fn with_policy(mut self, policy: impl Policy) -> Self {
        self.policy = Some(Arc::new(policy));
        self
    }

    /// The registry of groups.
    pub fn registry(&self) -> &R {
        &self.registry
    }

    /// A new session: no switchable group active.
    pub fn session(&self) -> Session<R> {
        Session::new()
    }

    /// Every group, basic ones included, in declaration order.
    pub fn groups(&self) -> &'static [GroupInfo] {
        R::GROUPS
    }

    /// The `reset_tools` definition, if the toolkit has switchable groups and exposes it.
    pub fn reset_definition(&self) -> Option<&ToolDefinition> {
        self.reset.as_ref().filter(|_| self.expose_reset)
    }

    /// The tools a model should see in `session`: `reset_tools` first, then the basic tools,
    /// then the active groups' tools, groups in declaration order, tools in source order.
    /// Nothing is built or allocated: the definitions were built with the toolkit.
    pub fn definitions(&self, session: &Session<R>) -> impl Iterator<Item = &ToolDefinition> + '_ {
        let session = *session;
        self.reset_definition().into_iter().chain(
            self.tools
                .iter()
                .zip(&self.switches)
                .filter(move |(_, s)| s.is_none_or(|s| session.slot_active(s as usize)))
                .map(|(d, _)| d),
        )
    }

    /// Every tool in the stable listing order, active or not (`reset_tools` first). For
    /// catalogs and for the "mask" delivery mode.
    pub fn all_definitions(&self) -> impl Iterator<Item = &ToolDefinition> + '_ {
        self.reset_definition().into_iter().chain(self.tools.iter())
    }

    /// Like [`definitions`](Self::definitions), each with its position in
    /// [`all_definitions`](Self::all_definitions), so a renderer can reuse per-tool output
    /// it built once for the whole list.
    pub fn definitions_indexed(
        &self,
        session: &Session<R>,
    ) -> impl Iterator<Item = (usize, &ToolDefinition)> + '_ {
        let session = *session;
        let offset = usize::from(self.reset_definition().is_some());
        self.reset_definition().map(|d| (0, d)).into_iter().chain(
            self.tools
                .iter()
                .zip(&self.switches)
                .enumerate()
                .filter(move |(_, (_, s))| s.is_none_or(|s| session.slot_active(s as usize)))
                .map(move |(i, (d, _))| (i + offset, d)),
        )
    }

    /// Whether the model may call `name` in `session` (exposed and active).
    pub fn is_available(&self, session: &Session<R>, name: &str) -> bool {
        if self.is_reset(name) {
            return true;
        }
        self.index
            .get(name)
            .is_some_and(|s| s.switch.is_none_or(|w| session.slot_active(w as usize)))
    }

    fn is_reset(&self, name: &str) -> bool {
        name == RESET_TOOLS && self.reset_definition().is_some()
    }

    /// Call a tool as the model asked: `arguments` is the raw JSON text a provider sends (or
    /// a `&serde_json::Value`). Every mistake comes back as an error result; nothing a model
    /// sends can panic this call or corrupt `session`.
    pub fn call<'a>(
        &'a self,
        session: &'a mut Session<R>,
        name: &'a str,
        arguments: impl Into<Arguments<'a>>,
    ) -> impl Future<Output = CallResult> + Send + 'a {
        self.call_with_id(session, name, None, arguments)
    }

    /// [`call`](Self::call) with the provider's call id (passed to the tool's context and the policy).
    pub fn call_with_id<'a>(
        &'a self,
        session: &'a mut Session<R>,
        name: &'a str,
        call_id: Option<&'a str>,
        arguments: impl Into<Arguments<'a>>,
    ) -> impl Future<Output = CallResult> + Send + 'a {
        // Not an `async fn` wrapping another: each level of nesting would copy the whole call
        // state once more.
        self.call_any(session, name, call_id, arguments.into())
    }

    async fn call_any(
        &self,
        session: &mut Session<R>,
        name: &str,
        call_id: Option<&str>,
        arguments: Arguments<'_>,
    ) -> CallResult {
        if self.is_reset(name) {
            self.reset_call(session, call_id, arguments)
        } else {
            self.call_tool(session, name, call_id, arguments).await
        }
    }

    /// Run one assistant turn's calls. Calls run concurrently, except that a `reset_tools`
    /// call is a barrier: calls before it see the old active set, calls after it the new one.
    /// Results come back in call order.
    pub async fn call_batch(
        &self,
        session: &mut Session<R>,
        calls: &[ToolCall],
    ) -> Vec<CallResult> {
        let mut results = Vec::with_capacity(calls.len());
        let mut start = 0;
        for (i, call) in calls.iter().enumerate() {
            if self.is_reset(&call.name) {
                self.run_concurrently(session, &calls[start..i], &mut results)
                    .await;
                results.push(self.reset_call(
                    session,
                    call.id.as_deref(),
                    call.arguments.as_arguments(),
                ));
                start = i + 1;
            }
        }
        self.run_concurrently(session, &calls[start..], &mut results)
            .await;
        results
    }

    async fn run_concurrently(
        &self,
        session: &Session<R>,
        calls: &[ToolCall],
        out: &mut Vec<CallResult>,
    ) {
        match calls {
            [] => {}
            [call] => out.push(self.call_one(session, call).await),
            _ => {
                let futures: Vec<BoxFuture<'_, CallResult>> = calls
                    .iter()
                    .map(|c| Box::pin(self.call_one(session, c)) as BoxFuture<'_, CallResult>)
                    .collect();
                out.extend(JoinAll::new(futures).await);
            }
        }
    }

    async fn call_one(&self, session: &Session<R>, call: &ToolCall) -> CallResult {
        self.call_tool(
            session,
            &call.name,
            call.id.as_deref(),
            call.arguments.as_arguments(),
        )
        .await
    }

    async fn call_tool(
        &self,
        session: &Session<R>,
        name: &str,
        call_id: Option<&str>,
        arguments: Arguments<'_>,
    ) -> CallResult {
        let span = tracing::info_span!(
            "tool_call",
            tool = name,
            group = Empty,
            outcome = Empty,
            duration_us = Empty
        );
        if span.is_disabled() {
            return self
                .call_tool_inner(session, name, call_id, arguments)
                .await
                .1;
        }
        let started = Instant::now();
        // Boxed (only when a subscriber listens), so the common path's state stays small.
        let (outcome, result) = Box::pin(self.call_tool_inner(session, name, call_id, arguments))
            .instrument(span.clone())
            .await;
        if let Some(slot) = self.index.get(name) {
            span.record("group", R::GROUPS[slot.group as usize].name);
        }
        span.record("outcome", outcome);
        span.record("duration_us", started.elapsed().as_micros() as u64);
        result
    }

    async fn call_tool_inner(
        &self,
        session: &Session<R>,
        name: &str,
        call_id: Option<&str>,
        arguments: Arguments<'_>,
    ) -> (&'static str, CallResult) {
        let Some(slot) = self.index.get(name) else {
            return ("unknown_tool", self.unknown_tool(session, name));
        };
        let group = &R::GROUPS[slot.group as usize];
        if let Some(switch) = slot.switch
            && !session.slot_active(switch as usize)
        {
            return ("inactive_group", self.inactive(slot.info.name, group.name));
        }
        if let Some(denied) = self.deny(slot.info.name, Some(group.name), call_id, arguments) {
            return ("denied", denied);
        }
        let ctx = ToolContext {
            tool: slot.info.name,
            group: group.name,
            call_id,
        };
        let future =
            self.registry
                .dispatch(slot.group as usize, slot.tool as usize, ctx, arguments);
        let future = std::pin::pin!(future);
        let future = CatchUnwind::new(future);
        let outcome = match slot.info.timeout.or(self.default_timeout) {
            None => future.await,
            // Without a Tokio timer, `timeout` panics when it builds its `Sleep`: report that
            // as a configuration error instead of unwinding into the caller.
            // The timer is boxed: it is large, and the common path without a timeout should
            // not carry it in its state.
            Some(limit) => match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                Box::pin(tokio::time::timeout(limit, future))
            })) {
                Err(_) => {
                    return (
                        "no_timer",
                        CallResult::error(format!(
                            "`{}` was not run: it has a timeout, and timeouts need a Tokio runtime with the time driver enabled",
                            slot.info.name
                        )),
                    );
                }
                Ok(timed) => match timed.await {
                    Ok(r) => r,
                    Err(_) => {
                        return (
                            "timeout",
                            CallResult::error(format!(
                                "`{}` timed out after {limit:?} and was cancelled",
                                slot.info.name
                            )),
                        );
                    }
                },
            },
        };
        match outcome {
            Ok(Ok(result)) => (if result.is_error { "tool_error" } else { "ok" }, result),
            Ok(Err(e)) => (
                "invalid_arguments",
                CallResult::error(format!("`{}` was not run: {e}", slot.info.name)),
            ),
            Err(panic) => (
                "panic",
                CallResult::error(format!(
                    "`{}` failed: the tool panicked ({}); the session is unchanged",
                    slot.info.name,
                    truncate(&panic, 300)
                )),
            ),
        }
    }

    #[inline]
    fn deny(
        &self,
        tool: &str,
        group: Option<&'static str>,
        call_id: Option<&str>,
        arguments: Arguments<'_>,
    ) -> Option<CallResult> {
        let policy = self.policy.as_ref()?;
        let request = PolicyRequest {
            tool,
            group,
            arguments,
            call_id,
        };
        match policy.check(&request) {
            Decision::Allow => None,
            Decision::Deny(reason) => Some(CallResult::error(format!(
                "`{tool}` was not run: denied by policy: {reason}"
            ))),
        }
    }

    fn unknown_tool(&self, session: &Session<R>, name: &str) -> CallResult {
        let shown = truncate(name, 64);
        let exposed = self.definitions(session).map(|d| d.name);
        let mut text = format!("unknown tool `{shown}`.");
        let all = self
            .reset_definition()
            .map(|d| d.name)
            .into_iter()
            .chain(self.tools.iter().map(|d| d.name));
        if let Some(guess) = did_you_mean(name, all) {
            if self.is_available(session, guess) {
                let _ = write!(text, " Did you mean `{guess}`?");
            } else {
                let group = self.index[guess].group;
                let group = R::GROUPS[group as usize].name;
                let _ = write!(
                    text,
                    " Did you mean `{guess}`? It is in the group `{group}`, which is not active; activate it with `reset_tools`."
                );
            }
        }
        let _ = write!(text, " The available tools are {}.", list_names(exposed));
        CallResult::error(text)
    }

    fn inactive(&self, tool: &str, group: &str) -> CallResult {
        CallResult::error(if self.reset_definition().is_some() {
            format!(
                "`{tool}` was not run: it belongs to the group `{group}`, which is not active. Call `reset_tools` with `{group}` set to true (and every group you want to keep active) first"
            )
        } else {
            format!(
                "`{tool}` was not run: it belongs to the group `{group}`, which is not active in this session"
            )
        })
    }

    fn reset_call(
        &self,
        session: &mut Session<R>,
        call_id: Option<&str>,
        arguments: Arguments<'_>,
    ) -> CallResult {
        let span = tracing::info_span!("tool_call", tool = RESET_TOOLS, outcome = Empty);
        let _enter = span.enter();
        if let Some(denied) = self.deny(RESET_TOOLS, None, call_id, arguments) {
            span.record("outcome", "denied");
            return denied;
        }
        match reset::parse(arguments, &self.names, R::EMPTY) {
            Ok(bits) => {
                let old = *session.bits();
                *session = Session::from_bits(bits);
                span.record("outcome", "ok");
                reset::accepted(R::GROUPS, R::SWITCHABLE, old.as_ref(), bits.as_ref())
            }
            Err(problems) => {
                span.record("outcome", "refused");
                let active: Vec<&'static str> = session.active().map(GroupId::name).collect();
                reset::refusal(&problems, &self.names.names, &active)
            }
        }
    }
}

impl<R: Registry> Deref for Toolkit<R> {
    type Target = R;
    fn deref(&self) -> &R {
        &self.registry
    }
}

impl<R: Registry + std::fmt::Debug> std::fmt::Debug for Toolkit<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Toolkit")
            .field("registry", &self.registry)
            .field("tools", &self.tools.len())
            .field("groups", &self.names.names)
            .finish_non_exhaustive()
    }
}
