//! Invalid variants of a valid argument object: each one the schema refuses (checked, not
//! assumed), so a tool that receives it shows that its argument type lets through what the
//! model was told it may not send.

use std::fmt;

use serde_json::{Map, Value, json};

use super::rng::Rng;
use super::validate::{self, Verdict};

/// What a [`Mutation`] changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum MutationKind {
    /// A required property removed (at any depth).
    MissingRequired,
    /// A value replaced by one of a type its schema does not allow.
    WrongType,
    /// A property added where the schema has `additionalProperties: false`.
    UnknownField,
    /// A number past its `minimum`/`maximum`, a string or an array past its length bounds,
    /// or a value outside its `enum`/`const`.
    OutOfRange,
    /// The arguments are JSON but not an object (an array, a string, a number, `null`).
    NotAnObject,
    /// The arguments are not JSON at all (the object's text cut short).
    NotJson,
}

impl MutationKind {
    /// Every kind, in the order [`mutations`] gives them.
    pub const ALL: [MutationKind; 6] = [
        MutationKind::MissingRequired,
        MutationKind::WrongType,
        MutationKind::UnknownField,
        MutationKind::OutOfRange,
        MutationKind::NotAnObject,
        MutationKind::NotJson,
    ];

    /// The kind's name: `missing_required`, `wrong_type`, `unknown_field`, `out_of_range`,
    /// `not_an_object`, `not_json`.
    pub const fn as_str(self) -> &'static str {
        match self {
            MutationKind::MissingRequired => "missing_required",
            MutationKind::WrongType => "wrong_type",
            MutationKind::UnknownField => "unknown_field",
            MutationKind::OutOfRange => "out_of_range",
            MutationKind::NotAnObject => "not_an_object",
            MutationKind::NotJson => "not_json",
        }
    }
}

impl fmt::Display for MutationKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An invalid variant of a valid argument object: its kind, the arguments as the JSON text
/// a provider would send, and what was changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mutation {
    kind: MutationKind,
    arguments: String,
    description: String,
}

impl Mutation {
    /// What was changed.
    pub fn kind(&self) -> MutationKind {
        self.kind
    }

    /// The arguments' text (not JSON for [`MutationKind::NotJson`]).
    pub fn arguments(&self) -> &str {
        &self.arguments
    }

    /// What was changed, in words (`the required property `query` removed`).
    pub fn description(&self) -> &str {
        &self.description
    }
}

/// Up to one mutation of each kind of `valid` (an object valid against `schema`), drawn with
/// `rng`, in the order of [`MutationKind::ALL`]. Every mutation but the
/// [`NotJson`](MutationKind::NotJson) text is checked to be invalid against the schema: a
/// change the schema still allows (an optional property removed, a type a union accepts) is
/// never given, and a kind with no such change (no required property, no
/// `additionalProperties: false`, no bound) is left out.
///
/// ```
/// use serde_json::json;
/// use toolgroup::testing::{MutationKind, Rng, mutations};
///
/// let schema = json!({
///     "type": "object",
///     "properties": {"query": {"type": "string"}},
///     "required": ["query"],
///     "additionalProperties": false,
/// });
/// let kinds: Vec<MutationKind> = mutations(&schema, &json!({"query": "rust"}), &mut Rng::new(1))
///     .iter()
///     .map(|m| m.kind())
///     .collect();
/// assert_eq!(
///     kinds,
///     [
///         MutationKind::MissingRequired,
///         MutationKind::WrongType,
///         MutationKind::UnknownField,
///         MutationKind::NotAnObject,
///         MutationKind::NotJson,
///     ]
/// );
/// ```
pub fn mutations(schema: &Value, valid: &Value, rng: &mut Rng) -> Vec<Mutation> {
    let mut sites = Vec::new();
    Walk {
        root: schema,
        sites: &mut sites,
    }
    .walk(schema, valid, Vec::new());
    let mut out = Vec::new();
    for kind in MutationKind::ALL {
        let found = match kind {
            MutationKind::NotJson => Some(not_json(valid)),
            MutationKind::NotAnObject => not_an_object(schema, rng),
            _ => in_place(kind, schema, valid, &sites, rng),
        };
        if let Some((arguments, description)) = found {
            out.push(Mutation {
                kind,
                arguments,
                description,
            });
        }
    }
    out
}

/// A step into a value: an object's property or an array's item.
#[derive(Debug, Clone)]
enum Step {
    Key(String),
    Index(usize),
}

/// A place in the valid value, with the schema that governs it there (past `$ref`s and the
/// `anyOf`/`oneOf` branch the value matches).
struct Site<'s> {
    path: Vec<Step>,
    schema: &'s Map<String, Value>,
    value: Value,
}

struct Walk<'s, 'o> {
    root: &'s Value,
    sites: &'o mut Vec<Site<'s>>,
}

impl<'s> Walk<'s, '_> {
    fn walk(&mut self, schema: &'s Value, value: &Value, path: Vec<Step>) {
        let Some(map) = self.governing(schema, value) else {
            return;
        };
        match value {
            Value::Object(object) => {
                let properties = map.get("properties").and_then(Value::as_object);
                for (key, child) in object {
                    let schema = properties
                        .and_then(|p| p.get(key))
                        .or_else(|| map.get("additionalProperties").filter(|s| s.is_object()));
                    if let Some(schema) = schema {
                        let mut path = path.clone();
                        path.push(Step::Key(key.clone()));
                        self.walk(schema, child, path);
                    }
                }
            }
            Value::Array(items) => {
                let prefix = map.get("prefixItems").and_then(Value::as_array);
                for (i, child) in items.iter().enumerate() {
                    let schema = match prefix.and_then(|p| p.get(i)) {
                        Some(schema) => Some(schema),
                        None => map.get("items").filter(|s| s.is_object()),
                    };
                    if let Some(schema) = schema {
                        let mut path = path.clone();
                        path.push(Step::Index(i));
                        self.walk(schema, child, path);
                    }
                }
            }
            _ => {}
        }
        self.sites.push(Site {
            path,
            schema: map,
            value: value.clone(),
        });
    }

    /// The schema object that governs `value`: `$ref`s followed, a one-schema `allOf`
    /// opened, and the `anyOf`/`oneOf` branch it is valid against chosen.
    fn governing(&self, schema: &'s Value, value: &Value) -> Option<&'s Map<String, Value>> {
        let mut schema = schema;
        for _ in 0..32 {
            let map = schema.as_object()?;
            let next = if let Some(r) = map.get("$ref").and_then(Value::as_str) {
                validate::resolve(self.root, r)?
            } else if let Some(branches) = map
                .get("anyOf")
                .or_else(|| map.get("oneOf"))
                .and_then(Value::as_array)
            {
                branches
                    .iter()
                    .find(|b| validate::check(self.root, b, value) == Verdict::Valid)?
            } else if let Some([only]) = map
                .get("allOf")
                .and_then(Value::as_array)
                .map(Vec::as_slice)
            {
                only
            } else {
                return Some(map);
            };
            schema = next;
        }
        None
    }
}

/// The first change of `kind`, at a random site, that makes the whole value invalid.
fn in_place(
    kind: MutationKind,
    schema: &Value,
    valid: &Value,
    sites: &[Site<'_>],
    rng: &mut Rng,
) -> Option<(String, String)> {
    let start = if sites.is_empty() {
        0
    } else {
        rng.index(sites.len())
    };
    for i in 0..sites.len() {
        let site = &sites[(start + i) % sites.len()];
        for (changed, description) in candidates(kind, site, rng) {
            let mut whole = valid.clone();
            if !replace(&mut whole, &site.path, changed) {
                continue;
            }
            if validate::check(schema, schema, &whole) == Verdict::Invalid {
                return Some((whole.to_string(), description));
            }
        }
    }
    None
}

/// The changed values of one site a mutation of `kind` tries, with what each changes.
fn candidates(kind: MutationKind, site: &Site<'_>, rng: &mut Rng) -> Vec<(Value, String)> {
    let at = path_text(&site.path);
    let map = site.schema;
    let mut out = Vec::new();
    match kind {
        MutationKind::MissingRequired => {
            let (Value::Object(object), Some(required)) =
                (&site.value, map.get("required").and_then(Value::as_array))
            else {
                return out;
            };
            let present: Vec<&str> = required
                .iter()
                .filter_map(Value::as_str)
                .filter(|k| object.contains_key(*k))
                .collect();
            if !present.is_empty() {
                let key = *rng.pick(&present);
                let mut object = object.clone();
                object.remove(key);
                out.push((
                    Value::Object(object),
                    format!("the required property `{}` removed", join(&at, key)),
                ));
            }
        }
        MutationKind::WrongType if !site.path.is_empty() => {
            let mut wrong = [
                json!(null),
                json!(true),
                json!(7),
                json!(0.5),
                json!("text"),
                json!([]),
                json!({}),
            ];
            let shift = rng.index(wrong.len());
            wrong.rotate_left(shift);
            for value in wrong {
                let kind = kind_words(&value);
                out.push((value, format!("`{at}` given {kind}")));
            }
        }
        MutationKind::UnknownField => {
            if let Value::Object(object) = &site.value {
                let mut object = object.clone();
                let name = "unexpected_field";
                if !object.contains_key(name) {
                    object.insert(name.to_owned(), json!(1));
                    out.push((
                        Value::Object(object),
                        format!("an unknown property `{}` added", join(&at, name)),
                    ));
                }
            }
        }
        MutationKind::OutOfRange => out_of_range(map, &site.value, &at, &mut out),
        _ => {}
    }
    out
}

/// Numbers past their bounds, strings and arrays past their lengths, values outside an
/// `enum` or `const`.
fn out_of_range(map: &Map<String, Value>, value: &Value, at: &str, out: &mut Vec<(Value, String)>) {
    let mut push = |v: Value, why: String| out.push((v, format!("`{at}` {why}")));
    for (keyword, delta) in [
        ("maximum", 1),
        ("exclusiveMaximum", 0),
        ("minimum", -1),
        ("exclusiveMinimum", 0),
    ] {
        if let Some(Value::Number(limit)) = map.get(keyword) {
            let past = match validate::as_i128(limit) {
                Some(n) => int_or_float(n + delta),
                None => limit
                    .as_f64()
                    .map_or(Value::Null, |f| json!(f + delta as f64)),
            };
            push(
                past.clone(),
                format!("set to {past} (the `{keyword}` is {limit})"),
            );
        }
    }
    match value {
        Value::String(_) => {
            if let Some(max) = map
                .get("maxLength")
                .and_then(Value::as_u64)
                .filter(|m| *m < 100_000)
            {
                push(
                    json!("x".repeat(max as usize + 1)),
                    format!("given {} characters (the `maxLength` is {max})", max + 1),
                );
            }
            if let Some(min) = map
                .get("minLength")
                .and_then(Value::as_u64)
                .filter(|m| (1..100_000).contains(m))
            {
                push(
                    json!("x".repeat(min as usize - 1)),
                    format!("given {} characters (the `minLength` is {min})", min - 1),
                );
            }
        }
        Value::Array(items) => {
            if let (Some(max), Some(last)) =
                (map.get("maxItems").and_then(Value::as_u64), items.last())
                && max < 10_000
            {
                let mut longer = items.clone();
                longer.resize(max as usize + 1, last.clone());
                push(
                    Value::Array(longer),
                    format!("given {} items (the `maxItems` is {max})", max + 1),
                );
            }
            if let Some(min) = map
                .get("minItems")
                .and_then(Value::as_u64)
                .filter(|m| *m >= 1)
            {
                let shorter: Vec<Value> = items.iter().take(min as usize - 1).cloned().collect();
                push(
                    Value::Array(shorter),
                    format!("given {} items (the `minItems` is {min})", min - 1),
                );
            }
        }
        _ => {}
    }
    if map.contains_key("enum") || map.contains_key("const") {
        let outside = match value {
            Value::String(_) => json!("not_one_of_the_values"),
            Value::Number(_) => json!(-987_654_321),
            _ => Value::Null,
        };
        push(
            outside,
            "given a value outside its `enum`/`const`".to_owned(),
        );
    }
}

/// The words for the kind of a value given in place of another.
fn kind_words(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(n) if n.is_f64() => "a fractional number",
        Value::Number(_) => "an integer",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn not_an_object(schema: &Value, rng: &mut Rng) -> Option<(String, String)> {
    let mut options = [
        (json!([]), "an array"),
        (json!("text"), "a string"),
        (json!(42), "a number"),
        (json!(null), "null"),
        (json!(true), "a boolean"),
    ];
    let shift = rng.index(options.len());
    options.rotate_left(shift);
    options
        .into_iter()
        .find(|(v, _)| validate::check(schema, schema, v) == Verdict::Invalid)
        .map(|(v, what)| (v.to_string(), format!("{what} instead of an object")))
}

fn not_json(valid: &Value) -> (String, String) {
    let mut text = valid.to_string();
    // An object's text ends with `}`: without it, the text is not JSON.
    text.pop();
    if text.is_empty() {
        text.push('{');
    }
    (text, "the text cut short (not JSON)".to_owned())
}

/// Replace the value at `path`; `false` when the path is gone.
fn replace(value: &mut Value, path: &[Step], new: Value) -> bool {
    let Some((last, parents)) = path.split_last() else {
        *value = new;
        return true;
    };
    let mut here = value;
    for step in parents {
        here = match (step, here) {
            (Step::Key(k), Value::Object(o)) => match o.get_mut(k) {
                Some(v) => v,
                None => return false,
            },
            (Step::Index(i), Value::Array(a)) => match a.get_mut(*i) {
                Some(v) => v,
                None => return false,
            },
            _ => return false,
        };
    }
    match (last, here) {
        (Step::Key(k), Value::Object(o)) => {
            o.insert(k.clone(), new);
            true
        }
        (Step::Index(i), Value::Array(a)) if *i < a.len() => {
            a[*i] = new;
            true
        }
        _ => false,
    }
}

/// `a.b[2]` for a path (`(the arguments)` for the root).
fn path_text(path: &[Step]) -> String {
    let mut out = String::new();
    for step in path {
        match step {
            Step::Key(k) if out.is_empty() => out.push_str(k),
            Step::Key(k) => {
                out.push('.');
                out.push_str(k);
            }
            Step::Index(i) => out.push_str(&format!("[{i}]")),
        }
    }
    if out.is_empty() {
        "(the arguments)".to_owned()
    } else {
        out
    }
}

/// A property's path below the object at `at`.
fn join(at: &str, key: &str) -> String {
    if at == "(the arguments)" {
        key.to_owned()
    } else {
        format!("{at}.{key}")
    }
}

fn int_or_float(n: i128) -> Value {
    match (i64::try_from(n), u64::try_from(n)) {
        (Ok(n), _) => json!(n),
        (_, Ok(n)) => json!(n),
        _ => json!(n as f64),
    }
}
