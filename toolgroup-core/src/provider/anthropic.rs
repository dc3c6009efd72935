//! Anthropic Messages: definitions, `tool_use` blocks and `tool_result` blocks.

use serde_json::{Map, Value, json};

use super::decode::{At, DecodeError, MissingCallId, call};
use crate::result::CallResult;
use crate::toolkit::{ToolCall, ToolDefinition};

const NAME: &str = "Anthropic";

pub(super) fn definition(def: &ToolDefinition, input_schema: Value, strict: bool) -> Value {
    let mut tool = json!({
        "name": def.name,
        "description": def.description,
        "input_schema": input_schema,
    });
    if strict {
        tool["strict"] = Value::Bool(true);
    }
    tool
}

/// `tool_use` blocks of an assistant message's `content` (or of the list itself).
pub(super) fn decode(payload: &Value) -> Result<Vec<ToolCall>, DecodeError> {
    let at = At::root(NAME, payload);
    match payload {
        Value::Array(_) => blocks(at),
        Value::Object(_) => at.with_field("content", |content| match content.value {
            // A plain-text message has no tool calls.
            Some(Value::String(_)) => Ok(Vec::new()),
            _ => blocks(content),
        }),
        _ => Err(at.error("a message or a list of content blocks")),
    }
}

fn blocks(at: At<'_, '_>) -> Result<Vec<ToolCall>, DecodeError> {
    at.each(|block| {
        block.object()?;
        if block.with_field("type", |t| t.string())? != "tool_use" {
            return Ok(None);
        }
        let id = block.with_field("id", |id| id.string())?;
        let name = block.with_field("name", |n| n.name())?;
        let input = block.with_field("input", |i| i.object_arguments())?;
        Ok(Some(call(Some(id), name, input)))
    })
}

/// A `tool_result` content block (a user message carries one per call).
pub(super) fn result(call: &ToolCall, result: &CallResult) -> Result<Value, MissingCallId> {
    let id = call.id.as_deref().ok_or_else(|| MissingCallId {
        provider: NAME,
        tool: call.name.clone(),
    })?;
    let mut block = Map::new();
    block.insert("type".to_owned(), json!("tool_result"));
    block.insert("tool_use_id".to_owned(), json!(id));
    // Anthropic rejects empty text blocks; a result without text sends no content.
    let content: Vec<Value> = result
        .content
        .iter()
        .filter_map(|c| c.as_text())
        .filter(|t| !t.is_empty())
        .map(|text| json!({ "type": "text", "text": text }))
        .collect();
    if !content.is_empty() {
        block.insert("content".to_owned(), Value::Array(content));
    }
    block.insert("is_error".to_owned(), Value::Bool(result.is_error));
    Ok(Value::Object(block))
}

/// The user message carrying a turn's `tool_result` blocks.
pub(super) fn message(blocks: Vec<Value>) -> Value {
    json!({ "role": "user", "content": blocks })
}
