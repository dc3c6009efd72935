//! Per-provider rewriting of a tool's canonical schema (schemars' draft 2020-12 output).
//!
//! The strict rewrites are fallible (a schema may have no strict equivalent), which is why
//! they work on `serde_json::Value` rather than as schemars `Transform`s (infallible, in
//! place): the caller falls back to a non-strict rendering on error.

use std::collections::BTreeSet;
use std::fmt;

use serde_json::{Map, Value, json};

use super::{
    OPENAI_STRICT_MAX_ENUM_VALUES, OPENAI_STRICT_MAX_NESTING, OPENAI_STRICT_MAX_PROPERTIES,
};

/// Why a schema cannot be rendered in a provider's strict mode.
#[derive(Debug, Clone, PartialEq, Eq)]
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

fn type_names(value: Option<&Value>) -> Vec<&str> {
    match value {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
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

/// The definition name of a `#/$defs/Name` reference.
fn def_name(reference: &str) -> Option<String> {
    reference.strip_prefix("#/$defs/").map(unescape_pointer)
}

/// Resolve a local reference (`#`, or a JSON pointer such as `#/$defs/Name`).
fn resolve<'a>(root: &'a Value, reference: &str) -> Option<&'a Value> {
    let pointer = reference.strip_prefix('#')?;
    if pointer.is_empty() {
        return Some(root);
    }
    let mut node = root;
    for token in pointer.strip_prefix('/')?.split('/') {
        let token = unescape_pointer(token);
        node = match node {
            Value::Object(map) => map.get(&token)?,
            Value::Array(items) => items.get(token.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(node)
}

fn unescape_pointer(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

fn escape_pointer(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// Every `$ref` in a schema, `$defs` excluded.
fn collect_refs(schema: &Value, out: &mut Vec<String>) {
    let Value::Object(map) = schema else { return };
    if let Some(Value::String(r)) = map.get("$ref") {
        out.push(r.clone());
    }
    for (key, value) in map {
        if key != "$defs" {
            visit_subschemas(key, value, &mut |sub| collect_refs(sub, out));
        }
    }
}

/// Call `f` on every direct subschema of `map` (the values of applicator keywords).
pub(crate) fn for_each_subschema<'a>(map: &'a Map<String, Value>, mut f: impl FnMut(&'a Value)) {
    for (key, value) in map {
        visit_subschemas(key, value, &mut f);
    }
}

/// Where a keyword keeps its subschemas.
enum Subschemas {
    /// An object of schemas (`properties`, `$defs`...).
    Map,
    /// An array of schemas (`anyOf`, `prefixItems`...).
    List,
    /// One schema (`items`, `not`...).
    One,
    /// No subschema.
    None,
}

fn subschemas(key: &str) -> Subschemas {
    match key {
        "properties" | "patternProperties" | "$defs" | "definitions" | "dependentSchemas" => {
            Subschemas::Map
        }
        "anyOf" | "oneOf" | "allOf" | "prefixItems" => Subschemas::List,
        "items"
        | "additionalProperties"
        | "contains"
        | "propertyNames"
        | "not"
        | "if"
        | "then"
        | "else"
        | "unevaluatedProperties"
        | "unevaluatedItems"
        | "contentSchema" => Subschemas::One,
        _ => Subschemas::None,
    }
}

fn visit_subschemas<'a>(key: &str, value: &'a Value, f: &mut impl FnMut(&'a Value)) {
    match (subschemas(key), value) {
        (Subschemas::Map, Value::Object(m)) => m.values().for_each(&mut *f),
        (Subschemas::List, Value::Array(items)) => items.iter().for_each(&mut *f),
        (Subschemas::One, _) => f(value),
        _ => {}
    }
}

fn visit_subschemas_mut(key: &str, value: &mut Value, f: &mut impl FnMut(&mut Value)) {
    match (subschemas(key), value) {
        (Subschemas::Map, Value::Object(m)) => m.values_mut().for_each(&mut *f),
        (Subschemas::List, Value::Array(items)) => items.iter_mut().for_each(&mut *f),
        (Subschemas::One, value) => f(value),
        _ => {}
    }
}

/// The canonical schema made safe for a non-strict rendering: a `true` subschema (any value,
/// as schemars writes `serde_json::Value`) becomes its object form `{}`, which every
/// provider reads, a nested `$schema` is removed, and an object root without `properties`
/// (a tool without parameters) gets `"properties": {}`. `false` stays: it is the usual
/// spelling of `additionalProperties: false`. Nothing else changes.
pub(crate) fn loose(schema: &Value) -> Value {
    fn walk(value: &mut Value) {
        let Value::Object(map) = value else { return };
        map.remove("$schema");
        for (key, sub) in map.iter_mut() {
            visit_subschemas_mut(key, sub, &mut |s| match s {
                Value::Bool(true) => *s = json!({}),
                _ => walk(s),
            });
        }
    }
    let mut out = schema.clone();
    walk(&mut out);
    if let Value::Object(map) = &mut out
        && map.get("type").and_then(Value::as_str) == Some("object")
        && !map.contains_key("properties")
    {
        map.insert("properties".to_owned(), Value::Object(Map::new()));
    }
    out
}

/// The input schema with `"type": "object"` at its root when the root is a union without a
/// type (an `#[args]` enum): every provider, and MCP, requires an object root. Alternatives
/// that are not objects (a unit variant's string) are left out: the toolkit refuses
/// arguments that are not a JSON object, so they could never be called. Any other schema is
/// returned unchanged.
pub(crate) fn object_root(schema: &Value) -> Value {
    let Value::Object(map) = schema else {
        return schema.clone();
    };
    if map.contains_key("type") {
        return schema.clone();
    }
    let Some((key, Value::Array(members))) = ["anyOf", "oneOf"]
        .into_iter()
        .find_map(|k| map.get(k).map(|m| (k, m)))
    else {
        return schema.clone();
    };
    let is_object = |member: &Value| {
        let target = match member.get("$ref").and_then(Value::as_str) {
            Some(r) => resolve(schema, r),
            None => Some(member),
        };
        target.and_then(|t| t.get("type")).and_then(Value::as_str) == Some("object")
    };
    let objects: Vec<Value> = members.iter().filter(|m| is_object(m)).cloned().collect();
    if objects.is_empty() {
        return schema.clone();
    }
    let mut out = Map::new();
    out.insert("type".to_owned(), json!("object"));
    for (k, v) in map {
        if k == key {
            out.insert(k.clone(), Value::Array(objects.clone()));
        } else {
            out.insert(k.clone(), v.clone());
        }
    }
    Value::Object(out)
}

/// Whether a schema declares no parameter at all (an object with no properties, closed).
pub(crate) fn has_no_parameters(schema: &Value) -> bool {
    let Value::Object(map) = schema else {
        return false;
    };
    map.get("type").and_then(Value::as_str) == Some("object")
        && map
            .get("properties")
            .and_then(Value::as_object)
            .is_none_or(Map::is_empty)
        && map
            .get("additionalProperties")
            .is_none_or(|a| a == &Value::Bool(false))
        && !map.keys().any(|k| {
            !matches!(
                k.as_str(),
                "type"
                    | "properties"
                    | "required"
                    | "additionalProperties"
                    | "description"
                    | "title"
            )
        })
}

/// The schema for Gemini's `parametersJsonSchema`: full JSON Schema, so the canonical schema
/// with only boolean subschemas spelled as objects and no `$schema` (see the module docs).
pub fn gemini_json_schema(schema: &Value) -> Value {
    loose(schema)
}

/// Formats Gemini's OpenAPI subset documents: `float`, `double` for numbers, `int32`, `int64`
/// for integers, `enum`, `date-time` for strings. Source: Gemini API reference, `Schema.format`.
const GEMINI_FORMATS: &[&str] = &["float", "double", "int32", "int64", "enum", "date-time"];

/// The schema in Gemini's legacy `parameters` dialect, an OpenAPI 3.0 subset.
///
/// - references are inlined and `$defs` removed; a recursive reference (which the subset
///   cannot express) becomes an object with no declared properties, keeping the
///   definition's description;
/// - `["T", "null"]` and `anyOf` with a `null` member become `nullable: true`; `oneOf`
///   becomes `anyOf`; an `anyOf` left with one member is merged into its parent;
/// - `const` becomes a one-value `enum`; enums keep only strings (an enum of other values is
///   dropped and its values are named in the description); `null` in an enum becomes
///   `nullable`;
/// - a free-form value (`serde_json::Value`, or the items of an array that does not type
///   them) becomes `{"type": "object"}`, the subset having no "any" type; a tuple's items are
///   its members' schema (or an `anyOf` of them);
/// - `additionalProperties`, `default`, `title`, `exclusiveMinimum/Maximum`, `uniqueItems`,
///   `pattern`, length constraints and every other keyword outside `type`, `format`,
///   `description`, `nullable`, `enum`, `properties`, `required`, `items`, `minItems`,
///   `maxItems`, `minimum`, `maximum` and `anyOf` are removed, and so are formats other than
///   `float`, `double`, `int32`, `int64`, `enum` and `date-time`.
pub fn gemini_legacy_schema(schema: &Value) -> Value {
    let mut stack = Vec::new();
    let mut out = legacy(schema, schema, &mut stack);
    fold_variant_notes(&mut out);
    out
}

fn legacy(schema: &Value, root: &Value, stack: &mut Vec<String>) -> Value {
    let map = match schema {
        Value::Object(map) => map,
        _ => return json!({ "type": "object" }),
    };
    if let Some(Value::String(reference)) = map.get("$ref") {
        let mut merged = if stack.contains(reference) {
            // Recursion: cut here with an object of undeclared properties.
            let mut cut = Map::new();
            cut.insert("type".to_owned(), json!("object"));
            if let Some(d) = resolve(root, reference).and_then(|t| t.get("description")) {
                cut.insert("description".to_owned(), d.clone());
            }
            cut
        } else {
            match resolve(root, reference) {
                Some(target) => {
                    stack.push(reference.clone());
                    let inlined = legacy(target, root, stack);
                    stack.pop();
                    match inlined {
                        Value::Object(m) => m,
                        _ => Map::new(),
                    }
                }
                None => {
                    let mut m = Map::new();
                    m.insert("type".to_owned(), json!("object"));
                    m
                }
            }
        };
        // Siblings of a reference are annotations; the field's description is the more specific.
        if let Some(description) = map.get("description") {
            merged.insert("description".to_owned(), description.clone());
        }
        return order_keys(merged);
    }

    let mut out = Map::new();
    let mut nullable = false;
    let mut types = type_names(map.get("type"));
    if types.contains(&"null") {
        nullable = true;
        types.retain(|t| *t != "null");
    }
    let mut described_values = None;
    for (key, value) in map {
        match key.as_str() {
            "type" => {}
            "description" => {
                out.insert(key.clone(), value.clone());
            }
            "format" if value.as_str().is_some_and(|f| GEMINI_FORMATS.contains(&f)) => {
                out.insert(key.clone(), value.clone());
            }
            "enum" | "const" => {
                let values: Vec<Value> = match value {
                    Value::Array(values) if key == "enum" => values.clone(),
                    _ if key == "const" => vec![value.clone()],
                    _ => continue,
                };
                if values.contains(&Value::Null) {
                    nullable = true;
                }
                let values: Vec<Value> = values.into_iter().filter(|v| !v.is_null()).collect();
                if values.iter().all(Value::is_string) {
                    out.insert("enum".to_owned(), Value::Array(values));
                } else {
                    described_values = Some(values);
                }
            }
            "properties" => {
                if let Value::Object(props) = value {
                    let props: Map<String, Value> = props
                        .iter()
                        .map(|(name, prop)| (name.clone(), legacy(prop, root, stack)))
                        .collect();
                    out.insert(key.clone(), Value::Object(props));
                }
            }
            "required" | "minItems" | "maxItems" | "minimum" | "maximum" => {
                out.insert(key.clone(), value.clone());
            }
            "items" => {
                out.insert(key.clone(), legacy(value, root, stack));
            }
            // A tuple: items of its members' schemas (one, or a union of the distinct ones).
            "prefixItems" if !map.contains_key("items") => {
                if let Value::Array(members) = value {
                    let mut distinct: Vec<Value> = Vec::new();
                    for member in members {
                        let member = legacy(member, root, stack);
                        if !distinct.contains(&member) {
                            distinct.push(member);
                        }
                    }
                    let items = match distinct.len() {
                        0 => json!({ "type": "object" }),
                        1 => distinct.remove(0),
                        _ => json!({ "anyOf": distinct }),
                    };
                    out.insert("items".to_owned(), items);
                }
            }
            "anyOf" | "oneOf" => {
                if let Value::Array(members) = value {
                    let mut kept = Vec::new();
                    for member in members {
                        if member.get("type").and_then(Value::as_str) == Some("null")
                            && member.as_object().is_some_and(|m| m.len() == 1)
                        {
                            nullable = true;
                        } else {
                            kept.push(legacy(member, root, stack));
                        }
                    }
                    out.insert("anyOf".to_owned(), Value::Array(kept));
                }
            }
            "allOf" => {
                if let Value::Array(members) = value {
                    for member in members {
                        if let Value::Object(m) = legacy(member, root, stack) {
                            merge_all_of(&mut out, m);
                        }
                    }
                }
            }
            _ => {}
        }
    }
    let mut values_type = None;
    if let Some(values) = described_values {
        values_type = shared_value_type(&values);
        let listed: Vec<String> = values.iter().map(Value::to_string).collect();
        let note = format!("One of: {}.", listed.join(", "));
        let description = match out.get("description").and_then(Value::as_str) {
            Some(d) => format!("{d} {note}"),
            None => note,
        };
        out.insert("description".to_owned(), Value::String(description));
    }
    // An `anyOf` of one member (typically `T` of an `Option<T>`) is that member.
    match out.get("anyOf").and_then(Value::as_array).map(Vec::len) {
        Some(0) => {
            out.remove("anyOf");
        }
        Some(1) => {
            if let Some(Value::Array(mut members)) = out.remove("anyOf")
                && let Some(Value::Object(only)) = members.pop()
            {
                for (key, value) in only {
                    if key == "description" && out.contains_key("description") {
                        continue;
                    }
                    out.insert(key, value);
                }
            }
        }
        _ => {}
    }
    flatten_enum_union(&mut out);
    match types.as_slice() {
        [] => {
            if let Some(shared) = shared_member_type(&out) {
                out.insert("type".to_owned(), json!(shared));
            } else if !out.contains_key("anyOf") && !out.contains_key("type") {
                let inferred = if out.contains_key("enum") {
                    "string"
                } else if let Some(t) = values_type {
                    t
                } else if out.contains_key("properties") {
                    "object"
                } else if out.contains_key("items") {
                    "array"
                } else {
                    // Any JSON value: the subset has no such type.
                    "object"
                };
                out.insert("type".to_owned(), json!(inferred));
            }
        }
        [one] => {
            out.insert("type".to_owned(), json!(one));
        }
        many => {
            let members: Vec<Value> = many.iter().map(|t| json!({ "type": t })).collect();
            out.insert("anyOf".to_owned(), Value::Array(members));
        }
    }
    if out.get("type").and_then(Value::as_str) == Some("array") && !out.contains_key("items") {
        // Items of any value, which the subset spells as an object (see above).
        out.insert("items".to_owned(), json!({ "type": "object" }));
    }
    if nullable {
        out.insert("nullable".to_owned(), Value::Bool(true));
    }
    order_keys(out)
}

/// The JSON type all the values of a (non-string) enum share, if any.
fn shared_value_type(values: &[Value]) -> Option<&'static str> {
    let kind = |v: &Value| match v {
        Value::Bool(_) => Some("boolean"),
        Value::Number(n) if n.is_i64() || n.is_u64() => Some("integer"),
        Value::Number(_) => Some("number"),
        Value::Object(_) => Some("object"),
        Value::Array(_) => Some("array"),
        Value::String(_) | Value::Null => None,
    };
    let first = kind(values.first()?)?;
    let all_numbers = values.iter().all(|v| v.is_number());
    if values.iter().all(|v| kind(v) == Some(first)) {
        Some(first)
    } else if all_numbers {
        Some("number")
    } else {
        None
    }
}

/// An `anyOf` of string enums (a Rust enum of unit variants with documented variants) as one
/// string enum, the variants' descriptions appended to the parent's.
fn flatten_enum_union(out: &mut Map<String, Value>) {
    let Some(Value::Array(members)) = out.get("anyOf") else {
        return;
    };
    let is_string_enum = |m: &Value| {
        m.get("type").and_then(Value::as_str) == Some("string")
            && m.get("enum").is_some_and(Value::is_array)
            && m.as_object().is_some_and(|m| {
                m.keys()
                    .all(|k| matches!(k.as_str(), "type" | "enum" | "description"))
            })
    };
    if members.len() < 2 || !members.iter().all(is_string_enum) {
        return;
    }
    let mut values = Vec::new();
    let mut notes = Vec::new();
    for member in members {
        let member_values = member["enum"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default();
        values.extend(member_values.iter().cloned());
        if let (Some(description), [Value::String(value)]) = (
            member.get("description").and_then(Value::as_str),
            member_values,
        ) {
            let period = if description.ends_with(['.', '!', '?']) {
                ""
            } else {
                "."
            };
            notes.push(format!("`{value}`: {description}{period}"));
        }
    }
    out.remove("anyOf");
    out.insert("type".to_owned(), json!("string"));
    out.insert("enum".to_owned(), Value::Array(values));
    if !notes.is_empty() {
        // Folded into the description last (`fold_variant_notes`), so that a field's own
        // description replacing its type's keeps them.
        out.insert(VARIANT_NOTES.to_owned(), Value::String(notes.join(" ")));
    }
}

/// A private key carrying enum variant descriptions through inlining (never emitted).
const VARIANT_NOTES: &str = "\u{0}variants";

fn fold_variant_notes(schema: &mut Value) {
    let Value::Object(map) = schema else { return };
    if let Some(Value::String(notes)) = map.remove(VARIANT_NOTES) {
        let description = match map.get("description").and_then(Value::as_str) {
            Some(d) => format!("{d} {notes}"),
            None => notes,
        };
        map.insert("description".to_owned(), Value::String(description));
        *schema = order_keys(std::mem::take(map));
    }
    let Value::Object(map) = schema else { return };
    for (key, sub) in map.iter_mut() {
        visit_subschemas_mut(key, sub, &mut fold_variant_notes);
    }
}

/// The type every `anyOf` member has, if they share one (the subset wants a type on the
/// parent too).
fn shared_member_type(out: &Map<String, Value>) -> Option<&str> {
    let members = out.get("anyOf")?.as_array()?;
    let first = members.first()?.get("type")?.as_str()?;
    members
        .iter()
        .all(|m| m.get("type").and_then(Value::as_str) == Some(first))
        .then_some(first)
}

fn merge_all_of(out: &mut Map<String, Value>, member: Map<String, Value>) {
    for (key, value) in member {
        let Some(existing) = out.get_mut(&key) else {
            out.insert(key, value);
            continue;
        };
        match (existing, value) {
            (Value::Object(props), Value::Object(more)) if key == "properties" => {
                props.extend(more)
            }
            (Value::Array(req), Value::Array(more)) if key == "required" => {
                for r in more {
                    if !req.contains(&r) {
                        req.push(r);
                    }
                }
            }
            // Other keywords: the first member's value stands.
            _ => {}
        }
    }
}

/// Put the legacy schema's keys in a readable, stable order: type first.
fn order_keys(map: Map<String, Value>) -> Value {
    const ORDER: &[&str] = &[
        "type",
        "format",
        "description",
        "nullable",
        "enum",
        "properties",
        "required",
        "items",
        "minItems",
        "maxItems",
        "minimum",
        "maximum",
        "anyOf",
    ];
    let mut map = map;
    let mut out = Map::new();
    for key in ORDER {
        if let Some(value) = map.remove(*key) {
            out.insert((*key).to_owned(), value);
        }
    }
    out.extend(map);
    Value::Object(out)
}

/// An MCP `outputSchema` and whether it wraps the tool's output.
#[derive(Debug, Clone, PartialEq)]
pub struct McpOutputSchema {
    /// The schema to declare: always `"type": "object"`, as MCP requires.
    pub schema: Value,
    /// Whether the output is wrapped as `{"result": <output>}` (the output's own schema is
    /// not an object schema), in which case the structured content must be wrapped too.
    pub wrapped: bool,
}

/// The property that holds a wrapped MCP structured output.
pub(crate) const MCP_RESULT_KEY: &str = "result";

/// A tool's output schema as MCP's `outputSchema`, which must describe an object.
///
/// An output whose schema is `"type": "object"` is declared as is. Any other output (a list,
/// a number, an `Option`, an enum) is wrapped: `{"type": "object", "properties": {"result":
/// <schema>}, "required": ["result"], "additionalProperties": false}`, with the inner
/// `$defs` moved to the wrapper's root so references still resolve; the structured content
/// of its results is then `{"result": <output>}` ([`Rendered::result_message`](super::Rendered::result_message)
/// does this).
pub fn mcp_output_schema(schema: &Value) -> McpOutputSchema {
    let is_object = schema.get("type").and_then(Value::as_str) == Some("object");
    if is_object {
        return McpOutputSchema {
            schema: schema.clone(),
            wrapped: false,
        };
    }
    let mut inner = schema.clone();
    let defs = match &mut inner {
        Value::Object(map) => map.remove("$defs"),
        _ => None,
    };
    let mut wrapper = json!({
        "type": "object",
        "properties": { MCP_RESULT_KEY: inner },
        "required": [MCP_RESULT_KEY],
        "additionalProperties": false,
    });
    if let (Some(defs), Value::Object(map)) = (defs, &mut wrapper) {
        map.insert("$defs".to_owned(), defs);
    }
    McpOutputSchema {
        schema: wrapper,
        wrapped: true,
    }
}
