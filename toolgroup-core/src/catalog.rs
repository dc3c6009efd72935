//! A toolkit's catalog: every group and every tool, as Markdown for people and as JSON for
//! programs (documentation generators, review tools, tests that pin the tool surface).
//!
//! The catalog describes the toolkit as declared, not a session: every group, active or not,
//! and `reset_tools` when the toolkit exposes it. For what one provider receives, see
//! [`provider::Rendered`](crate::provider::Rendered).
//!
//! ```
//! # use toolgroup_core::{Registry, Toolkit};
//! # fn show<R: Registry>(toolkit: &Toolkit<R>) {
//! let catalog = toolkit.catalog();
//! println!("{}", catalog.to_markdown());
//! let json: serde_json::Value = catalog.to_value();
//! # let _ = json;
//! # }
//! ```

use std::fmt;
use std::time::Duration;

use serde_json::{Map, Value, json};

use crate::meta::{GroupInfo, ToolAnnotations, ToolDefinition, ToolInfo};
use crate::registry::Registry;
use crate::skill::SkillInfo;
use crate::toolkit::Toolkit;

/// A toolkit's catalog; made by [`Toolkit::catalog`].
///
/// `Display` writes the Markdown of [`to_markdown`](Self::to_markdown).
pub struct Catalog<'a, R: Registry> {
    toolkit: &'a Toolkit<R>,
}

impl<R: Registry> Toolkit<R> {
    /// The toolkit's catalog: every group and tool, as Markdown
    /// ([`to_markdown`](Catalog::to_markdown)) or JSON ([`to_value`](Catalog::to_value)).
    /// The `toolgroup` crate's documentation has a complete example.
    ///
    /// It documents the whole toolkit, not one principal's view: every group and tool,
    /// whatever scopes they require (listed with each), and `reset_tools` naming every group.
    pub fn catalog(&self) -> Catalog<'_, R> {
        Catalog::new(self)
    }
}

impl<'a, R: Registry> Catalog<'a, R> {
    /// The catalog of `toolkit` (the same as [`Toolkit::catalog`]).
    pub fn new(toolkit: &'a Toolkit<R>) -> Self {
        Catalog { toolkit }
    }

    /// The toolkit with every scope held: the whole of it, whoever asks.
    fn whole(&self) -> Toolkit<R> {
        self.toolkit.entitled(&self.toolkit.declared_scopes())
    }

    /// The catalog as Markdown: `reset_tools` (when exposed), then each group in declaration
    /// order with its description, required scopes and instructions, and each of its tools
    /// (those found at run time as they are now, after the compiled-in ones) with its
    /// description, hints, timeout, required scopes, a table of its parameters (name, JSON
    /// type, whether required, description) and its output type.
    pub fn to_markdown(&self) -> String {
        let whole = self.whole();
        let mut out = String::from("# Tool catalog\n");
        if let Some(reset) = whole.reset_definition() {
            out.push_str(
                "\nThe basic tools are always available; the model switches the other groups on and off with `reset_tools`.\n",
            );
            tool_section(&mut out, &ToolFacts::of_definition(reset), "##");
        }
        for group in self.toolkit.groups() {
            if group.basic {
                out.push_str(&format!(
                    "\n## Basic tools: `{}` (always active)\n\n{}\n",
                    group.name, group.description
                ));
            } else {
                out.push_str(&format!(
                    "\n## Group `{}`\n\n{}\n",
                    group.name, group.description
                ));
            }
            scopes_line(&mut out, group.scopes);
            if let Some(instructions) = group.instructions {
                out.push_str(&format!(
                    "\nInstructions, given when the group is activated: {instructions}\n"
                ));
            }
            for tool in group.tools {
                tool_section(&mut out, &ToolFacts::of_info(tool), "###");
            }
            for def in dynamic_tools_of(&whole, group) {
                tool_section(&mut out, &ToolFacts::of_definition(def), "###");
            }
            let mut skills = skills_of(&whole, group).peekable();
            if skills.peek().is_some() {
                out.push_str(&format!(
                    "\n### Skills of `{}` (loaded with `Skill`)\n\n",
                    group.name
                ));
                for skill in skills {
                    let files = skill.files.len();
                    out.push_str(&format!(
                        "- `{}`: {} ({} file{})\n",
                        skill.name,
                        cell(skill.description),
                        files,
                        if files == 1 { "" } else { "s" }
                    ));
                }
            }
        }
        out
    }

    /// The catalog as a JSON value:
    ///
    /// ```json
    /// {
    ///   "reset_tools": {"name": "reset_tools", "description": "...", "input_schema": {...}},
    ///   "groups": [
    ///     {
    ///       "name": "web_search",
    ///       "description": "Searching the web.",
    ///       "instructions": "Cite the URL of every result you use.",
    ///       "basic": false,
    ///       "tools": [
    ///         {
    ///           "name": "web_search",
    ///           "description": "Search the web and return the top results.",
    ///           "input_schema": {...},
    ///           "output_schema": {...},
    ///           "annotations": {"read_only": true, "open_world": true},
    ///           "timeout_ms": 10000
    ///         }
    ///       ]
    ///     }
    ///   ]
    /// }
    /// ```
    ///
    /// A group with skills also has `"skills"`: each with its `name`, `description`, `uri`
    /// (`skill://<name>/`) and `files` (`path`, `size`, `sha256`, `mime_type`).
    ///
    /// A group or tool declared with `scopes = [...]` also has `"scopes"`: the OAuth scopes, in
    /// declaration order, as an array of strings (a tool's are besides its group's); it is
    /// absent when there are none.
    ///
    /// `reset_tools` is absent when the toolkit does not expose it (no switchable group, or
    /// [`Toolkit::with_reset_tools`]`(false)`); `instructions`, `output_schema` and
    /// `timeout_ms` are `null` when there are none; `annotations` holds the stated hints only.
    /// Schemas are the canonical ones (JSON Schema 2020-12), before any provider's changes.
    pub fn to_value(&self) -> Value {
        let whole = self.whole();
        let mut root = Map::new();
        if let Some(reset) = whole.reset_definition() {
            root.insert(
                "reset_tools".to_owned(),
                tool_value(&ToolFacts::of_definition(reset)),
            );
        }
        let groups: Vec<Value> = self
            .toolkit
            .groups()
            .iter()
            .map(|group| {
                let mut value = group_value(group, dynamic_tools_of(&whole, group));
                let skills: Vec<Value> = skills_of(&whole, group).map(skill_value).collect();
                if let (false, Value::Object(map)) = (skills.is_empty(), &mut value) {
                    map.insert("skills".to_owned(), Value::Array(skills));
                }
                value
            })
            .collect();
        root.insert("groups".to_owned(), Value::Array(groups));
        Value::Object(root)
    }

    /// [`to_value`](Self::to_value) as pretty-printed JSON text, with a final newline.
    pub fn to_json(&self) -> String {
        let mut text =
            serde_json::to_string_pretty(&self.to_value()).expect("JSON values serialise");
        text.push('\n');
        text
    }
}

impl<R: Registry> fmt::Display for Catalog<'_, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_markdown())
    }
}

/// The skills of `group`, compiled-in and read at run time.
fn skills_of<'t, R: Registry>(
    toolkit: &'t Toolkit<R>,
    group: &GroupInfo,
) -> impl Iterator<Item = &'static SkillInfo> + 't {
    let name = group.name;
    toolkit.skills().filter(move |s| s.group == name)
}

/// The shown tools of `group` found at run time (see [`dynamic`](crate::dynamic)).
fn dynamic_tools_of<R: Registry>(
    toolkit: &Toolkit<R>,
    group: &GroupInfo,
) -> impl Iterator<Item = &'static ToolDefinition> {
    let name = group.name;
    toolkit
        .dynamic_definitions()
        .filter(move |def| def.group == Some(name))
}

impl<R: Registry> fmt::Debug for Catalog<'_, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Catalog")
            .field("groups", &self.toolkit.groups().len())
            .finish_non_exhaustive()
    }
}

impl<R: Registry> Clone for Catalog<'_, R> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<R: Registry> Copy for Catalog<'_, R> {}

/// What the catalog shows of one tool (from a group's `ToolInfo` or the `reset_tools`
/// definition).
struct ToolFacts<'a> {
    name: &'a str,
    description: &'a str,
    input_schema: &'a Value,
    output_schema: Option<&'a Value>,
    annotations: ToolAnnotations,
    timeout: Option<Duration>,
    scopes: &'a [&'a str],
}

impl<'a> ToolFacts<'a> {
    fn of_info(info: &'a ToolInfo) -> Self {
        ToolFacts {
            name: info.name,
            description: info.description,
            input_schema: info.input_schema(),
            output_schema: info.output_schema(),
            annotations: info.annotations,
            timeout: info.timeout,
            scopes: info.scopes,
        }
    }

    fn of_definition(def: &'a ToolDefinition) -> Self {
        ToolFacts {
            name: def.name,
            description: def.description,
            input_schema: &def.input_schema,
            output_schema: def.output_schema.as_ref(),
            annotations: def.annotations,
            timeout: None,
            scopes: &[],
        }
    }
}

fn group_value(group: &GroupInfo, found: impl Iterator<Item = &'static ToolDefinition>) -> Value {
    let tools: Vec<Value> = group
        .tools
        .iter()
        .map(|t| tool_value(&ToolFacts::of_info(t)))
        .chain(found.map(|d| tool_value(&ToolFacts::of_definition(d))))
        .collect();
    let mut value = json!({
        "name": group.name,
        "description": group.description,
        "instructions": group.instructions,
        "basic": group.basic,
        "tools": tools,
    });
    insert_scopes(&mut value, group.scopes);
    value
}

/// `"scopes": [...]`, only when there are some (so a catalog without scopes is unchanged).
fn insert_scopes(value: &mut Value, scopes: &[&str]) {
    if let (false, Value::Object(map)) = (scopes.is_empty(), value) {
        map.insert("scopes".to_owned(), json!(scopes));
    }
}

fn skill_value(skill: &SkillInfo) -> Value {
    let files: Vec<Value> = skill
        .files
        .iter()
        .map(|f| json!({"path": f.path, "size": f.size(), "sha256": f.sha256, "mime_type": f.mime}))
        .collect();
    json!({
        "name": skill.name,
        "description": skill.description,
        "uri": skill.uri(),
        "files": files,
    })
}

fn tool_value(tool: &ToolFacts<'_>) -> Value {
    let mut annotations = Map::new();
    for (key, hint) in hints(&tool.annotations) {
        annotations.insert(key.to_owned(), Value::Bool(hint));
    }
    let mut value = json!({
        "name": tool.name,
        "description": tool.description,
        "input_schema": tool.input_schema,
        "output_schema": tool.output_schema,
        "annotations": annotations,
        "timeout_ms": tool.timeout.map(|t| u64::try_from(t.as_millis()).unwrap_or(u64::MAX)),
    });
    insert_scopes(&mut value, tool.scopes);
    value
}

/// The stated hints, by name.
fn hints(a: &ToolAnnotations) -> impl Iterator<Item = (&'static str, bool)> {
    [
        ("read_only", a.read_only),
        ("destructive", a.destructive),
        ("idempotent", a.idempotent),
        ("open_world", a.open_world),
    ]
    .into_iter()
    .filter_map(|(k, v)| v.map(|v| (k, v)))
}

fn tool_section(out: &mut String, tool: &ToolFacts<'_>, heading: &str) {
    out.push_str(&format!(
        "\n{heading} `{}`\n\n{}\n",
        tool.name, tool.description
    ));
    let words: Vec<&str> = hints(&tool.annotations)
        .map(|(key, hint)| match (key, hint) {
            ("read_only", true) => "read-only",
            ("read_only", false) => "not read-only",
            ("destructive", true) => "destructive",
            ("destructive", false) => "not destructive",
            ("idempotent", true) => "idempotent",
            ("idempotent", false) => "not idempotent",
            ("open_world", true) => "open world",
            _ => "closed world",
        })
        .collect();
    if !words.is_empty() {
        out.push_str(&format!("\nHints: {}.\n", words.join(", ")));
    }
    if let Some(timeout) = tool.timeout {
        out.push_str(&format!("\nTimeout: {}.\n", duration(timeout)));
    }
    scopes_line(out, tool.scopes);
    let schema = tool.input_schema;
    let required: Vec<&str> = schema["required"]
        .as_array()
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    match schema["properties"].as_object() {
        Some(properties) if !properties.is_empty() => {
            out.push_str("\n| Parameter | Type | Required | Description |\n|---|---|---|---|\n");
            for (name, property) in properties {
                out.push_str(&format!(
                    "| `{name}` | {} | {} | {} |\n",
                    cell(&type_of(property)),
                    if required.contains(&name.as_str()) {
                        "yes"
                    } else {
                        "no"
                    },
                    cell(property["description"].as_str().unwrap_or("")),
                ));
            }
        }
        _ => out.push_str("\nNo parameters.\n"),
    }
    if let Some(output) = tool.output_schema {
        out.push_str(&format!("\nReturns: {}.\n", type_of(output)));
    }
}

/// "Requires scopes: `a`, `b`." (nothing without scopes). A scope may hold a backtick, which
/// would end a one-backtick code span: such a scope gets a two-backtick one.
fn scopes_line(out: &mut String, scopes: &[&str]) {
    if scopes.is_empty() {
        return;
    }
    let spans: Vec<String> = scopes
        .iter()
        .map(|s| {
            if s.contains('`') {
                format!("`` {s} ``")
            } else {
                format!("`{s}`")
            }
        })
        .collect();
    out.push_str(&format!("\nRequires scopes: {}.\n", spans.join(", ")));
}

/// Text for a table cell: on one line, `|` escaped.
fn cell(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace('|', "\\|")
}

fn duration(d: Duration) -> String {
    let ms = d.as_millis();
    match ms {
        0 => format!("{} µs", d.as_micros()),
        ms if ms % 3_600_000 == 0 => format!("{} h", ms / 3_600_000),
        ms if ms % 60_000 == 0 => format!("{} min", ms / 60_000),
        ms if ms % 1_000 == 0 => format!("{} s", ms / 1_000),
        ms => format!("{ms} ms"),
    }
}

/// A short, readable type for a schema (`string`, `array of string`, `Filter`, ...).
fn type_of(schema: &Value) -> String {
    if let Some(reference) = schema["$ref"].as_str() {
        return format!("`{}`", reference.rsplit('/').next().unwrap_or(reference));
    }
    if let Some(value) = schema.get("const") {
        return format!("`{value}`");
    }
    if let Some(values) = schema["enum"].as_array() {
        let values: Vec<String> = values.iter().map(|v| format!("`{v}`")).collect();
        return format!("one of {}", values.join(", "));
    }
    if let Some(members) = schema["anyOf"]
        .as_array()
        .or_else(|| schema["oneOf"].as_array())
    {
        let members: Vec<String> = members
            .iter()
            .filter(|m| m["type"] != "null")
            .map(type_of)
            .collect();
        return members.join(" or ");
    }
    let types: Vec<&str> = match &schema["type"] {
        Value::String(t) => vec![t.as_str()],
        Value::Array(ts) => ts
            .iter()
            .filter_map(Value::as_str)
            .filter(|t| *t != "null")
            .collect(),
        _ => return "any".to_owned(),
    };
    types
        .iter()
        .map(|t| match *t {
            "array" => format!("array of {}", type_of(&schema["items"])),
            "object" if schema["additionalProperties"].is_object() => {
                format!(
                    "map of string to {}",
                    type_of(&schema["additionalProperties"])
                )
            }
            other => other.to_owned(),
        })
        .collect::<Vec<_>>()
        .join(" or ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readable_types() {
        assert_eq!(type_of(&json!({"type": "string"})), "string");
        assert_eq!(type_of(&json!({"type": ["integer", "null"]})), "integer");
        assert_eq!(
            type_of(&json!({"type": "array", "items": {"type": "string"}})),
            "array of string"
        );
        assert_eq!(
            type_of(&json!({"type": "object", "additionalProperties": {"type": "number"}})),
            "map of string to number"
        );
        assert_eq!(type_of(&json!({"$ref": "#/$defs/Filter"})), "`Filter`");
        assert_eq!(
            type_of(&json!({"enum": ["a", "b"]})),
            "one of `\"a\"`, `\"b\"`"
        );
        assert_eq!(
            type_of(&json!({"anyOf": [{"$ref": "#/$defs/Hit"}, {"type": "null"}]})),
            "`Hit`"
        );
        assert_eq!(type_of(&json!({})), "any");
    }

    #[test]
    fn durations_and_cells() {
        assert_eq!(duration(Duration::from_secs(10)), "10 s");
        assert_eq!(duration(Duration::from_millis(1500)), "1500 ms");
        assert_eq!(duration(Duration::from_secs(120)), "2 min");
        assert_eq!(duration(Duration::from_secs(7200)), "2 h");
        assert_eq!(cell("a |\n  b"), "a \\| b");
    }
}
