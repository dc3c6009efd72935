//! A source of tools known only at run time, and the definitions it reports.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use serde_json::Value;

use crate::args::Arguments;
use crate::context::ToolContext;
use crate::futures::BoxFuture;
use crate::meta::{TaskSupport, ToolAnnotations, ToolDefinition};
use crate::result::CallResult;

/// A source of tools known only at run time, for one group of a toolkit.
///
/// The toolkit reads [`tools`](DynamicTools::tools) whenever it lists or looks up such a
/// tool, and notices a change by the identity of the returned `Arc`: return the same `Arc`
/// while nothing changed. Policies, approvals, middleware, timeouts, cancellation and
/// panic containment apply to these calls exactly as to compiled-in tools.
pub trait DynamicTools: Send + Sync + 'static {
    /// The current tools.
    fn tools(&self) -> Arc<ToolSet>;

    /// Run `tool` (one of the definitions of the current [`ToolSet`]) on the model's
    /// arguments. Every failure is an error result: a source never panics on bad input.
    fn call<'a>(
        &'a self,
        tool: &'static ToolDefinition,
        ctx: ToolContext<'a>,
        arguments: Arguments<'a>,
    ) -> BoxFuture<'a, CallResult>;

    /// Instructions the source adds to its group's own (the group's declared
    /// `instructions` come first): shown to the model with them when the group becomes
    /// active, in the `reset_tools` answer and on activation by a call. A remote MCP group's
    /// instructions, for one. `None` (the default) adds nothing.
    fn instructions(&self) -> Option<String> {
        None
    }
}

/// A shared source: one source for several toolkits, or for a toolkit and the code that
/// updates its tools.
impl<S: DynamicTools + ?Sized> DynamicTools for Arc<S> {
    fn tools(&self) -> Arc<ToolSet> {
        (**self).tools()
    }

    fn call<'a>(
        &'a self,
        tool: &'static ToolDefinition,
        ctx: ToolContext<'a>,
        arguments: Arguments<'a>,
    ) -> BoxFuture<'a, CallResult> {
        (**self).call(tool, ctx, arguments)
    }

    fn instructions(&self) -> Option<String> {
        (**self).instructions()
    }
}

/// A source chosen at run time (`Box<dyn DynamicTools>`).
impl<S: DynamicTools + ?Sized> DynamicTools for Box<S> {
    fn tools(&self) -> Arc<ToolSet> {
        (**self).tools()
    }

    fn call<'a>(
        &'a self,
        tool: &'static ToolDefinition,
        ctx: ToolContext<'a>,
        arguments: Arguments<'a>,
    ) -> BoxFuture<'a, CallResult> {
        (**self).call(tool, ctx, arguments)
    }

    fn instructions(&self) -> Option<String> {
        (**self).instructions()
    }
}

/// One tool found at run time, as its source describes it.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct DynamicTool {
    /// The name the model calls it by.
    pub name: String,
    /// What it does.
    pub description: String,
    /// Its arguments' JSON schema.
    pub input_schema: Value,
    /// Its output's JSON schema, if any.
    pub output_schema: Option<Value>,
    /// Hints for clients.
    pub annotations: ToolAnnotations,
}

impl DynamicTool {
    /// A tool with a name, a description and an input schema.
    pub fn new(
        name: impl Into<String>,
        description: impl Into<String>,
        input_schema: Value,
    ) -> Self {
        DynamicTool {
            name: name.into(),
            description: description.into(),
            input_schema,
            output_schema: None,
            annotations: ToolAnnotations::NONE,
        }
    }

    /// Set the output schema.
    #[must_use]
    pub fn with_output_schema(mut self, schema: Value) -> Self {
        self.output_schema = Some(schema);
        self
    }

    /// Set the annotations.
    #[must_use]
    pub fn with_annotations(mut self, annotations: ToolAnnotations) -> Self {
        self.annotations = annotations;
        self
    }
}

/// A snapshot of a run-time group's tools, as its source lists them.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct ToolSet {
    tools: Vec<DynamicTool>,
}

impl ToolSet {
    /// The tools, in the source's order.
    pub fn new(tools: impl IntoIterator<Item = DynamicTool>) -> Self {
        ToolSet {
            tools: tools.into_iter().collect(),
        }
    }

    /// The tools, in the source's order.
    pub fn tools(&self) -> &[DynamicTool] {
        &self.tools
    }
}

/// Whether `name` is a tool name every provider accepts, `^[A-Za-z_][A-Za-z0-9_-]{0,63}$`:
/// the rule the macros check at compile time (it is defined once, in `toolgroup-skills`).
pub use toolgroup_skills::shared::is_valid_tool_name;

/// A run-time tool that is not shown to the model, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct HiddenTool {
    /// The group that reported it.
    pub group: &'static str,
    /// Its name, as reported.
    pub name: &'static str,
    /// Why it is hidden.
    pub reason: String,
}

type Key = (
    &'static str,
    String,
    String,
    String,
    Option<String>,
    ToolAnnotations,
);

/// The interned definition of `tool` in group `group`: see the [module docs](self) for what
/// interning costs.
pub(crate) fn intern(group: &'static str, tool: &DynamicTool) -> &'static ToolDefinition {
    static INTERNED: OnceLock<Mutex<HashMap<Key, &'static ToolDefinition>>> = OnceLock::new();
    let key: Key = (
        group,
        tool.name.clone(),
        tool.description.clone(),
        tool.input_schema.to_string(),
        tool.output_schema.as_ref().map(Value::to_string),
        tool.annotations,
    );
    let mut map = INTERNED
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    if let Some(&def) = map.get(&key) {
        return def;
    }
    let def: &'static ToolDefinition = Box::leak(Box::new(ToolDefinition {
        name: Box::leak(key.1.clone().into_boxed_str()),
        description: Box::leak(key.2.clone().into_boxed_str()),
        input_schema: tool.input_schema.clone(),
        output_schema: tool.output_schema.clone(),
        annotations: tool.annotations,
        // A `DynamicTool` states no task support, so a client never runs it as a task.
        task: TaskSupport::Forbidden,
        group: Some(group),
        always_on: false,
        from_rust: false,
    }));
    map.insert(key, def);
    def
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn equal_definitions_are_interned_once() {
        let tool = |d: &str| DynamicTool::new("t", d, json!({"type": "object"}));
        let a = intern("g", &tool("d"));
        let b = intern("g", &tool("d"));
        let c = intern("g", &tool("other"));
        let d = intern("h", &tool("d"));
        assert!(std::ptr::eq(a, b));
        assert!(!std::ptr::eq(a, c));
        assert!(!std::ptr::eq(a, d));
        assert_eq!(c.description, "other");
        assert_eq!(d.group, Some("h"));
    }

    #[test]
    fn tool_names_follow_the_shared_table() {
        for &(name, ok) in toolgroup_skills::shared::TOOL_NAME_CASES {
            assert_eq!(is_valid_tool_name(name), ok, "{name:?}");
        }
    }
}
