//! The tool abstraction: static metadata and a typed call.

use std::future::Future;
use std::sync::OnceLock;

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::args::Arguments;
use crate::args::{ArgumentError, invalid_arguments};
use crate::context::{Extensions, ToolContext};
use crate::meta::{ToolInfo, ToolSchemas};
use crate::result::CallResult;
use crate::schema;

/// A tool: what `#[tool]` generates for a function.
///
/// The implementing type is a marker named after the function (free functions) or a hidden
/// type (methods). `State` is what the tool runs against: `()` for a free function, the group
/// type for a `&self` method.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a tool",
    label = "not a `#[tool]`",
    note = "put `#[tool]` on the function, and name the function here"
)]
pub trait Tool: Send + Sync + 'static {
    /// What the tool runs against: `()` for free functions, the group for methods.
    type State: Send + Sync + 'static;
    /// The typed arguments.
    type Args: DeserializeOwned + JsonSchema + Send + 'static;
    /// Static facts about the tool.
    const INFO: ToolInfo;
    /// Run the tool on typed arguments.
    fn call<'a>(
        state: &'a Self::State,
        ctx: ToolContext<'a>,
        args: Self::Args,
    ) -> impl Future<Output = CallResult> + Send + 'a;

    /// Whether the tool is a plain `fn`: it finishes when called, so the toolkit runs it
    /// through [`call_sync`](Tool::call_sync) without building a future (generated code sets
    /// it for tools that are not `async`).
    #[doc(hidden)]
    const SYNC: bool = false;

    /// Run a plain-`fn` tool on typed arguments, without a future. The toolkit calls it only
    /// when [`SYNC`](Tool::SYNC) is `true`; generated code implements it for those tools, and
    /// an `async` tool keeps this default, which reports the misuse as an error result.
    #[doc(hidden)]
    fn call_sync(state: &Self::State, ctx: ToolContext<'_>, args: Self::Args) -> CallResult {
        let _ = (state, ctx, args);
        CallResult::error(format!(
            "tool `{}` is async: it has no synchronous entry point (a bug in its caller)",
            Self::INFO.name
        ))
    }

    /// One arm of a generated [`ToolGroup::call_tool_sync`](crate::ToolGroup::call_tool_sync):
    /// for a plain-`fn` tool, parse the arguments straight into it and run it, writing the
    /// result (or the invalid-arguments error) to `out`, which is `None`. Generated code does
    /// not override it.
    ///
    /// `out` is `None` on entry (the caller's contract). Invariant: fill it with
    /// `Option::replace` and forget the old `None`; don't assign (`get_or_insert_with`
    /// assigns too), which calls the result's drop glue out of line and builds the result in
    /// a temporary before copying it. (A `Some` passed in by mistake is leaked, never dropped
    /// twice.)
    #[doc(hidden)]
    #[inline(always)]
    fn call_sync_into(
        state: &Self::State,
        ctx: &ToolContext<'_>,
        args: &Arguments<'_>,
        out: &mut Option<CallResult>,
    ) -> SyncCall {
        if !Self::SYNC {
            return SyncCall::Async;
        }
        args.parse_with::<Self::Args, _, _>(
            out,
            |out, args| {
                debug_assert!(out.is_none(), "the result slot is empty");
                // The forgotten value is the slot's old `None`: nothing leaks.
                #[allow(clippy::mem_forget)]
                std::mem::forget(out.replace(Self::call_sync(state, *ctx, args)));
                SyncCall::Ran
            },
            |out, error| invalid_arguments_sync(Self::INFO.name, out, error),
        )
    }
}

/// Contexts for calling a tool directly: they name the tool, so they live with [`Tool`].
impl<'a> ToolContext<'a> {
    /// A context for calling `T` directly, outside a toolkit (tests, typed calls): no call id,
    /// no per-call data, no observer, never cancelled.
    pub fn detached<T: Tool>() -> Self {
        ToolContext::new(T::INFO.name, "", None, None, None, None)
    }

    /// A detached context carrying per-call data (for unit tests of tools that read some).
    pub fn detached_with<T: Tool>(extensions: &'a Extensions) -> Self {
        ToolContext::new(T::INFO.name, "", None, Some(extensions), None, None)
    }
}

/// Build a tool's schemas; generated code calls this once and caches the result.
///
/// The input schema's root `description` is dropped: it is the arguments struct's doc
/// comment, and the tool's own description already says what the tool does.
pub fn build_schemas<A: JsonSchema>(output: Option<Value>) -> ToolSchemas {
    let mut input = schema::schema_for::<A>();
    if let Value::Object(map) = &mut input {
        map.remove("description");
    }
    ToolSchemas { input, output }
}

/// A process-wide cache cell for a tool's schemas (one `static` per generated tool).
pub type SchemaCell = OnceLock<ToolSchemas>;

/// What [`Tool::call_sync_into`] and [`ToolGroup::call_tool_sync`](crate::ToolGroup::call_tool_sync)
/// did (generated code returns it).
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SyncCall {
    /// The tool ran; its result is in `out`.
    Ran,
    /// The arguments did not parse; the error result for the model is in `out`.
    Invalid,
    /// The tool is `async`: nothing was parsed or run.
    Async,
}

/// [`invalid_arguments`] for the synchronous calls: the result for the model in `out`, and the
/// outcome that tells it from the tool's own error (out of line: the error path stays out of
/// the tool's arm).
#[cold]
#[inline(never)]
fn invalid_arguments_sync(
    tool: &str,
    out: &mut Option<CallResult>,
    error: ArgumentError,
) -> SyncCall {
    *out = Some(invalid_arguments(tool, &error));
    SyncCall::Invalid
}
