//! Resolving a call's name against a session, once: what it runs, whether it is available,
//! whether it changes the session. Batching, the full path, the tower boundary and the MCP
//! server all ask this one place.

use crate::meta::{GroupInfo, RESET_TOOLS, TaskSupport, ToolAnnotations};
use crate::registry::Registry;
use crate::session::Session;

use super::Toolkit;
use super::run::Target;

/// What a tool name stands for: the builtin or tool it names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ToolKind {
    /// The `reset_tools` meta tool.
    ResetTools,
    /// The `Skill` tool, which loads a skill.
    LoadSkill,
    /// The `read_skill_file` tool.
    ReadSkillFile,
    /// A compiled-in tool (`#[tool]`).
    Tool,
    /// A tool found at run time in a `dynamic` group (see [`dynamic`](crate::dynamic)).
    DynamicTool,
}

/// A call's name resolved against a session by [`Toolkit::resolve`]: what it runs, in which
/// group, and whether the session lets the model call it now.
#[derive(Debug, Clone, Copy)]
pub struct Resolved {
    pub(crate) target: Target,
    tool: &'static str,
    group: Option<&'static GroupInfo>,
    annotations: ToolAnnotations,
    task: TaskSupport,
    available: bool,
    activates: bool,
}

impl Resolved {
    /// What the name stands for.
    pub fn kind(&self) -> ToolKind {
        match self.target {
            Target::Reset => ToolKind::ResetTools,
            Target::Skill => ToolKind::LoadSkill,
            Target::SkillFile => ToolKind::ReadSkillFile,
            Target::Tool { .. } => ToolKind::Tool,
            Target::Dynamic { .. } => ToolKind::DynamicTool,
        }
    }

    /// The tool's name (the toolkit's own copy of the name that was resolved).
    pub fn tool(&self) -> &'static str {
        self.tool
    }

    /// The tool's group (`None` for the builtins: `reset_tools` and the skill tools).
    pub fn group(&self) -> Option<&'static GroupInfo> {
        self.group
    }

    /// The tool's hints.
    pub fn annotations(&self) -> ToolAnnotations {
        self.annotations
    }

    /// Whether an MCP client may or must run a call of the tool as a task: its
    /// [`ToolInfo::task`](crate::meta::ToolInfo::task) for a compiled-in tool,
    /// [`TaskSupport::Forbidden`] for the builtins and the tools found at run time. The same
    /// as its [`ToolDefinition::task`](crate::ToolDefinition::task).
    pub fn task_support(&self) -> TaskSupport {
        self.task
    }

    /// Whether the model may call it in the session it was resolved against: a tool of a
    /// basic or active group, `reset_tools`, or a skill tool while a skill is visible. A call
    /// of an unavailable tool is answered without running it.
    pub fn is_available(&self) -> bool {
        self.available
    }

    /// Whether a call of it may change the session: `reset_tools`, `Skill`, and a tool of an
    /// inactive group that the call would activate
    /// ([`Toolkit::with_first_use_activation`]; a call whose
    /// [`CallContext`](crate::CallContext) chooses otherwise is resolved as the toolkit
    /// chooses here). Such a call is a barrier in a batch and its new state is applied only
    /// if the toolkit ran it; a layer must never answer `reset_tools` or `Skill` itself.
    pub fn changes_session(&self) -> bool {
        self.target.changes_session() || self.activates
    }

    /// Whether a call of it activates its group before it runs: a tool of an inactive group
    /// under [`Toolkit::with_first_use_activation`].
    pub fn activates(&self) -> bool {
        self.activates
    }

    /// A tool (compiled-in or found at run time) whose group is not active.
    pub(crate) fn is_inactive_tool(&self) -> bool {
        !self.available && matches!(self.target, Target::Tool { .. } | Target::Dynamic { .. })
    }
}

impl Resolved {
    fn with_activation(mut self, first_use: bool) -> Self {
        self.activates = first_use && self.is_inactive_tool();
        self
    }

    /// The same resolution for a call that runs with first-use activation `on` (a
    /// [`CallContext`](crate::CallContext) or a server that chooses otherwise than the
    /// toolkit): [`activates`](Self::activates) and
    /// [`changes_session`](Self::changes_session) then answer for that call. The one answer
    /// to "does this call change the session?", whoever asks it.
    #[must_use]
    pub fn with_first_use_activation(self, on: bool) -> Self {
        self.with_activation(on)
    }
}

impl<R: Registry> Toolkit<R> {
    /// Resolve `name` against `session`: `None` when no tool the model can be shown has that
    /// name (`reset_tools` counts only while it is exposed; skill tools only when the toolkit
    /// has skills). Every call is resolved once, through this.
    ///
    /// ```
    /// # use toolgroup::prelude::*;
    /// # use toolgroup::ToolKind;
    /// # /// Echo.
    /// # #[tool] fn echo(
    /// #     /// Text.
    /// #     text: String,
    /// # ) -> String { text }
    /// # #[tool_group(name = "echo", description = "Echo.", tools = [echo])] struct Echo;
    /// # #[toolkit] struct Kit { echo: Echo }
    /// let toolkit = Toolkit::new(Kit { echo: Echo });
    /// let session = toolkit.session();
    ///
    /// let echo = toolkit.resolve(&session, "echo").unwrap();
    /// assert_eq!(echo.kind(), ToolKind::Tool);
    /// assert!(!echo.is_available()); // its group is not active yet
    ///
    /// let reset = toolkit.resolve(&session, "reset_tools").unwrap();
    /// assert!(reset.changes_session());
    /// assert!(toolkit.resolve(&session, "ecoh").is_none());
    /// ```
    pub fn resolve(&self, session: &Session<R>, name: &str) -> Option<Resolved> {
        // The tools first: no tool is called like a builtin (a compile error).
        if let Some((index, slot)) = self.core.lookup(name) {
            return Some(
                Resolved {
                    target: Target::Tool {
                        index,
                        timeout: slot.info.timeout.or(self.default_timeout),
                    },
                    tool: slot.info.name,
                    group: Some(&R::GROUPS[slot.group as usize]),
                    annotations: slot.info.annotations,
                    task: slot.info.task,
                    available: slot.switch.is_none_or(|w| session.slot_active(w as usize)),
                    activates: false,
                }
                .with_activation(self.first_use),
            );
        }
        if self.is_reset(name) {
            let reset = self.core.reset.as_ref()?;
            return Some(Resolved {
                target: Target::Reset,
                tool: RESET_TOOLS,
                group: None,
                annotations: reset.annotations,
                task: reset.task,
                available: true,
                activates: false,
            });
        }
        if let Some((target, definition)) = self.skill_target(name) {
            let shown = self.core.skill_defs(session);
            let available = match target {
                Target::Skill => shown.skill.is_some(),
                _ => shown.file.is_some(),
            };
            return Some(Resolved {
                target,
                tool: definition.name,
                group: None,
                annotations: definition.annotations,
                task: definition.task,
                available,
                activates: false,
            });
        }
        let view = self.core.dynamic_view()?;
        let listed = view.get(name)?;
        let place = self.core.dynamic[listed.place as usize];
        let definition = listed.definition;
        Some(
            Resolved {
                target: Target::Dynamic {
                    group: place.group,
                    definition,
                    timeout: self.default_timeout,
                },
                tool: definition.name,
                group: Some(&R::GROUPS[place.group as usize]),
                annotations: definition.annotations,
                task: definition.task,
                available: place.switch.is_none_or(|w| session.slot_active(w as usize)),
                activates: false,
            }
            .with_activation(self.first_use),
        )
    }
}
