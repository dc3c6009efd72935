//! The outcome of a tool call, shaped like MCP's `CallToolResult`.

use serde::Serialize;
use serde_json::Value;

/// One block of a call result's content.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
#[non_exhaustive]
pub enum Content {
    /// Plain text.
    Text {
        /// The text.
        text: String,
    },
}

impl Content {
    /// A text block.
    pub fn text(text: impl Into<String>) -> Self {
        Content::Text { text: text.into() }
    }

    /// The text of this block, if it is text.
    pub fn as_text(&self) -> Option<&str> {
        match self {
            Content::Text { text } => Some(text),
        }
    }
}

/// The result of one tool call: what the model gets back.
///
/// Every failure a model can cause (unknown tool, bad arguments, a tool's own error, a panic,
/// a timeout, a refused `reset_tools`) is a `CallResult` with `is_error == true`, never a panic
/// or an `Err` that would end the conversation. It serialises as MCP's `CallToolResult`
/// (`content`, `structuredContent`, `isError`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CallResult {
    /// Content blocks for the model.
    pub content: Vec<Content>,
    /// The same facts as JSON, when the tool returned a structured value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub structured_content: Option<Value>,
    /// Whether the call failed.
    pub is_error: bool,
}

impl CallResult {
    /// A successful text result.
    pub fn text(text: impl Into<String>) -> Self {
        CallResult {
            content: vec![Content::text(text)],
            structured_content: None,
            is_error: false,
        }
    }

    /// An error result with the given text.
    pub fn error(text: impl Into<String>) -> Self {
        CallResult {
            content: vec![Content::text(text)],
            structured_content: None,
            is_error: true,
        }
    }

    /// A successful result carrying a structured value and its JSON text.
    ///
    /// If the value cannot be serialised (a `Serialize` impl that fails, a map with
    /// non-string keys), the result is an error naming the cause.
    pub fn structured<T: Serialize + ?Sized>(value: &T) -> Self {
        match serde_json::to_value(value) {
            Ok(value) => {
                let text = value.to_string();
                CallResult {
                    content: vec![Content::text(text)],
                    structured_content: Some(value),
                    is_error: false,
                }
            }
            Err(e) => CallResult::error(format!("the tool's result could not be serialised: {e}")),
        }
    }

    /// An empty successful result (a tool returning `()`).
    pub fn empty() -> Self {
        CallResult {
            content: Vec::new(),
            structured_content: None,
            is_error: false,
        }
    }

    /// Attach structured content.
    pub fn with_structured(mut self, value: Value) -> Self {
        self.structured_content = Some(value);
        self
    }

    /// All text blocks joined with newlines.
    pub fn text_joined(&self) -> String {
        let mut out = String::new();
        for block in &self.content {
            if let Some(t) = block.as_text() {
                if !out.is_empty() {
                    out.push('\n');
                }
                out.push_str(t);
            }
        }
        out
    }
}
