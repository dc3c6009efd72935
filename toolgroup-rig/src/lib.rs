#![doc = include_str!("../README.md")]

mod adapter;
mod conversation;
mod hook;
mod output;
mod state;
mod tools;

pub use adapter::RigToolkit;
pub use conversation::Conversation;
pub use hook::GroupsHook;
pub use tools::RigContext;

/// The rig crates this adapter is built on (`rig_agent::core` is rig-core), so that an
/// application names the same versions.
pub use rig_agent;
