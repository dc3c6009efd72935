//! The runtime toolkit: a registry of groups, its tool definitions and its options. Calls are
//! in [`dispatch`](self::dispatch), the texts a model reads in `messages`.

mod dispatch;
mod found;
mod index;
pub(crate) mod messages;

use std::sync::{Arc, Mutex};

use std::time::Duration;

use serde_json::Value;
use tower_layer::Layer;
use tower_service::Service;

use crate::args::ArgumentsBuf;
use crate::group::GroupInfo;
use crate::middleware::{BoxError, ToolRequest, ToolService};
use crate::policy::Policy;
use crate::registry::Registry;
use crate::reset::{self, RESET_TOOLS, RESET_TOOLS_DESCRIPTION};
use crate::result::CallResult;
use crate::session::Session;
use crate::tool::{ToolAnnotations, ToolInfo};

/// A tool as shown to a model: name, description, schemas, hints.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
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
#[non_exhaustive]
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

/// Where a tool lives: its group and position (indices into the registry), and its
/// switchable slot (`None` for basic tools).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Slot {
    pub(crate) group: u32,
    pub(crate) tool: u32,
    pub(crate) switch: Option<u32>,
    pub(crate) info: &'static ToolInfo,
}

/// What every call reads and nothing changes after [`Toolkit::new`]: shared with the calls
/// that cross a task boundary (through middleware) behind an `Arc`.
pub(crate) struct Core<R: Registry> {
    pub(crate) registry: R,
    /// Name -> position in `tools` / `slots`.
    pub(crate) index: index::NameIndex,
    /// Every tool, in listing order (basic groups first, then groups in declaration order).
    pub(crate) tools: Vec<ToolDefinition>,
    /// Parallel to `tools`.
    pub(crate) slots: Vec<Slot>,
    pub(crate) reset: Option<ToolDefinition>,
    /// Switchable group names, in slot order, indexed by name.
    pub(crate) names: reset::GroupNames,
    /// The groups whose tools are found at run time, in declaration order.
    pub(crate) found: Vec<found::FoundGroup>,
    /// The last view of their tools.
    pub(crate) found_cache: Mutex<Option<Arc<found::FoundView>>>,
}

impl<R: Registry> Core<R> {
    #[inline]
    pub(crate) fn slot(&self, name: &str) -> Option<&Slot> {
        self.lookup(name).map(|(_, slot)| slot)
    }

    /// The tool's position in `tools` / `slots`, and its slot. Not forced inline: forced
    /// into the fast path, the cheap call measured 3-5 ns slower (paired, three runs).
    #[inline]
    pub(crate) fn lookup(&self, name: &str) -> Option<(u32, &Slot)> {
        self.index.get(name).map(|i| (i, &self.slots[i as usize]))
    }
}

/// A toolkit: the groups of a `#[toolkit]` struct plus dispatch, tool definitions and
/// options. `Send + Sync`; share one behind an `Arc` across all sessions.
pub struct Toolkit<R: Registry> {
    pub(crate) core: Arc<Core<R>>,
    pub(crate) expose_reset: bool,
    pub(crate) default_timeout: Option<Duration>,
    pub(crate) policy: Option<Arc<dyn Policy>>,
    /// The layered service; `None` without layers (calls then skip the tower machinery).
    pub(crate) pipeline: Option<Mutex<ToolService>>,
    pub(crate) panic_details: bool,
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
        let found = (0..groups.len())
            .filter(|&g| registry.dynamic_tools(g).is_some())
            .map(|g| found::FoundGroup {
                group: g as u32,
                switch: slot_of_group[g],
            })
            .collect();
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
            core: Arc::new(Core {
                registry,
                index: index::NameIndex::new(tools.iter().map(|t| t.name).collect()),
                tools,
                slots,
                reset,
                names,
                found,
                found_cache: Mutex::new(None),
            }),
            expose_reset: true,
            default_timeout: None,
            policy: None,
            pipeline: None,
            panic_details: false,
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

    /// A policy evaluated before every call, `reset_tools` included (replacing any earlier
    /// one). See [`Policy`] and [`RequireApproval`](crate::RequireApproval).
    pub fn with_policy(mut self, policy: impl Policy) -> Self {
        self.policy = Some(Arc::new(policy));
        self
    }

    /// Whether the message of a panic inside a tool reaches the model (default `false`).
    ///
    /// A panic is a bug, and its message can carry internals (a connection string, a path).
    /// By default the model reads only that the tool failed, and the message goes to
    /// `tracing` (an `error` event inside the call's span). Turn this on during development.
    pub fn with_panic_details(mut self, show: bool) -> Self {
        self.panic_details = show;
        self
    }

    /// Wrap every call in a tower layer. The last layer added is the outermost (it sees the
    /// call first), as with axum's `Router::layer`. See [`middleware`](crate::middleware) for
    /// the order and for shipped layers.
    ///
    /// ```
    /// use std::time::Duration;
    /// use toolgroup::middleware::{IdempotentCache, MaxResultSize};
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
    ///     .layer(MaxResultSize::new(16 * 1024))
    ///     .layer(IdempotentCache::new(1000, Duration::from_secs(60)));
    /// ```
    pub fn layer<L>(mut self, layer: L) -> Self
    where
        L: Layer<ToolService>,
        L::Service: Service<ToolRequest, Response = CallResult> + Clone + Send + 'static,
        <L::Service as Service<ToolRequest>>::Error: Into<BoxError>,
        <L::Service as Service<ToolRequest>>::Future: Send + 'static,
    {
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

    /// The `reset_tools` definition, if the toolkit has switchable groups and exposes it.
    pub fn reset_definition(&self) -> Option<&ToolDefinition> {
        self.core.reset.as_ref().filter(|_| self.expose_reset)
    }

    /// The tools a model should see in `session`: `reset_tools` first, then the basic tools,
    /// then the active groups' tools, groups in declaration order, tools in source order;
    /// tools found at run time (see [`dynamic`](crate::dynamic)) come last, groups in
    /// declaration order. Nothing is built or allocated for compiled-in tools: their
    /// definitions were built with the toolkit.
    pub fn definitions(&self, session: &Session<R>) -> impl Iterator<Item = &ToolDefinition> + '_ {
        self.definitions_indexed(session).map(|(_, d)| d)
    }

    /// Every tool in the stable listing order, active or not (`reset_tools` first, tools
    /// found at run time last). For catalogs and for the "mask" delivery mode.
    pub fn all_definitions(&self) -> impl Iterator<Item = &ToolDefinition> + '_ {
        self.compiled_definitions()
            .chain(self.found_definitions().map(shorten))
    }

    /// `reset_tools` (when exposed) and the compiled-in tools, in listing order.
    pub(crate) fn compiled_definitions(&self) -> impl Iterator<Item = &ToolDefinition> + '_ {
        self.reset_definition()
            .into_iter()
            .chain(self.core.tools.iter())
    }

    /// The shown tools found at run time, active or not, in listing order.
    pub(crate) fn found_definitions(&self) -> impl Iterator<Item = &'static ToolDefinition> {
        FoundDefinitions::new(self.core.found_view(), |_| true)
    }

    /// The definition of the tool named `name` (`reset_tools` included when exposed), active
    /// or not.
    pub fn definition(&self, name: &str) -> Option<&ToolDefinition> {
        match self.reset_definition() {
            Some(reset) if name == RESET_TOOLS => Some(reset),
            _ => match self.core.index.get(name) {
                Some(i) => Some(&self.core.tools[i as usize]),
                None => self
                    .core
                    .found_view()
                    .and_then(|view| view.get(name))
                    .map(|t| t.definition),
            },
        }
    }

    /// The tools found at run time that are not shown to the model, with the reason (a name
    /// taken by another tool, or one that providers refuse). See [`dynamic`](crate::dynamic).
    pub fn hidden_tools(&self) -> Vec<crate::dynamic::HiddenTool> {
        self.core
            .found_view()
            .map(|view| view.hidden.clone())
            .unwrap_or_default()
    }

    /// Like [`definitions`](Self::definitions), each compiled-in tool with its position in
    /// [`all_definitions`](Self::all_definitions) (`None` for tools found at run time), so a
    /// renderer can reuse per-tool output it built once for the whole list.
    pub(crate) fn definitions_indexed(
        &self,
        session: &Session<R>,
    ) -> impl Iterator<Item = (Option<usize>, &ToolDefinition)> + '_ {
        let session = *session;
        let offset = usize::from(self.reset_definition().is_some());
        let core = &*self.core;
        self.reset_definition()
            .map(|d| (Some(0), d))
            .into_iter()
            .chain(
                self.core
                    .tools
                    .iter()
                    .zip(&self.core.slots)
                    .enumerate()
                    .filter(move |(_, (_, s))| {
                        s.switch.is_none_or(|w| session.slot_active(w as usize))
                    })
                    .map(move |(i, (d, _))| (Some(i + offset), d)),
            )
            .chain(
                FoundDefinitions::new(self.core.found_view(), move |t| {
                    core.found[t.found as usize]
                        .switch
                        .is_none_or(|w| session.slot_active(w as usize))
                })
                .map(|d| (None, shorten(d))),
            )
    }

    /// Whether the model may call `name` in `session` (exposed and active).
    pub fn is_available(&self, session: &Session<R>, name: &str) -> bool {
        if self.is_reset(name) {
            return true;
        }
        let switch = match self.core.slot(name) {
            Some(slot) => slot.switch,
            None => match self.core.found_view().and_then(|view| view.get(name)) {
                Some(tool) => self.core.found[tool.found as usize].switch,
                None => return false,
            },
        };
        switch.is_none_or(|w| session.slot_active(w as usize))
    }

    /// The group a tool belongs to (`None` for `reset_tools` and unknown names).
    pub fn group_of(&self, tool: &str) -> Option<&'static GroupInfo> {
        let group = match self.core.slot(tool) {
            Some(slot) => slot.group,
            None => {
                let found = self.core.found_view()?.get(tool)?;
                self.core.found[found.found as usize].group
            }
        };
        Some(&R::GROUPS[group as usize])
    }

    pub(crate) fn is_reset(&self, name: &str) -> bool {
        name == RESET_TOOLS && self.reset_definition().is_some()
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
            .finish_non_exhaustive()
    }
}

/// The shown run-time tools of a view that pass `keep`, as `'static` definitions.
struct FoundDefinitions<F> {
    view: Option<Arc<found::FoundView>>,
    next: usize,
    keep: F,
}

impl<F: FnMut(&found::FoundTool) -> bool> FoundDefinitions<F> {
    fn new(view: Option<Arc<found::FoundView>>, keep: F) -> Self {
        FoundDefinitions {
            view,
            next: 0,
            keep,
        }
    }
}

impl<F: FnMut(&found::FoundTool) -> bool> Iterator for FoundDefinitions<F> {
    type Item = &'static ToolDefinition;

    fn next(&mut self) -> Option<&'static ToolDefinition> {
        let view = self.view.as_ref()?;
        while let Some(tool) = view.tools.get(self.next) {
            self.next += 1;
            if (self.keep)(tool) {
                return Some(tool.definition);
            }
        }
        None
    }
}

/// A `'static` definition as one borrowed from the toolkit (so both kinds chain).
fn shorten<'a>(definition: &'static ToolDefinition) -> &'a ToolDefinition {
    definition
}
