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
use toolgroup::prelude::*;
use toolgroup::provider::{Provider, Rendered};
use toolgroup::{GroupId, Registry};

/// Write a note to the agent's notebook.
#[tool]
fn note_write(
    /// The text to write.
    text: String,
) -> String {
    format!("noted ({} characters)", text.chars().count())
}

/// Search the web and return the top results.
#[tool(read_only, open_world)]
fn web_search(
    /// What to search for.
    query: String,
) -> Vec<String> {
    vec![
        format!("Result 1 for {query}"),
        format!("Result 2 for {query}"),
    ]
}

/// Fetch a web page and return its text.
#[tool(read_only, open_world)]
fn page_fetch(
    /// The page's URL.
    url: String,
) -> Result<String, String> {
    if url.starts_with("http") {
        Ok(format!("<html>content of {url}</html>"))
    } else {
        Err("not a URL".to_owned())
    }
}

#[tool_group(name = "notes", description = "Note taking.", tools = [note_write])]
struct Notes;

#[tool_group(
    name = "web_search",
    description = "Searching the web.",
    instructions = "Cite the URL of every result you use.",
    tools = [web_search]
)]
struct WebSearch;

#[tool_group(
    name = "scraping",
    description = "Fetching pages.",
    instructions = "Fetch only pages found by a search.",
    tools = [page_fetch]
)]
struct Scraping;

#[toolkit]
struct Agent {
    #[basic]
    notes: Notes,
    web_search: WebSearch,
    scraping: Scraping,
}

fn usage() -> String {
    let names: Vec<&str> = Provider::ALL.iter().map(|p| p.name()).collect();
    format!(
        "usage: catalog [--provider <{}>]\n\n\
         Without arguments, print the toolkit's catalog as Markdown.\n\
         With --provider, print the JSON tool definitions that provider receives, every group active.",
        names.join("|")
    )
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let provider = match args.as_slice() {
        [] => None,
        [flag] if flag == "-h" || flag == "--help" => {
            println!("{}", usage());
            return ExitCode::SUCCESS;
        }
        [flag, name] if flag == "--provider" => Some(name.as_str()),
        [flag] if flag.starts_with("--provider=") => Some(&flag["--provider=".len()..]),
        _ => {
            eprintln!("{}", usage());
            return ExitCode::from(2);
        }
    };
    let kit = Toolkit::new(Agent {
        notes: Notes,
        web_search: WebSearch,
        scraping: Scraping,
    });
    let text = match provider {
        None => markdown(&kit),
        Some(name) => match name.parse::<Provider>() {
            Ok(provider) => {
                let mut session = kit.session();
                for group in <<Agent as Registry>::Group as GroupId>::ALL {
                    session.activate(*group);
                }
                let tools = Rendered::new(&kit, provider).tools_value(&kit, &session);
                let mut json = serde_json::to_string_pretty(&tools).expect("JSON values serialise");
                json.push('\n');
                json
            }
            Err(unknown) => {
                eprintln!("{unknown}\n\n{}", usage());
                return ExitCode::from(2);
            }
        },
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
fn markdown<R: Registry>(kit: &Toolkit<R>) -> String {
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
