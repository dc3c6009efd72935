//! Print a toolkit's catalog: as Markdown for people, as JSON for programs, or as the JSON
//! tool definitions a provider receives.
//!
//! ```text
//! cargo run --example catalog
//! cargo run --example catalog -- --json
//! cargo run --example catalog -- --provider openai-chat
//! ```
//!
//! The toolkit is the quickstart's: a basic `notes` group and the switchable groups
//! `web_search` and `scraping`. The Markdown and the JSON come from the library
//! (`toolkit.catalog()`), for any toolkit. With `--provider`, every group is active, so every
//! tool is listed, in the order the model sees them.

use std::io::{self, Write as _};
use std::process::ExitCode;

#[path = "support/agent.rs"]
mod agent;

use agent::{Agent, toolkit};
use toolgroup::provider::{Provider, Rendered};
use toolgroup::{Registry, registry::GroupId};

fn usage() -> String {
    let names: Vec<&str> = Provider::ALL.iter().map(|p| p.name()).collect();
    format!(
        "usage: catalog [--provider <{}>]\n       catalog --json\n\n\
         Without arguments, print the toolkit's catalog as Markdown.\n\
         With --json, print the catalog as JSON (groups, tools, schemas).\n\
         With --provider, print the JSON tool definitions that provider receives, every group active.",
        names.join("|")
    )
}

/// The output for the command line `args`, or the usage error (exit code 2).
pub(crate) fn run(args: &[String]) -> Result<String, String> {
    let kit = toolkit();
    let provider = match args {
        [] => return Ok(kit.catalog().to_markdown()),
        [flag] if flag == "--json" => return Ok(kit.catalog().to_json()),
        [flag] if flag == "-h" || flag == "--help" => return Ok(format!("{}\n", usage())),
        [flag, name] if flag == "--provider" => name.as_str(),
        [flag] if flag.starts_with("--provider=") => &flag["--provider=".len()..],
        _ => return Err(usage()),
    };
    let provider = provider
        .parse::<Provider>()
        .map_err(|unknown| format!("{unknown}\n\n{}", usage()))?;
    let mut session = kit.session();
    for group in <<Agent as Registry>::Group as GroupId>::ALL {
        session.activate(*group);
    }
    let tools = Rendered::new(&kit, provider).tools_value(&session);
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
