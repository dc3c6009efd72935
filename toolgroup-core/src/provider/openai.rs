//! OpenAI Chat Completions and Responses: definitions, the list and allow-list envelopes,
//! decoding calls and encoding results.

use serde_json::{Value, json};

use super::decode::{At, DecodeError, MissingCallId, call};
use super::format::{AllowMode, Definition, Envelope, Format, Strictness, call_id};
use super::schema::{loose, object_root, openai_strict};
use crate::result::CallResult;
use crate::toolkit::{ToolCall, ToolDefinition};

const CHAT: &str = "OpenAI Chat Completions";
const RESPONSES: &str = "OpenAI Responses";

/// The most functions one OpenAI request may declare. Source: OpenAI API reference, Chat
/// Completions `tools` ("A max of 128 functions are supported"); the same holds for Responses.
pub const OPENAI_MAX_TOOLS: usize = 128;

/// OpenAI Chat Completions.
pub(crate) struct Chat;

/// OpenAI Responses.
pub(crate) struct Responses;

/// The parameters schema: strict when possible, else the full schema, non-strict.
fn parameters(def: &ToolDefinition) -> (Value, Strictness) {
    match openai_strict(&def.input_schema) {
        Ok(schema) => (schema, Strictness::Strict),
        Err(why) => (
            loose(&object_root(&def.input_schema)),
            Strictness::Fallback(why),
        ),
    }
}

/// The allow-list (`tool_choice`) of both APIs; "none" when no tool is available. Shapes:
/// OpenAI's `ChatCompletionAllowedToolChoice` and Responses `ToolChoiceAllowed`
/// (openai-python `types/chat` and `types/responses`).
const CHAT_AUTO: Envelope = Envelope {
    open: r#"{"type":"allowed_tools","allowed_tools":{"mode":"auto","tools":["#,
    close: "]}}",
    empty: r#""none""#,
};
const CHAT_REQUIRED: Envelope = Envelope {
    open: r#"{"type":"allowed_tools","allowed_tools":{"mode":"required","tools":["#,
    close: "]}}",
    empty: r#""none""#,
};
const RESPONSES_AUTO: Envelope = Envelope {
    open: r#"{"type":"allowed_tools","mode":"auto","tools":["#,
    close: "]}",
    empty: r#""none""#,
};
const RESPONSES_REQUIRED: Envelope = Envelope {
    open: r#"{"type":"allowed_tools","mode":"required","tools":["#,
    close: "]}",
    empty: r#""none""#,
};

impl Format for Chat {
    fn definitions(&self, defs: &[&ToolDefinition]) -> Vec<Definition> {
        defs.iter()
            .map(|def| {
                let (parameters, strictness) = parameters(def);
                let json = json!({
                    "type": "function",
                    "function": {
                        "name": def.name,
                        "description": def.description,
                        "parameters": parameters,
                        "strict": strictness == Strictness::Strict,
                    }
                });
                Definition {
                    json,
                    strictness,
                    wrapped: None,
                }
            })
            .collect()
    }

    fn allow_envelope(&self, mode: AllowMode) -> Option<Envelope> {
        Some(match mode {
            AllowMode::Auto => CHAT_AUTO,
            AllowMode::Required => CHAT_REQUIRED,
        })
    }

    fn allow_entry(&self, name: &str) -> String {
        json!({ "type": "function", "function": { "name": name } }).to_string()
    }

    fn decode(&self, payload: &Value) -> Result<Vec<ToolCall>, DecodeError> {
        decode_chat(payload)
    }

    fn result(
        &self,
        call: &ToolCall,
        result: &CallResult,
        _wrapped: Option<bool>,
    ) -> Result<Value, MissingCallId> {
        let id = call_id(call, CHAT)?;
        Ok(json!({ "role": "tool", "tool_call_id": id, "content": output_text(result) }))
    }
}

impl Format for Responses {
    fn definitions(&self, defs: &[&ToolDefinition]) -> Vec<Definition> {
        defs.iter()
            .map(|def| {
                let (parameters, strictness) = parameters(def);
                let json = json!({
                    "type": "function",
                    "name": def.name,
                    "description": def.description,
                    "parameters": parameters,
                    "strict": strictness == Strictness::Strict,
                });
                Definition {
                    json,
                    strictness,
                    wrapped: None,
                }
            })
            .collect()
    }

    fn allow_envelope(&self, mode: AllowMode) -> Option<Envelope> {
        Some(match mode {
            AllowMode::Auto => RESPONSES_AUTO,
            AllowMode::Required => RESPONSES_REQUIRED,
        })
    }

    fn allow_entry(&self, name: &str) -> String {
        json!({ "type": "function", "name": name }).to_string()
    }

    fn decode(&self, payload: &Value) -> Result<Vec<ToolCall>, DecodeError> {
        decode_responses(payload)
    }

    fn result(
        &self,
        call: &ToolCall,
        result: &CallResult,
        _wrapped: Option<bool>,
    ) -> Result<Value, MissingCallId> {
        let id = call_id(call, RESPONSES)?;
        Ok(json!({ "type": "function_call_output", "call_id": id, "output": output_text(result) }))
    }
}

/// `tool_calls` of an assistant message (or of `choices[0].message` of a response).
fn decode_chat(payload: &Value) -> Result<Vec<ToolCall>, DecodeError> {
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
fn decode_responses(payload: &Value) -> Result<Vec<ToolCall>, DecodeError> {
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
