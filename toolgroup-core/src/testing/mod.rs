//! Test a toolkit offline, in your own crate's tests (the `testing` feature; put it in
//! `[dev-dependencies]`): call every tool with arguments generated from its own schema and
//! with invalid ones, play a scripted conversation through a provider's shapes, fail when
//! the definitions a model sees change, and record a real run to replay it offline.

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
