//! Shared by the provider tests: the golden toolkit and the zoo of argument shapes, readers
//! of rendered definitions, the strict-mode and legacy-dialect rule checkers (written from
//! the providers' documentation, independently of the renderer's code), the JSON Schema
//! 2020-12 meta-schema check, and golden files with a bless switch.

mod golden;
mod legacy;
pub mod meta;
mod read;
mod strict;
mod toolkit;
// The zoo's types exist for their schemas: the tools never read most of their fields.
#[allow(dead_code)]
pub mod zoo;

pub use golden::*;
pub use legacy::*;
pub use read::*;
pub use strict::*;
pub use toolkit::*;

pub use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

pub use schemars::JsonSchema;
pub use serde::{Deserialize, Serialize};
pub use serde_json::{Value, json};
pub use toolgroup::prelude::*;
pub use toolgroup::provider::{
    AllowMode, DecodeError, MissingCallId, NotStrict, Provider, Rendered, Strictness,
    anthropic_strict, gemini_legacy_schema, limits::ANTHROPIC_MAX_STRICT_OPTIONAL_PARAMS,
    limits::ANTHROPIC_MAX_STRICT_TOOLS, limits::ANTHROPIC_MAX_STRICT_UNION_PARAMS,
    mcp_output_schema, openai_strict,
};
pub use toolgroup::{Registry, registry::GroupId};
