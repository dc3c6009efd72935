//! Runtime of [`toolgroup`](https://docs.rs/toolgroup): tools, groups, the typed registry,
//! sessions, dispatch and the `reset_tools` meta tool.
//!
//! Users depend on the `toolgroup` crate, which re-exports this one together with the macros.

#![warn(missing_docs, unreachable_pub)]
#![cfg_attr(docsrs, feature(doc_cfg))]
mod args;
pub mod catalog;
mod check;
mod futures;
mod group;
mod policy;
pub mod provider;
mod registry;
mod reset;
mod result;
mod schema;
mod session;
mod suggest;
mod tool;
mod toolkit;

pub use args::{ArgumentError, Arguments, ArgumentsBuf};
pub use catalog::Catalog;
pub use group::{GroupInfo, ToolGroup};
pub use policy::{Decision, Policy, PolicyRequest};
pub use registry::{GroupBits, GroupId, Registry, UnknownGroup};
pub use reset::{RESET_TOOLS, RESET_TOOLS_DESCRIPTION};
pub use result::{CallResult, Content};
pub use session::{RestoreError, Session};
pub use suggest::did_you_mean;
pub use tool::{
    BoxFuture, ErasedCall, Tool, ToolAnnotations, ToolContext, ToolEntry, ToolInfo, ToolSchemas,
};
pub use toolkit::{ToolCall, ToolDefinition, Toolkit};

/// Items used by generated code. Not public API: may change in any release.
#[doc(hidden)]
pub mod __private {
    pub use crate::check::{check_group, check_toolkit};
    pub use crate::result::CallResult;
    pub use crate::schema::{OutputSchemaProbe, ViaJsonSchema, ViaNoSchema, schema_for};
    pub use crate::tool::{SchemaCell, build_schemas, erased_call, erased_call_stateless};
    pub use schemars;
    pub use serde;
    pub use serde_json;
    pub use std::{
        boxed::Box,
        fmt::Display,
        future::Future,
        marker::Send,
        option::Option::{self, None, Some},
        result::Result::{self, Err, Ok},
        string::String,
        time::Duration,
        vec::Vec,
    };

    /// Text result of a string-like tool output.
    pub fn text_output(s: impl ::std::convert::Into<String>) -> CallResult {
        CallResult::text(s)
    }

    /// Result of a tool returning `()`.
    pub fn unit_output(_: ()) -> CallResult {
        CallResult::empty()
    }

    /// Structured result of a `Serialize` output.
    pub fn json_output<T: serde::Serialize + ?Sized>(value: &T) -> CallResult {
        CallResult::structured(value)
    }

    /// Error result of a tool's `Err(e)`.
    pub fn error_output<E: Display + ?Sized>(error: &E) -> CallResult {
        CallResult::error(error.to_string())
    }

    /// Asserts at compile time that a tool's future is `Send` (the error lands on the span
    /// the generated call carries).
    pub fn assert_send<F: Future + Send>(f: F) -> F {
        f
    }
}
