//! Strict-mode rules: the schema subsets of OpenAI's and Anthropic's strict modes, their size
//! limits, and the counts Anthropic's per-request budgets spend.
//!
//! The strict rewrites are fallible (a schema may have no strict equivalent), which is why
//! they work on `serde_json::Value` rather than as schemars `Transform`s (infallible, in
//! place): the caller falls back to a non-strict rendering on error.

use std::collections::BTreeSet;
use std::fmt;

use serde_json::{Map, Value, json};

use super::{
    collect_refs, def_name, escape_pointer, for_each_subschema, resolve, type_names,
    visit_subschemas,
};

/// The most object properties one OpenAI strict schema may have in total. Source: OpenAI
/// Structured Outputs guide, "Supported schemas" (Azure OpenAI allows 100).
pub const OPENAI_STRICT_MAX_PROPERTIES: usize = 5000;

/// The deepest nesting of objects in one OpenAI strict schema. Source: OpenAI Structured
/// Outputs guide, "Supported schemas" (Azure OpenAI allows 5).
pub const OPENAI_STRICT_MAX_NESTING: usize = 10;

/// The most enum values one OpenAI strict schema may have across all its enums. Source:
/// OpenAI Structured Outputs guide, "Supported schemas".
pub const OPENAI_STRICT_MAX_ENUM_VALUES: usize = 1000;

/// Why a schema cannot be rendered in a provider's strict mode.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct NotStrict {
    /// Where in the schema, as a JSON pointer (`/properties/weights`); empty for the root.
    pub path: String,
    /// What rule the schema breaks there.
    pub reason: String,
}

impl NotStrict {
    fn new(path: &str, reason: impl Into<String>) -> Self {
        NotStrict {
            path: path.to_owned(),
            reason: reason.into(),
        }
    }
}

impl fmt::Display for NotStrict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "the schema {}", self.reason)
        } else {
            write!(f, "`{}` {}", self.path, self.reason)
        }
    }
}

impl std::error::Error for NotStrict {}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Dialect {
    OpenAi,
    Anthropic,
}

impl Dialect {
    fn name(self) -> &'static str {
        match self {
            Dialect::OpenAi => "OpenAI",
            Dialect::Anthropic => "Anthropic",
        }
    }

    /// String formats the strict mode accepts. Sources: OpenAI Structured Outputs guide
    /// ("Supported properties"); Anthropic's SDK `transform_schema` (`SupportedStringFormats`).
    fn formats(self) -> &'static [&'static str] {
        match self {
            Dialect::OpenAi => &[
                "date-time",
                "time",
                "date",
                "duration",
                "email",
                "hostname",
                "ipv4",
                "ipv6",
                "uuid",
            ],
            Dialect::Anthropic => &[
                "date-time",
                "time",
                "date",
                "duration",
                "email",
                "hostname",
                "uri",
                "ipv4",
                "ipv6",
                "uuid",
            ],
        }
    }
}

/// Keywords dropped by the strict rewrites: value constraints and annotations the strict
/// modes reject or ignore. The toolkit validates arguments on every call anyway.
const STRICT_DROPPED: &[&str] = &[
    "default",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "maxItems",
    "uniqueItems",
    "minProperties",
    "maxProperties",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
    "$comment",
    "$schema",
    "$id",
    "contentEncoding",
    "contentMediaType",
];

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

/// Counts that providers limit.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Stats {
    /// Object properties, `$defs` included.
    pub(crate) properties: usize,
    /// Properties that may be omitted.
    pub(crate) optional: usize,
    /// Schemas that are unions (`anyOf`, or a list of types).
    pub(crate) unions: usize,
    /// Values of every `enum`.
    pub(crate) enum_values: usize,
}

/// Count properties, optional properties, union-typed schemas and enum values of a schema.
///
/// Every union in the schema counts (a property's own `anyOf`, and one inside a definition it
/// refers to), which is at least what Anthropic's limit on union-typed parameters counts.
pub(crate) fn count(schema: &Value, stats: &mut Stats) {
    let Value::Object(map) = schema else { return };
    if is_union(schema) {
        stats.unions += 1;
    }
    if let Some(Value::Object(props)) = map.get("properties") {
        stats.properties += props.len();
        let required: BTreeSet<&str> = map
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        stats.optional += props
            .keys()
            .filter(|name| !required.contains(name.as_str()))
            .count();
    }
    if let Some(Value::Array(values)) = map.get("enum") {
        stats.enum_values += values.len();
    }
    for_each_subschema(map, |sub| count(sub, stats));
}

fn is_union(schema: &Value) -> bool {
    schema.get("anyOf").is_some()
        || schema.get("oneOf").is_some()
        || schema
            .get("type")
            .and_then(Value::as_array)
            .is_some_and(|t| t.len() > 1)
}

/// The deepest nesting of object schemas, following references (each definition once per
/// path, so recursion counts one level).
fn nesting<'a>(schema: &'a Value, root: &'a Value, stack: &mut Vec<&'a str>) -> usize {
    let Value::Object(map) = schema else { return 0 };
    if let Some(Value::String(r)) = map.get("$ref") {
        if stack.contains(&r.as_str()) {
            return 0;
        }
        let Some(target) = resolve(root, r) else {
            return 0;
        };
        stack.push(r);
        let depth = nesting(target, root, stack);
        stack.pop();
        return depth;
    }
    let own = usize::from(map.contains_key("properties"));
    let mut deepest = 0;
    for (key, value) in map {
        if key == "$defs" {
            continue;
        }
        visit_subschemas(key, value, &mut |sub| {
            deepest = deepest.max(nesting(sub, root, stack));
        });
    }
    own + deepest
}

/// The name (`/$defs/Node`, or the empty root) of a definition reachable from the root that
/// refers to itself, if any.
fn recursion(schema: &Value) -> Option<String> {
    fn refs<'a>(schema: &'a Value, out: &mut Vec<&'a str>) {
        let Value::Object(map) = schema else { return };
        if let Some(Value::String(r)) = map.get("$ref") {
            out.push(r);
        }
        for (key, value) in map {
            if key != "$defs" {
                visit_subschemas(key, value, &mut |sub| refs(sub, out));
            }
        }
    }
    fn visit<'a>(
        node: &'a str,
        root: &'a Value,
        path: &mut Vec<&'a str>,
        done: &mut BTreeSet<&'a str>,
    ) -> Option<String> {
        if path.contains(&node) {
            return Some(node.trim_start_matches('#').to_owned());
        }
        if !done.insert(node) {
            return None;
        }
        let target = resolve(root, node)?;
        let mut out = Vec::new();
        refs(target, &mut out);
        path.push(node);
        let found = out.into_iter().find_map(|r| visit(r, root, path, done));
        path.pop();
        found
    }
    visit("#", schema, &mut Vec::new(), &mut BTreeSet::new())
}

fn strict(schema: &Value, dialect: Dialect) -> Result<Value, NotStrict> {
    let Value::Object(root) = schema else {
        return Err(NotStrict::new("", "is not an object schema"));
    };
    if root.get("type").and_then(Value::as_str) != Some("object") {
        return Err(NotStrict::new(
            "",
            format!(
                "has a root that is not `\"type\": \"object\"`, which {} strict mode requires",
                dialect.name()
            ),
        ));
    }
    let defs = match root.get("$defs") {
        None => None,
        Some(Value::Object(defs)) => Some(defs),
        Some(_) => return Err(NotStrict::new("/$defs", "is not an object")),
    };
    let mut cx = Strict {
        dialect,
        root: schema,
        inlining: Vec::new(),
    };
    let mut body = root.clone();
    body.remove("$defs");
    let mut out = cx.node(&Value::Object(body), "", true)?;

    // Rewrite the definitions that are still referenced, following references as they appear.
    let mut new_defs = Map::new();
    let mut pending = Vec::new();
    collect_refs(&out, &mut pending);
    while let Some(reference) = pending.pop() {
        let Some(name) = def_name(&reference) else {
            continue;
        };
        if new_defs.contains_key(&name) {
            continue;
        }
        let def = defs.and_then(|d| d.get(&name)).ok_or_else(|| {
            NotStrict::new(
                "",
                format!("refers to `{reference}`, which is not in `$defs`"),
            )
        })?;
        let rewritten = cx.node(def, &format!("/$defs/{}", escape_pointer(&name)), false)?;
        collect_refs(&rewritten, &mut pending);
        new_defs.insert(name, rewritten);
    }
    if !new_defs.is_empty() {
        // Keep the canonical order of the definitions.
        let mut ordered = Map::new();
        if let Some(defs) = defs {
            for name in defs.keys() {
                if let Some(def) = new_defs.remove(name) {
                    ordered.insert(name.clone(), def);
                }
            }
        }
        if let Value::Object(map) = &mut out {
            map.insert("$defs".to_owned(), Value::Object(ordered));
        }
    }
    Ok(out)
}

struct Strict<'a> {
    dialect: Dialect,
    root: &'a Value,
    /// References being inlined (for `$ref` with siblings), to stop on self-reference.
    inlining: Vec<String>,
}

impl Strict<'_> {
    fn node(&mut self, schema: &Value, path: &str, is_root: bool) -> Result<Value, NotStrict> {
        let map = match schema {
            Value::Object(map) => map,
            Value::Bool(true) => {
                return Err(NotStrict::new(
                    path,
                    "accepts any JSON value (a `serde_json::Value`); strict mode needs a typed schema",
                ));
            }
            Value::Bool(false) => return Err(NotStrict::new(path, "accepts no value")),
            _ => return Err(NotStrict::new(path, "is not a schema")),
        };
        if let Some(reference) = map.get("$ref") {
            return self.reference(map, reference, path);
        }
        let dialect = self.dialect;
        let mut out = Map::new();
        let mut required: Option<&Vec<Value>> = None;
        let mut additional: Option<&Value> = None;
        let mut union_seen = false;
        for (key, value) in map {
            match key.as_str() {
                "type" => {
                    check_type(value, path)?;
                    out.insert(key.clone(), value.clone());
                }
                "description" | "title" => {
                    out.insert(key.clone(), value.clone());
                }
                "enum" => {
                    if !value.is_array() {
                        return Err(NotStrict::new(path, "has an `enum` that is not a list"));
                    }
                    out.insert(key.clone(), value.clone());
                }
                "const" => {
                    if map.contains_key("enum") {
                        return Err(NotStrict::new(path, "has both `const` and `enum`"));
                    }
                    out.insert("enum".to_owned(), Value::Array(vec![value.clone()]));
                }
                "format" => {
                    if value
                        .as_str()
                        .is_some_and(|f| dialect.formats().contains(&f))
                    {
                        out.insert(key.clone(), value.clone());
                    }
                }
                "minItems" if dialect == Dialect::Anthropic => {
                    if matches!(value.as_u64(), Some(0 | 1)) {
                        out.insert(key.clone(), value.clone());
                    }
                }
                "minItems" => {}
                "properties" => {
                    let Value::Object(props) = value else {
                        return Err(NotStrict::new(
                            path,
                            "has `properties` that is not an object",
                        ));
                    };
                    let mut new_props = Map::new();
                    for (name, prop) in props {
                        let prop_path = format!("{path}/properties/{}", escape_pointer(name));
                        new_props.insert(name.clone(), self.node(prop, &prop_path, false)?);
                    }
                    out.insert(key.clone(), Value::Object(new_props));
                }
                "required" => match value {
                    Value::Array(names) if names.iter().all(Value::is_string) => {
                        required = Some(names);
                        out.insert(key.clone(), value.clone());
                    }
                    _ => {
                        return Err(NotStrict::new(
                            path,
                            "has `required` that is not a list of names",
                        ));
                    }
                },
                "additionalProperties" => {
                    additional = Some(value);
                    out.insert(key.clone(), value.clone());
                }
                "items" => {
                    let items = self.node(value, &format!("{path}/items"), false)?;
                    out.insert(key.clone(), items);
                }
                "anyOf" | "oneOf" => {
                    if union_seen {
                        return Err(NotStrict::new(path, "has both `anyOf` and `oneOf`"));
                    }
                    union_seen = true;
                    let Value::Array(members) = value else {
                        return Err(NotStrict::new(
                            path,
                            format!("has `{key}` that is not a list"),
                        ));
                    };
                    let mut new_members = Vec::with_capacity(members.len());
                    for (i, member) in members.iter().enumerate() {
                        new_members.push(self.node(member, &format!("{path}/{key}/{i}"), false)?);
                    }
                    out.insert("anyOf".to_owned(), Value::Array(new_members));
                }
                "$defs" if is_root => {}
                k if STRICT_DROPPED.contains(&k) => {}
                other => {
                    return Err(NotStrict::new(
                        path,
                        format!(
                            "uses `{other}`, which {} strict mode does not support",
                            dialect.name()
                        ),
                    ));
                }
            }
        }

        let types = type_names(map.get("type"));
        if types.contains(&"object") {
            self.close_object(map, &mut out, required, additional, path)?;
        } else if map.contains_key("properties")
            || map.contains_key("required")
            || additional.is_some()
        {
            return Err(NotStrict::new(
                path,
                "has object keywords without `\"type\": \"object\"`",
            ));
        }
        if types.contains(&"array") && !map.contains_key("items") {
            return Err(NotStrict::new(path, "is an array without an item schema"));
        }
        if types.is_empty() && !out.contains_key("enum") && !out.contains_key("anyOf") {
            return Err(NotStrict::new(
                path,
                "has no type (it accepts any JSON value); strict mode needs a typed schema",
            ));
        }
        Ok(Value::Object(out))
    }

    fn close_object(
        &mut self,
        map: &Map<String, Value>,
        out: &mut Map<String, Value>,
        required: Option<&Vec<Value>>,
        additional: Option<&Value>,
        path: &str,
    ) -> Result<(), NotStrict> {
        match additional {
            None if map.contains_key("properties") => {}
            None => {
                return Err(NotStrict::new(
                    path,
                    "is a free-form object (no declared properties); strict mode needs every property declared",
                ));
            }
            Some(Value::Bool(false)) => {}
            Some(_) => {
                return Err(NotStrict::new(
                    path,
                    "is an object with free-form keys (a map such as `HashMap<String, _>`); strict mode needs every property declared",
                ));
            }
        }
        out.insert("additionalProperties".to_owned(), Value::Bool(false));
        if !out.contains_key("properties") {
            out.insert("properties".to_owned(), Value::Object(Map::new()));
        }
        let required: Vec<&str> = required
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let empty = Map::new();
        let props = map
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        match self.dialect {
            Dialect::OpenAi => {
                let mut all = Vec::with_capacity(props.len());
                for (name, prop) in props {
                    if !required.contains(&name.as_str()) && !admits_null(prop, self.root, 0) {
                        return Err(NotStrict::new(
                            &format!("{path}/properties/{}", escape_pointer(name)),
                            "may be omitted but cannot be null (a `#[serde(default)]` field that is not an `Option`); OpenAI strict mode requires every property, optional ones as a union with null",
                        ));
                    }
                    all.push(Value::String(name.clone()));
                }
                out.insert("required".to_owned(), Value::Array(all));
            }
            Dialect::Anthropic => {
                let kept: Vec<Value> = required
                    .iter()
                    .filter(|r| props.contains_key(**r))
                    .map(|r| Value::String((*r).to_owned()))
                    .collect();
                if kept.is_empty() {
                    out.remove("required");
                } else {
                    out.insert("required".to_owned(), Value::Array(kept));
                }
            }
        }
        Ok(())
    }

    /// A `$ref`: kept alone, or (with sibling keywords, which strict modes reject next to a
    /// reference) replaced by the target with the siblings applied.
    fn reference(
        &mut self,
        map: &Map<String, Value>,
        reference: &Value,
        path: &str,
    ) -> Result<Value, NotStrict> {
        let Value::String(reference) = reference else {
            return Err(NotStrict::new(path, "has a `$ref` that is not a string"));
        };
        let Some(target) = resolve(self.root, reference) else {
            return Err(NotStrict::new(
                path,
                format!("refers to `{reference}`, which does not exist"),
            ));
        };
        let siblings: Vec<(&String, &Value)> = map
            .iter()
            .filter(|(k, _)| *k != "$ref" && !STRICT_DROPPED.contains(&k.as_str()))
            .collect();
        if siblings.is_empty() || reference == "#" {
            // A reference to the root cannot be inlined without copying the whole schema;
            // its siblings (a description) are dropped instead.
            return Ok(json!({ "$ref": reference }));
        }
        if self.inlining.iter().any(|r| r == reference) {
            return Err(NotStrict::new(
                path,
                format!("refers to `{reference}` from within itself"),
            ));
        }
        let mut merged = match target {
            Value::Object(target) => target.clone(),
            Value::Bool(true) => Map::new(),
            _ => {
                return Err(NotStrict::new(
                    path,
                    format!("refers to `{reference}`, which is not a schema"),
                ));
            }
        };
        for (key, value) in siblings {
            merged.insert(key.clone(), value.clone());
        }
        self.inlining.push(reference.clone());
        let result = self.node(&Value::Object(merged), path, false);
        self.inlining.pop();
        result
    }
}

fn check_type(value: &Value, path: &str) -> Result<(), NotStrict> {
    const TYPES: &[&str] = &[
        "object", "array", "string", "integer", "number", "boolean", "null",
    ];
    let ok = match value {
        Value::String(t) => TYPES.contains(&t.as_str()),
        Value::Array(ts) => {
            !ts.is_empty()
                && ts
                    .iter()
                    .all(|t| t.as_str().is_some_and(|t| TYPES.contains(&t)))
        }
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(NotStrict::new(path, "has an invalid `type`"))
    }
}

/// Whether a canonical schema accepts `null` (so that an optional property may be made
/// required as a union with null and still deserialise to "absent").
fn admits_null(schema: &Value, root: &Value, depth: usize) -> bool {
    if depth > 32 {
        return false;
    }
    match schema {
        Value::Bool(b) => *b,
        Value::Object(map) => {
            if let Some(Value::String(r)) = map.get("$ref") {
                return resolve(root, r).is_some_and(|t| admits_null(t, root, depth + 1));
            }
            if type_names(map.get("type")).contains(&"null") {
                return true;
            }
            if map.get("const") == Some(&Value::Null) {
                return true;
            }
            if let Some(Value::Array(values)) = map.get("enum")
                && values.contains(&Value::Null)
            {
                return true;
            }
            for key in ["anyOf", "oneOf"] {
                if let Some(Value::Array(members)) = map.get(key)
                    && members.iter().any(|m| admits_null(m, root, depth + 1))
                {
                    return true;
                }
            }
            // `{}` (any value) accepts null.
            !map.keys().any(|k| is_assertion(k))
        }
        _ => false,
    }
}

/// Keywords that restrict what a schema accepts (as opposed to annotations).
fn is_assertion(key: &str) -> bool {
    !matches!(
        key,
        "description"
            | "title"
            | "default"
            | "examples"
            | "deprecated"
            | "readOnly"
            | "writeOnly"
            | "$comment"
    )
}
