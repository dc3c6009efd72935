//! Gemini: function declarations (JSON Schema or the legacy OpenAPI dialect), the
//! `functionDeclarations` envelope, `toolConfig` allow-lists, `functionCall` parts and
//! `functionResponse` parts.

use serde_json::{Map, Value, json};

use super::content::{
    Delivery, describe, is_one_of, link_text, media_len, over_limit, resource_text,
    unsupported_note,
};
use super::decode::{At, DecodeError, MissingCallId, call};
use super::format::{AllowMode, Definition, Encoded, Envelope, Format};
use super::schema::{gemini_json_schema, gemini_legacy_schema, has_no_parameters, object_root};
use crate::meta::ToolDefinition;
use crate::result::{CallResult, Content, ResourceContents, base64_encode};
use crate::toolkit::ToolCall;

const NAME: &str = "Gemini";

/// The most function declarations in one Gemini request. Source: Vertex AI function calling
/// reference, "Limitations" ("a maximum of 128 function declarations").
pub const GEMINI_MAX_FUNCTIONS: usize = 128;

/// The most inline data (the base64 of images, audio and documents) one Gemini tool result
/// may carry. Source: Gemini API file input guide ("the total request size limit is 20 MB"
/// for inline data; larger files go through the File API).
pub const GEMINI_MAX_INLINE_BYTES: usize = 20_000_000;

/// Types a function response may carry in its `parts`. Source: Gemini API function calling
/// guide, "Multimodal function responses" (images: PNG, JPEG, WebP; documents: PDF, plain
/// text).
const RESPONSE_PART_TYPES: &[&str] = &[
    "image/png",
    "image/jpeg",
    "image/webp",
    "application/pdf",
    "text/plain",
];

/// Audio types a user content may carry inline. Source: Gemini API audio understanding guide
/// (WAV, MP3, AIFF, AAC, OGG Vorbis, FLAC).
const AUDIO_TYPES: &[&str] = &[
    "audio/wav",
    "audio/mp3",
    "audio/mpeg",
    "audio/aiff",
    "audio/aac",
    "audio/ogg",
    "audio/flac",
];

/// Gemini; `legacy` declares `parameters` in the OpenAPI subset instead of
/// `parametersJsonSchema`.
pub(crate) struct Gemini {
    pub(crate) legacy: bool,
}

/// The request's `tools`: one tool holding every declaration.
const TOOLS: Envelope = Envelope {
    open: r#"[{"functionDeclarations":["#,
    close: "]}]",
    empty: "[]",
};

/// `toolConfig` (Gemini API reference, `FunctionCallingConfig`: `allowedFunctionNames` only
/// with modes `ANY` and `VALIDATED`); mode `NONE` when no tool is available.
const VALIDATED: Envelope = Envelope {
    open: r#"{"functionCallingConfig":{"mode":"VALIDATED","allowedFunctionNames":["#,
    close: "]}}",
    empty: r#"{"functionCallingConfig":{"mode":"NONE"}}"#,
};
const ANY: Envelope = Envelope {
    open: r#"{"functionCallingConfig":{"mode":"ANY","allowedFunctionNames":["#,
    close: "]}}",
    empty: r#"{"functionCallingConfig":{"mode":"NONE"}}"#,
};

impl Gemini {
    /// A function declaration. A tool without parameters declares none: Gemini documents
    /// leaving them unset, and rejects an object schema with no properties in the legacy
    /// dialect.
    fn definition(&self, def: &ToolDefinition) -> Value {
        let mut declaration = Map::new();
        declaration.insert("name".to_owned(), json!(def.name));
        declaration.insert("description".to_owned(), json!(def.description));
        if !has_no_parameters(&def.input_schema) {
            let input = object_root(&def.input_schema);
            if self.legacy {
                declaration.insert("parameters".to_owned(), gemini_legacy_schema(&input));
            } else {
                declaration.insert(
                    "parametersJsonSchema".to_owned(),
                    gemini_json_schema(&input),
                );
            }
        }
        Value::Object(declaration)
    }
}

impl Format for Gemini {
    fn definitions(&self, defs: &[&ToolDefinition]) -> Vec<Definition> {
        defs.iter()
            .map(|def| Definition::plain(self.definition(def)))
            .collect()
    }

    fn tools_envelope(&self) -> Envelope {
        TOOLS
    }

    fn allow_envelope(&self, mode: AllowMode) -> Option<Envelope> {
        Some(match mode {
            AllowMode::Auto => VALIDATED,
            AllowMode::Required => ANY,
        })
    }

    fn allow_entry(&self, name: &str) -> String {
        Value::from(name).to_string()
    }

    fn decode(&self, payload: &Value) -> Result<Vec<ToolCall>, DecodeError> {
        decode(payload)
    }

    /// A `functionResponse` part. Gemini reads `output` as the function's output and `error`
    /// as its failure (Gemini API reference, `FunctionResponse.response`); a structured
    /// result is sent as JSON, any other as its text. Images and documents go in the
    /// response's `parts` as `inlineData`; audio follows in the same user content.
    fn result(
        &self,
        call: &ToolCall,
        result: &CallResult,
        _wrapped: Option<bool>,
    ) -> Result<Encoded, MissingCallId> {
        let deliveries: Vec<Delivery<'_>> = result.content.iter().map(delivery).collect();
        if let Some(error) = over_limit(
            &call.tool,
            NAME,
            media_len(&deliveries),
            GEMINI_MAX_INLINE_BYTES,
            "its images, audio and documents",
        ) {
            return self.result(call, &error, None);
        }
        let mut text = Vec::with_capacity(deliveries.len());
        let mut notes = Vec::new();
        let mut parts = Vec::new();
        let mut attachments = Vec::new();
        for (block, d) in result.content.iter().zip(deliveries) {
            match d {
                Delivery::Text(t) if block.as_text().is_some() => text.push(t),
                Delivery::Text(t) => notes.push(t),
                Delivery::Part(part, _) => {
                    notes.push(format!(
                        "[{}: in the parts of this response]",
                        describe(block)
                    ));
                    parts.push(part());
                }
                Delivery::Attachment(part, _) => {
                    notes.push(format!(
                        "[{}: attached after the function responses]",
                        describe(block)
                    ));
                    attachments.push(part());
                }
            }
        }
        let response = match (&result.structured_content, result.is_error) {
            (_, true) | (None, false) => {
                let mut all = text;
                all.extend(notes);
                let key = if result.is_error { "error" } else { "output" };
                json!({ key: all.join("\n") })
            }
            (Some(value), false) => {
                // The output's own JSON text goes as `output`; any other text (a first use's
                // instructions, a lifecycle rule's switch-offs, a rich result's own words)
                // would be lost with it, so it goes in `notes`. Checked only where there can
                // be such text: a plain structured result has one block, its JSON.
                let mut extra = Vec::new();
                if text.len() > 1
                    || result.activation().is_some()
                    || result.switched_off().is_some()
                {
                    let own = value.to_string();
                    extra.extend(text.into_iter().filter(|t| *t != own));
                }
                extra.extend(notes);
                if extra.is_empty() {
                    json!({ "output": value })
                } else {
                    json!({ "output": value, "notes": extra.join("\n") })
                }
            }
        };
        let mut function_response = Map::new();
        if let Some(id) = &call.call_id {
            function_response.insert("id".to_owned(), json!(id));
        }
        function_response.insert("name".to_owned(), json!(call.tool));
        function_response.insert("response".to_owned(), response);
        if !parts.is_empty() {
            function_response.insert("parts".to_owned(), Value::Array(parts));
        }
        Ok(Encoded {
            item: json!({ "functionResponse": function_response }),
            attachments,
        })
    }

    /// One user content carrying the turn's `functionResponse` parts.
    fn messages(&self, items: Vec<Encoded>) -> Vec<Value> {
        let mut parts = Vec::with_capacity(items.len());
        let mut attachments = Vec::new();
        for encoded in items {
            parts.push(encoded.item);
            attachments.extend(encoded.attachments);
        }
        parts.extend(attachments);
        vec![json!({ "role": "user", "parts": parts })]
    }
}

/// `functionCall` parts of a response (`candidates[0].content`), a content, or a list of parts.
fn decode(payload: &Value) -> Result<Vec<ToolCall>, DecodeError> {
    let at = At::root(NAME, payload);
    match payload {
        Value::Array(_) => parts(at),
        Value::Object(map) if map.contains_key("candidates") => {
            at.with_field("candidates", |candidates| {
                candidates.first("a list of candidates", |first| {
                    // A candidate stopped before any content (safety, length) has no calls.
                    first.with_field("content", |content| {
                        content.optional(|content| {
                            content.with_field("parts", |list| list.optional(parts))
                        })
                    })
                })
            })
        }
        Value::Object(_) => at.with_field("parts", |list| list.optional(parts)),
        _ => Err(at.error("a response, a content or a list of parts")),
    }
}

fn parts(at: At<'_, '_>) -> Result<Vec<ToolCall>, DecodeError> {
    at.each(|part| {
        let map = part.object()?;
        // The REST API writes camelCase; SDK dumps may use the proto's snake_case.
        let field = if map.contains_key("functionCall") {
            "functionCall"
        } else if map.contains_key("function_call") {
            "function_call"
        } else {
            return Ok(None);
        };
        part.with_field(field, |fc| {
            fc.object()?;
            let name = fc.with_field("name", |n| n.name())?;
            let args = fc.with_field("args", |a| a.object_arguments())?;
            let id = fc.with_field("id", |id| id.opt_string())?;
            Ok(Some(call(id, name, args)))
        })
    })
}

/// Text, text resources and links as text; images and documents of the supported types as
/// `inlineData` parts of the response; audio as an `inlineData` part after the responses;
/// anything else as a note.
fn delivery(block: &Content) -> Delivery<'_> {
    let inline = |mime: &str, data: &[u8]| json!({ "inlineData": { "mimeType": mime, "data": base64_encode(data) } });
    match block {
        Content::Text { text, .. } => Delivery::Text(text.clone()),
        Content::Image {
            data, mime_type, ..
        } if is_one_of(mime_type, RESPONSE_PART_TYPES) => {
            Delivery::part(data.len(), move || inline(mime_type, data))
        }
        Content::Audio {
            data, mime_type, ..
        } if is_one_of(mime_type, AUDIO_TYPES) => {
            Delivery::attachment(data.len(), move || inline(mime_type, data))
        }
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
            } if is_one_of(mime, RESPONSE_PART_TYPES) => {
                Delivery::part(blob.len(), move || inline(mime, blob))
            }
            _ => Delivery::Text(unsupported_note(block, NAME)),
        },
        _ => match link_text(block) {
            Some(text) => Delivery::Text(text),
            None => Delivery::Text(unsupported_note(block, NAME)),
        },
    }
}
