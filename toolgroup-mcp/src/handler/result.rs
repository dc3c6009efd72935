//! A call's result as MCP's `CallToolResult`.

use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock, ErrorData, ResultType};
use toolgroup_core::{CallResult, Content, Registry, ToolCall};

use super::Handler;

impl<R: Registry> Handler<R> {
    /// An error result as rmcp's type.
    pub(super) fn error_result(text: String) -> CallToolResponse {
        CallToolResult::error(vec![ContentBlock::text(text)]).into()
    }

    /// The MCP `CallToolResult` of a call: built directly for text and structured results
    /// (the common case), through the MCP rendering of the result otherwise.
    pub(super) fn to_mcp(
        &self,
        name: &str,
        result: CallResult,
    ) -> Result<CallToolResponse, ErrorData> {
        if !result.content.iter().all(|c| {
            matches!(
                c,
                Content::Text {
                    annotations: None,
                    ..
                }
            )
        }) {
            return self.rendered_result(name, &result).map(Into::into);
        }
        #[cfg(debug_assertions)]
        let expected = self.rendered_result(name, &result);
        let activation = result.activation().cloned();
        let switched_off = result.switched_off().cloned();
        let CallResult {
            content,
            structured_content,
            is_error,
            ..
        } = result;
        let blocks = content
            .into_iter()
            .filter_map(|c| match c {
                Content::Text { text, .. } => Some(ContentBlock::text(text)),
                _ => None,
            })
            .collect();
        let mut out = if is_error {
            CallToolResult::error(blocks)
        } else {
            CallToolResult::success(blocks)
        };
        if structured_content.is_some() {
            let wrapped = self
                .shared
                .index
                .get(name)
                .and_then(|&i| self.shared.wrapped[i]);
            out.structured_content = toolgroup_core::provider::mcp_structured_content(
                structured_content,
                wrapped,
                activation.as_ref(),
                switched_off.as_ref(),
            );
        }
        #[cfg(debug_assertions)]
        debug_assert_eq!(Some(&out), expected.as_ref().ok());
        Ok(out.into())
    }

    fn rendered_result(
        &self,
        name: &str,
        result: &CallResult,
    ) -> Result<CallToolResult, ErrorData> {
        let call = ToolCall::new(name, "");
        let value = self
            .shared
            .rendered
            .result_message(&call, result)
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        let mut result: CallToolResult = serde_json::from_value(value)
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        result.result_type = Some(ResultType::COMPLETE);
        Ok(result)
    }
}
