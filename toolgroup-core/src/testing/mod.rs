//! Test a toolkit offline, in your own crate's tests (the `testing` feature; put it in
//! `[dev-dependencies]`): call every tool with arguments generated from its own schema and
//! with invalid ones, play a scripted conversation through a provider's shapes, fail when
//! the definitions a model sees change, and record a real run to replay it offline.

mod script;
mod scripted;
mod shapes;

pub use script::{Script, ScriptError, ScriptTurn};
pub use scripted::{Delivery, PlayError, ScriptedModel, Transcript, TurnRecord};
