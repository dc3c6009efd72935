//! Groups whose tools are found at run time, such as the tools of a remote MCP server.
//!
//! The group itself stays a compile-time fact: its name, description and instructions are
//! declared with `#[tool_group(name = "...", description = "...", remote)]` on a unit
//! struct, so the `reset_tools` schema, the typed reset value and every compile-time check
//! are the same as for a group of Rust functions. Only its *tools* come at run time, from a
//! [`DynamicTools`] source, in a [`Dynamic`] group (the `toolgroup-mcp` crate's `Remote` is
//! such a source: the tools of a remote MCP server).
//!
//! # Names
//!
//! A run-time tool is listed and callable only if its name is free. Compiled-in tools and
//! `reset_tools` always keep their names; between groups found at run time, the group
//! declared first in the toolkit keeps a contested name. A tool that loses (or whose name
//! does not match `^[a-zA-Z0-9_-]{1,64}$`, which every provider accepts) is not shown to the
//! model and cannot be called; [`Toolkit::hidden_tools`](crate::Toolkit::hidden_tools) lists
//! it with the reason, and a `tracing` warning names it when the tool list is read. Rename
//! on the source's side (the MCP group's prefix, for one), never by overwriting.
//!
//! # Listing and calls
//!
//! Run-time tools are listed after the compiled-in ones (groups in declaration order, tools
//! in the source's order), only while their group is active, and appear in the renderers
//! ([`Rendered`](crate::provider::Rendered), rendered on first use with the same transforms
//! and strict-mode fallback), the mask mode, the catalog and an MCP server serving the
//! toolkit. A call goes through the policy, the layers, the toolkit's default timeout,
//! cancellation and panic containment like any other; the source checks the arguments.
//! An MCP server serving such a toolkit does not (yet) send `notifications/tools/list_changed`
//! when a source's tools change: its clients see the change when they list again.
//!
//! # Memory
//!
//! Definitions are interned for the life of the process, so listing and dispatch can hand out
//! `&'static` definitions exactly as for compiled-in tools, and renderers can cache their
//! output per definition: each *distinct* definition a source ever reports is kept once. A
//! source that keeps reporting new, different definitions (a description with a timestamp in
//! it, say) therefore grows memory with each change.

use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::marker::PhantomData;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use serde_json::Value;

use crate::args::{ArgumentError, Arguments};
use crate::context::ToolContext;
use crate::group::ToolGroup;
use crate::policy::BoxFuture;
use crate::result::CallResult;
use crate::tool::{ToolAnnotations, ToolInfo};
use crate::toolkit::ToolDefinition;

/// The compile-time facts of a group whose tools are found at run time: what
/// `#[tool_group(name = "...", description = "...", remote)]` implements for a unit struct.
/// A toolkit does not take the struct itself as a field, but a group type that runs a source
/// of tools for it (for example `Dynamic<Files, toolgroup::mcp::client::Remote>`).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a remote tool group",
    label = "not a `#[tool_group(..., remote)]`",
    note = "declare it with `#[tool_group(name = \"...\", description = \"...\", remote)]` on a unit struct"
)]
pub trait DynamicGroup: Send + Sync + 'static {
    /// The group's name: the `reset_tools` argument that switches it.
    const NAME: &'static str;
    /// What the group is for; the model reads it in the `reset_tools` schema.
    const DESCRIPTION: &'static str;
    /// Instructions returned to the model when the group becomes active.
    const INSTRUCTIONS: Option<&'static str>;
}

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
}

/// A toolkit group whose tools come from `source` at run time: the group `G` (a
/// `#[tool_group(..., remote)]` unit struct) served by a [`DynamicTools`] source. Use it as a
/// field of a `#[toolkit]` struct; the field is named after the group, as for any group.
pub struct Dynamic<G: DynamicGroup, S: DynamicTools> {
    source: S,
    group: PhantomData<fn() -> G>,
}

impl<G: DynamicGroup, S: DynamicTools> Dynamic<G, S> {
    /// Group `G`, its tools from `source`.
    pub fn new(source: S) -> Self {
        Dynamic {
            source,
            group: PhantomData,
        }
    }

    /// The source of the group's tools.
    pub fn source(&self) -> &S {
        &self.source
    }
}

impl<G: DynamicGroup, S: DynamicTools + fmt::Debug> fmt::Debug for Dynamic<G, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Dynamic")
            .field("group", &G::NAME)
            .field("source", &self.source)
            .finish()
    }
}

impl<G: DynamicGroup, S: DynamicTools> ToolGroup for Dynamic<G, S> {
    const NAME: &'static str = G::NAME;
    const DESCRIPTION: &'static str = G::DESCRIPTION;
    const INSTRUCTIONS: Option<&'static str> = G::INSTRUCTIONS;
    const TOOL_INFOS: &'static [&'static ToolInfo] = &[];

    fn call_tool<'a>(
        &'a self,
        tool: usize,
        ctx: ToolContext<'a>,
        args: Arguments<'a>,
    ) -> impl Future<Output = Result<CallResult, ArgumentError>> + Send + 'a {
        let _ = (ctx, args);
        panic!(
            "toolgroup: tool index {tool} out of range: group `{}` has no compiled-in tools (a bug in the caller of `ToolGroup::call_tool`)",
            G::NAME
        );
        #[allow(unreachable_code)]
        std::future::pending()
    }

    fn dynamic_tools(&self) -> Option<&dyn DynamicTools> {
        Some(&self.source)
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
    pub fn with_output_schema(mut self, schema: Value) -> Self {
        self.output_schema = Some(schema);
        self
    }

    /// Set the annotations.
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

/// Whether `name` is a tool name every provider accepts: `^[a-zA-Z0-9_-]{1,64}$`.
pub fn is_valid_tool_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

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
        group: Some(group),
        always_on: false,
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
    fn tool_names_every_provider_accepts() {
        assert!(is_valid_tool_name("read_file-2"));
        assert!(is_valid_tool_name(&"a".repeat(64)));
        for bad in ["", "a b", "a.b", "é", "a/b", &"a".repeat(65)] {
            assert!(!is_valid_tool_name(bad), "{bad:?}");
        }
    }
}
