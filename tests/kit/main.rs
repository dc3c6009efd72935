//! The test kit (`toolgroup::testing`, the `testing` feature) used on this repository's own
//! examples: the quickstart's and the agent loop's tests play their scripts through it.
// Each example includes `examples/support/*.rs` as its own modules, as a standalone example
// must, and the tests include the examples.
#![allow(clippy::duplicate_mod)]

#[path = "../common/png.rs"]
mod png;

mod agent_loop;
#[cfg(feature = "mcp")]
mod mcp;
mod quickstart;
mod record;
mod scripted;
mod snapshot;
