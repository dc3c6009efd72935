//! Parsing a `reset_tools` call: every problem found at once, nothing applied.

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use serde_json::Value;

use crate::args::{Arguments, json_kind};
use crate::registry::{GroupBits, bit, set_bit};

use super::GroupNames;

/// One thing wrong with a `reset_tools` call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Problem {
    Malformed(String),
    NotObject(&'static str),
    Unknown(String),
    NotBool {
        slot: usize,
        found: &'static str,
    },
    Duplicate {
        slot: usize,
    },
    /// A group the principal may not use (see `Toolkit::entitled`).
    NotEntitled {
        slot: usize,
    },
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
                Key::Known(slot) if !self.names.entitled(slot) => {
                    if !bit(self.seen.as_ref(), slot) {
                        set_bit(self.seen.as_mut(), slot, true);
                        self.problems.push(Problem::NotEntitled { slot });
                    }
                }
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
