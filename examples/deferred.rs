//! The deferred delivery mode, offline: a scripted 20-turn conversation over a toolkit of 10
//! groups and 82 tools, with 6 group switches, printing each turn's complete request body as
//! one JSON line (exactly what would be POSTed; the beta headers a real client sends as
//! headers are under `"_headers"`).
//!
//! ```text
//! cargo run --example deferred -- --provider anthropic|openai-responses|openai-chat|gemini \
//!     [--mode list|mask|deferred|agentscope]
//! ```
//!
//! The default is `--provider anthropic --mode deferred`. In the deferred mode the `tools` of
//! every line are the same bytes: on Anthropic the switchable tools carry
//! `"defer_loading": true` and each switch is a `{"role":"system"}` message of
//! `tool_removal` and `tool_addition` blocks after the turn's tool results; on OpenAI
//! Responses the tools of a newly active group arrive once, in an `additional_tools` item,
//! `tool_choice` names what may be called, and the model's calls of appended tools carry a
//! `namespace` (the tool's name, as the API sends it) that the replayed `function_call` and
//! its `function_call_output` keep; OpenAI Chat and Gemini fall back to the mask mode.
//! `agentscope` is the list mode with the active groups' instructions in the system prompt,
//! as AgentScope builds it.

#[path = "support/conversation.rs"]
mod conversation;
#[path = "support/fleet.rs"]
mod fleet;
#[path = "support/responses.rs"]
mod responses;

use std::process::ExitCode;

use conversation::Mode;
use toolgroup::provider::Provider;

const USAGE: &str = "usage: deferred [--provider anthropic|openai-responses|openai-chat|gemini] [--mode list|mask|deferred|agentscope]";

fn main() -> ExitCode {
    let mut provider = Provider::Anthropic;
    let mut mode = Mode::Deferred;
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next();
        match (flag.as_str(), value.as_deref()) {
            ("--provider", Some(name)) => match name.parse::<Provider>() {
                Ok(p) if conversation::PROVIDERS.contains(&p) => provider = p,
                Ok(p) => return usage(&format!("{p} has no conversation to play")),
                Err(e) => return usage(&e.to_string()),
            },
            ("--mode", Some(name)) => match Mode::parse(name) {
                Some(m) => mode = m,
                None => return usage("unknown mode: expected list, mask, deferred or agentscope"),
            },
            _ => return usage("unexpected arguments"),
        }
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    match runtime.block_on(conversation::play(provider, mode)) {
        Ok(bodies) => {
            for body in bodies {
                println!("{body}");
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("deferred: {e}");
            ExitCode::FAILURE
        }
    }
}

fn usage(problem: &str) -> ExitCode {
    eprintln!("deferred: {problem}\n{USAGE}");
    ExitCode::from(2)
}
