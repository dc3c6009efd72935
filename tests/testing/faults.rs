//! A toolkit with one known fault per tool (and two tools without): what `exercise` must
//! report, each with the arguments that trigger it.

use std::future::pending;
use std::sync::atomic::{AtomicUsize, Ordering};

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Deserializer};
use toolgroup::prelude::*;

/// Answer with ten megabytes of text (not a fault).
#[tool]
pub fn big() -> String {
    "x".repeat(10 << 20)
}

static CALLS: AtomicUsize = AtomicUsize::new(0);

/// Count calls in a global (not a fault).
#[tool]
pub fn count(
    /// How much to add.
    step: u8,
) -> usize {
    CALLS.fetch_add(usize::from(step), Ordering::SeqCst)
}

#[tool_group(name = "safe", description = "Faultless.", tools = [big, count])]
pub struct Safe;

/// Split a bill between people: panics when `people` is 0.
#[tool]
pub fn split(
    /// The total, in cents.
    total: u32,
    /// How many people pay.
    people: u8,
) -> u32 {
    total / u32::from(people)
}

/// Shout a text: panics on a control character.
#[tool]
pub fn shout(
    /// What to shout.
    text: String,
) -> String {
    assert!(
        !text.chars().any(char::is_control),
        "a control character in the text"
    );
    text.to_uppercase()
}

/// Three capital letters.
pub fn is_code(s: &str) -> bool {
    s.len() == 3 && s.bytes().all(|b| b.is_ascii_uppercase())
}

/// An airport code: its schema says any string, its parser wants three capital letters.
#[derive(Debug)]
pub struct Code(pub String);

impl JsonSchema for Code {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Code".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "string", "description": "An airport code." })
    }
}

impl<'de> Deserialize<'de> for Code {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = String::deserialize(deserializer)?;
        if is_code(&s) {
            Ok(Code(s))
        } else {
            Err(serde::de::Error::custom("expected three capital letters"))
        }
    }
}

/// Look an airport up.
#[tool]
pub fn lookup(
    /// The airport's code.
    code: Code,
) -> String {
    code.0
}

/// A label whose schema bounds its length; nothing checks it.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Label {
    /// At most five characters.
    #[schemars(length(max = 5))]
    pub text: String,
}

/// Tag something.
#[tool]
pub fn tag(#[args] label: Label) -> usize {
    label.text.chars().count()
}

#[tool_group(
    name = "risky",
    description = "Tools with faults.",
    tools = [split, shout, lookup, tag]
)]
pub struct Risky;

/// Wait forever.
#[tool]
pub async fn hang() -> String {
    pending().await
}

/// Wait forever, with a timeout of its own.
#[tool(timeout = "30ms")]
pub async fn hang_briefly(
    /// Ignored.
    n: u8,
) -> String {
    let _ = n;
    pending().await
}

#[tool_group(name = "slow", description = "Tools that hang.", tools = [hang, hang_briefly])]
pub struct Slow;

/// A chain with no end: no finite value has this type.
#[allow(dead_code)]
#[derive(Debug, Deserialize, JsonSchema)]
pub struct Chain {
    /// The next link.
    pub next: Box<Chain>,
}

/// Follow a chain.
#[tool]
pub fn chain(
    /// The chain.
    chain: Chain,
) -> bool {
    let _ = chain;
    true
}

#[tool_group(name = "odd", description = "A schema with no end.", tools = [chain])]
pub struct Odd;

#[toolkit]
pub struct Faults {
    #[basic]
    pub safe: Safe,
    pub risky: Risky,
    pub slow: Slow,
    pub odd: Odd,
}

pub fn faults() -> Toolkit<Faults> {
    Toolkit::new(Faults {
        safe: Safe,
        risky: Risky,
        slow: Slow,
        odd: Odd,
    })
}
