//! What is known of a tool and a group before any call: the static facts generated code
//! declares, and the definition a model is shown.

use std::time::Duration;

use serde_json::Value;

// From `skill::info`, the skills' model types, not through `skill`: `skill` builds on this
// module (the skill tools' definitions), so naming it here would make an import cycle.
use crate::skill::info::{READ_SKILL_FILE, SKILL_TOOL, SkillInfo};

/// The meta tool's name; no tool may use it.
///
/// The runtime's one definition. `toolgroup-macros` checks names while expanding (to point at
/// the user's token) with its own copy, since a proc-macro crate cannot depend on the runtime;
/// its messages are worded like the runtime's const checks, and `tests/ui` covers both.
pub const RESET_TOOLS: &str = "reset_tools";

/// The builtin tools' names: `reset_tools` and the skill tools (`Skill`, `read_skill_file`).
/// No tool may use them; a tool found at run time under one of them is hidden.
pub const BUILTIN_TOOLS: [&str; 3] = [RESET_TOOLS, SKILL_TOOL, READ_SKILL_FILE];

/// The meta tool's description: every group is `required` (a strict provider makes the
/// model give every property), so it asks for every group's final state. The toolkit
/// still reads an omitted group as `false`.
pub const RESET_TOOLS_DESCRIPTION: &str = "Choose which tool groups are active. Give every group's final state: true to make it active, false to make it inactive. Only the tools of active groups are available; the answer names the tools each newly active group makes available, with its instructions.";

/// The description of `reset_tools` in MCP's `tools/list`, where no group is `required` and
/// a group left out becomes inactive: MCP has no strict mode, and some clients (the OpenAI
/// Agents SDK) check `required` themselves and answer the model a fixed error of their own,
/// so a call that misses a group would never reach the toolkit's answer.
pub const RESET_TOOLS_DESCRIPTION_MCP: &str = "Choose which tool groups are active. Give the final state of the groups: true to make a group active, false to make it inactive; a group left out becomes inactive. Only the tools of active groups are available; the answer names the tools each newly active group makes available, with its instructions.";

/// MCP tool annotations: hints a client may show or use; never a security guarantee.
///
/// `None` means "not stated" (MCP then assumes its defaults).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ToolAnnotations {
    /// The tool does not modify its environment (MCP `readOnlyHint`).
    pub read_only: Option<bool>,
    /// The tool may perform destructive updates (MCP `destructiveHint`).
    pub destructive: Option<bool>,
    /// Calling the tool twice with the same arguments has no further effect (MCP `idempotentHint`).
    pub idempotent: Option<bool>,
    /// The tool interacts with an open world of external entities (MCP `openWorldHint`).
    pub open_world: Option<bool>,
}

impl ToolAnnotations {
    /// No hint stated.
    pub const NONE: ToolAnnotations = ToolAnnotations {
        read_only: None,
        destructive: None,
        idempotent: None,
        open_world: None,
    };

    /// Whether any hint is stated.
    pub const fn is_empty(&self) -> bool {
        self.read_only.is_none()
            && self.destructive.is_none()
            && self.idempotent.is_none()
            && self.open_world.is_none()
    }
}

/// Whether a call of the tool may, or must, run as a task: a long-running call the client
/// gets a handle for at once, then polls for its result (`#[tool(task = "optional")]`,
/// `#[tool(task = "required")]`).
///
/// Over MCP this is the server's decision under the `io.modelcontextprotocol/tasks`
/// extension (SEP-2663, for 2026-07-28 requests that declare it): an `optional` tool runs
/// as a task for such a request and plainly for any other; a `required` one is refused with
/// `-32021` (the missing capability) for any other. The extension removed 2025-11-25's
/// per-tool `execution.taskSupport`, so nothing of this is on the wire; [`as_str`] gives the
/// words that field used. A tool without the attribute is [`Forbidden`](Self::Forbidden),
/// as is every tool found at run time ([`dynamic`](crate::dynamic)) and every builtin
/// (`reset_tools`, the skill tools).
///
/// [`as_str`]: Self::as_str
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum TaskSupport {
    /// The call never runs as a task: it is answered in its response (the default).
    #[default]
    Forbidden,
    /// The call runs as a task for a client that can follow one, plainly for the others.
    Optional,
    /// The call runs only as a task: it is long enough that waiting on the response is not
    /// an option.
    Required,
}

impl TaskSupport {
    /// `"forbidden"`, `"optional"` or `"required"` (2025-11-25's `execution.taskSupport`
    /// words).
    pub const fn as_str(self) -> &'static str {
        match self {
            TaskSupport::Forbidden => "forbidden",
            TaskSupport::Optional => "optional",
            TaskSupport::Required => "required",
        }
    }
}

/// The JSON schemas of a tool, built once per process.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolSchemas {
    /// The arguments' schema (JSON Schema 2020-12, root `$schema` and `title` removed).
    pub input: Value,
    /// The output's schema, when the tool returns a structured value whose type is `JsonSchema`.
    pub output: Option<Value>,
}

/// Static facts about a tool: everything but the call.
#[derive(Debug, Clone, Copy)]
pub struct ToolInfo {
    /// The name the model calls the tool by.
    pub name: &'static str,
    /// What the tool does, for the model.
    pub description: &'static str,
    /// Hints for clients (MCP annotations).
    pub annotations: ToolAnnotations,
    /// A per-tool timeout; `None` uses the toolkit's default.
    pub timeout: Option<Duration>,
    /// The OAuth scopes a principal must hold to call the tool, beyond its group's
    /// (`#[tool(scopes = [...])]`; empty for most tools). See
    /// [`Toolkit::entitled`](crate::Toolkit::entitled).
    pub scopes: &'static [&'static str],
    /// Whether an MCP client may or must run a call of the tool as a task
    /// (`#[tool(task = "...")]`; [`TaskSupport::Forbidden`] without it).
    pub task: TaskSupport,
    /// Returns the schemas; generated code builds them on first use and caches them.
    pub schemas: fn() -> &'static ToolSchemas,
}

impl ToolInfo {
    /// The arguments' JSON schema (built once per process).
    pub fn input_schema(&self) -> &'static Value {
        &(self.schemas)().input
    }

    /// The output's JSON schema, if the tool has one.
    pub fn output_schema(&self) -> Option<&'static Value> {
        (self.schemas)().output.as_ref()
    }
}

/// Static facts about one group of a toolkit.
#[derive(Debug, Clone, Copy)]
pub struct GroupInfo {
    /// The group's name.
    pub name: &'static str,
    /// The group's description.
    pub description: &'static str,
    /// Instructions for the model, given when the group becomes active.
    pub instructions: Option<&'static str>,
    /// The group's tools, in source order.
    pub tools: &'static [&'static ToolInfo],
    /// Whether the group is part of the always-active `basic` group.
    pub basic: bool,
    /// The group's compiled-in skills, in declaration order.
    pub skills: &'static [&'static SkillInfo],
    /// The OAuth scopes a principal must hold to use the group at all
    /// (`#[tool_group(scopes = [...])]`; empty for most groups). See
    /// [`Toolkit::entitled`](crate::Toolkit::entitled).
    pub scopes: &'static [&'static str],
    /// Whether the toolkit pins the group (a `#[pinned]` field): no
    /// [lifecycle](crate::lifecycle) rule switches it off.
    pub pinned: bool,
    /// Whether the group lasts one turn (`#[tool_group(turn_scoped)]`): a
    /// [lifecycle](crate::lifecycle) switches it off when a turn ends.
    pub turn_scoped: bool,
}

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
    /// Whether an MCP client may or must run a call of the tool as a task: the tool's
    /// [`ToolInfo::task`]; [`TaskSupport::Forbidden`] for the builtins and the tools found at
    /// run time.
    pub task: TaskSupport,
    /// The tool's group (`None` for `reset_tools`).
    pub group: Option<&'static str>,
    /// Whether the tool is always available (basic group or `reset_tools`).
    pub always_on: bool,
    /// Whether the schemas were generated from Rust types (so a strict-mode fallback may name
    /// the Rust construct behind a rule), rather than found at run time.
    pub(crate) from_rust: bool,
}

impl ToolDefinition {
    /// A builtin tool's definition (`reset_tools`, `Skill`, `read_skill_file`): always on,
    /// in no group.
    pub(crate) fn builtin(
        name: &'static str,
        description: &'static str,
        input_schema: Value,
        annotations: ToolAnnotations,
    ) -> Self {
        ToolDefinition {
            name,
            description,
            input_schema,
            output_schema: None,
            annotations,
            task: TaskSupport::Forbidden,
            group: None,
            always_on: true,
            from_rust: true,
        }
    }

    pub(crate) fn of(info: &ToolInfo, group: &GroupInfo) -> Self {
        ToolDefinition {
            name: info.name,
            description: info.description,
            input_schema: info.input_schema().clone(),
            output_schema: info.output_schema().cloned(),
            annotations: info.annotations,
            task: info.task,
            group: Some(group.name),
            always_on: group.basic,
            from_rust: true,
        }
    }
}
