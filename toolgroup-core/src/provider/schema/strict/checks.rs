//! The checks on a rewritten schema: the counts providers limit, the nesting depth, and
//! recursion.

use std::collections::BTreeSet;

use serde_json::Value;

use super::super::{for_each_subschema, resolve, visit_subschemas};

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
pub(super) fn nesting<'a>(schema: &'a Value, root: &'a Value, stack: &mut Vec<&'a str>) -> usize {
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
pub(super) fn recursion(schema: &Value) -> Option<String> {
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
