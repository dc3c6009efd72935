//! Decoding a response in the deferred mode: every item's type checked against the
//! provider's documented ones, the `namespace` of OpenAI Responses calls kept for replay, and
//! tool-search calls listed.

use std::fmt;

use serde_json::Value;

use crate::echo::echo;
use crate::provider::Provider;
use crate::provider::decode::{At, DecodeError};
use crate::toolkit::ToolCall;

/// Content block types of an Anthropic message (anthropic 2.15.0, `BetaContentBlock`).
const ANTHROPIC_BLOCKS: &[&str] = &[
    "text",
    "thinking",
    "redacted_thinking",
    "tool_use",
    "server_tool_use",
    "web_search_tool_result",
    "web_fetch_tool_result",
    "advisor_tool_result",
    "code_execution_tool_result",
    "bash_code_execution_tool_result",
    "text_editor_code_execution_tool_result",
    "tool_search_tool_result",
    "mcp_tool_use",
    "mcp_tool_result",
    "container_upload",
    "compaction",
    "fallback",
    "mcp_tool_listing",
];

/// Output item types of an OpenAI response (openai 3.57.0, `ResponseOutputItem`).
const RESPONSES_ITEMS: &[&str] = &[
    "message",
    "file_search_call",
    "function_call",
    "function_call_output",
    "web_search_call",
    "computer_call",
    "computer_call_output",
    "reasoning",
    "program",
    "program_output",
    "tool_search_call",
    "tool_search_output",
    "additional_tools",
    "compaction",
    "image_generation_call",
    "code_interpreter_call",
    "local_shell_call",
    "local_shell_call_output",
    "shell_call",
    "shell_call_output",
    "apply_patch_call",
    "apply_patch_call_output",
    "mcp_call",
    "mcp_list_tools",
    "mcp_approval_request",
    "mcp_approval_response",
    "custom_tool_call",
    "custom_tool_call_output",
];

/// The tool calls of one response, as the deferred mode reads them.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Turn {
    /// The calls of toolkit tools, in order (give them to
    /// [`Toolkit::call_batch`](crate::Toolkit::call_batch)).
    pub calls: Vec<ToolCall>,
    /// For each call, the `namespace` OpenAI Responses sent with it (`None` elsewhere);
    /// [`Deferred::result_messages`](super::Deferred::result_messages) replays it.
    pub namespaces: Vec<Option<String>>,
    /// OpenAI Responses' tool-search calls (run by the server: nothing to answer).
    pub searches: Vec<ToolSearchCall>,
}

/// An OpenAI Responses `tool_search_call` item.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ToolSearchCall {
    /// The item's `id`.
    pub id: String,
    /// `server` or `client` (as sent; `server` when absent).
    pub execution: String,
}

/// A response the deferred mode cannot read.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum DeferredDecodeError {
    /// A payload of the wrong shape.
    Shape(DecodeError),
    /// An item or block type the provider does not document.
    UnknownItem {
        /// The provider.
        provider: &'static str,
        /// Where (`output[2].type`).
        path: String,
        /// The type as sent (escaped and capped).
        kind: String,
    },
}

impl fmt::Display for DeferredDecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DeferredDecodeError::Shape(e) => e.fmt(f),
            DeferredDecodeError::UnknownItem {
                provider,
                path,
                kind,
            } => write!(
                f,
                "unknown {provider} item type `{kind}` at {path}: this version of toolgroup reads the types of the provider's SDK types it was written against; update toolgroup, or drop the item before decoding"
            ),
        }
    }
}

impl std::error::Error for DeferredDecodeError {}

impl From<DecodeError> for DeferredDecodeError {
    fn from(e: DecodeError) -> Self {
        DeferredDecodeError::Shape(e)
    }
}

pub(super) fn decode(provider: Provider, payload: &Value) -> Result<Turn, DeferredDecodeError> {
    let calls = provider.decode_calls(payload)?;
    let mut turn = Turn {
        namespaces: vec![None; calls.len()],
        calls,
        searches: Vec::new(),
    };
    let (list, field, known, name) = match provider {
        Provider::Anthropic | Provider::AnthropicStrict => {
            ("content", "content", ANTHROPIC_BLOCKS, "Anthropic")
        }
        Provider::OpenAiResponses => ("output", "output", RESPONSES_ITEMS, "OpenAI Responses"),
        _ => return Ok(turn),
    };
    let items = match payload {
        Value::Array(items) => items.as_slice(),
        _ => payload
            .get(list)
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice),
    };
    let prefix = if payload.is_array() { "" } else { field };
    let mut call = 0;
    for (i, item) in items.iter().enumerate() {
        let kind = item.get("type").and_then(Value::as_str).unwrap_or_default();
        if !known.contains(&kind) {
            return Err(DeferredDecodeError::UnknownItem {
                provider: name,
                path: format!("{prefix}[{i}].type"),
                kind: echo(kind, 64),
            });
        }
        match kind {
            "function_call" | "tool_use" => {
                if let (Some(Value::String(ns)), Some(slot)) =
                    (item.get("namespace"), turn.namespaces.get_mut(call))
                {
                    *slot = Some(ns.clone());
                }
                call += 1;
            }
            "tool_search_call" => {
                let at = At::root(name, item);
                let id = at.with_field("id", |id| id.string())?;
                let execution = at
                    .with_field("execution", |e| e.opt_string())?
                    .unwrap_or("server");
                turn.searches.push(ToolSearchCall {
                    id: id.to_owned(),
                    execution: execution.to_owned(),
                });
            }
            _ => {}
        }
    }
    Ok(turn)
}

/// Add each call's namespace to its OpenAI Responses `function_call_output` item.
pub(super) fn replay_namespaces(provider: Provider, turn: &Turn, messages: &mut [Value]) {
    if provider != Provider::OpenAiResponses {
        return;
    }
    for (call, ns) in turn.calls.iter().zip(&turn.namespaces) {
        let (Some(id), Some(ns)) = (call.call_id.as_deref(), ns) else {
            continue;
        };
        if let Some(Value::Object(item)) = messages
            .iter_mut()
            .find(|m| m["type"] == "function_call_output" && m["call_id"] == id)
        {
            item.insert("namespace".to_owned(), Value::String(ns.clone()));
        }
    }
}
