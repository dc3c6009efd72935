//! Runtime of [`toolgroup`](https://docs.rs/toolgroup): tools, groups, the typed registry,
//! sessions, dispatch and the `reset_tools` meta tool.
//!
//! Users depend on the `toolgroup` crate, which re-exports this one together with the macros.
//!
//! # Cargo features
//!
//! Two, both off by default, which the `toolgroup` crate forwards as its own: `preserve_order`
//! and `testing` (the `testing` module, test utilities): see
//! [its feature table](https://docs.rs/toolgroup/latest/toolgroup/#cargo-features).

#![warn(missing_docs, unreachable_pub)]
#![cfg_attr(docsrs, feature(doc_cfg))]
// Layers, each using only those above it in this list (docs/dev/architecture.md):
// leaf helpers; model types; the call's context; the traits; state; the policy; the
// toolkit; shipped middleware; providers and the catalog; the test kit.
mod echo;
mod futures;
mod schema;
mod suggest;

pub mod args;
pub mod meta;
mod outcome;
mod output;
pub mod result;

pub mod context;

pub mod dynamic;
mod group;
pub mod registry;
pub mod scope;
mod tool;

mod check;
mod reset;
pub mod session;
pub mod skill;

pub mod lifecycle;
pub mod policy;

mod toolkit;

pub mod middleware;

pub mod catalog;
pub mod provider;

#[cfg(feature = "testing")]
#[cfg_attr(docsrs, doc(cfg(feature = "testing")))]
pub mod testing;

#[cfg(feature = "code-mode")]
#[cfg_attr(docsrs, doc(cfg(feature = "code-mode")))]
pub mod code;

pub use context::{CallContext, Extension, ToolContext};
pub use futures::BoxFuture;
pub use group::ToolGroup;
pub use meta::ToolDefinition;
pub use output::IntoCallResult;
pub use registry::Registry;
pub use result::{Audio, CallOutcome, CallResult, Content, Image};
pub use scope::Scopes;
pub use session::Session;
pub use tool::Tool;
pub use toolkit::{Resolved, ToolCall, ToolKind, Toolkit};

/// Items used by generated code. Not public API: may change in any release.
#[doc(hidden)]
pub mod __private {
    pub use crate::args::json_kind;
    pub use crate::check::{
        check_allowed_tools, check_group, check_toolkit, group_index_len, toolkit_index,
        toolkit_index_len,
    };
    pub use crate::echo::echo;
    pub use crate::output::{
        OutputProbe, ViaIntoCallResult, ViaJsonSchema, ViaNoSchema, ViaSerialize,
    };
    pub use crate::registry::GroupBits;
    pub use crate::result::CallResult;
    pub use crate::schema::schema_for;
    pub use crate::suggest::did_you_mean;
    pub use crate::tool::SyncCall;
    pub use crate::tool::{SchemaCell, build_schemas};
    pub use schemars;
    pub use serde;
    pub use serde_json;
    pub use std::{
        boxed::Box,
        clone::Clone,
        fmt::Display,
        future::{Future, ready},
        marker::Send,
        option::Option::{self, None, Some},
        result::Result::{self, Err, Ok},
        string::String,
        time::Duration,
        vec::Vec,
    };

    use crate::context::{Extension, ToolContext};
    use crate::group::ToolGroup;
    use crate::meta::GroupInfo;
    use crate::registry::{GroupId, UnknownGroup};

    /// The facts of group `G`, in a toolkit (`basic`: always on).
    pub const fn group_info<G: ToolGroup>(basic: bool, pinned: bool) -> GroupInfo {
        GroupInfo::of::<G>(basic, pinned)
    }

    /// The generated `FromStr` of a group's skill enum.
    pub fn parse_skill<S: crate::skill::SkillId>(s: &str) -> Result<S, crate::skill::UnknownSkill> {
        S::ALL
            .iter()
            .copied()
            .find(|k| k.name() == s)
            .ok_or_else(|| crate::skill::UnknownSkill {
                name: s.to_owned(),
                known: S::ALL.iter().map(|k| k.name()).collect(),
            })
    }

    /// The number of `u64` words a toolkit's state needs: a bit per switchable group, then
    /// one per compiled-in skill (whether the session loaded it).
    pub const fn state_words(switchable: usize, groups: &[GroupInfo]) -> usize {
        let mut bits = switchable;
        let mut g = 0;
        while g < groups.len() {
            bits += groups[g].skills.len();
            g += 1;
        }
        bits.div_ceil(64)
    }

    /// The generated `FromStr` of a toolkit's group enum.
    pub fn parse_group<G: GroupId>(s: &str) -> Result<G, UnknownGroup> {
        UnknownGroup::parse::<G>(s)
    }

    /// An `Extension<T>` parameter's value, or the error result naming `T`.
    pub fn extension<T: Clone + Send + Sync + 'static>(
        ctx: &ToolContext<'_>,
    ) -> Result<Extension<T>, CallResult> {
        match ctx.extension::<T>() {
            Some(value) => Ok(Extension(value.clone())),
            None => Err(crate::context::missing_extension::<T>(ctx.tool())),
        }
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
