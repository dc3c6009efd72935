//! Behaviour through the public API, one module per topic, in one test binary so that the
//! shared toolkit (`tests/common`) is compiled once. `tests/tracing.rs` stays a binary of its
//! own (see there), and so does the trybuild test `tests/ui.rs`.
// Each example includes `examples/support/*.rs` as its own modules, as a standalone example
// must, and the tests include the examples.
#![allow(clippy::duplicate_mod)]

#[path = "../common/mod.rs"]
mod common;
#[path = "../common/png.rs"]
mod png;

mod catalog;
mod code;
mod compile_errors_page;
mod context;
mod dispatch;
mod docs;
mod dynamic;
mod entitlements;
mod examples;
mod groups;
mod hygiene;
mod key_order;
mod lifecycle;
mod middleware;
mod outcomes;
mod readme;
mod scopes;
mod shared;
mod skills;
mod tasks;
mod tools;
