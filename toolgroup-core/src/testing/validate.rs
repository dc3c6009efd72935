//! A JSON Schema 2020-12 check of the keywords the generator knows, used to keep only what
//! is certain: a generated object that this check does not find valid is never called (the
//! tool is reported as unsupported instead), and a mutation it does not find invalid is
//! never sent. A keyword it does not know makes the answer `Unknown`, never a guess.
//!
//! `format` is an annotation here, as in 2020-12's default vocabulary (and the `jsonschema`
//! crate's default): it is never what makes a mutation invalid.

use serde_json::{Map, Value};

/// The keywords that assert nothing: read by nobody here, so never a reason for `Unknown`.
const ANNOTATIONS: &[&str] = &[
    "$schema",
    "$id",
    "$anchor",
    "$comment",
    "$defs",
    "definitions",
    "title",
    "description",
    "default",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
    "format",
    "contentEncoding",
    "contentMediaType",
    "contentSchema",
];

/// Whether `keyword` asserts nothing: an annotation of 2020-12, OpenAPI's `nullable` (which
/// 2020-12 does not read: an `Option` is `type: [.., "null"]` there), or an `x-` extension.
pub(crate) fn is_annotation(keyword: &str) -> bool {
    ANNOTATIONS.contains(&keyword) || keyword == "nullable" || keyword.starts_with("x-")
}

/// What the check found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Verdict {
    Valid,
    Invalid,
    /// A keyword this check does not know (`pattern`, `not` of an unknown, ...) decides it.
    Unknown,
}

use Verdict::{Invalid, Unknown, Valid};

impl Verdict {
    fn of(ok: bool) -> Self {
        if ok { Valid } else { Invalid }
    }

    /// Both must hold.
    fn and(self, other: impl FnOnce() -> Verdict) -> Verdict {
        match self {
            Invalid => Invalid,
            Valid => other(),
            Unknown => match other() {
                Invalid => Invalid,
                _ => Unknown,
            },
        }
    }
}

/// Whether `value` is valid against `schema`, a part of `root` (`$ref`s resolve in `root`).
pub(crate) fn check(root: &Value, schema: &Value, value: &Value) -> Verdict {
    Checker { root, depth: 0 }.check(schema, value)
}

/// The schema a local `$ref` (`#`, `#/$defs/Name`, any JSON pointer into the root) names.
pub(crate) fn resolve<'s>(root: &'s Value, reference: &str) -> Option<&'s Value> {
    let pointer = reference.strip_prefix('#')?;
    if pointer.is_empty() {
        return Some(root);
    }
    root.pointer(pointer)
}

/// Equality as JSON Schema defines it: numbers by value (`1` equals `1.0`).
pub(crate) fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(x), Some(y)) => x == y,
            _ => match (x.as_u64(), y.as_u64()) {
                (Some(x), Some(y)) => x == y,
                _ => x.as_f64() == y.as_f64(),
            },
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| json_eq(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, a)| y.get(k).is_some_and(|b| json_eq(a, b)))
        }
        _ => a == b,
    }
}

/// Whether `value` is of the JSON Schema type `ty` (an integer is a number without a
/// fraction, `1.0` included).
pub(crate) fn is_type(value: &Value, ty: &str) -> bool {
    match ty {
        "null" => value.is_null(),
        "boolean" => value.is_boolean(),
        "object" => value.is_object(),
        "array" => value.is_array(),
        "string" => value.is_string(),
        "number" => value.is_number(),
        "integer" => match value {
            Value::Number(n) => {
                n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0)
            }
            _ => false,
        },
        _ => false,
    }
}

/// A number's value, exactly when it is an integer that fits.
pub(crate) fn as_i128(n: &serde_json::Number) -> Option<i128> {
    n.as_i64()
        .map(i128::from)
        .or_else(|| n.as_u64().map(i128::from))
}

struct Checker<'s> {
    root: &'s Value,
    depth: usize,
}

/// Deeper than this, the schema refers to itself without end: `Unknown`.
const MAX_DEPTH: usize = 64;

impl<'s> Checker<'s> {
    fn check(&mut self, schema: &'s Value, value: &Value) -> Verdict {
        let map = match schema {
            Value::Bool(b) => return Verdict::of(*b),
            Value::Object(map) => map,
            _ => return Unknown,
        };
        if self.depth >= MAX_DEPTH {
            return Unknown;
        }
        self.depth += 1;
        let mut verdict = Valid;
        for (keyword, arg) in map {
            verdict = verdict.and(|| self.keyword(map, keyword, arg, value));
            if verdict == Invalid {
                break;
            }
        }
        self.depth -= 1;
        verdict
    }

    fn keyword(
        &mut self,
        map: &'s Map<String, Value>,
        keyword: &str,
        arg: &'s Value,
        value: &Value,
    ) -> Verdict {
        match keyword {
            "$ref" => match arg.as_str().and_then(|r| resolve(self.root, r)) {
                Some(target) => self.check(target, value),
                None => Unknown,
            },
            "type" => match arg {
                Value::String(ty) => Verdict::of(is_type(value, ty)),
                Value::Array(types) => Verdict::of(
                    types
                        .iter()
                        .any(|t| t.as_str().is_some_and(|t| is_type(value, t))),
                ),
                _ => Unknown,
            },
            "enum" => match arg {
                Value::Array(options) => Verdict::of(options.iter().any(|o| json_eq(o, value))),
                _ => Unknown,
            },
            "const" => Verdict::of(json_eq(arg, value)),
            "allOf" => self.all_of(arg, value),
            "anyOf" => self.any_of(arg, value),
            "oneOf" => self.one_of(arg, value),
            "not" => match self.check(arg, value) {
                Valid => Invalid,
                Invalid => Valid,
                Unknown => Unknown,
            },
            "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" => {
                number_bound(keyword, arg, value)
            }
            "minLength" | "maxLength" => match (value, arg.as_u64()) {
                (Value::String(s), Some(limit)) => {
                    let len = s.chars().count() as u64;
                    Verdict::of(if keyword == "minLength" {
                        len >= limit
                    } else {
                        len <= limit
                    })
                }
                (Value::String(_), None) => Unknown,
                _ => Valid,
            },
            "items" | "prefixItems" | "minItems" | "maxItems" | "uniqueItems" => {
                self.array_keyword(map, keyword, arg, value)
            }
            "properties"
            | "required"
            | "additionalProperties"
            | "minProperties"
            | "maxProperties"
            | "propertyNames" => self.object_keyword(map, keyword, arg, value),
            k if is_annotation(k) => Valid,
            // `pattern`, `patternProperties`, `contains`, `if`, `dependentRequired`,
            // `unevaluated*`...: not known here.
            _ => Unknown,
        }
    }

    fn all_of(&mut self, arg: &'s Value, value: &Value) -> Verdict {
        let Value::Array(schemas) = arg else {
            return Unknown;
        };
        let mut verdict = Valid;
        for s in schemas {
            verdict = verdict.and(|| self.check(s, value));
        }
        verdict
    }

    fn any_of(&mut self, arg: &'s Value, value: &Value) -> Verdict {
        let Value::Array(schemas) = arg else {
            return Unknown;
        };
        let mut verdict = Invalid;
        for s in schemas {
            match self.check(s, value) {
                Valid => return Valid,
                Unknown => verdict = Unknown,
                Invalid => {}
            }
        }
        verdict
    }

    fn one_of(&mut self, arg: &'s Value, value: &Value) -> Verdict {
        let Value::Array(schemas) = arg else {
            return Unknown;
        };
        let (mut valid, mut unknown) = (0, 0);
        for s in schemas {
            match self.check(s, value) {
                Valid => valid += 1,
                Unknown => unknown += 1,
                Invalid => {}
            }
        }
        match (valid, unknown) {
            (v, _) if v > 1 => Invalid,
            (1, 0) => Valid,
            (0, 0) => Invalid,
            _ => Unknown,
        }
    }

    fn array_keyword(
        &mut self,
        map: &'s Map<String, Value>,
        keyword: &str,
        arg: &'s Value,
        value: &Value,
    ) -> Verdict {
        let Value::Array(items) = value else {
            return Valid;
        };
        match keyword {
            "prefixItems" => match arg {
                Value::Array(prefix) => {
                    let mut verdict = Valid;
                    for (s, item) in prefix.iter().zip(items) {
                        verdict = verdict.and(|| self.check(s, item));
                    }
                    verdict
                }
                _ => Unknown,
            },
            "items" => {
                let skip = map
                    .get("prefixItems")
                    .and_then(Value::as_array)
                    .map_or(0, Vec::len);
                let mut verdict = Valid;
                for item in items.iter().skip(skip) {
                    verdict = verdict.and(|| self.check(arg, item));
                }
                verdict
            }
            "minItems" | "maxItems" => match arg.as_u64() {
                Some(limit) => {
                    let len = items.len() as u64;
                    Verdict::of(if keyword == "minItems" {
                        len >= limit
                    } else {
                        len <= limit
                    })
                }
                None => Unknown,
            },
            _ => match arg {
                // uniqueItems
                Value::Bool(false) => Valid,
                Value::Bool(true) => Verdict::of(
                    items
                        .iter()
                        .enumerate()
                        .all(|(i, a)| items[..i].iter().all(|b| !json_eq(a, b))),
                ),
                _ => Unknown,
            },
        }
    }

    fn object_keyword(
        &mut self,
        map: &'s Map<String, Value>,
        keyword: &str,
        arg: &'s Value,
        value: &Value,
    ) -> Verdict {
        let Value::Object(object) = value else {
            return Valid;
        };
        match keyword {
            "properties" => {
                let Value::Object(properties) = arg else {
                    return Unknown;
                };
                let mut verdict = Valid;
                for (name, s) in properties {
                    if let Some(v) = object.get(name) {
                        verdict = verdict.and(|| self.check(s, v));
                    }
                }
                verdict
            }
            "required" => match arg {
                Value::Array(names) => Verdict::of(
                    names
                        .iter()
                        .all(|n| n.as_str().is_some_and(|n| object.contains_key(n))),
                ),
                _ => Unknown,
            },
            "additionalProperties" => {
                if map.contains_key("patternProperties") {
                    return Unknown;
                }
                let declared = map.get("properties").and_then(Value::as_object);
                let mut verdict = Valid;
                for (name, v) in object {
                    if declared.is_none_or(|d| !d.contains_key(name)) {
                        verdict = verdict.and(|| self.check(arg, v));
                    }
                }
                verdict
            }
            "propertyNames" => {
                let mut verdict = Valid;
                for name in object.keys() {
                    verdict = verdict.and(|| self.check(arg, &Value::String(name.clone())));
                }
                verdict
            }
            _ => match arg.as_u64() {
                // minProperties, maxProperties
                Some(limit) => {
                    let len = object.len() as u64;
                    Verdict::of(if keyword == "minProperties" {
                        len >= limit
                    } else {
                        len <= limit
                    })
                }
                None => Unknown,
            },
        }
    }
}

/// `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum` and `multipleOf` for a number
/// (other values pass). Integers compare exactly; a float against a bound compares as `f64`.
fn number_bound(keyword: &str, arg: &Value, value: &Value) -> Verdict {
    let (Value::Number(n), Value::Number(limit)) = (value, arg) else {
        return if value.is_number() { Unknown } else { Valid };
    };
    if keyword == "multipleOf" {
        return match (as_i128(n), as_i128(limit)) {
            (Some(n), Some(m)) if m > 0 => Verdict::of(n % m == 0),
            // A float multiple: `jsonschema` and this check could round differently.
            _ => Unknown,
        };
    }
    let ordering = match (as_i128(n), as_i128(limit)) {
        (Some(a), Some(b)) => a.cmp(&b),
        _ => match (n.as_f64(), limit.as_f64()) {
            (Some(a), Some(b)) => match a.partial_cmp(&b) {
                Some(o) => o,
                None => return Unknown,
            },
            _ => return Unknown,
        },
    };
    use std::cmp::Ordering::{Equal, Greater, Less};
    Verdict::of(match keyword {
        "minimum" => ordering != Less,
        "maximum" => ordering != Greater,
        "exclusiveMinimum" => ordering == Greater,
        _ => ordering == Less && ordering != Equal,
    })
}
