//! The token and cache benchmark: the `deferred` example's 20-turn conversation (82 tools in
//! 10 groups, 6 switches) per provider and delivery mode, measured from each turn's request
//! body. Offline: tokens are counted with tiktoken's `o200k_base` (embedded in `tiktoken-rs`;
//! OpenAI's encoding, an approximation for Anthropic and Gemini, whose tokenizers are not
//! published).

#[path = "../../examples/support/conversation.rs"]
pub mod conversation;
#[path = "../../examples/support/fleet.rs"]
pub mod fleet;
#[path = "../../examples/support/responses.rs"]
pub mod responses;

use std::collections::HashMap;

use serde_json::Value;
use toolgroup::provider::Provider;

pub use conversation::{Mode, PROVIDERS, play};

/// One row of the table.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub provider: Provider,
    pub mode: Mode,
    /// Tokens of the `tools` array, mean per turn.
    pub tools_sent: f64,
    /// Tokens of the definitions the model reads, mean per turn (deferred tools not loaded
    /// are sent but not shown; appended definitions are part of the conversation).
    pub tools_shown: f64,
    /// Bytes of the request prefix identical to the previous turn's, mean over turns 2-20
    /// (none on Anthropic when `tools` changed: its cache is then invalidated as a whole).
    pub stable_prefix: f64,
    /// The request prefix's mean size in bytes.
    pub prefix: f64,
    /// Turns (of 2-20) whose prefix does not start with the whole previous prefix.
    pub broken: usize,
    /// Turns (of 2-20) whose `tools` differ from the previous turn's.
    pub tools_changed: usize,
}

/// The request prefix a provider's cache reads, in its order: tools, system prompt, then the
/// conversation, each as its JSON text.
pub fn prefix(provider: Provider, body: &Value) -> String {
    let (system, conversation) = match provider {
        Provider::Anthropic => (&body["system"], &body["messages"]),
        Provider::OpenAiResponses => (&body["instructions"], &body["input"]),
        Provider::Gemini => (&body["systemInstruction"], &body["contents"]),
        _ => (&Value::Null, &body["messages"]),
    };
    let mut out = body["tools"].to_string();
    out.push_str(&system.to_string());
    for item in conversation.as_array().into_iter().flatten() {
        out.push_str(&item.to_string());
    }
    out
}

/// The definitions the model reads on a turn, as JSON texts.
pub fn shown(provider: Provider, mode: Mode, body: &Value) -> Vec<String> {
    let tools = body["tools"].as_array().cloned().unwrap_or_default();
    if mode != Mode::Deferred {
        return vec![body["tools"].to_string()];
    }
    match provider {
        Provider::Anthropic => {
            let mut active: Vec<String> = Vec::new();
            for message in body["messages"].as_array().into_iter().flatten() {
                for block in message["content"].as_array().into_iter().flatten() {
                    let name = block["tool"]["name"]
                        .as_str()
                        .unwrap_or_default()
                        .to_owned();
                    match block["type"].as_str() {
                        Some("tool_addition") => active.push(name),
                        Some("tool_removal") => active.retain(|n| *n != name),
                        _ => {}
                    }
                }
            }
            tools
                .iter()
                .filter(|t| {
                    t["defer_loading"] != true
                        || active.iter().any(|n| t["name"].as_str() == Some(n))
                })
                .map(Value::to_string)
                .collect()
        }
        Provider::OpenAiResponses => {
            let mut out = vec![body["tools"].to_string()];
            for item in body["input"].as_array().into_iter().flatten() {
                if item["type"] == "additional_tools" {
                    out.push(item["tools"].to_string());
                }
            }
            out
        }
        _ => vec![body["tools"].to_string()],
    }
}

/// Measure one conversation's request bodies, counting tokens with `count` (memoised: the
/// same text is counted once).
pub fn measure(
    provider: Provider,
    mode: Mode,
    bodies: &[Value],
    count: &mut dyn FnMut(&str) -> usize,
) -> Row {
    let mut memo: HashMap<String, usize> = HashMap::new();
    let mut tokens = |text: String| *memo.entry(text).or_insert_with_key(|t| count(t));
    let turns = bodies.len() as f64;
    let tools_sent = bodies
        .iter()
        .map(|b| tokens(b["tools"].to_string()))
        .sum::<usize>() as f64
        / turns;
    let tools_shown = bodies
        .iter()
        .map(|b| {
            shown(provider, mode, b)
                .into_iter()
                .map(&mut tokens)
                .sum::<usize>()
        })
        .sum::<usize>() as f64
        / turns;
    let prefixes: Vec<String> = bodies.iter().map(|b| prefix(provider, b)).collect();
    let mut stable = 0usize;
    let mut broken = 0;
    let mut tools_changed = 0;
    for (w, pair) in prefixes.windows(2).enumerate() {
        let common = pair[0]
            .bytes()
            .zip(pair[1].bytes())
            .take_while(|(a, b)| a == b)
            .count();
        let tools_differ = bodies[w]["tools"] != bodies[w + 1]["tools"];
        // Anthropic's cache is invalidated as a whole by a change of `tools`; OpenAI's and
        // Gemini's reuse the identical leading part.
        stable += if provider == Provider::Anthropic && tools_differ {
            0
        } else {
            common
        };
        broken += usize::from(common < pair[0].len());
        tools_changed += usize::from(tools_differ);
    }
    let pairs = (prefixes.len() - 1) as f64;
    Row {
        provider,
        mode,
        tools_sent,
        tools_shown,
        stable_prefix: stable as f64 / pairs,
        prefix: prefixes.iter().map(String::len).sum::<usize>() as f64 / turns,
        broken,
        tools_changed,
    }
}

/// Every row: each provider in each mode, and AgentScope's behaviour on OpenAI Chat.
pub async fn rows(count: &mut dyn FnMut(&str) -> usize) -> Vec<Row> {
    let mut out = Vec::new();
    let cases = PROVIDERS
        .iter()
        .flat_map(|p| [Mode::List, Mode::Mask, Mode::Deferred].map(|m| (*p, m)))
        .chain([(Provider::OpenAiChat, Mode::AgentScope)]);
    for (provider, mode) in cases {
        let bodies = play(provider, mode)
            .await
            .expect("the scripted conversation");
        out.push(measure(provider, mode, &bodies, count));
    }
    out
}

/// The o200k_base token count of `text`.
pub fn o200k(text: &str) -> usize {
    tiktoken_rs::o200k_base_singleton()
        .encode_with_special_tokens(text)
        .len()
}

/// The rows as a Markdown table.
pub fn table(rows: &[Row]) -> String {
    let mut out = String::from(
        "| provider | mode | tool tokens sent / turn | tool tokens the model reads / turn | prefix bytes / turn | of which reused from the previous turn | turns breaking the cached prefix (of 19) | turns changing `tools` |\n|---|---|---:|---:|---:|---:|---:|---:|\n",
    );
    for r in rows {
        let mode = match r.mode {
            Mode::List => "list",
            Mode::Mask => "mask",
            Mode::Deferred => "deferred",
            Mode::AgentScope => "AgentScope (list, system prompt rebuilt)",
        };
        out.push_str(&format!(
            "| {} | {mode} | {:.0} | {:.0} | {:.0} | {:.0} ({:.0}%) | {} | {} |\n",
            r.provider,
            r.tools_sent,
            r.tools_shown,
            r.prefix,
            r.stable_prefix,
            100.0 * r.stable_prefix / r.prefix,
            r.broken,
            r.tools_changed,
        ));
    }
    out
}

/// The request body of a turn of `conversation` in `provider`'s shape, its tools delivered in
/// `mode` (the session's listing, or the deferred mode's stable array and its tool choice).
#[allow(clippy::too_many_arguments)]
pub fn request<R: toolgroup::Registry>(
    provider: Provider,
    mode: Mode,
    rendered: &toolgroup::provider::Rendered<R>,
    deferred: &toolgroup::provider::deferred::Deferred<R>,
    state: &toolgroup::provider::deferred::DeferredState<R>,
    session: &toolgroup::Session<R>,
    system: &str,
    conversation: &[Value],
) -> Result<Value, Box<dyn std::error::Error>> {
    let (tools, choice) = match mode {
        Mode::Deferred => (
            deferred.tools_value(state),
            deferred
                .tool_choice_json(state)
                .map(serde_json::from_str)
                .transpose()?,
        ),
        _ => (rendered.tools_value(session), None),
    };
    let headers = match mode {
        Mode::Deferred => deferred.beta_headers(),
        _ => &[],
    };
    Ok(conversation::body(
        provider,
        system,
        tools,
        choice,
        conversation,
        headers,
    ))
}
