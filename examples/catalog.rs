//! Print a toolkit's catalog: as Markdown for people, or as the JSON tool definitions a
//! provider receives.
//!
//! ```text
//! cargo run --example catalog
//! cargo run --example catalog -- --provider openai-chat
//! ```
//!
//! The toolkit is the quickstart's: a basic `notes` group and the switchable groups
//! `web_search` and `scraping`. With `--provider`, every group is active, so every tool is
//! listed, in the order the model sees them.

use std::io::{self, Write as _};
use std::process::ExitCode;

use serde_json::Value;
#[path = "support/agent.rs"]
mod agent;

use agent::{Agent, toolkit};
use toolgroup::prelude::*;
use toolgroup::provider::{Provider, Rendered};
use toolgroup::{GroupId, Registry};

fn usage() -> String {
    let names: Vec<&str> = Provider::ALL.iter().map(|p| p.name()).collect();
    format!(
        "usage: catalog [--provider <{}>]\n\n\
         Without arguments, print the toolkit's catalog as Markdown.\n\
         With --provider, print the JSON tool definitions that provider receives, every group active.",
        names.join("|")
    )
}

/// The output for the command line `args`, or the usage error (exit code 2).
pub(crate) fn run(args: &[String]) -> Result<String, String> {
    let provider = match args {
        [] => None,
        [flag] if flag == "-h" || flag == "--help" => return Ok(format!("{}\n", usage())),
        [flag, name] if flag == "--provider" => Some(name.as_str()),
        [flag] if flag.starts_with("--provider=") => Some(&flag["--provider=".len()..]),
        _ => return Err(usage()),
    };
    let kit = toolkit();
    let Some(name) = provider else {
        return Ok(markdown(&kit));
    };
    let provider = name
        .parse::<Provider>()
        .map_err(|unknown| format!("{unknown}\n\n{}", usage()))?;
    let mut session = kit.session();
    for group in <<Agent as Registry>::Group as GroupId>::ALL {
        session.activate(*group);
    }
    let tools = Rendered::new(&kit, provider).tools_value(&kit, &session);
    let mut json = serde_json::to_string_pretty(&tools).expect("JSON values serialise");
    json.push('\n');
    Ok(json)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let text = match run(&args) {
        Ok(text) => text,
        Err(usage) => {
            eprintln!("{usage}");
            return ExitCode::from(2);
        }
    };
    // A closed pipe (`catalog | head`) ends the output early; that is no error.
    match io::stdout().lock().write_all(text.as_bytes()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("catalog: cannot write the output: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The catalog as Markdown: `reset_tools`, then each group with its tools and parameters.
pub(crate) fn markdown<R: Registry>(kit: &Toolkit<R>) -> String {
    let mut out = String::from("# Tool catalog\n");
    if let Some(reset) = kit.reset_definition() {
        out.push_str(
            "\nThe basic tools are always available; the model switches the other groups on and off with `reset_tools`.\n",
        );
        tool_section(&mut out, reset, "##");
    }
    for group in kit.groups() {
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
        if let Some(instructions) = group.instructions {
            out.push_str(&format!(
                "\nInstructions, given when the group is activated: {instructions}\n"
            ));
        }
        for tool in kit
            .all_definitions()
            .filter(|d| d.group == Some(group.name))
        {
            tool_section(&mut out, tool, "###");
        }
    }
    out
}

fn tool_section(out: &mut String, tool: &ToolDefinition, heading: &str) {
    out.push_str(&format!(
        "\n{heading} `{}`\n\n{}\n",
        tool.name, tool.description
    ));
    let hints: Vec<&str> = [
        (tool.annotations.read_only, "read-only", "not read-only"),
        (
            tool.annotations.destructive,
            "destructive",
            "not destructive",
        ),
        (tool.annotations.idempotent, "idempotent", "not idempotent"),
        (tool.annotations.open_world, "open world", "closed world"),
    ]
    .into_iter()
    .filter_map(|(hint, yes, no)| hint.map(|h| if h { yes } else { no }))
    .collect();
    if !hints.is_empty() {
        out.push_str(&format!("\nHints: {}.\n", hints.join(", ")));
    }
    let schema = &tool.input_schema;
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
                    type_of(property),
                    if required.contains(&name.as_str()) {
                        "yes"
                    } else {
                        "no"
                    },
                    property["description"]
                        .as_str()
                        .unwrap_or("")
                        .replace('|', "\\|"),
                ));
            }
        }
        _ => out.push_str("\nNo parameters.\n"),
    }
    if let Some(output) = &tool.output_schema {
        out.push_str(&format!("\nReturns: {}.\n", type_of(output)));
    }
}

/// A short, readable type for a schema (`string`, `array of string`, `Filter`, ...).
fn type_of(schema: &Value) -> String {
    if let Some(reference) = schema["$ref"].as_str() {
        return format!("`{}`", reference.rsplit('/').next().unwrap_or(reference));
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
