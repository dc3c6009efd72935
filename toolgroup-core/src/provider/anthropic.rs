//! Anthropic Messages: definitions (strict within the per-request budgets), `tool_use` blocks
//! and `tool_result` blocks.

use serde_json::{Map, Value, json};

use super::content::{
    Delivery, is_one_of, link_text, media_len, over_limit, resource_text, unsupported_note,
};
use super::decode::{At, DecodeError, MissingCallId, call};
use super::format::{Definition, Encoded, Format, Strictness, call_id, plain_terms};
use super::schema::strict::{Stats, count};
use super::schema::{NotStrict, anthropic_strict, loose, object_root};
use crate::meta::ToolDefinition;
use crate::result::{CallResult, Content, ResourceContents, base64_encode};
use crate::toolkit::ToolCall;

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

/// The most media (the base64 of images and documents) one Anthropic tool result may carry.
/// Source: Anthropic vision guide, "General limits" (a request's total payload is at most
/// 32 MB).
pub const ANTHROPIC_MAX_MEDIA_BYTES: usize = 32_000_000;

/// The largest image (its base64) Anthropic accepts. Source: Anthropic vision guide, "General
/// limits" (5 MB per image through the API).
pub const ANTHROPIC_MAX_IMAGE_BYTES: usize = 5_000_000;

/// Image types Anthropic reads. Source: Anthropic vision guide (JPEG, PNG, GIF, WebP).
const IMAGE_TYPES: &[&str] = &["image/jpeg", "image/png", "image/gif", "image/webp"];

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
                        strictness: Strictness::Fallback(plain_terms(def, why)),
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
    ) -> Result<Encoded, MissingCallId> {
        let id = call_id(call, NAME)?;
        let deliveries: Vec<Delivery<'_>> = result.content.iter().map(delivery).collect();
        let largest_image = result
            .content
            .iter()
            .zip(&deliveries)
            .filter_map(|(block, d)| match (block, d) {
                (Content::Image { .. }, Delivery::Part(_, n)) => Some(*n),
                _ => None,
            })
            .max()
            .unwrap_or(0);
        if let Some(error) = over_limit(
            &call.tool,
            NAME,
            media_len(&deliveries),
            ANTHROPIC_MAX_MEDIA_BYTES,
            "its images and documents",
        )
        .or_else(|| {
            over_limit(
                &call.tool,
                NAME,
                largest_image,
                ANTHROPIC_MAX_IMAGE_BYTES,
                "its largest image",
            )
        }) {
            return self.result(call, &error, None);
        }
        let mut block = Map::new();
        block.insert("type".to_owned(), json!("tool_result"));
        block.insert("tool_use_id".to_owned(), json!(id));
        // Anthropic rejects empty text blocks; a result without content sends none.
        let content: Vec<Value> = deliveries
            .into_iter()
            .filter_map(|d| match d {
                Delivery::Text(text) if text.is_empty() => None,
                Delivery::Text(text) => Some(json!({ "type": "text", "text": text })),
                Delivery::Part(part, _) | Delivery::Attachment(part, _) => Some(part()),
            })
            .collect();
        if !content.is_empty() {
            block.insert("content".to_owned(), Value::Array(content));
        }
        block.insert("is_error".to_owned(), Value::Bool(result.is_error));
        Ok(Encoded::item(Value::Object(block)))
    }

    /// One user message carrying the turn's `tool_result` blocks.
    fn messages(&self, items: Vec<Encoded>) -> Vec<Value> {
        let blocks: Vec<Value> = items.into_iter().map(|e| e.item).collect();
        vec![json!({ "role": "user", "content": blocks })]
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

/// Text, resources and links as `text` blocks; images as `image` blocks and PDF files as
/// `document` blocks (base64 sources), which a `tool_result` may hold (Anthropic tool use
/// guide, "tool_result" content); anything else (audio) as a note.
fn delivery(block: &Content) -> Delivery<'_> {
    fn base64<'a>(kind: &'static str, mime: &'a str, data: &'a [u8]) -> Delivery<'a> {
        Delivery::part(data.len(), move || {
            json!({
                "type": kind,
                "source": { "type": "base64", "media_type": mime, "data": base64_encode(data) },
            })
        })
    }
    match block {
        Content::Text { text, .. } => Delivery::Text(text.clone()),
        Content::Image {
            data, mime_type, ..
        } if is_one_of(mime_type, IMAGE_TYPES) => base64("image", mime_type, data),
        Content::Resource { resource, .. } => match resource {
            ResourceContents::Text {
                uri,
                mime_type,
                text,
                ..
            } => Delivery::Text(resource_text(uri, mime_type.as_deref(), text)),
            ResourceContents::Blob {
                mime_type: Some(mime),
                blob,
                ..
            } if is_one_of(mime, &["application/pdf"]) => base64("document", mime, blob),
            ResourceContents::Blob {
                mime_type: Some(mime),
                blob,
                ..
            } if is_one_of(mime, IMAGE_TYPES) => base64("image", mime, blob),
            _ => Delivery::Text(unsupported_note(block, NAME)),
        },
        _ => match link_text(block) {
            Some(text) => Delivery::Text(text),
            None => Delivery::Text(unsupported_note(block, NAME)),
        },
    }
}
