//! What a tool's `_meta` tells clients besides its group: the vendor hints of clients that
//! search their own tools (Claude Code's `anthropic/alwaysLoad` and `anthropic/searchHint`)
//! and the membership labels of the groups drafts (`io.modelcontextprotocol/groups`).

use rmcp::model::{MetaObject, Tool};
use serde_json::Value;
use toolgroup_core::meta::GroupInfo;

use crate::GROUP_META_KEY;
use crate::group_names::GroupNames;

/// The `_meta` key of Claude Code's per-tool hint "load this tool's definition up front"
/// (`true`), a vendor hint: clients that do not know it ignore it.
pub const ALWAYS_LOAD_META_KEY: &str = "anthropic/alwaysLoad";
/// The `_meta` key of Claude Code's per-tool search text (a string its tool search matches),
/// a vendor hint.
pub const SEARCH_HINT_META_KEY: &str = "anthropic/searchHint";
/// The `_meta` key of group membership (an array of group names, as `groups/list` names
/// them), from the interest group's `io.modelcontextprotocol/grouping` draft.
pub const GROUPS_META_KEY: &str = "io.modelcontextprotocol/groups";

/// Which hints the server adds to each tool's `_meta` in `tools/list` and `groups/get`
/// (see the [crate docs](crate), "Groups for clients that search their own tools"). The
/// search hints and membership labels are on by default, `alwaysLoad` is off;
/// [`none`](Self::none) turns them all off.
///
/// Why `alwaysLoad` is off: Claude Code shows a tool that carries it in full in every
/// request, where it would otherwise show its name alone until the model searches for it.
/// Under first-use activation (the server's default) the model calls a group's tool
/// directly and never needs `reset_tools` or the basic tools loaded first, so the hint only
/// costs those definitions in every request, more than a server without groups shows.
/// Turn it on ([`always_load`](Self::always_load)) with first-use activation off, where a
/// model must switch groups deliberately: it then saves the search for `reset_tools`.
///
/// ```
/// use toolgroup_mcp::ClientHints;
///
/// // Membership labels, without the vendor hints.
/// let hints = ClientHints::none().membership(true);
/// assert_ne!(hints, ClientHints::default());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ClientHints {
    always_load: bool,
    search_hint: bool,
    membership: bool,
}

impl Default for ClientHints {
    fn default() -> Self {
        ClientHints {
            always_load: false,
            search_hint: true,
            membership: true,
        }
    }
}

impl ClientHints {
    /// No hint at all: each tool's `_meta` carries its group alone, as before hints existed.
    pub const fn none() -> Self {
        ClientHints {
            always_load: false,
            search_hint: false,
            membership: false,
        }
    }

    /// `_meta["anthropic/alwaysLoad"]: true` on `reset_tools`, the skill tools (`Skill`,
    /// `read_skill_file`) and the basic groups' tools: the tools a client that defers tool
    /// definitions behind its own search should show the model from the start.
    #[must_use]
    pub const fn always_load(mut self, on: bool) -> Self {
        self.always_load = on;
        self
    }

    /// `_meta["anthropic/searchHint"]: "<group>: <group description>"` on each tool of a
    /// switchable group, so that one search by the group's name finds every tool of the
    /// group.
    #[must_use]
    pub const fn search_hint(mut self, on: bool) -> Self {
        self.search_hint = on;
        self
    }

    /// `_meta["io.modelcontextprotocol/groups"]: ["<group>"]` on each tool of a switchable
    /// group (the group's name under the drafts' rule, `web_search` as `web-search`), with
    /// the `io.modelcontextprotocol/grouping` extension declared and `groups/list` answered
    /// so that clients can resolve the labels.
    #[must_use]
    pub const fn membership(mut self, on: bool) -> Self {
        self.membership = on;
        self
    }

    /// Whether membership labels are on.
    pub(crate) const fn has_membership(self) -> bool {
        self.membership
    }
}

/// `tool` with its `_meta`: its group (`toolgroup/group`), then the hints `hints` turns on.
/// `group` is the tool's group by name (`None`: a builtin); `names` the wire names, used for
/// membership labels only when they are clean.
pub(crate) fn decorate(
    tool: Tool,
    group: Option<&str>,
    hints: ClientHints,
    names: &GroupNames,
    groups: &[GroupInfo],
) -> Tool {
    let mut meta = MetaObject::new();
    let info = group.and_then(|g| groups.iter().find(|info| info.name == g));
    if let Some(group) = group {
        meta.0.insert(GROUP_META_KEY.to_owned(), Value::from(group));
    }
    // Loaded up front: a basic group's tool, and the builtins (reset_tools, Skill,
    // read_skill_file); not a group this toolkit does not have (only its name is known).
    let always = match info {
        Some(info) if !info.basic => {
            if hints.membership
                && names.is_clean()
                && let Some(wire) = names.wire(info.name, groups)
            {
                meta.0.insert(
                    GROUPS_META_KEY.to_owned(),
                    Value::from(vec![wire.to_owned()]),
                );
            }
            if hints.search_hint {
                meta.0.insert(
                    SEARCH_HINT_META_KEY.to_owned(),
                    Value::from(format!("{}: {}", info.name, info.description)),
                );
            }
            false
        }
        Some(_) => true,
        None => group.is_none(),
    };
    if always && hints.always_load {
        meta.0
            .insert(ALWAYS_LOAD_META_KEY.to_owned(), Value::Bool(true));
    }
    if meta.0.is_empty() {
        tool
    } else {
        tool.with_meta(meta)
    }
}
