//! A group of a toolkit whose tools come from a [`DynamicTools`] source.

use crate::skill::SkillInfo;
use std::fmt;
use std::future::Future;
use std::marker::PhantomData;

use crate::args::{ArgumentError, Arguments};
use crate::context::ToolContext;
use crate::group::ToolGroup;
use crate::meta::ToolInfo;
use crate::result::CallResult;

use super::source::DynamicTools;

/// The compile-time facts of a group whose tools are found at run time: what
/// `#[tool_group(name = "...", description = "...", dynamic)]` implements for a unit struct.
/// A toolkit does not take the struct itself as a field, but a group type that runs a source
/// of tools for it (for example `Dynamic<Files, toolgroup::mcp::client::Remote>`).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a dynamic tool group",
    label = "not a `#[tool_group(..., dynamic)]`",
    note = "declare it with `#[tool_group(name = \"...\", description = \"...\", dynamic)]` on a unit struct"
)]
pub trait DynamicGroup: Send + Sync + 'static {
    /// The group's name: the `reset_tools` argument that switches it.
    const NAME: &'static str;
    /// What the group is for; the model reads it in the `reset_tools` schema.
    const DESCRIPTION: &'static str;
    /// Instructions returned to the model when the group becomes active.
    const INSTRUCTIONS: Option<&'static str>;
    /// The group's compiled-in skills (`skills = [...]` of `#[tool_group]`).
    const SKILLS: &'static [&'static SkillInfo] = &[];
    /// The OAuth scopes a principal must hold to use the group (`scopes = [...]` of
    /// `#[tool_group]`), whatever tools its source finds.
    const SCOPES: &'static [&'static str] = &[];
    /// Whether the group lasts one turn (`turn_scoped` of `#[tool_group]`).
    const TURN_SCOPED: bool = false;
}

/// A toolkit group whose tools come from `source` at run time: the group `G` (a
/// `#[tool_group(..., dynamic)]` unit struct) served by a [`DynamicTools`] source. Use it as a
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
    const SKILLS: &'static [&'static SkillInfo] = G::SKILLS;
    const SCOPES: &'static [&'static str] = G::SCOPES;
    const TURN_SCOPED: bool = G::TURN_SCOPED;

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
