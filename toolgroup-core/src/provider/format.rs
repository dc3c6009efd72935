//! What every provider file implements, and the types shared by them and the renderer.
//!
//! Each provider's knowledge lives in its own file (`openai.rs`, `anthropic.rs`, `gemini.rs`,
//! `mcp.rs`) as an implementation of [`Format`]; [`Rendered`](super::Rendered) only loops over
//! the definitions and asks the provider's format. This module depends on no provider file.

use serde_json::Value;

use super::decode::{DecodeError, MissingCallId};
use super::schema::NotStrict;
use crate::meta::ToolDefinition;
use crate::result::CallResult;
use crate::toolkit::ToolCall;

/// Whether a rendered tool is strict.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Strictness {
    /// Marked strict: the provider constrains the model's arguments to the schema.
    Strict,
    /// The provider has a strict mode, but this tool cannot use it: rendered non-strict with
    /// its full schema, for the reason given.
    Fallback(NotStrict),
    /// The provider (or the chosen variant) has no strict mode: Gemini, MCP and
    /// [`Provider::Anthropic`](super::Provider::Anthropic).
    NotApplicable,
}

/// What the model may do in the mask delivery mode
/// ([`Rendered::allowed_tools_json`](super::Rendered::allowed_tools_json)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum AllowMode {
    /// The model may call an allowed tool or answer in text (OpenAI `"auto"`, Gemini
    /// `"VALIDATED"`).
    #[default]
    Auto,
    /// The model must call one or more allowed tools (OpenAI `"required"`, Gemini `"ANY"`).
    Required,
}

/// One tool definition rendered for a provider.
pub(crate) struct Definition {
    /// The definition as it goes into the request's tool list.
    pub(crate) json: Value,
    /// Whether it is strict.
    pub(crate) strictness: Strictness,
    /// MCP: whether results' structured content is wrapped as `{"result": ...}` (`None`: the
    /// tool declares no output schema). Other providers: `None`.
    pub(crate) wrapped: Option<bool>,
}

impl Definition {
    /// A definition without strict mode or output wrapping.
    pub(crate) fn plain(json: Value) -> Self {
        Definition {
            json,
            strictness: Strictness::NotApplicable,
            wrapped: None,
        }
    }
}

/// The JSON text around a list of definitions or allow-list entries.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Envelope {
    /// Text before the first entry.
    pub(crate) open: &'static str,
    /// Text after the last entry.
    pub(crate) close: &'static str,
    /// The whole value when there is no entry.
    pub(crate) empty: &'static str,
}

impl Envelope {
    /// `list` (a value of this envelope: `empty`, or `open`, entries, `close`) with the
    /// entries `joined` (comma separated; none when empty) appended after its own.
    pub(crate) fn append(&self, mut list: String, joined: &str) -> String {
        if joined.is_empty() {
            return list;
        }
        if list == self.empty || !list.ends_with(self.close) {
            list.clear();
            list.push_str(self.open);
        } else {
            list.truncate(list.len() - self.close.len());
            if list != self.open {
                list.push(',');
            }
        }
        list.push_str(joined);
        list.push_str(self.close);
        list
    }
}

/// A tool list that is a bare JSON array.
pub(crate) const ARRAY: Envelope = Envelope {
    open: "[",
    close: "]",
    empty: "[]",
};

/// One provider's (or API variant's) rules: definitions, the request envelopes, decoding calls
/// and encoding results.
pub(crate) trait Format: Sync {
    /// Render every definition, in order (a provider may spend a per-request budget in this
    /// order).
    fn definitions(&self, defs: &[&ToolDefinition]) -> Vec<Definition>;

    /// The request's `tools` value around the definitions.
    fn tools_envelope(&self) -> Envelope {
        ARRAY
    }

    /// The allow-list value around its entries, or `None` when the provider has no allow-list.
    fn allow_envelope(&self, mode: AllowMode) -> Option<Envelope> {
        let _ = mode;
        None
    }

    /// One tool's entry in the allow-list (JSON text); unused without an allow-list.
    fn allow_entry(&self, name: &str) -> String {
        let _ = name;
        String::new()
    }

    /// The tool calls of a response.
    fn decode(&self, payload: &Value) -> Result<Vec<ToolCall>, DecodeError>;

    /// One result as the provider's tool-result item, and what goes in the next user message.
    /// `wrapped` is the tool's [`Definition::wrapped`] (`None` for an unknown tool).
    fn result(
        &self,
        call: &ToolCall,
        result: &CallResult,
        wrapped: Option<bool>,
    ) -> Result<Encoded, MissingCallId>;

    /// A turn's encoded results (at least one) as the messages to append to the conversation.
    /// The default: the items, one message each (the provider has no attachments).
    fn messages(&self, items: Vec<Encoded>) -> Vec<Value> {
        items.into_iter().map(|e| e.item).collect()
    }
}

/// One result encoded for a provider.
pub(crate) struct Encoded {
    /// The tool-result item (message, block, part).
    pub(crate) item: Value,
    /// Content the provider cannot take in a tool result, to deliver in the user message that
    /// follows the results (in the provider's content-part shape); empty for most results.
    pub(crate) attachments: Vec<Value>,
}

impl Encoded {
    /// A result item without attachments.
    pub(crate) fn item(item: Value) -> Self {
        Encoded {
            item,
            attachments: Vec::new(),
        }
    }
}

/// The call's id, which `provider` needs to match a result to its call.
pub(crate) fn call_id<'c>(
    call: &'c ToolCall,
    provider: &'static str,
) -> Result<&'c str, MissingCallId> {
    call.call_id.as_deref().ok_or_else(|| MissingCallId {
        provider,
        tool: call.tool.clone(),
    })
}

/// A strict-mode fallback's reason for `def`: in Rust terms for a tool generated from Rust,
/// in JSON Schema terms for one found at run time.
pub(super) fn plain_terms(def: &ToolDefinition, why: NotStrict) -> NotStrict {
    if def.from_rust {
        why
    } else {
        why.in_json_schema_terms()
    }
}
