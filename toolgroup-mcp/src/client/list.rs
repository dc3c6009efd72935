//! The listed tools: one [`RemoteTool`], and the [`ToolList`] that watchers see.

use std::sync::Arc;

use serde_json::Value;
use toolgroup_core::meta::ToolAnnotations;

/// One tool of the remote server, as listed.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct RemoteTool {
    /// The tool's name on the server (not validated: see [`expose_names`](super::expose_names)).
    pub name: String,
    /// A title for people: the tool's `title`, else its annotations' `title`.
    pub title: Option<String>,
    /// What the tool does.
    pub description: Option<String>,
    /// The JSON Schema of its arguments (an object schema).
    pub input_schema: Value,
    /// The JSON Schema of its structured output, if it has one.
    pub output_schema: Option<Value>,
    /// Its hints (`readOnlyHint`...).
    pub annotations: ToolAnnotations,
}

/// The remote tools at one moment: what [`RemoteTools::watch`](super::RemoteTools::watch) receivers see.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ToolList {
    /// Starts at 0 with the list read on connect; increases by one each time the list
    /// changes (after `notifications/tools/list_changed` or a reconnection).
    pub version: u64,
    /// The tools, in the server's order.
    pub tools: Arc<Vec<RemoteTool>>,
}
