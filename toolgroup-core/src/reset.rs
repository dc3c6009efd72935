//! The `reset_tools` meta tool: schema, validation and the answer to the model.
//!
//! Semantics: the arguments are the *final* state of every group. The call is
//! validated completely before anything changes; every problem is reported at once; a refused
//! call changes nothing; an omitted group counts as `false`.

use std::fmt::{self, Write as _};

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value, json};

use crate::args::{Arguments, json_kind};
use crate::group::GroupInfo;
use crate::registry::{GroupBits, bit, set_bit};
use crate::result::{CallResult, Content};
use crate::suggest::{did_you_mean, list_names};
use rustc_hash::FxHashMap;

/// The meta tool's name.
pub const RESET_TOOLS: &str = crate::check::RESET_TOOLS;

/// The meta tool's description.
pub const RESET_TOOLS_DESCRIPTION: &str = "Choose which tool groups are active. Give every group's final state: true to make it active, false to make it inactive (a group left out becomes inactive). Only the tools of active groups are available; the answer lists what changed and the instructions of newly activated groups.";

/// The `reset_tools` input schema: one required boolean per switchable group, nothing else.
pub(crate) fn schema(groups: &[GroupInfo], switchable: &[usize]) -> Value {
    let mut properties = Map::new();
    let mut required = Vec::with_capacity(switchable.len());
    for &g in switchable {
        let group = &groups[g];
        properties.insert(
            group.name.to_owned(),
            json!({"type": "boolean", "description": group.description}),
        );
        required.push(Value::from(group.name));
    }
    json!({
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": false,
    })
}

/// The switchable groups' names in slot order, with a hash index from name to slot (a call
/// names every group, so a linear search per key would make parsing quadratic).
#[derive(Debug, Default)]
pub(crate) struct GroupNames {
    pub(crate) names: Vec<&'static str>,
    slots: FxHashMap<&'static str, usize>,
}

impl GroupNames {
    pub(crate) fn new(names: Vec<&'static str>) -> Self {
        let slots = names.iter().enumerate().map(|(i, n)| (*n, i)).collect();
        GroupNames { names, slots }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

/// One thing wrong with a `reset_tools` call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Problem {
    Malformed(String),
    NotObject(&'static str),
    Unknown(String),
    NotBool { slot: usize, found: &'static str },
    Duplicate { slot: usize },
}

/// Parse a `reset_tools` call into the new bit set, or every problem found.
pub(crate) fn parse<B: GroupBits>(
    args: Arguments<'_>,
    names: &GroupNames,
    empty: B,
) -> Result<B, Vec<Problem>> {
    let seed = ResetSeed {
        names,
        bits: empty,
        seen: empty,
        problems: Vec::new(),
    };
    let outcome = match args {
        Arguments::Text(text) => {
            let trimmed = text.trim_start();
            if !trimmed.starts_with('{') {
                return Err(vec![match serde_json::from_str::<Value>(text) {
                    Ok(v) => Problem::NotObject(json_kind(&v)),
                    Err(_) if trimmed.is_empty() => Problem::NotObject("nothing"),
                    Err(e) => Problem::Malformed(e.to_string()),
                }]);
            }
            let mut de = serde_json::Deserializer::from_str(text);
            seed.deserialize(&mut de).and_then(|s| de.end().map(|()| s))
        }
        Arguments::Value(value) => {
            if !value.is_object() {
                return Err(vec![Problem::NotObject(json_kind(value))]);
            }
            seed.deserialize(value)
        }
    };
    match outcome {
        Ok(seed) if seed.problems.is_empty() => Ok(seed.bits),
        Ok(seed) => Err(seed.problems),
        Err(e) => Err(vec![Problem::Malformed(e.to_string())]),
    }
}

struct ResetSeed<'n, B> {
    names: &'n GroupNames,
    bits: B,
    seen: B,
    problems: Vec<Problem>,
}

impl<'de, B: GroupBits> DeserializeSeed<'de> for ResetSeed<'_, B> {
    type Value = Self;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de, B: GroupBits> Visitor<'de> for ResetSeed<'_, B> {
    type Value = Self;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object of group names to booleans")
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<Self, A::Error> {
        while let Some(key) = map.next_key_seed(KeySeed(self.names))? {
            let value = map.next_value_seed(ValueSeed)?;
            match key {
                Key::Known(slot) => {
                    if bit(self.seen.as_ref(), slot) {
                        self.problems.push(Problem::Duplicate { slot });
                        continue;
                    }
                    set_bit(self.seen.as_mut(), slot, true);
                    match value {
                        Ok(on) => set_bit(self.bits.as_mut(), slot, on),
                        Err(found) => self.problems.push(Problem::NotBool { slot, found }),
                    }
                }
                Key::Unknown(name) => self.problems.push(Problem::Unknown(name)),
            }
        }
        Ok(self)
    }
}

enum Key {
    Known(usize),
    Unknown(String),
}

struct KeySeed<'n>(&'n GroupNames);

impl<'de> DeserializeSeed<'de> for KeySeed<'_> {
    type Value = Key;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Key, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeySeed<'_> {
    type Value = Key;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a group name")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Key, E> {
        Ok(match self.0.slots.get(v) {
            Some(&slot) => Key::Known(slot),
            None => Key::Unknown(v.to_owned()),
        })
    }
}

/// A value: `Ok(bool)`, or `Err(kind)` for anything else (skipped, never kept).
struct ValueSeed;

impl<'de> DeserializeSeed<'de> for ValueSeed {
    type Value = Result<bool, &'static str>;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ValueSeed {
    type Value = Result<bool, &'static str>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Self::Value, E> {
        Ok(Ok(v))
    }
    fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
        Ok(Err("a number"))
    }
    fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
        Ok(Err("a number"))
    }
    fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
        Ok(Err("a number"))
    }
    fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
        Ok(Err("a string"))
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(Err("null"))
    }
    fn visit_none<E>(self) -> Result<Self::Value, E> {
        Ok(Err("null"))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Err("an array"))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Err("an object"))
    }
}

/// The answer to a refused call: every problem, the real names, and the unchanged state.
pub(crate) fn refusal(
    problems: &[Problem],
    names: &[&'static str],
    active: &[&'static str],
) -> CallResult {
    let mut text = String::from("reset_tools refused; nothing changed.\n");
    let mut items = Vec::with_capacity(problems.len());
    for p in problems {
        let _ = match p {
            Problem::Malformed(detail) => {
                items.push(json!({"problem": "malformed_json", "detail": detail}));
                writeln!(text, "- the arguments are not valid JSON ({detail})")
            }
            Problem::NotObject(found) => {
                items.push(json!({"problem": "not_an_object", "found": found}));
                writeln!(
                    text,
                    "- the arguments must be a JSON object of group names to true/false, got {found}"
                )
            }
            Problem::Unknown(name) => {
                let shown = crate::echo::echo(name, 64);
                let suggestion = did_you_mean(name, names.iter().copied());
                items.push(
                    json!({"problem": "unknown_group", "name": shown, "did_you_mean": suggestion}),
                );
                match suggestion {
                    Some(s) => writeln!(text, "- unknown group `{shown}`: did you mean `{s}`?"),
                    None => writeln!(text, "- unknown group `{shown}`"),
                }
            }
            Problem::NotBool { slot, found } => {
                let group = names[*slot];
                items.push(json!({"problem": "not_boolean", "group": group, "found": found}));
                writeln!(text, "- `{group}` must be true or false, got {found}")
            }
            Problem::Duplicate { slot } => {
                let group = names[*slot];
                items.push(json!({"problem": "duplicate_group", "group": group}));
                writeln!(text, "- `{group}` is given more than once")
            }
        };
    }
    let _ = writeln!(
        text,
        "The groups are {}. Give each group's final state as true or false, for example {}.",
        list_names(names.iter().copied()),
        example(names)
    );
    text.push_str("Active groups (unchanged): ");
    push_list(&mut text, active);
    CallResult {
        content: vec![Content::text(text)],
        structured_content: Some(json!({
            "refused": true,
            "problems": items,
            "groups": names,
            "active": active,
        })),
        is_error: true,
    }
}

fn example(names: &[&str]) -> String {
    let mut out = String::from("{");
    for (i, n) in names.iter().take(3).enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "\"{n}\": {}", i == 0);
    }
    if names.len() > 3 {
        out.push_str(", ...");
    }
    out.push('}');
    out
}

/// The answer to an accepted call.
pub(crate) fn accepted(
    groups: &[GroupInfo],
    switchable: &[usize],
    old: &[u64],
    new: &[u64],
) -> CallResult {
    let n = switchable.len();
    let (mut active, mut activated, mut deactivated, mut kept) = (
        Vec::with_capacity(n),
        Vec::new(),
        Vec::new(),
        Vec::with_capacity(n),
    );
    for (slot, &g) in switchable.iter().enumerate() {
        let name = groups[g].name;
        match (bit(old, slot), bit(new, slot)) {
            (false, true) => {
                activated.push(name);
                active.push(name);
            }
            (true, true) => {
                kept.push(name);
                active.push(name);
            }
            (true, false) => deactivated.push(name),
            (false, false) => {}
        }
    }
    let changed = !activated.is_empty() || !deactivated.is_empty();
    let mut text = String::with_capacity(64 + 24 * n);
    if !changed {
        text.push_str("No change.\n");
    }
    for (label, list) in [
        ("Active groups: ", &active),
        ("\nActivated: ", &activated),
        ("\nDeactivated: ", &deactivated),
        ("\nKept: ", &kept),
    ] {
        text.push_str(label);
        push_list(&mut text, list);
    }
    // New groups' instructions; on a call that changes nothing, every active group's.
    let mut instructions = Vec::new();
    for (slot, &g) in switchable.iter().enumerate() {
        let shown = bit(new, slot) && (!changed || !bit(old, slot));
        let group = &groups[g];
        if let (true, Some(ins)) = (shown, group.instructions) {
            let _ = write!(text, "\n<group name=\"{}\">\n{}\n</group>", group.name, ins);
            instructions.push(json!({"group": group.name, "instructions": ins}));
        }
    }
    let mut structured = Map::with_capacity(6);
    structured.insert("active".to_owned(), names_value(&active));
    structured.insert("activated".to_owned(), names_value(&activated));
    structured.insert("deactivated".to_owned(), names_value(&deactivated));
    structured.insert("kept".to_owned(), names_value(&kept));
    structured.insert("changed".to_owned(), Value::Bool(changed));
    structured.insert("instructions".to_owned(), Value::Array(instructions));
    CallResult {
        content: vec![Content::text(text)],
        structured_content: Some(Value::Object(structured)),
        is_error: false,
    }
}

/// `a, b, c` (or `none`), as plain words: the answer's lists.
fn push_list(text: &mut String, names: &[&str]) {
    if names.is_empty() {
        text.push_str("none");
    }
    for (i, name) in names.iter().enumerate() {
        if i > 0 {
            text.push_str(", ");
        }
        text.push_str(name);
    }
}

fn names_value(names: &[&str]) -> Value {
    Value::Array(
        names
            .iter()
            .map(|n| Value::String((*n).to_owned()))
            .collect(),
    )
}
