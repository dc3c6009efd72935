//! The tool abstraction: static metadata and a typed call.

use std::future::Future;
use std::sync::OnceLock;
use std::time::Duration;

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::args::Arguments;
use crate::context::ToolContext;
use crate::group::SyncCall;
use crate::result::CallResult;
use crate::schema;
use crate::toolkit::messages::invalid_arguments_sync;

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
    /// `out` is `None` on entry (the caller's contract). It is filled by `Option::replace`,
    /// and the old `None` forgotten rather than dropped: an assignment (`get_or_insert_with`
    /// assigns too) first calls the result's drop glue on the old value, an out-of-line call
    /// on every call, and LLVM then built the result in a temporary and copied it. Forgotten,
    /// the result is written in place. (A `Some` passed in by mistake would be leaked, never
    /// dropped twice.)
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
                std::mem::forget(out.replace(Self::call_sync(state, *ctx, args)));
                SyncCall::Ran
            },
            |out, error| invalid_arguments_sync(Self::INFO.name, out, error),
        )
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
