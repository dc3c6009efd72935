//! A cheap check of arguments against a remote tool's input schema, before sending.
//!
//! Not a JSON Schema validator: it checks what catches most model mistakes without a
//! dependency: `required` properties, the `type` of listed properties (and of array items),
//! `enum` values, and unknown properties when `additionalProperties` is `false`, recursing
//! into nested objects and arrays. Everything else (`$ref`, `anyOf`, formats, ranges...) is
//! left to the server. Problems name the argument's path, never its value.

use serde_json::{Map, Value};
use toolgroup_core::args::ArgumentError;

/// How deep nested schemas are followed.
const MAX_DEPTH: usize = 32;

/// Check `args` against `schema`; the first problem found, by path.
pub(crate) fn check(schema: &Value, args: &Map<String, Value>) -> Result<(), ArgumentError> {
    check_object(schema, args, &mut String::new(), 0)
}

fn invalid(path: &str, problem: String) -> ArgumentError {
    ArgumentError::Invalid {
        path: path.to_owned(),
        problem,
    }
}

fn check_object(
    schema: &Value,
    object: &Map<String, Value>,
    path: &mut String,
    depth: usize,
) -> Result<(), ArgumentError> {
    if depth > MAX_DEPTH {
        return Ok(());
    }
    let properties = schema.get("properties").and_then(Value::as_object);
    if let Some(required) = schema.get("required").and_then(Value::as_array) {
        for name in required.iter().filter_map(Value::as_str) {
            if !object.contains_key(name) {
                let at = join(path, name);
                return Err(invalid(&at, "missing required property".to_owned()));
            }
        }
    }
    if schema.get("additionalProperties") == Some(&Value::Bool(false)) {
        for key in object.keys() {
            if !properties.is_some_and(|p| p.contains_key(key)) {
                let known = properties.map(|p| p.keys().map(String::as_str));
                let mut problem = "unknown property".to_owned();
                if let Some(guess) = known.and_then(|k| crate::did_you_mean(key, k)) {
                    problem.push_str(&format!(" (did you mean `{guess}`?)"));
                }
                return Err(invalid(&join(path, key), problem));
            }
        }
    }
    let Some(properties) = properties else {
        return Ok(());
    };
    for (key, value) in object {
        if let Some(sub) = properties.get(key) {
            let len = path.len();
            push_key(path, key);
            let result = check_value(sub, value, path, depth + 1);
            path.truncate(len);
            result?;
        }
    }
    Ok(())
}

fn check_value(
    schema: &Value,
    value: &Value,
    path: &mut String,
    depth: usize,
) -> Result<(), ArgumentError> {
    if depth > MAX_DEPTH {
        return Ok(());
    }
    if let Some(expected) = schema.get("type")
        && !type_matches(expected, value)
    {
        return Err(invalid(
            path,
            format!("expected {}, got {}", describe(expected), kind(value)),
        ));
    }
    if let Some(options) = schema.get("enum").and_then(Value::as_array)
        && !options.contains(value)
    {
        let mut listed = String::new();
        for (i, option) in options.iter().take(20).enumerate() {
            if i > 0 {
                listed.push_str(", ");
            }
            listed.push_str(&crate::echo(&option.to_string(), 64));
        }
        if options.len() > 20 {
            listed.push_str(", …");
        }
        return Err(invalid(path, format!("expected one of {listed}")));
    }
    match value {
        Value::Object(object) => check_object(schema, object, path, depth),
        Value::Array(items) => {
            let Some(item_schema) = schema.get("items").filter(|s| s.is_object()) else {
                return Ok(());
            };
            for (i, item) in items.iter().enumerate() {
                let len = path.len();
                path.push_str(&format!("[{i}]"));
                let result = check_value(item_schema, item, path, depth + 1);
                path.truncate(len);
                result?;
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

fn join(path: &str, key: &str) -> String {
    let mut out = path.to_owned();
    push_key(&mut out, key);
    out
}

fn push_key(path: &mut String, key: &str) {
    if !path.is_empty() {
        path.push('.');
    }
    path.push_str(&crate::echo(key, 64));
}

/// Whether `value` is of the schema type `expected` (a name or a list of names); unknown
/// type names match anything.
fn type_matches(expected: &Value, value: &Value) -> bool {
    match expected {
        Value::String(name) => is_type(name, value),
        Value::Array(names) => {
            names.is_empty()
                || names
                    .iter()
                    .any(|n| n.as_str().is_none_or(|n| is_type(n, value)))
        }
        _ => true,
    }
}

fn is_type(name: &str, value: &Value) -> bool {
    match name {
        "string" => value.is_string(),
        "boolean" => value.is_boolean(),
        "null" => value.is_null(),
        "object" => value.is_object(),
        "array" => value.is_array(),
        "number" => value.is_number(),
        "integer" => {
            value.is_i64()
                || value.is_u64()
                || value
                    .as_f64()
                    .is_some_and(|f| f.fract() == 0.0 && f.is_finite())
        }
        _ => true,
    }
}

fn describe(expected: &Value) -> String {
    let article = |n: &str| match n {
        "integer" | "object" | "array" => format!("an {n}"),
        "null" => "null".to_owned(),
        _ => format!("a {n}"),
    };
    match expected {
        Value::String(n) => article(n),
        Value::Array(names) => names
            .iter()
            .filter_map(Value::as_str)
            .map(article)
            .collect::<Vec<_>>()
            .join(" or "),
        _ => "another type".to_owned(),
    }
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(n) if n.is_f64() => "a number",
        Value::Number(_) => "an integer",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn run(schema: Value, args: Value) -> Result<(), String> {
        check(&schema, args.as_object().unwrap()).map_err(|e| e.to_string())
    }

    #[test]
    fn required_types_enums_nested() {
        let schema = json!({
            "type": "object",
            "properties": {
                "query": {"type": "string"},
                "limit": {"type": ["integer", "null"]},
                "mode": {"enum": ["fast", "slow"]},
                "filter": {
                    "type": "object",
                    "properties": {"tags": {"type": "array", "items": {"type": "string"}}},
                    "required": ["tags"],
                    "additionalProperties": false
                }
            },
            "required": ["query"]
        });
        assert_eq!(run(schema.clone(), json!({"query": "x"})), Ok(()));
        assert_eq!(
            run(
                schema.clone(),
                json!({"query": "x", "limit": null, "mode": "fast", "filter": {"tags": ["a"]}})
            ),
            Ok(())
        );
        assert_eq!(
            run(schema.clone(), json!({"query": "x", "limit": 3.0})),
            Ok(())
        );
        assert_eq!(
            run(schema.clone(), json!({})),
            Err("invalid argument `query`: missing required property".into())
        );
        assert_eq!(
            run(schema.clone(), json!({"query": 42})),
            Err("invalid argument `query`: expected a string, got an integer".into())
        );
        assert_eq!(
            run(schema.clone(), json!({"query": "x", "limit": 1.5})),
            Err("invalid argument `limit`: expected an integer or null, got a number".into())
        );
        assert_eq!(
            run(schema.clone(), json!({"query": "x", "mode": "medium"})),
            Err("invalid argument `mode`: expected one of \"fast\", \"slow\"".into())
        );
        assert_eq!(
            run(schema.clone(), json!({"query": "x", "filter": {}})),
            Err("invalid argument `filter.tags`: missing required property".into())
        );
        assert_eq!(
            run(
                schema.clone(),
                json!({"query": "x", "filter": {"tags": ["a", 7]}})
            ),
            Err("invalid argument `filter.tags[1]`: expected a string, got an integer".into())
        );
        assert_eq!(
            run(
                schema,
                json!({"query": "x", "filter": {"tags": [], "tag": 1}})
            ),
            Err("invalid argument `filter.tag`: unknown property (did you mean `tags`?)".into())
        );
    }

    #[test]
    fn values_are_never_echoed() {
        let schema = json!({"properties": {"secret": {"type": "integer"}}});
        let err = run(schema, json!({"secret": "hunter2"})).unwrap_err();
        assert!(!err.contains("hunter2"), "{err}");
    }

    #[test]
    fn permissive_schemas_accept() {
        assert_eq!(
            run(json!({}), json!({"anything": [1, {"b": null}]})),
            Ok(())
        );
        assert_eq!(
            run(
                json!({"properties": {"a": {"$ref": "#/$defs/A"}}}),
                json!({"a": 1})
            ),
            Ok(())
        );
        assert_eq!(
            run(
                json!({"properties": {"a": {"type": "custom"}}}),
                json!({"a": 1})
            ),
            Ok(())
        );
    }
}
