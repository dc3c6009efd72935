//! What the tests and the `rig_agent` example read from a rig run: the tools each model call was offered and the tool
//! results the model got back.

#![allow(dead_code)]

use rig_agent::core::completion::CompletionRequest;
use rig_agent::core::message::{Message, ToolResultContent, UserContent};
use rig_agent::core::test_utils::{MockCompletionModel, MockTurn};
use serde_json::Value;

/// The tool names each recorded model request advertised, in order.
pub fn offered(model: &MockCompletionModel) -> Vec<Vec<String>> {
    model.requests().iter().map(names).collect()
}

fn names(request: &CompletionRequest) -> Vec<String> {
    request.tools.iter().map(|t| t.name.to_string()).collect()
}

/// One tool result of a run's transcript.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    pub name: String,
    pub is_error: bool,
    pub text: String,
}

/// The tool results of `messages`, in order; JSON blocks as their compact text.
pub fn answers(messages: &[Message]) -> Vec<Answer> {
    let mut out = Vec::new();
    for message in messages {
        let Message::User { content } = message else {
            continue;
        };
        for item in content {
            if let UserContent::ToolResult(result) = item {
                let text = result
                    .content
                    .iter()
                    .map(|block| match block {
                        ToolResultContent::Json { value } => value.to_string(),
                        other => other.as_text().unwrap_or("[an image]").to_owned(),
                    })
                    .collect::<Vec<_>>()
                    .join("\n");
                out.push(Answer {
                    name: result.name.to_string(),
                    is_error: result.is_error,
                    text,
                });
            }
        }
    }
    out
}

/// A scripted model turn calling `name` with `arguments`.
pub fn call(id: &str, name: &str, arguments: Value) -> MockTurn {
    MockTurn::tool_call(id, name, arguments)
}
