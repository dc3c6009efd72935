//! A group whose tools are found at run time: exercised with valid arguments only (the
//! source checks its own arguments, so a mutation's answer tells nothing).

use std::sync::Arc;

use serde_json::{Value, json};
use toolgroup::dynamic::{Dynamic, DynamicTool, DynamicTools, ToolSet};
use toolgroup::prelude::*;
use toolgroup::{BoxFuture, ToolDefinition};

#[tool_group(name = "remote", description = "Tools found at run time.", dynamic)]
pub struct Remote;

/// A source with two tools: `pick` panics when `n` is 0, `steady` never fails.
pub struct Source(Arc<ToolSet>);

impl DynamicTools for Source {
    fn tools(&self) -> Arc<ToolSet> {
        self.0.clone()
    }

    fn call<'a>(
        &'a self,
        tool: &'static ToolDefinition,
        _: toolgroup::ToolContext<'a>,
        arguments: toolgroup::args::Arguments<'a>,
    ) -> BoxFuture<'a, CallResult> {
        let arguments: Value = match arguments {
            toolgroup::args::Arguments::Text(text) => {
                serde_json::from_str(text).unwrap_or(Value::Null)
            }
            toolgroup::args::Arguments::Value(value) => value.clone(),
        };
        Box::pin(async move {
            if tool.name == "pick" && arguments["n"] == 0 {
                panic!("picked nothing");
            }
            CallResult::text("done")
        })
    }
}

#[toolkit]
pub struct Site {
    pub remote: Dynamic<Remote, Source>,
}

pub fn site() -> Toolkit<Site> {
    let tools = ToolSet::new([
        DynamicTool::new(
            "pick",
            "Pick.",
            json!({
                "type": "object",
                "properties": {"n": {"type": "integer", "minimum": 0, "maximum": 3}},
                "required": ["n"],
            }),
        ),
        DynamicTool::new("steady", "Steady.", json!({"type": "object"})),
    ]);
    Toolkit::new(Site {
        remote: Dynamic::new(Source(Arc::new(tools))),
    })
}
