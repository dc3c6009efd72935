//! An agent loop over an OpenAI-Chat-shaped model: the code to copy into a real agent.
//!
//! ```text
//! cargo run --example agent_loop
//! cargo run --example agent_loop -- --messages   # the conversation as JSON, image included
//! ```
//!
//! The model here is scripted (offline), but it speaks the Chat Completions shapes: it gets
//! `messages` and `tools`, and answers with an assistant message that may hold `tool_calls`.
//! Swap `ScriptedModel::complete` for an HTTP call and the loop stays the same.
//!
//! The toolkit is the quickstart's plus a `charts` group whose `bar_chart` tool answers with
//! a PNG image: a Chat Completions tool message holds text only, so the image goes to the
//! model in a user message right after the tool messages (`result_messages` does that).

#[allow(dead_code)]
#[path = "support/agent.rs"]
mod agent;
#[path = "support/charts.rs"]
mod charts;

use serde_json::{Value, json};
use toolgroup::provider::{Provider, Rendered};
use toolgroup::{CallResult, Content};

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
                call("call_1", "reset_tools", json!({"web_search": true, "scraping": true, "charts": false}))
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
            4 => json!({"role": "assistant", "content": null, "tool_calls": [
                call("call_6", "reset_tools", json!({"web_search": false, "scraping": false, "charts": true}))
            ]}),
            5 => json!({"role": "assistant", "content": null, "tool_calls": [
                call("call_7", "bar_chart", json!({"values": [3, 5, 2, 8]}))
            ]}),
            _ => {
                let last = messages
                    .iter()
                    .rev()
                    .find(|m| m["role"] == "tool")
                    .map(|m| m["content"].clone())
                    .unwrap_or_default();
                json!({"role": "assistant", "content": format!("Done. Last tool said: {last}")})
            }
        }
    }
}

/// What a run of the loop leaves.
pub(crate) struct Run {
    /// One line per event.
    pub(crate) transcript: Vec<String>,
    /// The conversation as the model received it, in the Chat Completions shapes.
    pub(crate) messages: Vec<Value>,
}

/// Run the loop to the model's final answer.
pub(crate) async fn run() -> Result<Run, Box<dyn std::error::Error>> {
    // The quickstart's groups and `charts` (examples/support); build yours the same way.
    let toolkit = charts::toolkit();
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
        let tools = openai.tools_value(&session);
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
            transcript.push(format!("  {} -> {status}: {}", call.tool, summary(result)));
        }
        let rendered = openai.result_messages(calls.iter().zip(&results))?;
        for part in rendered
            .iter()
            .filter(|m| m["role"] == "user")
            .filter_map(|m| m["content"].as_array())
            .flatten()
        {
            if let Some(url) = part["image_url"]["url"].as_str() {
                let (head, data) = url.split_once(',').unwrap_or((url, ""));
                transcript.push(format!(
                    "  user message: image_url {head},<{} characters>",
                    data.len()
                ));
            }
        }
        messages.extend(rendered);
    }
    Ok(Run {
        transcript,
        messages,
    })
}

/// A result in one line: its first line of text, else what its blocks are.
fn summary(result: &CallResult) -> String {
    if let Some(line) = result.text_joined().lines().next() {
        return line.to_owned();
    }
    let blocks: Vec<String> = result
        .content
        .iter()
        .map(|block| match block {
            Content::Image {
                data, mime_type, ..
            } => format!("an image ({mime_type}, {} bytes)", data.len()),
            _ => "a block without text".to_owned(),
        })
        .collect();
    blocks.join(", ")
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    match run().await {
        Ok(run) if std::env::args().any(|a| a == "--messages") => {
            println!("{:#}", Value::Array(run.messages));
        }
        Ok(run) => run.transcript.iter().for_each(|l| println!("{l}")),
        Err(e) => {
            eprintln!("agent_loop: {e}");
            std::process::exit(1);
        }
    }
}
