//! MCP: `Tool` objects, `tools/call` requests and `CallToolResult`s.

use serde_json::{Map, Value, json};

use super::decode::{At, DecodeError, call};
use super::transform::{MCP_RESULT_KEY, mcp_output_schema, object_root};
use crate::result::CallResult;
use crate::toolkit::{ToolCall, ToolDefinition};

const NAME: &str = "MCP";

/// A `Tool`, and whether its output is wrapped (`None` when it declares no output schema).
pub(super) fn definition(def: &ToolDefinition) -> (Value, Option<bool>) {
    let mut tool = Map::new();
    tool.insert("name".to_owned(), json!(def.name));
    tool.insert("description".to_owned(), json!(def.description));
    tool.insert("inputSchema".to_owned(), object_root(&def.input_schema));
    let mut wrapped = None;
    if let Some(output) = &def.output_schema {
        let output = mcp_output_schema(output);
        wrapped = Some(output.wrapped);
        tool.insert("outputSchema".to_owned(), output.schema);
    }
    let hints = def.annotations;
    if !hints.is_empty() {
        let mut annotations = Map::new();
        for (key, value) in [
            ("readOnlyHint", hints.read_only),
            ("destructiveHint", hints.destructive),
            ("idempotentHint", hints.idempotent),
            ("openWorldHint", hints.open_world),
        ] {
            if let Some(value) = value {
                annotations.insert(key.to_owned(), Value::Bool(value));
            }
        }
        tool.insert("annotations".to_owned(), Value::Object(annotations));
    }
    (Value::Object(tool), wrapped)
}

/// A `tools/call` request (its JSON-RPC `id` becomes the call's id) or its `params`.
pub(super) fn decode(payload: &Value) -> Result<Vec<ToolCall>, DecodeError> {
    let at = At::root(NAME, payload);
    let map = at.object()?;
    let (id, params) = if map.contains_key("method") {
        let method = at.with_field("method", |m| m.string())?;
        if method != "tools/call" {
            return Err(at.with_field("method", |m| m.error("\"tools/call\"")));
        }
        let id = match map.get("id") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(Value::Number(n)) => Some(n.to_string()),
            Some(_) => return Err(at.with_field("id", |i| i.error("a string or a number"))),
        };
        (id, "params")
    } else {
        (None, "")
    };
    let read = |params: At<'_, '_>| -> Result<ToolCall, DecodeError> {
        params.object()?;
        let name = params.with_field("name", |n| n.name())?;
        let arguments = params.with_field("arguments", |a| a.object_arguments())?;
        Ok(call(id.as_deref(), name, arguments))
    };
    let one = if params.is_empty() {
        read(at)?
    } else {
        at.with_field(params, read)?
    };
    Ok(vec![one])
}

/// A `CallToolResult`. MCP's `structuredContent` is an object: the output of a tool whose
/// `outputSchema` was wrapped, or any non-object output, is sent as `{"result": <output>}`.
/// The text content is the result's own text (for structured output, its JSON unwrapped).
pub(super) fn result(result: &CallResult, wrapped: Option<bool>) -> Value {
    let mut out = Map::new();
    out.insert(
        "content".to_owned(),
        serde_json::to_value(&result.content).expect("content blocks serialise"),
    );
    if let Some(value) = &result.structured_content {
        let wrap = wrapped == Some(true) || !value.is_object();
        let value = if wrap {
            json!({ MCP_RESULT_KEY: value })
        } else {
            value.clone()
        };
        out.insert("structuredContent".to_owned(), value);
    }
    out.insert("isError".to_owned(), Value::Bool(result.is_error));
    Value::Object(out)
}
