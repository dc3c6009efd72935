//! Test a toolkit offline, in your own crate's tests (the `testing` feature; put it in
//! `[dev-dependencies]`): call every tool with arguments generated from its own schema and
//! with invalid ones, play a scripted conversation through a provider's shapes, fail when
//! the definitions a model sees change, and record a real run to replay it offline.
//!
//! # Exercise every tool
//!
//! [`exercise`] calls every tool of a toolkit the way a model could, and reports what broke:
//!
//! ```
//! use std::time::Duration;
//! use toolgroup::prelude::*;
//! use toolgroup::testing::{FailureKind, exercise};
//!
//! /// Split a bill between people.
//! #[tool]
//! fn split(
//!     /// The total, in cents.
//!     total: u32,
//!     /// How many people pay.
//!     people: u8,
//! ) -> u32 {
//!     total / u32::from(people) // panics when `people` is 0
//! }
//!
//! #[tool_group(name = "money", description = "Money.", tools = [split])]
//! struct Money;
//!
//! #[toolkit]
//! struct Kit {
//!     money: Money,
//! }
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() {
//! let toolkit = Toolkit::new(Kit { money: Money });
//! let report = exercise(&toolkit).seed(7).cases(32).run().await;
//! let failure = &report.failures()[0];
//! assert_eq!((failure.tool(), failure.kind()), ("split", FailureKind::Panic));
//! assert!(failure.arguments().contains(r#""people":0"#));
//! # }
//! ```
//!
//! For each group (basic groups first, then the switchable ones in declaration order, or
//! only those given to [`Exercise::groups`]), the exercise starts a session and activates the
//! group by calling `reset_tools` with it, as a model would (through the session when the
//! toolkit hides `reset_tools`; a group whose activation is refused, by a policy or a missing
//! scope, is listed in [`Report::skipped`]). Then, for each of the group's tools in listing
//! order (tools found at run time included), it draws [`cases`](Exercise::cases) argument
//! objects from the tool's own input schema ([`generate_valid`]) and, for each, calls the
//! tool with it and then with each of its [`mutations`]: a required property removed, a
//! value of the wrong type, an unknown property, a value out of range, arguments that are not
//! an object, and text that is not JSON. Every call goes through
//! [`Toolkit::call`](crate::Toolkit::call) as raw JSON text, from a fresh copy of the
//! activated session, so no call sees another's state change (the tool's own state, in its
//! group, is shared as in production).
//!
//! A failure is one of these ([`FailureKind`]), each with the tool, its group, the
//! arguments as the JSON text sent (to replay with `Toolkit::call`) and what happened:
//!
//! - **panic**: valid arguments made the tool panic;
//! - **timeout**: valid arguments made it run past its timeout (its own, the toolkit's
//!   default, or else the exercise's [`timeout`](Exercise::timeout), 5 s by default); the
//!   tool then gets no more valid calls, since each would wait as long;
//! - **valid arguments refused**: arguments the schema allows were refused as invalid: the
//!   argument type is narrower than what the model is shown (a custom `Deserialize` that
//!   checks more than its schema says, a `#[schemars(with = ...)]` that is wider);
//! - **invalid arguments reached the tool**: a mutation was not refused as invalid arguments
//!   (the tool answered, failed, panicked or timed out with it), so the argument type lets
//!   through what the schema forbids, such as a `#[schemars(length(max = 10))]` on a
//!   `String` that nothing checks;
//! - **unsupported**: the generator cannot make arguments for the schema (a `pattern`, a
//!   `$ref` cycle with no end, an unknown string format); the tool is then only sent
//!   arguments that are not an object or not JSON.
//!
//! A tool's error result (`Err(...)`) is no failure: tools may refuse arguments their type
//! allows. Nor are the answers the toolkit's configuration decides (a policy's denial, a
//! layer's error, a missing scope), nor a large result (only the first 300 characters of
//! an answer are kept). A tool that needs per-call data (`Extension<T>`) answers that the
//! call carries none: no failure, but its body is not exercised. Tools found at run time
//! check their own arguments, so they get only valid calls. A tool that blocks its thread
//! without awaiting cannot be bounded by any timeout: give such a tool `spawn_blocking`.
//! Without a Tokio timer nothing is called, and the report's one failure says so
//! ([`FailureKind::NoTimer`]).
//!
//! The run is reproducible: the arguments of each tool come from its own generator, seeded
//! from the [`seed`](Exercise::seed) and the tool's name ([`Rng`], SplitMix64, written here
//! so the feature adds no dependency), so the same seed gives the same arguments and the same
//! report (in builds with the same `preserve_order` setting, which orders a schema's
//! properties), and adding a tool changes no other tool's arguments. The report's `Display`
//! names the seed; [`Report::assert_ok`] panics with it.

mod exercise;
mod generate;
mod mutate;
mod number;
mod report;
mod rng;
mod text;
mod validate;

pub use exercise::{Exercise, exercise};
pub use generate::{Unsupported, generate_valid};
pub use mutate::{Mutation, MutationKind, mutations};
pub use report::{Failure, FailureKind, Report, ToolReport};
pub use rng::Rng;

mod diff;
mod record;
mod script;
mod scripted;
mod shapes;
mod snapshot;

pub use record::{
    Divergence, DivergenceKind, Recorder, Recording, RecordingError, Replayer, Replaying,
};
pub use script::{Script, ScriptError, ScriptTurn};
pub use scripted::{Delivery, PlayError, ScriptedModel, Transcript, TurnRecord};
#[doc(hidden)]
pub use snapshot::assert_snapshot;
pub use snapshot::{
    BLESS_VAR, MismatchKind, SnapshotMismatch, compare_snapshot, definitions_snapshot,
    rendered_definitions,
};

/// The I/O or JSON error behind a [`RecordingError`] or a [`ScriptError`], in an `Arc` so
/// that those errors stay `Clone`.
type Source = std::sync::Arc<dyn std::error::Error + Send + Sync + 'static>;
