//! Groups whose tools are found at run time, such as the tools of a remote MCP server.
//!
//! The group itself stays a compile-time fact: its name, description and instructions are
//! declared with `#[tool_group(name = "...", description = "...", dynamic)]` on a unit
//! struct, so the `reset_tools` schema, the typed reset value and every compile-time check
//! are the same as for a group of Rust functions. Only its *tools* come at run time, from a
//! [`DynamicTools`] source, in a [`Dynamic`] group (the `toolgroup-mcp` crate's `Remote` is
//! such a source: the tools of a remote MCP server).
//!
//! # Names
//!
//! A run-time tool is listed and callable only if its name is free. Compiled-in tools and
//! `reset_tools` always keep their names; between groups found at run time, the group
//! declared first in the toolkit keeps a contested name. A tool that loses (or whose name
//! does not match `^[A-Za-z_][A-Za-z0-9_-]{0,63}$`, the rule every provider accepts and the
//! one the macros check: a leading digit or `-` included) is not shown to the
//! model and cannot be called; [`Toolkit::hidden_tools`](crate::Toolkit::hidden_tools) lists
//! it with the reason, and a `tracing` warning names it when the tool list is read. Rename
//! on the source's side (the MCP group's prefix, for one), never by overwriting.
//!
//! # Listing and calls
//!
//! Run-time tools are listed after the compiled-in ones (groups in declaration order, tools
//! in the source's order), only while their group is active, and appear in the renderers
//! ([`Rendered`](crate::provider::Rendered), rendered on first use with the same transforms
//! and strict-mode fallback), the mask mode, the catalog and an MCP server serving the
//! toolkit. A call goes through the policy, the layers, the toolkit's default timeout,
//! cancellation and panic containment like any other; the source checks the arguments.
//! An MCP server serving such a toolkit does not (yet) send `notifications/tools/list_changed`
//! when a source's tools change: its clients see the change when they list again.
//!
//! # Memory
//!
//! Definitions are interned for the life of the process, so listing and dispatch can hand out
//! `&'static` definitions exactly as for compiled-in tools, and renderers can cache their
//! output per definition: each *distinct* definition a source ever reports is kept once. A
//! source that keeps reporting new, different definitions (a description with a timestamp in
//! it, say) therefore grows memory with each change.

mod group;
pub(crate) mod source;

pub use group::{Dynamic, DynamicGroup};
pub(crate) use source::intern;
pub use source::{DynamicTool, DynamicTools, HiddenTool, ToolSet, is_valid_tool_name};
