//! Tool groups: named sets of tools that are switched on and off together.

use std::future::Future;

use crate::args::{ArgumentError, Arguments};
use crate::context::ToolContext;
use crate::dynamic::source::DynamicTools;
use crate::meta::{GroupInfo, ToolInfo};
use crate::result::CallResult;
use crate::skill::SkillInfo;
use crate::tool::SyncCall;

/// A tool group: what `#[tool_group]` implements for an impl block or a unit struct.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a tool group",
    label = "not a `#[tool_group]`",
    note = "add `#[tool_group(name = \"...\", description = \"...\")]` to `{Self}`'s impl block of tools, or to a unit struct with `tools = [...]`"
)]
pub trait ToolGroup: Send + Sync + Sized + 'static {
    /// The group's name: the `reset_tools` argument that switches it.
    const NAME: &'static str;
    /// What the group is for; the model reads it in the `reset_tools` schema.
    const DESCRIPTION: &'static str;
    /// Instructions returned to the model when the group becomes active.
    const INSTRUCTIONS: Option<&'static str>;
    /// The group's tools' static facts, in source order (usable in `const` checks).
    const TOOL_INFOS: &'static [&'static ToolInfo];
    /// The group's skills (`skills = [...]` of `#[tool_group]`), in declaration order.
    const SKILLS: &'static [&'static SkillInfo] = &[];
    /// The OAuth scopes a principal must hold to use the group (`scopes = [...]` of
    /// `#[tool_group]`); a tool needs its group's and its own.
    const SCOPES: &'static [&'static str] = &[];
    /// Whether the group lasts one turn (`turn_scoped` of `#[tool_group]`): a
    /// [lifecycle](crate::lifecycle) switches it off when a turn ends.
    const TURN_SCOPED: bool = false;

    /// Parse the arguments of tool number `tool` (an index into [`TOOL_INFOS`](Self::TOOL_INFOS)) and
    /// run it. The toolkit's dispatch path: one concrete future (a `match` over the group's
    /// tools), so a call allocates nothing beyond its arguments and result.
    ///
    /// # Panics
    ///
    /// If `tool` is out of range.
    #[doc(hidden)]
    fn call_tool<'a>(
        &'a self,
        tool: usize,
        ctx: ToolContext<'a>,
        args: Arguments<'a>,
    ) -> impl Future<Output = Result<CallResult, ArgumentError>> + Send + 'a;

    /// [`call_tool`](Self::call_tool) without a future, for tools that are plain `fn`s:
    /// parse the arguments and run the tool now, writing its result to `out`.
    /// [`SyncCall::Async`], with nothing parsed or run, when tool `tool` is `async` (the
    /// default says that of every tool); [`SyncCall::Invalid`] with the error result for the
    /// model in `out` when the arguments do not parse.
    ///
    /// Invariant: the result is written where the caller wants it and the arguments are
    /// borrowed. Returned, the 64-byte result would be copied at each layer on its way out
    /// (the unwind guard's among them), each copy reading memory written a moment before.
    ///
    /// # Panics
    ///
    /// If `tool` is out of range.
    #[doc(hidden)]
    fn call_tool_sync<'a>(
        &'a self,
        tool: usize,
        ctx: &ToolContext<'a>,
        args: &Arguments<'a>,
        out: &mut Option<CallResult>,
    ) -> SyncCall {
        let _ = (tool, ctx, args, out);
        SyncCall::Async
    }

    /// The run-time source of the group's tools, for a group whose tools are found at run
    /// time (its [`TOOL_INFOS`](Self::TOOL_INFOS) is then empty). `None` for every group of
    /// Rust functions.
    #[doc(hidden)]
    fn dynamic_tools(&self) -> Option<&dyn DynamicTools> {
        None
    }
}

impl GroupInfo {
    /// The facts of group `G` (what generated code calls).
    pub(crate) const fn of<G: ToolGroup>(basic: bool, pinned: bool) -> Self {
        GroupInfo {
            name: G::NAME,
            description: G::DESCRIPTION,
            instructions: G::INSTRUCTIONS,
            tools: G::TOOL_INFOS,
            basic,
            skills: G::SKILLS,
            scopes: G::SCOPES,
            pinned,
            turn_scoped: G::TURN_SCOPED,
        }
    }
}
