//! Typed LLM tools and tool groups from plain Rust functions.
#![doc = "\n"]
pub use toolgroup_core::*;
pub use toolgroup_macros::{tool, tool_group, toolkit};

/// Everything a tool author needs: `use toolgroup::prelude::*;`.
pub mod prelude {
    pub use toolgroup_core::{
        CallResult, GroupId, Registry, Session, ToolCall, ToolContext, ToolDefinition, Toolkit,
    };
    pub use toolgroup_macros::{tool, tool_group, toolkit};
}
