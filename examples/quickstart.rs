//! The main job: the REFERENCE.md scenario, offline, with a scripted model.
//!
//! ```text
//! cargo run --example quickstart                     # the three-turn scenario, as a transcript
//! cargo run --example quickstart -- --script FILE    # replay a JSON-lines script of tool calls
//! ```
//!
//! A script has one call per line: `{"name": "...", "arguments": ...}`, where `arguments` is a
//! JSON value, or a string taken as the raw (possibly malformed) argument text a provider would
//! send; a missing `arguments` is `{}`. Blank lines and lines starting with `#` are skipped.
//! Each call prints one JSON line:
//! `{"tools": [names exposed before the call], "name": ..., "is_error": ..., "text": ..., "active": [groups after the call]}`.
//! A line that is not such a call prints `{"line": N, "error": "..."}` and the run goes on.

use std::io::{BufRead, Write};

use serde_json::{Value, json};
use toolgroup::prelude::*;
use toolgroup::{ArgumentsBuf, ToolCall};

/// Write a note to the agent's notebook.
#[tool]
fn note_write(
    /// The text to write.
    text: String,
) -> String {
    format!("Noted ({} characters).", text.chars().count())
}

/// A search hit.
#[derive(serde::Serialize, schemars::JsonSchema)]
struct Hit {
    /// The page's title.
    title: String,
    /// The page's URL.
    url: String,
}

/// Search the web and return the top results.
#[tool(read_only, open_world)]
async fn web_search(
    /// What to search for.
    query: String,
) -> Vec<Hit> {
    // Offline: canned results.
    vec![
        Hit {
            title: format!("{query} - the official site"),
            url: "https://example.org/".to_owned(),
        },
        Hit {
            title: format!("Learning {query}"),
            url: "https://example.org/learn".to_owned(),
        },
    ]
}

/// Fetch a web page and return its text.
#[tool(read_only, open_world, timeout = "10s")]
async fn page_fetch(
    /// The page's URL (http or https).
    url: String,
) -> Result<String, String> {
    if url.starts_with("https://") || url.starts_with("http://") {
        Ok(format!("Example page at {url}: an offline copy."))
    } else {
        Err("only http and https URLs can be fetched".to_owned())
    }
}

/// Taking notes (always available).
#[tool_group(name = "notes", description = "Taking notes.", tools = [note_write])]
struct Notes;

/// Searching the web.
#[tool_group(
    name = "web_search",
    description = "Searching the web.",
    instructions = "Cite the URL of every result you use.",
    tools = [web_search]
)]
struct WebSearch;

/// Fetching pages.
#[tool_group(
    name = "scraping",
    description = "Fetching pages.",
    instructions = "Fetch only pages found by a search.",
    tools = [page_fetch]
)]
struct Scraping;

/// The quickstart's toolkit: `notes` always on, `web_search` and `scraping` switchable.
#[toolkit]
struct Agent {
    #[basic]
    notes: Notes,
    web_search: WebSearch,
    scraping: Scraping,
}

fn toolkit() -> Toolkit<Agent> {
    Toolkit::new(Agent {
        notes: Notes,
        web_search: WebSearch,
        scraping: Scraping,
    })
}

fn exposed(kit: &Toolkit<Agent>, session: &Session<Agent>) -> Vec<&'static str> {
    kit.definitions(session).map(|d| d.name).collect()
}

/// The three scripted turns of REFERENCE.md, printed as a transcript.
pub(crate) async fn scenario(out: &mut impl Write) -> std::io::Result<()> {
    let kit = toolkit();
    let mut session = kit.session();
    let turns = [
        ("reset_tools", r#"{"web_search": true, "scraping": true}"#),
        ("reset_tools", r#"{"web_serch": true}"#),
        ("web_search", r#"{"query": "rust tool groups"}"#),
    ];
    writeln!(
        out,
        "toolgroup quickstart: the REFERENCE.md scenario with a scripted model\n"
    )?;
    for (turn, (name, arguments)) in turns.into_iter().enumerate() {
        writeln!(
            out,
            "turn {}: {}",
            turn + 1,
            exposed(&kit, &session).join(", ")
        )?;
        writeln!(out, "  model calls {name} {arguments}")?;
        let result = kit.call(&mut session, name, arguments).await;
        let status = if result.is_error { "error" } else { "ok" };
        writeln!(out, "  result ({status}):")?;
        for line in result.text_joined().lines() {
            writeln!(out, "    {line}")?;
        }
        writeln!(out)?;
    }
    let active: Vec<String> = session.active_names().map(|n| format!("'{n}'")).collect();
    writeln!(out, "activated_groups at the end: [{}]", active.join(", "))
}

/// Replay a JSON-lines script of tool calls, one JSON line out per call in.
pub(crate) async fn run_script(input: impl BufRead, out: &mut impl Write) -> std::io::Result<()> {
    let kit = toolkit();
    let mut session = kit.session();
    for (number, line) in input.lines().enumerate() {
        let line = line?;
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let call = match parse_script_line(trimmed) {
            Ok(call) => call,
            Err(error) => {
                writeln!(out, "{}", json!({"line": number + 1, "error": error}))?;
                continue;
            }
        };
        let tools = exposed(&kit, &session);
        let result = kit
            .call(&mut session, &call.name, call.arguments.as_arguments())
            .await;
        let active: Vec<&str> = session.active_names().collect();
        let record = json!({
            "tools": tools,
            "name": call.name,
            "is_error": result.is_error,
            "text": result.text_joined(),
            "active": active,
        });
        writeln!(out, "{record}")?;
    }
    Ok(())
}

fn parse_script_line(line: &str) -> Result<ToolCall, String> {
    let value: Value = serde_json::from_str(line).map_err(|e| format!("not a JSON object: {e}"))?;
    let Value::Object(mut map) = value else {
        return Err("expected a JSON object {\"name\": ..., \"arguments\": ...}".to_owned());
    };
    let name = match map.remove("name") {
        Some(Value::String(name)) => name,
        _ => return Err("missing \"name\" (a string)".to_owned()),
    };
    let arguments = match map.remove("arguments") {
        None => ArgumentsBuf::Text("{}".to_owned()),
        Some(Value::String(raw)) => ArgumentsBuf::Text(raw),
        Some(value) => ArgumentsBuf::Value(value),
    };
    if let Some(key) = map.keys().next() {
        return Err(format!(
            "unexpected key \"{key}\" (a line has \"name\" and \"arguments\")"
        ));
    }
    Ok(ToolCall::new(name, arguments))
}

const USAGE: &str = "usage: quickstart [--script FILE]

Without arguments, runs the REFERENCE.md scenario with a scripted model and prints its transcript.
With --script FILE, replays FILE (JSON lines: {\"name\": ..., \"arguments\": ...}; `arguments` a JSON
value, or a string of raw argument text) and prints one JSON line per call:
{\"tools\": [...], \"name\": ..., \"is_error\": ..., \"text\": ..., \"active\": [...]}.
A sample script: examples/quickstart.jsonl";

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let outcome = match args.as_slice() {
        [] => scenario(&mut out).await,
        [flag, file] if flag == "--script" => match std::fs::File::open(file) {
            Ok(f) => run_script(std::io::BufReader::new(f), &mut out).await,
            Err(e) => {
                eprintln!("quickstart: cannot open {file}: {e}");
                std::process::exit(1);
            }
        },
        [flag] if flag == "--help" || flag == "-h" => {
            println!("{USAGE}");
            Ok(())
        }
        _ => {
            eprintln!("{USAGE}");
            std::process::exit(2);
        }
    };
    if let Err(e) = outcome {
        eprintln!("quickstart: {e}");
        std::process::exit(1);
    }
}
