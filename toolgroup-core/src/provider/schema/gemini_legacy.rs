//! Gemini's legacy `parameters` dialect, an OpenAPI 3.0 subset.

use serde_json::{Map, Value, json};

use super::{resolve, type_names, visit_subschemas_mut};

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
