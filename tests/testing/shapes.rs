//! The provider tests' zoo of argument shapes, with what it reaches through `super::*`.

pub use std::collections::{BTreeMap, HashSet};

pub use schemars::JsonSchema;
pub use serde::Deserialize;
pub use toolgroup::prelude::*;

/// How to order results.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Sort {
    /// Newest first.
    Newest,
    /// Oldest first.
    Oldest,
}

#[allow(dead_code)]
#[path = "../providers/support/zoo.rs"]
pub mod zoo;
