//! The scripted model's side of each provider's shapes: the response payload holding its
//! calls (which the toolkit's decoder then reads), and the tool names a request offers.

use serde_json::{Map, Value, json};

use crate::args::ArgumentsBuf;
use crate::provider::Provider;
use crate::toolkit::ToolCall;

/// A scripted call that the provider's shapes cannot carry.
pub(super) struct Unrepresentable;

/// The provider's response holding `text` and `calls` (each with the id the provider would
/// give it), and what of it joins the conversation.
pub(super) struct Response {
    /// What the decoder reads (for MCP, one `tools/call` request per call).
    pub(super) payloads: Vec<Value>,
    /// The assistant's message(s) as the conversation keeps them.
    pub(super) messages: Vec<Value>,
}

pub(super) fn response(
    provider: Provider,
    text: Option<&str>,
    calls: &[(String, &ToolCall)],
) -> Result<Response, Unrepresentable> {
    Ok(match provider {
        Provider::OpenAiChat => {
            let tool_calls: Vec<Value> = calls
                .iter()
                .map(|(id, call)| {
                    json!({"id": id, "type": "function", "function": {
                        "name": call.tool, "arguments": text_arguments(&call.arguments)}})
                })
                .collect();
            let mut message = json!({"role": "assistant", "content": text});
            if !tool_calls.is_empty() {
                message["tool_calls"] = Value::Array(tool_calls);
            }
            let response = json!({"object": "chat.completion", "choices": [
                {"index": 0, "message": message, "finish_reason": if calls.is_empty() { "stop" } else { "tool_calls" }}
            ]});
            Response {
                payloads: vec![response],
                messages: vec![message],
            }
        }
        Provider::OpenAiResponses => {
            let mut output: Vec<Value> = text
                .map(|text| {
                    json!({"type": "message", "id": "msg_scripted", "role": "assistant", "status": "completed",
                        "content": [{"type": "output_text", "text": text, "annotations": []}]})
                })
                .into_iter()
                .collect();
            output.extend(calls.iter().map(|(id, call)| {
                json!({"type": "function_call", "id": format!("fc_{id}"), "call_id": id,
                    "name": call.tool, "arguments": text_arguments(&call.arguments), "status": "completed"})
            }));
            Response {
                payloads: vec![json!({"object": "response", "output": output.clone()})],
                messages: output,
            }
        }
        Provider::Anthropic | Provider::AnthropicStrict => {
            let mut content: Vec<Value> = text
                .map(|text| json!({"type": "text", "text": text}))
                .into_iter()
                .collect();
            for (id, call) in calls {
                content.push(json!({"type": "tool_use", "id": id, "name": call.tool,
                    "input": object_arguments(&call.arguments)?}));
            }
            let message = json!({"role": "assistant", "content": content});
            Response {
                payloads: vec![message.clone()],
                messages: vec![message],
            }
        }
        Provider::Gemini | Provider::GeminiLegacy => {
            let mut parts: Vec<Value> =
                text.map(|text| json!({"text": text})).into_iter().collect();
            for (_, call) in calls {
                parts.push(json!({"functionCall": {"name": call.tool,
                    "args": object_arguments(&call.arguments)?}}));
            }
            let content = json!({"role": "model", "parts": parts});
            Response {
                payloads: vec![json!({"candidates": [{"content": content.clone(), "index": 0}]})],
                messages: vec![content],
            }
        }
        // MCP has no model: its client sends one `tools/call` request per call.
        _ => {
            let requests = calls
                .iter()
                .map(|(id, call)| {
                    Ok(
                        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
                        "name": call.tool, "arguments": object_arguments(&call.arguments)?}}),
                    )
                })
                .collect::<Result<Vec<_>, _>>()?;
            Response {
                payloads: requests.clone(),
                messages: requests,
            }
        }
    })
}

/// The id the provider gives the `n`th call of a conversation.
pub(super) fn call_id(provider: Provider, n: usize) -> String {
    match provider {
        Provider::Anthropic | Provider::AnthropicStrict => format!("toolu_{n:02}"),
        Provider::Mcp => n.to_string(),
        _ => format!("call_{n}"),
    }
}

/// OpenAI sends arguments as JSON text.
fn text_arguments(arguments: &ArgumentsBuf) -> String {
    match arguments {
        ArgumentsBuf::Text(text) => text.clone(),
        ArgumentsBuf::Value(value) => value.to_string(),
    }
}

/// Anthropic, Gemini and MCP send arguments as an object.
fn object_arguments(arguments: &ArgumentsBuf) -> Result<Value, Unrepresentable> {
    let value = match arguments {
        ArgumentsBuf::Value(value) => value.clone(),
        ArgumentsBuf::Text(text) if text.trim().is_empty() => Value::Object(Map::new()),
        ArgumentsBuf::Text(text) => serde_json::from_str(text).map_err(|_| Unrepresentable)?,
    };
    if value.is_object() {
        Ok(value)
    } else {
        Err(Unrepresentable)
    }
}

/// The names a request's `tools` value lists, in order: functions (OpenAI's nested or flat,
/// Anthropic's, MCP's), Gemini's declarations, and the functions inside OpenAI Responses
/// namespaces. Hosted tools without a name (`tool_search`) are skipped.
pub(super) fn tool_names(tools: &Value) -> Vec<String> {
    let mut names = Vec::new();
    for item in tools.as_array().into_iter().flatten() {
        if let Some(declarations) = item.get("functionDeclarations") {
            names.extend(tool_names(declarations));
        } else if let Some(name) = item.pointer("/function/name").and_then(Value::as_str) {
            names.push(name.to_owned());
        } else if item["type"] == "namespace" {
            names.extend(tool_names(&item["tools"]));
        } else if let Some(name) = item.get("name").and_then(Value::as_str) {
            names.push(name.to_owned());
        }
    }
    names
}

/// The names an allow-list (OpenAI's `tool_choice`, Gemini's `toolConfig`) lets the model
/// call; none for `"none"` and Gemini's mode `NONE`.
pub(super) fn allowed_names(choice: &Value) -> Vec<String> {
    if let Some(names) = choice.pointer("/functionCallingConfig/allowedFunctionNames") {
        return names
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect();
    }
    let tools = choice
        .pointer("/allowed_tools/tools")
        .or_else(|| choice.get("tools"));
    tools.map(tool_names).unwrap_or_default()
}
