//! Per-provider rewriting of a tool's canonical schema (schemars' draft 2020-12 output), by
//! concern: this module walks schemas (subschema locations, local references, JSON pointers,
//! the object root every provider needs); [`strict`] holds the strict-mode rules of OpenAI
//! and Anthropic, [`loose`] the non-strict rendering, [`gemini_legacy`] Gemini's OpenAPI 3.0
//! dialect.

pub(crate) mod gemini_legacy;
pub(crate) mod loose;
pub(crate) mod strict;

use serde_json::{Map, Value, json};

pub use gemini_legacy::gemini_legacy_schema;
pub use loose::gemini_json_schema;
pub(crate) use loose::loose;
pub use strict::{
    NotStrict, OPENAI_STRICT_MAX_ENUM_VALUES, OPENAI_STRICT_MAX_NESTING,
    OPENAI_STRICT_MAX_PROPERTIES, anthropic_strict, openai_strict,
};

pub(crate) fn type_names(value: Option<&Value>) -> Vec<&str> {
    match value {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

/// The definition name of a `#/$defs/Name` reference.
pub(crate) fn def_name(reference: &str) -> Option<String> {
    reference.strip_prefix("#/$defs/").map(unescape_pointer)
}

/// Resolve a local reference (`#`, or a JSON pointer such as `#/$defs/Name`).
pub(crate) fn resolve<'a>(root: &'a Value, reference: &str) -> Option<&'a Value> {
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

pub(crate) fn unescape_pointer(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

pub(crate) fn escape_pointer(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// Every `$ref` in a schema, `$defs` excluded.
pub(crate) fn collect_refs(schema: &Value, out: &mut Vec<String>) {
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

pub(crate) fn visit_subschemas<'a>(key: &str, value: &'a Value, f: &mut impl FnMut(&'a Value)) {
    match (subschemas(key), value) {
        (Subschemas::Map, Value::Object(m)) => m.values().for_each(&mut *f),
        (Subschemas::List, Value::Array(items)) => items.iter().for_each(&mut *f),
        (Subschemas::One, _) => f(value),
        _ => {}
    }
}

pub(crate) fn visit_subschemas_mut(key: &str, value: &mut Value, f: &mut impl FnMut(&mut Value)) {
    match (subschemas(key), value) {
        (Subschemas::Map, Value::Object(m)) => m.values_mut().for_each(&mut *f),
        (Subschemas::List, Value::Array(items)) => items.iter_mut().for_each(&mut *f),
        (Subschemas::One, value) => f(value),
        _ => {}
    }
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
