//! The main job: an agent scenario, offline, with a scripted model. Turn 1 activates the
//! `web_search` and `scraping` groups; turn 2 misspells a group (`web_serch`), which is refused
//! as a whole and changes nothing; turn 3 still sees every tool.
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
#[path = "support/agent.rs"]
mod agent;

use agent::{Agent, toolkit};
use toolgroup::prelude::*;
use toolgroup::{ToolCall, args::ArgumentsBuf};

fn exposed(kit: &Toolkit<Agent>, session: &Session<Agent>) -> Vec<&'static str> {
    kit.definitions(session).map(|d| d.name).collect()
}

/// The three scripted turns, printed as a transcript.
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
        "toolgroup quickstart: a scripted model misspells a group name; the call is refused\n"
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
            .call(&mut session, &call.tool, call.arguments.as_arguments())
            .await;
        let active: Vec<&str> = session.active_names().collect();
        let record = json!({
            "tools": tools,
            "name": call.tool,
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

Without arguments, runs a three-turn scenario with a scripted model (turn 2 misspells a group,
which is refused and changes nothing) and prints its transcript.
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
