//! The fleet conversation (`fleet.rs`) played against a scripted model, in one provider's
//! shapes and one delivery mode, giving each turn's complete request body. The `deferred`
//! example prints them; the token benchmark measures them.

use std::error::Error;

use serde_json::{Value, json};
use toolgroup::provider::deferred::{Deferred, DeferredOptions, Turn};
use toolgroup::provider::{AllowMode, Provider, Rendered};

use super::fleet::{self, Fleet, Move};
use super::responses::responses_namespace;

/// How tools are delivered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Only the active groups' tools.
    List,
    /// Every tool, with an allow-list where the provider has one.
    Mask,
    /// A stable array, deferred tools, and the provider's change messages.
    Deferred,
    /// AgentScope's behaviour: the list mode, and the active groups' instructions in a
    /// system prompt rebuilt on every turn.
    AgentScope,
}

impl Mode {
    pub fn parse(s: &str) -> Option<Mode> {
        Some(match s {
            "list" => Mode::List,
            "mask" => Mode::Mask,
            "deferred" => Mode::Deferred,
            "agentscope" => Mode::AgentScope,
            _ => return None,
        })
    }
}

const SYSTEM: &str = "You are a maintainer's assistant. Switch tool groups with reset_tools when a task needs other tools.";

/// The providers a conversation can be played for (model APIs; MCP has no conversation).
pub const PROVIDERS: &[Provider] = &[
    Provider::Anthropic,
    Provider::OpenAiResponses,
    Provider::OpenAiChat,
    Provider::Gemini,
];

/// Every turn's request body, in order.
pub async fn play(provider: Provider, mode: Mode) -> Result<Vec<Value>, Box<dyn Error>> {
    let kit = fleet::toolkit();
    let rendered = Rendered::new(&kit, provider);
    let deferred = Deferred::new(&kit, provider, DeferredOptions::default())?;
    let mut state = deferred.state();
    let mut session = kit.session();
    let mut conversation: Vec<Value> = vec![user(provider, "Triage this week's Cargo work.")];
    let mut bodies = Vec::new();
    for (turn, step) in fleet::script().into_iter().enumerate() {
        let (tools, choice) = match mode {
            Mode::List | Mode::AgentScope => (rendered.tools_value(&session), None),
            Mode::Mask => (
                rendered.all_tools_value(),
                rendered.allowed_tools_value(&session, AllowMode::Auto),
            ),
            Mode::Deferred => (
                deferred.tools_value(&state),
                deferred
                    .tool_choice_json(&state)
                    .map(serde_json::from_str)
                    .transpose()?,
            ),
        };
        let system = match mode {
            Mode::AgentScope => agentscope_system(&kit, &session),
            _ => SYSTEM.to_owned(),
        };
        let headers = match mode {
            Mode::Deferred => deferred.beta_headers(),
            _ => &[],
        };
        let request = body(provider, &system, tools, choice, &conversation, headers);
        let reply = model(provider, turn + 1, &step, &request);
        bodies.push(request);
        let decoded = deferred.decode(&reply)?;
        conversation.extend(replayed(provider, reply));
        let results = kit.call_batch(&mut session, &decoded.calls).await;
        let messages = match mode {
            Mode::Deferred => deferred.result_messages(
                &mut state,
                &session,
                &decoded,
                decoded.calls.iter().zip(&results),
            )?,
            _ => rendered.result_messages(decoded.calls.iter().zip(&results))?,
        };
        check_outcomes(&decoded, &results)?;
        conversation.extend(messages);
    }
    Ok(bodies)
}

/// Every call of the script is one the model may make: none is refused.
fn check_outcomes(turn: &Turn, results: &[toolgroup::CallResult]) -> Result<(), Box<dyn Error>> {
    for (call, result) in turn.calls.iter().zip(results) {
        if result.is_error {
            return Err(format!(
                "the script's call of `{}` failed: {}",
                call.tool,
                result.text_joined()
            )
            .into());
        }
    }
    Ok(())
}

/// AgentScope's system prompt: the base text, then each active group's instructions.
fn agentscope_system(
    kit: &toolgroup::Toolkit<Fleet>,
    session: &toolgroup::Session<Fleet>,
) -> String {
    let mut text = SYSTEM.to_owned();
    for group in session.active_names() {
        let info = kit.groups().iter().find(|g| g.name == group);
        if let Some(ins) = info.and_then(|g| g.instructions) {
            text.push_str(&format!("\n<group name=\"{group}\">\n{ins}\n</group>"));
        }
    }
    text
}

pub fn user(provider: Provider, text: &str) -> Value {
    match provider {
        Provider::OpenAiResponses => json!({"type": "message", "role": "user", "content": text}),
        Provider::Gemini => json!({"role": "user", "parts": [{"text": text}]}),
        _ => json!({"role": "user", "content": text}),
    }
}

/// The request body as it would be POSTed (headers under `_headers`).
pub fn body(
    provider: Provider,
    system: &str,
    tools: Value,
    choice: Option<Value>,
    conversation: &[Value],
    headers: &[&str],
) -> Value {
    let mut body = match provider {
        Provider::Anthropic => json!({
            "model": "claude-opus-4-5",
            "max_tokens": 1024,
            "system": system,
            "tools": tools,
            "messages": conversation,
        }),
        Provider::OpenAiResponses => json!({
            "model": "gpt-5.4",
            "instructions": system,
            "tools": tools,
            "input": conversation,
        }),
        Provider::Gemini => json!({
            "systemInstruction": {"parts": [{"text": system}]},
            "tools": tools,
            "contents": conversation,
        }),
        _ => {
            let mut messages = vec![json!({"role": "system", "content": system})];
            messages.extend(conversation.iter().cloned());
            json!({"model": "gpt-5.4", "tools": tools, "messages": messages})
        }
    };
    if let Some(choice) = choice {
        let field = if provider == Provider::Gemini {
            "toolConfig"
        } else {
            "tool_choice"
        };
        body[field] = choice;
    }
    if !headers.is_empty() {
        body["_headers"] = json!({"anthropic-beta": headers.join(",")});
    }
    body
}

/// The scripted model's reply on turn `n` to `request`: one call of `step`, in the provider's
/// shape. On OpenAI Responses, as the API answers, a call of a function appended by an
/// `additional_tools` item carries the function's name as its `namespace`, and one of a
/// function inside a `namespace` tool that namespace's name; the replay must send it back
/// (the API refuses a `function_call` without it: "Missing namespace for function_call").
pub fn model(provider: Provider, n: usize, step: &Move, request: &Value) -> Value {
    let (name, args) = (step.tool, &step.arguments);
    match provider {
        Provider::Anthropic => json!({"role": "assistant", "content": [
            {"type": "tool_use", "id": format!("toolu_{n:02}"), "name": name, "input": args}
        ]}),
        Provider::OpenAiResponses => {
            let mut call = json!({"type": "function_call", "call_id": format!("call_{n:02}"), "name": name, "arguments": args.to_string()});
            if let Some(namespace) = responses_namespace(request, name) {
                call["namespace"] = Value::String(namespace);
            }
            json!({"output": [call]})
        }
        Provider::Gemini => json!({"role": "model", "parts": [
            {"functionCall": {"id": format!("call_{n:02}"), "name": name, "args": args}}
        ]}),
        _ => json!({"role": "assistant", "content": null, "tool_calls": [
            {"id": format!("call_{n:02}"), "type": "function", "function": {"name": name, "arguments": args.to_string()}}
        ]}),
    }
}

/// What of the reply goes back into the conversation (a Responses reply's output items).
pub fn replayed(provider: Provider, reply: Value) -> Vec<Value> {
    match (provider, reply) {
        (Provider::OpenAiResponses, Value::Object(mut map)) => match map.remove("output") {
            Some(Value::Array(items)) => items,
            _ => Vec::new(),
        },
        (_, reply) => vec![reply],
    }
}
