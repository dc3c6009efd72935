//! The non-strict rendering: the canonical schema with only what no provider reads removed.

use serde_json::{Map, Value, json};

use super::visit_subschemas_mut;

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

/// The schema for Gemini's `parametersJsonSchema`: full JSON Schema, so the canonical schema
/// with only boolean subschemas spelled as objects and no `$schema`.
pub fn gemini_json_schema(schema: &Value) -> Value {
    loose(schema)
}
