//! The listed tools and groups: one [`RemoteTool`], one [`RemoteGroup`] (or a
//! [`HiddenGroup`] and why), and the [`ToolList`] that watchers see.

use std::sync::Arc;

use serde_json::{Map, Value};
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

/// One group of the remote server (extension `io.modelcontextprotocol/groups`): what
/// `groups/list` says of it and what `groups/get` answered.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct RemoteGroup {
    /// The group's name on the server (what `groups/get` and
    /// [`Remote::group`](super::Remote::group) take).
    pub name: String,
    /// A title for people.
    pub title: Option<String>,
    /// What the group is for (written for a model).
    pub description: String,
    /// How to use the group's tools (markdown, written for a model).
    pub instructions: Option<String>,
    /// The group's tools (`contents.tools`), in the server's order. They are not among the
    /// top-level [`tools`](ToolList::tools).
    pub tools: Vec<RemoteTool>,
    /// The group's `_meta` in `groups/list`, if any.
    pub meta: Option<Map<String, Value>>,
}

/// A group of the remote server that the client does not offer, and why: its `groups/get`
/// failed, or the server broke one of the extension's rules for it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct HiddenGroup {
    /// The group's name on the server, as listed (empty when the entry had none).
    pub name: String,
    /// Why it is hidden (remote text in it is escaped and shortened).
    pub reason: String,
}

/// The remote tools at one moment: what [`RemoteTools::watch`](super::RemoteTools::watch) receivers see.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ToolList {
    /// Starts at 0 with the list read on connect; increases by one each time the tools or
    /// the groups change (after `notifications/tools/list_changed`,
    /// `notifications/groups/list_changed` or a reconnection).
    pub version: u64,
    /// The top-level tools (`tools/list`), in the server's order.
    pub tools: Arc<Vec<RemoteTool>>,
    /// Whether the server declared the `io.modelcontextprotocol/groups` extension when the
    /// client last connected (always `false` for a client built
    /// [without it](super::RemoteServer::with_groups_extension)).
    pub declares_groups: bool,
    /// The server's groups, in its order, without the hidden ones (empty when the server does
    /// not declare the extension).
    pub groups: Arc<Vec<RemoteGroup>>,
    /// The groups the client does not offer, with the reason, in the server's order.
    pub hidden_groups: Arc<Vec<HiddenGroup>>,
}

impl ToolList {
    pub(super) fn empty() -> Self {
        ToolList {
            version: 0,
            tools: Arc::new(Vec::new()),
            declares_groups: false,
            groups: Arc::new(Vec::new()),
            hidden_groups: Arc::new(Vec::new()),
        }
    }

    /// The tool called `name` on the server: a top-level tool, else a tool of one of the
    /// offered groups (a scoped tool has one definition in every group that has it).
    pub(super) fn find(&self, name: &str) -> Option<&RemoteTool> {
        self.all_tools().find(|t| t.name == name)
    }

    /// The top-level tools, then the offered groups' tools.
    pub(super) fn all_tools(&self) -> impl Iterator<Item = &RemoteTool> {
        self.tools
            .iter()
            .chain(self.groups.iter().flat_map(|g| g.tools.iter()))
    }
}
