//! An agent loop over an OpenAI-Chat-shaped model: the code to copy into a real agent.
//!
//! ```text
//! cargo run --example agent_loop
//! ```
//!
//! The model here is scripted (offline), but it speaks the Chat Completions shapes: it gets
//! `messages` and `tools`, and answers with an assistant message that may hold `tool_calls`.
//! Swap `ScriptedModel::complete` for an HTTP call and the loop stays the same.

#[path = "support/agent.rs"]
mod agent;

use serde_json::{Value, json};
use toolgroup::provider::{Provider, Rendered};

/// A stand-in for the Chat Completions API: answers from a script, in OpenAI's shapes.
struct ScriptedModel {
    turn: usize,
}

impl ScriptedModel {
    /// One `chat.completions.create` call: returns `choices[0].message`.
    fn complete(&mut self, messages: &[Value], tools: &Value) -> Value {
        self.turn += 1;
        let offered: Vec<&str> = tools
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|t| t["function"]["name"].as_str())
            .collect();
        let call = |id: &str, name: &str, args: Value| {
            assert!(
                offered.contains(&name),
                "the model only calls tools it was offered"
            );
            json!({"id": id, "type": "function", "function": {"name": name, "arguments": args.to_string()}})
        };
        match self.turn {
            1 => json!({"role": "assistant", "content": null, "tool_calls": [
                call("call_1", "reset_tools", json!({"web_search": true, "scraping": true}))
            ]}),
            // Two calls in parallel; the second has malformed arguments, which the model
            // gets back as an error result it can act on.
            2 => json!({"role": "assistant", "content": null, "tool_calls": [
                call("call_2", "web_search", json!({"query": "tool groups"})),
                {"id": "call_3", "type": "function", "function": {"name": "page_fetch", "arguments": "{\"url\": "}},
            ]}),
            3 => json!({"role": "assistant", "content": null, "tool_calls": [
                call("call_4", "page_fetch", json!({"url": "https://example.org/learn"})),
                call("call_5", "note_write", json!({"text": "tool groups keep the context small"})),
            ]}),
            _ => {
                let last = messages
                    .last()
                    .map(|m| m["content"].clone())
                    .unwrap_or_default();
                json!({"role": "assistant", "content": format!("Done. Last tool said: {last}")})
            }
        }
    }
}

/// Run the loop; returns a transcript, one line per event.
pub(crate) async fn run() -> Result<Vec<String>, Box<dyn std::error::Error>> {
    // The quickstart's toolkit (examples/support/agent.rs); build yours the same way.
    let toolkit = agent::toolkit();
    // Rendered once at start-up; listing per turn only concatenates pre-rendered JSON.
    let openai = Rendered::new(&toolkit, Provider::OpenAiChat);
    let mut session = toolkit.session();
    let mut model = ScriptedModel { turn: 0 };
    let mut messages = vec![
        json!({"role": "system", "content": "You are a research assistant."}),
        json!({"role": "user", "content": "What are tool groups good for?"}),
    ];
    let mut transcript = Vec::new();
    for _ in 0..10 {
        let tools = openai.tools_value(&toolkit, &session);
        let names: Vec<&str> = toolkit.definitions(&session).map(|d| d.name).collect();
        transcript.push(format!("tools: {}", names.join(", ")));
        let message = model.complete(&messages, &tools);
        let calls = openai.decode_calls(&message)?;
        messages.push(message.clone());
        if calls.is_empty() {
            transcript.push(format!(
                "assistant: {}",
                message["content"].as_str().unwrap_or("")
            ));
            break;
        }
        let results = toolkit.call_batch(&mut session, &calls).await;
        for (call, result) in calls.iter().zip(&results) {
            let status = if result.is_error { "error" } else { "ok" };
            let first_line = result.text_joined().lines().next().unwrap_or("").to_owned();
            transcript.push(format!("  {} -> {status}: {first_line}", call.name));
        }
        messages.extend(openai.result_messages(&calls, &results)?);
    }
    Ok(transcript)
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    match run().await {
        Ok(lines) => lines.iter().for_each(|l| println!("{l}")),
        Err(e) => {
            eprintln!("agent_loop: {e}");
            std::process::exit(1);
        }
    }
}
