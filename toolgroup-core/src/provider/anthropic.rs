//! Anthropic Messages: definitions (strict within the per-request budgets), `tool_use` blocks
//! and `tool_result` blocks.

use serde_json::{Map, Value, json};

use super::decode::{At, DecodeError, MissingCallId, call};
use super::format::{Definition, Format, Strictness, call_id};
use super::schema::strict::{Stats, count};
use super::schema::{NotStrict, anthropic_strict, loose, object_root};
use crate::result::CallResult;
use crate::toolkit::{ToolCall, ToolDefinition};

const NAME: &str = "Anthropic";

/// The most tools marked strict in one Anthropic request. Source: Anthropic structured
/// outputs documentation, "strict tool use" limits.
pub const ANTHROPIC_MAX_STRICT_TOOLS: usize = 20;

/// The most optional parameters across all strict tools of one Anthropic request. Source:
/// Anthropic structured outputs documentation, "strict tool use" limits.
pub const ANTHROPIC_MAX_STRICT_OPTIONAL_PARAMS: usize = 24;

/// The most union-typed parameters (`anyOf` or a list of types) across all strict tools of one
/// Anthropic request. Source: Anthropic structured outputs documentation, "strict tool use"
/// limits.
pub const ANTHROPIC_MAX_STRICT_UNION_PARAMS: usize = 16;

/// Anthropic Messages; `strict` marks every tool that can be strict, within the budgets.
pub(crate) struct Anthropic {
    pub(crate) strict: bool,
}

fn definition(def: &ToolDefinition, input_schema: Value, strict: bool) -> Value {
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

fn loose_definition(def: &ToolDefinition) -> Value {
    definition(def, loose(&object_root(&def.input_schema)), false)
}

impl Format for Anthropic {
    fn definitions(&self, defs: &[&ToolDefinition]) -> Vec<Definition> {
        if !self.strict {
            return defs
                .iter()
                .map(|def| Definition::plain(loose_definition(def)))
                .collect();
        }
        // The budgets are per request, spent in listing order.
        let mut budget = Budget::default();
        defs.iter()
            .map(|def| {
                let attempt = anthropic_strict(&def.input_schema).and_then(|schema| {
                    let mut stats = Stats::default();
                    count(&schema, &mut stats);
                    budget
                        .take(&stats)
                        .map(|()| schema)
                        .map_err(|reason| NotStrict {
                            path: String::new(),
                            reason,
                        })
                });
                match attempt {
                    Ok(schema) => Definition {
                        json: definition(def, schema, true),
                        strictness: Strictness::Strict,
                        wrapped: None,
                    },
                    Err(why) => Definition {
                        json: loose_definition(def),
                        strictness: Strictness::Fallback(why),
                        wrapped: None,
                    },
                }
            })
            .collect()
    }

    fn decode(&self, payload: &Value) -> Result<Vec<ToolCall>, DecodeError> {
        decode(payload)
    }

    fn result(
        &self,
        call: &ToolCall,
        result: &CallResult,
        _wrapped: Option<bool>,
    ) -> Result<Value, MissingCallId> {
        let id = call_id(call, NAME)?;
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

    /// One user message carrying the turn's `tool_result` blocks.
    fn messages(&self, items: Vec<Value>) -> Vec<Value> {
        vec![json!({ "role": "user", "content": items })]
    }
}

/// What Anthropic strict tools already listed have spent of the per-request limits.
#[derive(Default)]
struct Budget {
    tools: usize,
    optional: usize,
    unions: usize,
}

impl Budget {
    /// Take the cost of one more strict tool, or say which limit it would pass.
    fn take(&mut self, stats: &Stats) -> Result<(), String> {
        let over = if self.tools + 1 > ANTHROPIC_MAX_STRICT_TOOLS {
            Some(format!("{ANTHROPIC_MAX_STRICT_TOOLS} strict tools"))
        } else if self.optional + stats.optional > ANTHROPIC_MAX_STRICT_OPTIONAL_PARAMS {
            Some(format!(
                "{ANTHROPIC_MAX_STRICT_OPTIONAL_PARAMS} optional parameters across strict tools"
            ))
        } else if self.unions + stats.unions > ANTHROPIC_MAX_STRICT_UNION_PARAMS {
            Some(format!(
                "{ANTHROPIC_MAX_STRICT_UNION_PARAMS} union-typed parameters across strict tools"
            ))
        } else {
            None
        };
        if let Some(limit) = over {
            return Err(format!(
                "would pass Anthropic's per-request limit of {limit}, used up by the strict tools listed before it"
            ));
        }
        self.tools += 1;
        self.optional += stats.optional;
        self.unions += stats.unions;
        Ok(())
    }
}

/// `tool_use` blocks of an assistant message's `content` (or of the list itself).
fn decode(payload: &Value) -> Result<Vec<ToolCall>, DecodeError> {
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
