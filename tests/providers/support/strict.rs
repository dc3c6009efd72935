//! The strict-mode rules, checked on every object of every schema marked strict. The checks
//! are written from the providers' documentation, independently of the renderer's code.

use super::*;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rules {
    OpenAi,
    Anthropic,
}

/// Keywords neither strict mode accepts (numeric and length constraints included: OpenAI's
/// Structured Outputs list of unsupported keywords and Anthropic's "no numeric or length
/// constraints").
pub const NEVER_IN_STRICT: &[&str] = &[
    "allOf",
    "not",
    "if",
    "then",
    "else",
    "dependentRequired",
    "dependentSchemas",
    "oneOf",
    "default",
    "patternProperties",
    "unevaluatedProperties",
    "unevaluatedItems",
    "propertyNames",
    "minProperties",
    "maxProperties",
    "uniqueItems",
    "contains",
    "minContains",
    "maxContains",
    "prefixItems",
    "minLength",
    "maxLength",
    "pattern",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "maxItems",
];

pub fn allowed_formats(rules: Rules) -> &'static [&'static str] {
    match rules {
        Rules::OpenAi => &[
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
        Rules::Anthropic => &[
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

pub fn pointer<'a>(root: &'a Value, reference: &str) -> Option<&'a Value> {
    root.pointer(reference.strip_prefix('#')?)
}

/// Every violation of `rules` in a strict schema.
pub fn strict_violations(rules: Rules, root: &Value) -> Vec<String> {
    let mut problems = Vec::new();
    if root.get("type") != Some(&json!("object")) {
        problems.push("root: not `\"type\": \"object\"`".to_owned());
    }
    if root.get("anyOf").is_some() {
        problems.push("root: `anyOf` at the root".to_owned());
    }
    check_node(rules, root, root, "", true, &mut problems);
    if rules == Rules::Anthropic
        && let Some(cycle) = find_cycle(root)
    {
        problems.push(format!("{cycle}: recursive"));
    }
    problems
}

pub fn check_node(
    rules: Rules,
    node: &Value,
    root: &Value,
    path: &str,
    is_root: bool,
    problems: &mut Vec<String>,
) {
    let Value::Object(map) = node else {
        problems.push(format!("{path}: a boolean schema"));
        return;
    };
    if let Some(reference) = map.get("$ref") {
        if map.len() > 1 {
            problems.push(format!("{path}: `$ref` with sibling keywords"));
        }
        if reference.as_str().and_then(|r| pointer(root, r)).is_none() {
            problems.push(format!("{path}: `$ref` to nothing"));
        }
        return;
    }
    for key in map.keys() {
        if NEVER_IN_STRICT.contains(&key.as_str()) || (key == "$defs" && !is_root) {
            problems.push(format!("{path}: `{key}`"));
        }
    }
    match (rules, map.get("minItems")) {
        (_, None) => {}
        (Rules::Anthropic, Some(n)) if *n == json!(0) || *n == json!(1) => {}
        (_, Some(n)) => problems.push(format!("{path}: `minItems` {n}")),
    }
    if let Some(format) = map.get("format")
        && !format
            .as_str()
            .is_some_and(|f| allowed_formats(rules).contains(&f))
    {
        problems.push(format!("{path}: format {format}"));
    }
    let types: Vec<&str> = match map.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    if types.is_empty() && !map.contains_key("anyOf") && !map.contains_key("enum") {
        problems.push(format!("{path}: no type"));
    }
    if types.contains(&"object") {
        if map.get("additionalProperties") != Some(&json!(false)) {
            problems.push(format!("{path}: not `additionalProperties: false`"));
        }
        let properties: BTreeSet<&str> = match map.get("properties") {
            Some(Value::Object(p)) => p.keys().map(String::as_str).collect(),
            _ => {
                problems.push(format!("{path}: no `properties`"));
                BTreeSet::new()
            }
        };
        let required: Vec<&str> = map
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let required_set: BTreeSet<&str> = required.iter().copied().collect();
        if required_set.len() != required.len() {
            problems.push(format!("{path}: duplicate `required` names"));
        }
        match rules {
            Rules::OpenAi if required_set != properties => {
                problems.push(format!("{path}: `required` is not every property"));
            }
            Rules::Anthropic if !required_set.is_subset(&properties) => {
                problems.push(format!("{path}: `required` names an undeclared property"));
            }
            _ => {}
        }
    }
    if types.contains(&"array") && !map.get("items").is_some_and(Value::is_object) {
        problems.push(format!("{path}: an array without an item schema"));
    }
    if let Some(Value::Object(props)) = map.get("properties") {
        for (name, sub) in props {
            check_node(
                rules,
                sub,
                root,
                &format!("{path}/properties/{name}"),
                false,
                problems,
            );
        }
    }
    if let Some(items) = map.get("items") {
        check_node(
            rules,
            items,
            root,
            &format!("{path}/items"),
            false,
            problems,
        );
    }
    if let Some(Value::Array(members)) = map.get("anyOf") {
        for (i, sub) in members.iter().enumerate() {
            check_node(
                rules,
                sub,
                root,
                &format!("{path}/anyOf/{i}"),
                false,
                problems,
            );
        }
    }
    if is_root && let Some(Value::Object(defs)) = map.get("$defs") {
        for (name, sub) in defs {
            check_node(rules, sub, root, &format!("/$defs/{name}"), false, problems);
        }
    }
}

/// A reference cycle reachable from the root, if any.
pub fn find_cycle(root: &Value) -> Option<String> {
    fn refs(node: &Value, out: &mut Vec<String>) {
        match node {
            Value::Object(map) => {
                for (key, value) in map {
                    if key == "$ref" {
                        out.extend(value.as_str().map(str::to_owned));
                    } else if key != "$defs" {
                        refs(value, out);
                    }
                }
            }
            Value::Array(items) => items.iter().for_each(|i| refs(i, out)),
            _ => {}
        }
    }
    fn visit(at: &str, root: &Value, path: &mut Vec<String>) -> Option<String> {
        if path.iter().any(|p| p == at) {
            return Some(at.to_owned());
        }
        let mut next = Vec::new();
        refs(pointer(root, at)?, &mut next);
        path.push(at.to_owned());
        let found = next.iter().find_map(|n| visit(n, root, path));
        path.pop();
        found
    }
    visit("#", root, &mut Vec::new())
}

/// (optional properties, union-typed schemas) of a schema, counted as Anthropic's limits read.
pub fn anthropic_costs(root: &Value) -> (usize, usize) {
    fn walk(node: &Value, optional: &mut usize, unions: &mut usize) {
        let Value::Object(map) = node else { return };
        if map.contains_key("anyOf") || map.get("type").is_some_and(Value::is_array) {
            *unions += 1;
        }
        if let Some(Value::Object(props)) = map.get("properties") {
            let required = map
                .get("required")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            *optional += props
                .keys()
                .filter(|k| !required.contains(&json!(k)))
                .count();
        }
        for (key, value) in map {
            match (key.as_str(), value) {
                ("properties" | "$defs", Value::Object(subs)) => {
                    subs.values().for_each(|s| walk(s, optional, unions))
                }
                ("anyOf", Value::Array(subs)) => {
                    subs.iter().for_each(|s| walk(s, optional, unions))
                }
                ("items", sub) => walk(sub, optional, unions),
                _ => {}
            }
        }
    }
    let (mut optional, mut unions) = (0, 0);
    walk(root, &mut optional, &mut unions);
    (optional, unions)
}
