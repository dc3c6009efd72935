// The crate docs and the macros' docs are Markdown under `docs/api/` (inside this package,
// so they are in its tarball); `tour.md`, `skills.md` and `features.md` are also the README's
// (a test keeps the copies identical), so each text exists once.
#![doc = include_str!("../docs/api/crate.md")]
#![doc = include_str!("../docs/api/tour.md")]
#![doc = include_str!("../docs/api/guide.md")]
#![doc = "# Skills\n"]
#![doc = include_str!("../docs/api/skills.md")]
#![doc = include_str!("../docs/api/guides.md")]
#![doc = "# Cargo features\n\nAll off by default. On docs.rs every item shows the feature that enables it.\n"]
#![doc = include_str!("../docs/api/features.md")]
#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

pub use toolgroup_core::*;

#[doc = include_str!("../docs/api/tool.md")]
pub use toolgroup_macros::tool;

#[doc = include_str!("../docs/api/tool_group.md")]
pub use toolgroup_macros::tool_group;

#[doc = include_str!("../docs/api/toolkit.md")]
pub use toolgroup_macros::toolkit;

/// Everything a tool author needs: `use toolgroup::prelude::*;`. The macros, the traits
/// their items implement (so their methods are in scope), and the types of the tour.
pub mod prelude {
    pub use toolgroup_core::registry::GroupId;
    pub use toolgroup_core::{
        Audio, CallContext, CallResult, Content, Extension, Image, IntoCallResult, Registry,
        Session, Tool, ToolCall, ToolContext, ToolDefinition, ToolGroup, Toolkit,
    };
    pub use toolgroup_macros::{tool, tool_group, toolkit};
}

/// Serve a toolkit over MCP (stdio and Streamable HTTP), groups included. See
/// [`mcp::McpServer`].
#[cfg(feature = "mcp")]
#[cfg_attr(docsrs, doc(cfg(feature = "mcp")))]
pub use toolgroup_mcp as mcp;

// The documented example toolkit is the quickstart's, defined once in the examples; its
// generated code reaches this crate as `::toolgroup`, like a user's.
#[cfg(doc)]
extern crate self as toolgroup;

#[cfg(doc)]
#[path = "../examples/support/agent.rs"]
pub mod example;

#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

#[doc = include_str!("../docs/compile-errors.md")]
#[cfg(doctest)]
pub struct CompileErrorsDoctests;

#[doc = include_str!("../docs/coming-from-agentscope.md")]
#[cfg(doctest)]
pub struct ComingFromAgentScopeDoctests;

// Its blocks use both the test kit and the MCP server.
#[doc = include_str!("../docs/testing.md")]
#[cfg(all(doctest, feature = "testing", feature = "mcp"))]
pub struct TestingDoctests;

#[doc = include_str!("../docs/lifecycle.md")]
#[cfg(doctest)]
pub struct LifecycleDoctests;

#[doc = include_str!("../docs/long-running-tools.md")]
#[cfg(doctest)]
pub struct LongRunningToolsDoctests;

#[doc = include_str!("../docs/dev/generated-docs.md")]
#[cfg(doctest)]
pub struct GeneratedDocsDoctests;

// `docs/coming-from-rmcp.md` needs rmcp: its blocks are doc tests of the benchmark workspace.
