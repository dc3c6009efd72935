//! Strict-mode rules: the schema subsets of OpenAI's and Anthropic's strict modes, their size
//! limits, and the counts Anthropic's per-request budgets spend.
//!
//! The strict rewrites are fallible (a schema may have no strict equivalent), which is why
//! they work on `serde_json::Value` rather than as schemars `Transform`s (infallible, in
//! place): the caller falls back to a non-strict rendering on error.

mod checks;
mod dialect;
mod not_strict;
mod transform;

use serde_json::Value;

pub(crate) use checks::{Stats, count};
use checks::{nesting, recursion};
use dialect::Dialect;
pub use not_strict::NotStrict;
use transform::strict;

/// The most object properties one OpenAI strict schema may have in total. Source: OpenAI
/// Structured Outputs guide, "Supported schemas" (Azure OpenAI allows 100).
pub const OPENAI_STRICT_MAX_PROPERTIES: usize = 5000;

/// The deepest nesting of objects in one OpenAI strict schema. Source: OpenAI Structured
/// Outputs guide, "Supported schemas" (Azure OpenAI allows 5).
pub const OPENAI_STRICT_MAX_NESTING: usize = 10;

/// The most enum values one OpenAI strict schema may have across all its enums. Source:
/// OpenAI Structured Outputs guide, "Supported schemas".
pub const OPENAI_STRICT_MAX_ENUM_VALUES: usize = 1000;

/// The schema rewritten for OpenAI's strict mode (Chat Completions and Responses,
/// `"strict": true`).
///
/// - every object gets `additionalProperties: false` and lists every property in
///   `required`; a property that was optional must already accept `null` (an `Option`),
///   which is how it stays optional;
/// - `oneOf` becomes `anyOf`, `const` a one-value `enum`;
/// - a `$ref` with sibling keywords (a field's description next to its type's reference) is
///   replaced by the referenced schema with the siblings applied; other references stay,
///   recursion included, and `$defs` keeps only what is still referenced;
/// - `default`, numeric, length, pattern and item-count constraints and annotations like
///   `examples` are dropped, and so are `format`s other than date-time, time, date, duration,
///   email, hostname, ipv4, ipv6 and uuid (the integer formats `uint32`, `int64`... among
///   them).
///
/// # Errors
///
/// [`NotStrict`] names the first part of the schema with no strict equivalent: free-form
/// values and objects, maps, an optional property that cannot be `null`, `allOf`, `not`,
/// conditionals, tuples and other unsupported keywords, a root that is not an object, or a
/// schema over [`OPENAI_STRICT_MAX_PROPERTIES`], [`OPENAI_STRICT_MAX_NESTING`] or
/// [`OPENAI_STRICT_MAX_ENUM_VALUES`].
pub fn openai_strict(schema: &Value) -> Result<Value, NotStrict> {
    let out = strict(schema, Dialect::OpenAi)?;
    let mut stats = Stats::default();
    count(&out, &mut stats);
    if stats.properties > OPENAI_STRICT_MAX_PROPERTIES {
        return Err(NotStrict::new(
            "",
            format!(
                "has {} object properties; OpenAI strict mode allows {OPENAI_STRICT_MAX_PROPERTIES}",
                stats.properties
            ),
        ));
    }
    if stats.enum_values > OPENAI_STRICT_MAX_ENUM_VALUES {
        return Err(NotStrict::new(
            "",
            format!(
                "has {} enum values; OpenAI strict mode allows {OPENAI_STRICT_MAX_ENUM_VALUES}",
                stats.enum_values
            ),
        ));
    }
    let depth = nesting(&out, &out, &mut Vec::new());
    if depth > OPENAI_STRICT_MAX_NESTING {
        return Err(NotStrict::new(
            "",
            format!(
                "nests objects {depth} levels deep; OpenAI strict mode allows {OPENAI_STRICT_MAX_NESTING}"
            ),
        ));
    }
    Ok(out)
}

/// The schema rewritten for Anthropic's strict tool use (`"strict": true`).
///
/// The same closure as [`openai_strict`] (every object `additionalProperties: false`,
/// `oneOf` to `anyOf`, `const` to `enum`, `$ref` siblings resolved, constraints and
/// unsupported formats dropped; `uri` is an accepted format here), except that optional
/// properties stay optional (Anthropic accepts them, within a per-request budget) and
/// `minItems` of 0 or 1 is kept.
///
/// # Errors
///
/// [`NotStrict`] as for [`openai_strict`] (without the size limits and the `null` rule),
/// and for recursive schemas, which Anthropic's strict mode does not support.
pub fn anthropic_strict(schema: &Value) -> Result<Value, NotStrict> {
    let out = strict(schema, Dialect::Anthropic)?;
    if let Some(name) = recursion(&out) {
        return Err(NotStrict::new(
            &name,
            "is recursive (the type contains itself); Anthropic strict mode does not support recursive schemas",
        ));
    }
    Ok(out)
}
