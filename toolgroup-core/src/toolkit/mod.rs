//! The runtime toolkit: a registry of groups, its tool definitions and its options.
//!
//! Read in this order: this file (what a toolkit holds, how it is built), `listing` (what the
//! model is shown), `index` (name lookup), `dynamic` (tools found at run time), then a call's
//! stages: `call` (the call API, the call future and the fast path), `full` (resolution and
//! the policy), `run` (running a resolved target, for both paths) and `layers` (the tower
//! boundary); `telemetry` is the call's span; `messages` holds the texts a model reads when a
//! call does not go as asked.

mod admit;
pub(crate) mod audit;
mod call;
mod dynamic;
mod entitle;
mod full;
mod index;
pub(crate) mod layers;
mod listing;
mod managed;
pub(crate) mod messages;
mod resolve;
mod run;
mod skills;
mod telemetry;

use std::sync::{Arc, Mutex};

use std::time::Duration;

use tower_layer::Layer;
use tower_service::Service;

use crate::args::ArgumentsBuf;
use crate::policy::Policy;
use crate::registry::Registry;
use crate::reset;
use crate::session::Session;

pub use self::resolve::{Resolved, ToolKind};

use self::layers::{BoxError, ToolRequest, ToolResponse, ToolService};
use crate::meta::{GroupInfo, ToolDefinition, ToolInfo};

/// One call of a batch.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ToolCall {
    /// The provider's id for the call, if any.
    pub call_id: Option<String>,
    /// The tool's name, as the model sent it.
    pub tool: String,
    /// The arguments: raw JSON text or a value.
    pub arguments: ArgumentsBuf,
}

impl ToolCall {
    /// A call without an id.
    pub fn new(tool: impl Into<String>, arguments: impl Into<ArgumentsBuf>) -> Self {
        ToolCall {
            call_id: None,
            tool: tool.into(),
            arguments: arguments.into(),
        }
    }

    /// Set the provider's call id.
    #[must_use]
    pub fn with_call_id(mut self, id: impl Into<String>) -> Self {
        self.call_id = Some(id.into());
        self
    }
}

/// Where a tool lives: its group and position (indices into the registry), and its
/// switchable slot (`None` for basic tools).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Slot {
    pub(crate) group: u32,
    pub(crate) tool: u32,
    pub(crate) switch: Option<u32>,
    pub(crate) info: &'static ToolInfo,
}

/// What every call reads: shared with the calls that cross a task boundary (through
/// middleware) behind an `Arc`, and cloned on write by the builder methods (the registry, the
/// user's groups and their state, stays shared: it is never written).
pub(crate) struct Core<R: Registry> {
    pub(crate) registry: Arc<R>,
    /// Name -> position in `tools` / `slots`.
    pub(crate) index: index::NameIndex,
    /// Every tool, in listing order (basic groups first, then groups in declaration order).
    pub(crate) tools: Vec<ToolDefinition>,
    /// Parallel to `tools`.
    pub(crate) slots: Vec<Slot>,
    pub(crate) reset: Option<ToolDefinition>,
    /// Whether `reset` is shown to the model ([`Toolkit::with_reset_tools`]): kept in the core
    /// so that the core alone says what is listed (a provider rendering holds the core).
    pub(crate) expose_reset: bool,
    /// Switchable group names, in slot order, indexed by name.
    pub(crate) names: reset::GroupNames,
    /// The groups whose tools are found at run time, in declaration order.
    pub(crate) dynamic: Vec<dynamic::Place>,
    /// The last view of their tools.
    pub(crate) dynamic_cache: Mutex<Option<Arc<dynamic::View>>>,
    /// The groups' skills.
    pub(crate) skills: crate::skill::table::Table,
    /// The scopes each group and tool requires.
    pub(crate) requirements: Arc<entitle::Requirements>,
    /// What the principal holds, when this core is one principal's view (see
    /// [`Toolkit::entitled`]); `None` for the unfiltered core.
    pub(crate) held: Option<crate::scope::Scopes>,
    /// The unfiltered core's views, by held set.
    pub(crate) views: entitle::Views<R>,
}

impl<R: Registry> Clone for Core<R> {
    fn clone(&self) -> Self {
        Core {
            registry: self.registry.clone(),
            index: self.index.clone(),
            tools: self.tools.clone(),
            slots: self.slots.clone(),
            reset: self.reset.clone(),
            expose_reset: self.expose_reset,
            names: self.names.clone(),
            dynamic: self.dynamic.clone(),
            dynamic_cache: Mutex::new(
                self.dynamic_cache
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .clone(),
            ),
            skills: self.skills.clone(),
            requirements: self.requirements.clone(),
            held: self.held.clone(),
            // A clone is about to be configured: the old views describe the old core.
            views: entitle::Views::default(),
        }
    }
}

impl<R: Registry> Core<R> {
    #[inline]
    pub(crate) fn slot(&self, name: &str) -> Option<&Slot> {
        self.lookup(name).map(|(_, slot)| slot)
    }

    /// The tool's position in `tools` / `slots`, and its slot.
    ///
    /// Invariant: `#[inline]`, not `#[inline(always)]`: forced into the fast path, it makes the
    /// cheap call's code larger and the call slower.
    #[inline]
    pub(crate) fn lookup(&self, name: &str) -> Option<(u32, &Slot)> {
        self.index.get(name).map(|i| (i, &self.slots[i as usize]))
    }
}

/// A toolkit: the groups of a `#[toolkit]` struct plus dispatch, tool definitions and
/// options. `Send + Sync`; share one behind an `Arc` across all sessions.
///
/// Build it once from the `#[toolkit]` struct, then give each conversation a [`Session`](crate::Session)
/// (which groups are active) and pass it to every call:
///
/// ```
/// use toolgroup::prelude::*;
///
/// /// Add two numbers.
/// #[tool]
/// fn add(a: i64, b: i64) -> i64 {
///     a + b
/// }
///
/// #[tool_group(name = "math", description = "Arithmetic.", tools = [add])]
/// struct Math;
///
/// #[toolkit]
/// struct Agent {
///     math: Math,
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let toolkit = Toolkit::new(Agent { math: Math });
/// let mut session = toolkit.session();
/// let args = r#"{"a": 1, "b": 2}"#;
/// // `math` is not active yet: the call is refused with the hint to activate it.
/// assert!(toolkit.call(&mut session, "add", args).await.is_error);
///
/// toolkit.call(&mut session, "reset_tools", r#"{"math": true}"#).await;
/// assert!(session.is_active(AgentGroup::Math));
/// assert_eq!(toolkit.call(&mut session, "add", args).await.text_joined(), "3");
/// # }
/// ```
///
/// # Methods by task
///
/// | Task | Methods |
/// |---|---|
/// | Build | [`new`](Self::new), then options: [`with_policy`](Self::with_policy), [`layer`](Self::layer), [`with_audit`](Self::with_audit), [`with_default_timeout`](Self::with_default_timeout), [`with_panic_details`](Self::with_panic_details), [`with_telemetry_content`](Self::with_telemetry_content), [`with_reset_tools`](Self::with_reset_tools), [`with_first_use_activation`](Self::with_first_use_activation), [`with_skill_activation`](Self::with_skill_activation), [`with_skills`](Self::with_skills), [`with_required_scopes`](Self::with_required_scopes) |
/// | Sessions | [`session`](Self::session) starts one; switch groups with the model's `reset_tools` call or [`Session`](crate::Session)'s own methods ([`reset`](crate::Session::reset), [`activate`](crate::Session::activate), [`restore`](crate::Session::restore), ...) |
/// | Call | [`call`](Self::call), [`call_with`](Self::call_with) (a [`CallContext`](crate::CallContext): call id, per-call data, progress, log, cancellation), [`call_batch`](Self::call_batch), [`call_batch_with`](Self::call_batch_with); each result says how its call ended ([`CallResult::outcome`](crate::CallResult::outcome)) |
/// | List what the model sees | [`definitions`](Self::definitions), [`all_definitions`](Self::all_definitions), [`definition`](Self::definition), [`reset_definition`](Self::reset_definition), [`resolve`](Self::resolve) (what a name stands for in a session), [`is_available`](Self::is_available), [`hidden_tools`](Self::hidden_tools); per provider, [`provider::Rendered`](crate::provider::Rendered) |
/// | Inspect | [`groups`](Self::groups), [`group_of`](Self::group_of), [`registry`](Self::registry), [`catalog`](Self::catalog) (Markdown or JSON) |
/// | Skills | [`skills`](Self::skills), [`skill`](Self::skill), [`visible_skills`](Self::visible_skills), [`skills_prompt`](Self::skills_prompt), [`load_skill`](Self::load_skill), [`is_skill_loaded`](Self::is_skill_loaded) |
/// | Entitlements | [`entitled`](Self::entitled) gives a principal's view, what its [`Scopes`](crate::Scopes) allow; [`held_scopes`](Self::held_scopes) (the principal's), [`declared_scopes`](Self::declared_scopes) (every scope something requires), and per tool [`required_scopes`](Self::required_scopes) and [`missing_scopes`](Self::missing_scopes) |
///
/// # Tracing
///
/// Every call the toolkit answers (`reset_tools` and the skill tools included) is one
/// `tracing` span at level `INFO`, named `execute_tool`, whose fields follow the OpenTelemetry
/// semantic conventions for generative AI (v1.41.0, "Execute tool span"), so that
/// `tracing-opentelemetry` exports it as the conventions ask:
///
/// | field | value |
/// |---|---|
/// | `otel.name` | the exported span's name: `execute_tool {gen_ai.tool.name}`; `execute_tool` alone for a name that is no tool |
/// | `otel.kind` | `internal` |
/// | `gen_ai.operation.name` | `execute_tool` |
/// | `gen_ai.tool.name` | the tool's name; for a name that is no tool, the name as the model sent it, escaped and cut to 64 characters |
/// | `gen_ai.tool.call.id` | the call's id, when it has one |
/// | `gen_ai.tool.type` | `function`; `extension` for a tool found at run time ([`dynamic`](crate::dynamic), a remote MCP server's) |
/// | `error.type` | on failure only: the [`CallOutcome`](crate::CallOutcome)'s name (`tool_error`, `invalid_arguments`, `unknown_tool`, `inactive_group`, `denied`, `timeout`, `cancelled`, `panic`, `refused`, `insufficient_scope`, `no_timer`, `layer_error`) |
/// | `otel.status_code` | on failure only: `error` |
/// | `toolgroup.group` | the tool's group (none for the builtins and unknown names) |
/// | `toolgroup.outcome` | the outcome's name, `ok` included |
/// | `toolgroup.duration_us` | the call's duration in microseconds |
/// | `toolgroup.groups.activated`, `toolgroup.groups.deactivated` | the groups the call switched on and off, joined with `,` (a `reset_tools` call, a skill load, a [first use](Self::with_first_use_activation)); absent when none |
/// | `toolgroup.skill` | the skill a `Skill` call loaded |
///
/// The content (the tool's description, the arguments, the result) is recorded only after
/// [`with_telemetry_content`](Self::with_telemetry_content). A call dropped before it ends
/// is `cancelled`. Without a subscriber that wants the span, a call records nothing.
pub struct Toolkit<R: Registry> {
    /// What this toolkit shows and runs: `full`, or one principal's view of it.
    pub(crate) core: Arc<Core<R>>,
    /// Every group and tool, whatever their scopes.
    pub(crate) full: Arc<Core<R>>,
    /// The scopes the principal holds ([`Toolkit::entitled`]); `None`: none given.
    pub(crate) held: Option<crate::scope::Scopes>,
    pub(crate) default_timeout: Option<Duration>,
    pub(crate) policy: Option<Arc<dyn Policy>>,
    /// The layered service; `None` without layers (calls then skip the tower machinery).
    pub(crate) pipeline: Option<Mutex<ToolService>>,
    /// The audit sink ([`Toolkit::with_audit`]).
    pub(crate) audit: audit::Auditors,
    /// No policy, no layer, no audit: a call may take the fast path.
    pub(crate) plain: bool,
    pub(crate) panic_details: bool,
    /// The call's span carries its content ([`Toolkit::with_telemetry_content`]).
    pub(crate) telemetry_content: bool,
    /// A call of a tool of an inactive group activates it ([`Toolkit::with_first_use_activation`]).
    pub(crate) first_use: bool,
    /// The lifecycle rules ([`Toolkit::with_lifecycle`]).
    pub(crate) lifecycle: Option<Arc<crate::lifecycle::Lifecycle<R>>>,
}

impl<R: Registry> Toolkit<R> {
    /// Build the toolkit: index the tools and build every definition, once.
    pub fn new(registry: R) -> Self {
        let groups = R::GROUPS;
        let mut slot_of_group = vec![None; groups.len()];
        for (slot, &g) in R::SWITCHABLE.iter().enumerate() {
            slot_of_group[g] = Some(slot as u32);
        }
        let mut tools = Vec::new();
        let mut slots = Vec::new();
        let basic_first = groups
            .iter()
            .enumerate()
            .filter(|(_, g)| g.basic)
            .chain(groups.iter().enumerate().filter(|(_, g)| !g.basic));
        for (g, group) in basic_first {
            for (t, info) in group.tools.iter().enumerate() {
                tools.push(ToolDefinition::of(info, group));
                slots.push(Slot {
                    group: g as u32,
                    tool: t as u32,
                    switch: slot_of_group[g],
                    info,
                });
            }
        }
        let dynamic = (0..groups.len())
            .filter(|&g| registry.dynamic_tools(g).is_some())
            .map(|g| dynamic::Place {
                group: g as u32,
                switch: slot_of_group[g],
            })
            .collect();
        let names = reset::GroupNames::new(R::SWITCHABLE.iter().map(|&g| groups[g].name).collect());
        let reset = reset::definition(groups, R::SWITCHABLE);
        let skills = crate::skill::table::Table::new(groups, R::SWITCHABLE, &slot_of_group);
        let full = Arc::new(Core {
            registry: Arc::new(registry),
            index: index::NameIndex::new(tools.iter().map(|t| t.name).collect()),
            tools,
            slots,
            reset,
            expose_reset: true,
            names,
            dynamic,
            dynamic_cache: Mutex::new(None),
            skills,
            requirements: Arc::new(entitle::Requirements::declared(groups)),
            held: None,
            views: entitle::Views::default(),
        });
        let mut toolkit = Toolkit {
            core: full.clone(),
            full,
            held: None,
            default_timeout: None,
            policy: None,
            pipeline: None,
            audit: audit::Auditors::default(),
            plain: true,
            panic_details: false,
            telemetry_content: false,
            first_use: false,
            // The attributes' facts (pins, turn-scoped groups) apply without a builder call.
            lifecycle: crate::lifecycle::Lifecycle::<R>::declared()
                .then(|| Arc::new(crate::lifecycle::Lifecycle::new())),
        };
        toolkit.core = toolkit.shown();
        toolkit
    }

    /// Whether to show `reset_tools` to the model (default `true`). With `false` the
    /// application alone switches groups (through [`Session`]), and a model's call to
    /// `reset_tools` is an unknown tool.
    #[must_use]
    pub fn with_reset_tools(mut self, expose: bool) -> Self {
        self.configure(|core| {
            core.expose_reset = expose;
            // The skill tools' answers name `reset_tools` only while the model can call it.
            core.skills.hide_reset = !expose;
        });
        self
    }

    /// A timeout for tools that do not set their own. Calls with a timeout need a Tokio
    /// runtime with the time driver enabled.
    #[must_use]
    pub fn with_default_timeout(mut self, timeout: Duration) -> Self {
        self.default_timeout = Some(timeout);
        self
    }

    /// A policy evaluated before every call, `reset_tools` included (replacing any earlier
    /// one). See [`Policy`] and [`RequireApproval`](crate::policy::RequireApproval).
    #[must_use]
    pub fn with_policy(mut self, policy: impl Policy) -> Self {
        self.policy = Some(Arc::new(policy));
        self.plain = false;
        self
    }

    /// Record every call the toolkit answers into `sink`, after the call (replacing any earlier
    /// sink): one [`AuditRecord`](crate::middleware::AuditRecord) per call, whatever happened
    /// to it: calls the policy denies, unknown tools, tools of inactive groups, refused
    /// `reset_tools` calls, errors, panics, timeouts, and cancelled calls (a token, or the
    /// call's future dropped) included. The record is made at the toolkit's outermost point,
    /// so the layers' order does not matter. A panic in the sink is caught and logged; the
    /// call's result stands. The arguments and the result are not recorded: they may carry
    /// personal data.
    ///
    /// ```
    /// use std::sync::{Arc, Mutex};
    /// use toolgroup::middleware::AuditRecord;
    /// # use toolgroup::prelude::*;
    /// # /// Echo.
    /// # #[tool] fn echo(
    /// #     /// Text.
    /// #     text: String,
    /// # ) -> String { text }
    /// # #[tool_group(name = "echo", description = "Echo.", tools = [echo])] struct Echo;
    /// # #[toolkit] struct Kit { #[basic] echo: Echo }
    ///
    /// let log: Arc<Mutex<Vec<AuditRecord>>> = Arc::default();
    /// let sink = log.clone();
    /// let toolkit = Toolkit::new(Kit { echo: Echo })
    ///     .with_audit(move |record: &AuditRecord| sink.lock().unwrap().push(record.clone()));
    /// ```
    #[must_use]
    pub fn with_audit(
        mut self,
        sink: impl Fn(&audit::AuditRecord) + Send + Sync + 'static,
    ) -> Self {
        self.audit.set(sink);
        self.plain = false;
        self
    }

    /// Whether a model's call of a tool of an inactive group activates that group and runs
    /// (default `false`: the call is refused, naming the group to switch on with
    /// `reset_tools`). Made for clients that find tools by searching their own list, such as
    /// Claude Code and Codex over MCP: the model reaches a group's tool in one call, as if
    /// the toolkit had no groups, and still reads the group's instructions.
    ///
    /// The activation happens only when the call succeeds: the policy is asked first (a
    /// denied call activates nothing), and the group becomes active only when the result is
    /// not an error; invalid arguments, the tool's own error result, a denial by a layer, a
    /// timeout, a cancellation or a panic change nothing (the next successful call
    /// activates it). A transcript's [replay](crate::provider::transcript::replay), which
    /// sees only whether each result is an error, rebuilds the same state. The other
    /// groups are unchanged. The result then carries what a `reset_tools` answer says about
    /// the group, once (the call that activates it): a last text block
    /// `<group name="...">` with the tools now available and the group's instructions, and,
    /// when the tool's structured content is a JSON object that its output schema lets grow
    /// (not `additionalProperties: false`), the same facts under its `activated_group` key
    /// (`{"group", "tools", "instructions"}`). A call is then a barrier in a batch, like
    /// `reset_tools`.
    ///
    /// One call can choose otherwise with
    /// [`CallContext::with_first_use_activation`](crate::CallContext::with_first_use_activation).
    /// Keep it off where groups must be switched deliberately.
    ///
    /// ```
    /// # use toolgroup::prelude::*;
    /// /// Add two numbers.
    /// #[tool]
    /// fn add(a: i64, b: i64) -> i64 {
    ///     a + b
    /// }
    ///
    /// #[tool_group(
    ///     name = "math",
    ///     description = "Arithmetic.",
    ///     instructions = "Show your work.",
    ///     tools = [add]
    /// )]
    /// struct Math;
    ///
    /// #[toolkit]
    /// struct Agent {
    ///     math: Math,
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// let toolkit = Toolkit::new(Agent { math: Math }).with_first_use_activation(true);
    /// let mut session = toolkit.session();
    /// let result = toolkit.call(&mut session, "add", r#"{"a": 1, "b": 2}"#).await;
    /// assert!(!result.is_error);
    /// assert!(session.is_active(AgentGroup::Math));
    /// assert!(result.text_joined().contains("Show your work."));
    /// # }
    /// ```
    #[must_use]
    pub fn with_first_use_activation(mut self, on: bool) -> Self {
        self.first_use = on;
        self
    }

    /// Whether a call of a tool of an inactive group activates it
    /// ([`with_first_use_activation`](Self::with_first_use_activation)).
    pub fn first_use_activation(&self) -> bool {
        self.first_use
    }

    /// Whether the message of a panic inside a tool reaches the model (default `false`).
    ///
    /// A panic is a bug, and its message can carry internals (a connection string, a path).
    /// By default the model reads only that the tool failed, and the message goes to
    /// `tracing` (an `error` event inside the call's span). Turn this on during development.
    #[must_use]
    pub fn with_panic_details(mut self, show: bool) -> Self {
        self.panic_details = show;
        self
    }

    /// Whether each call's `execute_tool` span (see [Tracing](Self#tracing)) carries the
    /// call's content, the OpenTelemetry GenAI conventions' opt-in attributes (default
    /// `false`): `gen_ai.tool.description` (the tool's description),
    /// `gen_ai.tool.call.arguments` (the arguments as JSON text, as the model sent them) and
    /// `gen_ai.tool.call.result` (the result as the model reads it: its text, or its content
    /// blocks as JSON when some are not text).
    ///
    /// Arguments and results can carry personal data and secrets, and whatever reads the
    /// spans keeps them: turn this on only where the tracing backend may hold them. Without a
    /// subscriber that wants the span, nothing is recorded either way.
    #[must_use]
    pub fn with_telemetry_content(mut self, on: bool) -> Self {
        self.telemetry_content = on;
        self
    }

    /// Whether the calls' spans carry their content
    /// ([`with_telemetry_content`](Self::with_telemetry_content)).
    pub fn telemetry_content(&self) -> bool {
        self.telemetry_content
    }

    /// Wrap every call in a tower layer. The last layer added is the outermost (it sees the
    /// call first), as with axum's `Router::layer`. See [`middleware`](crate::middleware) for
    /// the order and for shipped layers. A layer sees only the calls that reach it; to record
    /// every call the toolkit answers, use [`with_audit`](Self::with_audit).
    ///
    /// ```
    /// use std::time::Duration;
    /// use toolgroup::middleware::{IdempotentCacheLayer, MaxResultSizeLayer};
    /// # use toolgroup::prelude::*;
    /// # /// Echo.
    /// # #[tool] fn echo(
    /// #     /// Text.
    /// #     text: String,
    /// # ) -> String { text }
    /// # #[tool_group(name = "echo", description = "Echo.", tools = [echo])] struct Echo;
    /// # #[toolkit] struct Kit { #[basic] echo: Echo }
    ///
    /// let toolkit = Toolkit::new(Kit { echo: Echo })
    ///     .layer(MaxResultSizeLayer::new(16 * 1024))
    ///     .layer(IdempotentCacheLayer::new(1000, Duration::from_secs(60)));
    /// ```
    #[must_use]
    pub fn layer<L>(mut self, layer: L) -> Self
    where
        L: Layer<ToolService> + 'static,
        L::Service: Service<ToolRequest, Response = ToolResponse> + Clone + Send + 'static,
        <L::Service as Service<ToolRequest>>::Error: Into<BoxError>,
        <L::Service as Service<ToolRequest>>::Future: Send + 'static,
    {
        self.plain = false;
        let inner = match self.pipeline.take() {
            Some(service) => service
                .into_inner()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
            None => ToolService::innermost(),
        };
        self.pipeline = Some(Mutex::new(ToolService::new(layer.layer(inner))));
        self
    }

    /// The registry of groups (the `#[toolkit]` struct, with each group's state).
    pub fn registry(&self) -> &R {
        &self.core.registry
    }

    /// A new session: no switchable group active.
    pub fn session(&self) -> Session<R> {
        Session::new()
    }

    /// Every group, basic ones included, in declaration order.
    pub fn groups(&self) -> &'static [GroupInfo] {
        R::GROUPS
    }
}

impl<R: Registry + std::fmt::Debug> std::fmt::Debug for Toolkit<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Toolkit")
            .field("registry", &self.core.registry)
            .field("tools", &self.core.tools.len())
            .field("groups", &self.core.names.names)
            .field("layered", &self.pipeline.is_some())
            .field("policy", &self.policy.is_some())
            .field("held", &self.held)
            .finish_non_exhaustive()
    }
}
