//! TypeScript declarations of a toolkit's tools, from their JSON schemas: what the model
//! reads before it writes a program.
//!
//! Each group is a `namespace` (its description and instructions as its doc comment), each
//! tool an `async` function taking one object (its arguments) and resolving to its output.
//! The schemas are the ones the providers send (objects, `$defs` references, enums, optional
//! and nullable fields, arrays, maps); what TypeScript cannot say is `unknown`, never wrong.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::{Map, Value};

use crate::meta::ToolDefinition;

/// How deep an inline schema is followed before it is `unknown`: schemas are finite trees,
/// but a hand-written one found at run time could nest without end.
const MAX_DEPTH: usize = 32;

/// One namespace: a group's doc and the tools the program may call in it.
pub(crate) struct Namespace<'a> {
    /// The group's name (the namespace's, made an identifier).
    pub(crate) name: &'a str,
    /// Its description and instructions.
    pub(crate) doc: String,
    /// Its tools.
    pub(crate) tools: Vec<&'a ToolDefinition>,
}

/// The declarations of `namespaces` and of the global functions `globals` (tools of no
/// group, such as `reset_tools`), as one `.d.ts` text.
pub(crate) fn declarations(namespaces: &[Namespace<'_>], globals: &[&ToolDefinition]) -> String {
    let mut out = globals_with_prelude(globals);
    for namespace in namespaces {
        out.push('\n');
        write_doc(&mut out, &namespace.doc, "");
        let _ = writeln!(out, "declare namespace {} {{", identifier(namespace.name));
        let mut aliases = Aliases::default();
        for tool in &namespace.tools {
            write_function(&mut out, tool, "", "  ", &mut aliases);
        }
        for (name, body) in aliases.done {
            let _ = writeln!(out, "  type {name} = {body};");
        }
        out.push_str("}\n");
    }
    out
}

/// The directory of `namespaces` (each with its tools' names, not their declarations) and
/// the declarations of the global functions `globals`: what a model reads when each group's
/// definitions reach it on activation, as in the deferred delivery mode.
pub(crate) fn directory(namespaces: &[Namespace<'_>], globals: &[&ToolDefinition]) -> String {
    let mut out = globals_with_prelude(globals);
    for namespace in namespaces {
        out.push('\n');
        write_doc(&mut out, &namespace.doc, "");
        let _ = write!(
            out,
            "declare namespace {} {{\n  // ",
            identifier(namespace.name)
        );
        for (n, tool) in namespace.tools.iter().enumerate() {
            if n > 0 {
                out.push_str(", ");
            }
            let _ = write!(out, "{}(args)", identifier(tool.name));
        }
        out.push_str("\n}\n");
    }
    out
}

/// The prelude's declarations and those of the global functions `globals`.
fn globals_with_prelude(globals: &[&ToolDefinition]) -> String {
    let mut out = String::from(PRELUDE);
    for function in globals {
        let mut aliases = Aliases::default();
        write_function(&mut out, function, "declare ", "", &mut aliases);
        for (name, body) in aliases.done {
            let _ = writeln!(out, "declare type {name} = {body};");
        }
    }
    out
}

/// What every program has besides the tools.
const PRELUDE: &str = "\
/** Write to the run's log (returned with its result). */
declare const console: { log(...values: unknown[]): void };
";

/// The named types (`$defs`) of one namespace: each written once, under a name of its own.
#[derive(Default)]
struct Aliases {
    /// Written: name -> its type.
    done: BTreeMap<String, String>,
    /// The schema behind each name.
    schemas: BTreeMap<String, Value>,
}

fn write_function(
    out: &mut String,
    def: &ToolDefinition,
    declare: &str,
    indent: &str,
    aliases: &mut Aliases,
) {
    let defs = defs_of(&def.input_schema);
    let arguments = ts_type(&def.input_schema, &defs, def.name, aliases, 0);
    let output = match &def.output_schema {
        Some(schema) => {
            let defs = defs_of(schema);
            ts_type(schema, &defs, def.name, aliases, 0)
        }
        None => "string".to_owned(),
    };
    write_doc(out, def.description, indent);
    let _ = writeln!(
        out,
        "{indent}{declare}function {}(args: {arguments}): Promise<{output}>;",
        identifier(def.name)
    );
}

fn defs_of(schema: &Value) -> Map<String, Value> {
    schema
        .get("$defs")
        .or_else(|| schema.get("definitions"))
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default()
}

/// The TypeScript type of `schema`. `tool` names the tool whose `$defs` are in `defs` (a
/// name that another tool's definition took for another shape gets the tool's name too).
fn ts_type(
    schema: &Value,
    defs: &Map<String, Value>,
    tool: &str,
    aliases: &mut Aliases,
    depth: usize,
) -> String {
    if depth > MAX_DEPTH {
        return "unknown".to_owned();
    }
    let Some(map) = schema.as_object() else {
        // `true` accepts anything; `false` nothing.
        return match schema {
            Value::Bool(false) => "never".to_owned(),
            _ => "unknown".to_owned(),
        };
    };
    if let Some(reference) = map.get("$ref").and_then(Value::as_str) {
        return reference_type(reference, defs, tool, aliases, depth);
    }
    if let Some(constant) = map.get("const") {
        return literal(constant);
    }
    if let Some(values) = map.get("enum").and_then(Value::as_array) {
        return union(values.iter().map(literal).collect());
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(options) = map.get(key).and_then(Value::as_array) {
            let members = options
                .iter()
                .map(|o| ts_type(o, defs, tool, aliases, depth + 1))
                .collect();
            return union(members);
        }
    }
    if let Some(parts) = map.get("allOf").and_then(Value::as_array) {
        let members: Vec<String> = parts
            .iter()
            .map(|p| ts_type(p, defs, tool, aliases, depth + 1))
            .collect();
        return match members.len() {
            0 => "unknown".to_owned(),
            1 => members.into_iter().next().unwrap_or_default(),
            _ => members
                .iter()
                .map(|m| format!("({m})"))
                .collect::<Vec<_>>()
                .join(" & "),
        };
    }
    match map.get("type") {
        Some(Value::String(kind)) => typed(kind, map, defs, tool, aliases, depth),
        Some(Value::Array(kinds)) => union(
            kinds
                .iter()
                .filter_map(Value::as_str)
                .map(|kind| typed(kind, map, defs, tool, aliases, depth))
                .collect(),
        ),
        _ if map.contains_key("properties") => typed("object", map, defs, tool, aliases, depth),
        _ => "unknown".to_owned(),
    }
}

fn typed(
    kind: &str,
    map: &Map<String, Value>,
    defs: &Map<String, Value>,
    tool: &str,
    aliases: &mut Aliases,
    depth: usize,
) -> String {
    match kind {
        "string" => "string".to_owned(),
        "integer" | "number" => "number".to_owned(),
        "boolean" => "boolean".to_owned(),
        "null" => "null".to_owned(),
        "array" => {
            if let Some(items) = map.get("prefixItems").and_then(Value::as_array) {
                let members: Vec<String> = items
                    .iter()
                    .map(|i| ts_type(i, defs, tool, aliases, depth + 1))
                    .collect();
                return format!("[{}]", members.join(", "));
            }
            match map.get("items") {
                Some(items) => {
                    let item = ts_type(items, defs, tool, aliases, depth + 1);
                    if item.contains(' ') {
                        format!("Array<{item}>")
                    } else {
                        format!("{item}[]")
                    }
                }
                None => "unknown[]".to_owned(),
            }
        }
        "object" => object_type(map, defs, tool, aliases, depth),
        _ => "unknown".to_owned(),
    }
}

fn object_type(
    map: &Map<String, Value>,
    defs: &Map<String, Value>,
    tool: &str,
    aliases: &mut Aliases,
    depth: usize,
) -> String {
    let required: Vec<&str> = map
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut members = Vec::new();
    if let Some(properties) = map.get("properties").and_then(Value::as_object) {
        for (name, property) in properties {
            let mut member = String::new();
            if let Some(doc) = property.get("description").and_then(Value::as_str) {
                let _ = write!(member, "/** {} */ ", doc_text(doc).replace('\n', " "));
            }
            let optional = if required.contains(&name.as_str()) {
                ""
            } else {
                "?"
            };
            let ty = ts_type(property, defs, tool, aliases, depth + 1);
            let _ = write!(member, "{}{optional}: {ty}", property_name(name));
            members.push(member);
        }
    }
    match map.get("additionalProperties") {
        Some(Value::Bool(false)) | None if !members.is_empty() => {}
        Some(Value::Bool(false)) => return "Record<string, never>".to_owned(),
        Some(Value::Object(_)) | Some(Value::Bool(true)) | None => {
            let extra = map
                .get("additionalProperties")
                .filter(|v| v.is_object())
                .map_or_else(
                    || "unknown".to_owned(),
                    |v| ts_type(v, defs, tool, aliases, depth + 1),
                );
            if members.is_empty() {
                return format!("{{ [key: string]: {extra} }}");
            }
            members.push(format!("[key: string]: {extra} | undefined"));
        }
        Some(_) => {}
    }
    if members.is_empty() {
        return "{}".to_owned();
    }
    format!("{{ {} }}", members.join("; "))
}

/// A `$ref` into `$defs`: a named type alias, written once per namespace. Two tools whose
/// `$defs` give one name to two shapes get two aliases (the second named after its tool).
fn reference_type(
    reference: &str,
    defs: &Map<String, Value>,
    tool: &str,
    aliases: &mut Aliases,
    depth: usize,
) -> String {
    let Some(name) = reference
        .strip_prefix("#/$defs/")
        .or_else(|| reference.strip_prefix("#/definitions/"))
    else {
        return "unknown".to_owned();
    };
    let Some(target) = defs.get(name) else {
        return "unknown".to_owned();
    };
    let mut alias = identifier(name);
    match aliases.schemas.get(&alias) {
        Some(seen) if seen == target => return alias,
        Some(_) => {
            alias = format!("{}_{alias}", identifier(tool));
            if aliases.schemas.contains_key(&alias) {
                return alias;
            }
        }
        None => {}
    }
    // Known before its body is written: a recursive type refers to itself.
    aliases.schemas.insert(alias.clone(), target.clone());
    let body = ts_type(target, defs, tool, aliases, depth + 1);
    aliases.done.insert(alias.clone(), body);
    alias
}

fn union(mut members: Vec<String>) -> String {
    members.dedup();
    match members.len() {
        0 => "never".to_owned(),
        1 => members.pop().unwrap_or_default(),
        _ => members.join(" | "),
    }
}

fn literal(value: &Value) -> String {
    match value {
        Value::String(_) | Value::Number(_) | Value::Bool(_) | Value::Null => value.to_string(),
        _ => "unknown".to_owned(),
    }
}

/// `name` as a TypeScript identifier: letters, digits, `_` and `$`, not starting with a
/// digit, and not a reserved word.
pub(crate) fn identifier(name: &str) -> String {
    let mut out: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '$' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if out.is_empty()
        || out.starts_with(|c: char| c.is_ascii_digit())
        || RESERVED.contains(&out.as_str())
    {
        out.insert(0, '_');
    }
    out
}

/// Words a declaration cannot use as a name.
const RESERVED: &[&str] = &[
    "break",
    "case",
    "catch",
    "class",
    "const",
    "continue",
    "debugger",
    "default",
    "delete",
    "do",
    "else",
    "enum",
    "export",
    "extends",
    "false",
    "finally",
    "for",
    "function",
    "if",
    "import",
    "in",
    "instanceof",
    "new",
    "null",
    "return",
    "super",
    "switch",
    "this",
    "throw",
    "true",
    "try",
    "typeof",
    "var",
    "void",
    "while",
    "with",
    "let",
    "static",
    "yield",
    "await",
    "implements",
    "interface",
    "package",
    "private",
    "protected",
    "public",
    "any",
    "boolean",
    "number",
    "string",
    "symbol",
    "type",
    "namespace",
    "declare",
    "module",
];

/// A property's name: as is when it is an identifier, else quoted.
fn property_name(name: &str) -> String {
    let plain = !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
    if plain {
        name.to_owned()
    } else {
        Value::from(name).to_string()
    }
}

/// Text that may go inside a `/** */` comment.
fn doc_text(text: &str) -> String {
    text.replace("*/", "*\\/")
}

fn write_doc(out: &mut String, text: &str, indent: &str) {
    let text = text.trim();
    if text.is_empty() {
        return;
    }
    let _ = writeln!(out, "{indent}/**");
    for line in doc_text(text).lines() {
        match line.trim_end() {
            "" => {
                let _ = writeln!(out, "{indent} *");
            }
            line => {
                let _ = writeln!(out, "{indent} * {line}");
            }
        }
    }
    let _ = writeln!(out, "{indent} */");
}
