//! Gemini's legacy dialect, checked from its documentation.

use super::*;

/// Every violation of Gemini's legacy `parameters` subset (Gemini's `Schema` reference): no references, no
/// `additionalProperties`, no type lists, no `oneOf`, no `const`, string enums only, no
/// `$schema`, no exclusive bounds; and every schema typed, every array with items.
pub fn legacy_violations(node: &Value, path: &str, problems: &mut Vec<String>) {
    const KEYWORDS: &[&str] = &[
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
    let Value::Object(map) = node else {
        problems.push(format!("{path}: not an object schema"));
        return;
    };
    for key in map.keys() {
        if !KEYWORDS.contains(&key.as_str()) {
            problems.push(format!("{path}: `{key}`"));
        }
    }
    match map.get("type") {
        Some(Value::String(t))
            if ["object", "array", "string", "integer", "number", "boolean"]
                .contains(&t.as_str()) => {}
        None if map.contains_key("anyOf") => {}
        other => problems.push(format!("{path}: type {other:?}")),
    }
    if let Some(values) = map.get("enum")
        && !values
            .as_array()
            .is_some_and(|v| v.iter().all(Value::is_string))
    {
        problems.push(format!("{path}: an enum of other values than strings"));
    }
    if map.get("type") == Some(&json!("array")) && !map.contains_key("items") {
        problems.push(format!("{path}: an array without items"));
    }
    if let Some(Value::Object(props)) = map.get("properties") {
        for (name, sub) in props {
            legacy_violations(sub, &format!("{path}/properties/{name}"), problems);
        }
    }
    if let Some(items) = map.get("items") {
        legacy_violations(items, &format!("{path}/items"), problems);
    }
    if let Some(Value::Array(members)) = map.get("anyOf") {
        for (i, sub) in members.iter().enumerate() {
            legacy_violations(sub, &format!("{path}/anyOf/{i}"), problems);
        }
    }
}
