//! OpenAI Chat Completions and Responses: definitions, allow-lists, calls and results.

use serde_json::{Value, json};

use super::decode::{At, DecodeError, MissingCallId, call};
use super::render::Strictness;
use super::transform::{loose, object_root, openai_strict};
use crate::result::CallResult;
use crate::toolkit::{ToolCall, ToolDefinition};

const CHAT: &str = "OpenAI Chat Completions";
const RESPONSES: &str = "OpenAI Responses";

/// The parameters schema: strict when possible, else the full schema, non-strict.
pub(super) fn parameters(def: &ToolDefinition) -> (Value, Strictness) {
    match openai_strict(&def.input_schema) {
        Ok(schema) => (schema, Strictness::Strict),
        Err(why) => (
            loose(&object_root(&def.input_schema)),
            Strictness::Fallback(why),
        ),
    }
}

pub(super) fn chat_definition(def: &ToolDefinition, parameters: Value, strict: bool) -> Value {
    json!({
        "type": "function",
        "function": {
            "name": def.name,
            "description": def.description,
            "parameters": parameters,
            "strict": strict,
        }
    })
}

pub(super) fn responses_definition(def: &ToolDefinition, parameters: Value, strict: bool) -> Value {
    json!({
        "type": "function",
        "name": def.name,
        "description": def.description,
        "parameters": parameters,
        "strict": strict,
    })
}

/// One entry of a Chat Completions `allowed_tools` list.
pub(super) fn chat_allowed(name: &str) -> Value {
    json!({ "type": "function", "function": { "name": name } })
}

/// One entry of a Responses `allowed_tools` list.
pub(super) fn responses_allowed(name: &str) -> Value {
    json!({ "type": "function", "name": name })
}

/// `tool_calls` of an assistant message (or of `choices[0].message` of a response).
pub(super) fn decode_chat(payload: &Value) -> Result<Vec<ToolCall>, DecodeError> {
    let at = At::root(CHAT, payload);
    match payload {
        Value::Array(_) => chat_calls(at),
        Value::Object(map) if map.contains_key("choices") => {
            at.with_field("choices", |choices| match choices.value {
                Some(Value::Array(items)) if items.is_empty() => Ok(Vec::new()),
                Some(Value::Array(_)) => choices.with_index(0, |first| {
                    first.with_field("message", |message| {
                        message.object()?;
                        message.with_field("tool_calls", optional_calls)
                    })
                }),
                _ => Err(choices.error("a list of choices")),
            })
        }
        Value::Object(_) => at.with_field("tool_calls", optional_calls),
        _ => Err(at.error("an assistant message, a response or a list of tool calls")),
    }
}

fn optional_calls(at: At<'_, '_>) -> Result<Vec<ToolCall>, DecodeError> {
    match at.value {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(_) => chat_calls(at),
    }
}

fn chat_calls(at: At<'_, '_>) -> Result<Vec<ToolCall>, DecodeError> {
    at.each(|item| {
        item.object()?;
        let kind = item.with_field("type", |t| t.opt_string())?;
        if kind.is_some_and(|k| k != "function") {
            return Err(item.with_field("type", |t| {
                t.error("\"function\" (other tool types are not toolkit tools)")
            }));
        }
        let id = item.with_field("id", |id| id.string())?;
        item.with_field("function", |function| {
            function.object()?;
            let name = function.with_field("name", |n| n.name())?;
            let arguments = function.with_field("arguments", |a| a.text_arguments())?;
            Ok(Some(call(Some(id), name, arguments)))
        })
    })
}

/// `function_call` items of a response's `output` (or of the list itself).
pub(super) fn decode_responses(payload: &Value) -> Result<Vec<ToolCall>, DecodeError> {
    let at = At::root(RESPONSES, payload);
    let items = |list: At<'_, '_>| {
        list.each(|item| {
            item.object()?;
            let kind = item.with_field("type", |t| t.string())?;
            if kind != "function_call" {
                return Ok(None);
            }
            let id = item.with_field("call_id", |id| id.string())?;
            let name = item.with_field("name", |n| n.name())?;
            let arguments = item.with_field("arguments", |a| a.text_arguments())?;
            Ok(Some(call(Some(id), name, arguments)))
        })
    };
    match payload {
        Value::Array(_) => items(at),
        Value::Object(_) => at.with_field("output", items),
        _ => Err(at.error("a response or a list of output items")),
    }
}

/// The text sent back: the result's text, marked when it is an error (OpenAI has no error
/// flag on tool results).
fn output_text(result: &CallResult) -> String {
    let text = result.text_joined();
    if result.is_error {
        format!("Error: {text}")
    } else {
        text
    }
}

pub(super) fn chat_result(call: &ToolCall, result: &CallResult) -> Result<Value, MissingCallId> {
    let id = call.id.as_deref().ok_or_else(|| MissingCallId {
        provider: CHAT,
        tool: call.name.clone(),
    })?;
    Ok(json!({ "role": "tool", "tool_call_id": id, "content": output_text(result) }))
}

pub(super) fn responses_result(
    call: &ToolCall,
    result: &CallResult,
) -> Result<Value, MissingCallId> {
    let id = call.id.as_deref().ok_or_else(|| MissingCallId {
        provider: RESPONSES,
        tool: call.name.clone(),
    })?;
    Ok(json!({ "type": "function_call_output", "call_id": id, "output": output_text(result) }))
}
