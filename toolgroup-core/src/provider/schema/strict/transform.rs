//! The strict rewrite itself: one pass over the schema and the definitions it still refers
//! to, closing objects, resolving `$ref` siblings and dropping what strict modes reject.

use serde_json::{Map, Value, json};

use super::super::{collect_refs, def_name, escape_pointer, resolve, type_names};
use super::dialect::{Dialect, STRICT_DROPPED};
use super::not_strict::NotStrict;

pub(super) fn strict(schema: &Value, dialect: Dialect) -> Result<Value, NotStrict> {
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
