//! OpenAI Chat Completions and Responses: definitions, the list and allow-list envelopes,
//! decoding calls and encoding results.

use serde_json::{Value, json};

use super::content::{
    Delivery, attached_note, data_url, file_name, is_one_of, link_text, media_len, over_limit,
    resource_text, unsupported_note,
};
use super::decode::{At, DecodeError, MissingCallId, call};
use super::format::{
    AllowMode, Definition, Encoded, Envelope, Format, Strictness, call_id, plain_terms,
};
use super::schema::{loose, object_root, openai_strict};
use crate::meta::ToolDefinition;
use crate::result::{CallResult, Content, ResourceContents};
use crate::toolkit::ToolCall;

const CHAT: &str = "OpenAI Chat Completions";
const RESPONSES: &str = "OpenAI Responses";

/// The most functions one OpenAI request may declare. Source: OpenAI API reference, Chat
/// Completions `tools` ("A max of 128 functions are supported"); the same holds for Responses.
pub const OPENAI_MAX_TOOLS: usize = 128;

/// The most media (the base64 of images, audio and files) one OpenAI tool result may carry.
/// Source: OpenAI images and vision guide, "Image input requirements" ("up to 50 MB total
/// payload size per request"), and the file inputs guide (50 MB per file, and across the
/// files of one request).
pub const OPENAI_MAX_MEDIA_BYTES: usize = 50_000_000;

/// Image types OpenAI reads. Source: OpenAI images and vision guide, "Image input
/// requirements" (PNG, JPEG, WEBP, non-animated GIF).
const IMAGE_TYPES: &[&str] = &["image/png", "image/jpeg", "image/webp", "image/gif"];

/// File types sent as files. Source: OpenAI file inputs guide (PDF files, as `file_data`).
const FILE_TYPES: &[&str] = &["application/pdf"];

/// OpenAI Chat Completions.
pub(crate) struct Chat;

/// OpenAI Responses.
pub(crate) struct Responses;

/// The parameters schema: strict when possible, else the full schema, non-strict.
fn parameters(def: &ToolDefinition) -> (Value, Strictness) {
    match openai_strict(&def.input_schema) {
        Ok(schema) => (schema, Strictness::Strict),
        Err(why) => (
            loose(&object_root(&def.input_schema)),
            Strictness::Fallback(plain_terms(def, why)),
        ),
    }
}

/// The allow-list (`tool_choice`) of both APIs; "none" when no tool is available. Shapes:
/// OpenAI's `ChatCompletionAllowedToolChoice` and Responses `ToolChoiceAllowed`
/// (openai-python `types/chat` and `types/responses`).
const CHAT_AUTO: Envelope = Envelope {
    open: r#"{"type":"allowed_tools","allowed_tools":{"mode":"auto","tools":["#,
    close: "]}}",
    empty: r#""none""#,
};
const CHAT_REQUIRED: Envelope = Envelope {
    open: r#"{"type":"allowed_tools","allowed_tools":{"mode":"required","tools":["#,
    close: "]}}",
    empty: r#""none""#,
};
const RESPONSES_AUTO: Envelope = Envelope {
    open: r#"{"type":"allowed_tools","mode":"auto","tools":["#,
    close: "]}",
    empty: r#""none""#,
};
const RESPONSES_REQUIRED: Envelope = Envelope {
    open: r#"{"type":"allowed_tools","mode":"required","tools":["#,
    close: "]}",
    empty: r#""none""#,
};

impl Format for Chat {
    fn definitions(&self, defs: &[&ToolDefinition]) -> Vec<Definition> {
        defs.iter()
            .map(|def| {
                let (parameters, strictness) = parameters(def);
                let json = json!({
                    "type": "function",
                    "function": {
                        "name": def.name,
                        "description": def.description,
                        "parameters": parameters,
                        "strict": strictness == Strictness::Strict,
                    }
                });
                Definition {
                    json,
                    strictness,
                    wrapped: None,
                }
            })
            .collect()
    }

    fn allow_envelope(&self, mode: AllowMode) -> Option<Envelope> {
        Some(match mode {
            AllowMode::Auto => CHAT_AUTO,
            AllowMode::Required => CHAT_REQUIRED,
        })
    }

    fn allow_entry(&self, name: &str) -> String {
        json!({ "type": "function", "function": { "name": name } }).to_string()
    }

    fn messages(&self, items: Vec<Encoded>) -> Vec<Value> {
        Chat::with_attachments(items)
    }

    fn decode(&self, payload: &Value) -> Result<Vec<ToolCall>, DecodeError> {
        decode_chat(payload)
    }

    fn result(
        &self,
        call: &ToolCall,
        result: &CallResult,
        _wrapped: Option<bool>,
    ) -> Result<Encoded, MissingCallId> {
        let id = call_id(call, CHAT)?;
        let deliveries: Vec<Delivery<'_>> = result.content.iter().map(chat_delivery).collect();
        if let Some(error) = over_limit(
            &call.tool,
            CHAT,
            media_len(&deliveries),
            OPENAI_MAX_MEDIA_BYTES,
            "its images, audio and files",
        ) {
            return self.result(call, &error, None);
        }
        let mut lines = Vec::with_capacity(deliveries.len());
        let mut attachments = Vec::new();
        for (block, delivery) in result.content.iter().zip(deliveries) {
            match delivery {
                Delivery::Text(text) => lines.push(text),
                Delivery::Attachment(part, _) | Delivery::Part(part, _) => {
                    lines.push(attached_note(block));
                    attachments.push(part());
                }
            }
        }
        if !attachments.is_empty() {
            let label = format!("Attachments of the result of `{}` (call {id}):", call.tool);
            attachments.insert(0, json!({ "type": "text", "text": label }));
        }
        let content = marked(lines.join("\n"), result.is_error);
        Ok(Encoded {
            item: json!({ "role": "tool", "tool_call_id": id, "content": content }),
            attachments,
        })
    }
}

impl Chat {
    /// The tool messages, then one user message with the attachments, if any.
    fn with_attachments(items: Vec<Encoded>) -> Vec<Value> {
        let mut messages = Vec::with_capacity(items.len() + 1);
        let mut attachments = Vec::new();
        for encoded in items {
            messages.push(encoded.item);
            attachments.extend(encoded.attachments);
        }
        if !attachments.is_empty() {
            messages.push(json!({ "role": "user", "content": attachments }));
        }
        messages
    }
}

impl Format for Responses {
    fn definitions(&self, defs: &[&ToolDefinition]) -> Vec<Definition> {
        defs.iter()
            .map(|def| {
                let (parameters, strictness) = parameters(def);
                let json = json!({
                    "type": "function",
                    "name": def.name,
                    "description": def.description,
                    "parameters": parameters,
                    "strict": strictness == Strictness::Strict,
                });
                Definition {
                    json,
                    strictness,
                    wrapped: None,
                }
            })
            .collect()
    }

    fn allow_envelope(&self, mode: AllowMode) -> Option<Envelope> {
        Some(match mode {
            AllowMode::Auto => RESPONSES_AUTO,
            AllowMode::Required => RESPONSES_REQUIRED,
        })
    }

    fn allow_entry(&self, name: &str) -> String {
        json!({ "type": "function", "name": name }).to_string()
    }

    fn decode(&self, payload: &Value) -> Result<Vec<ToolCall>, DecodeError> {
        decode_responses(payload)
    }

    fn result(
        &self,
        call: &ToolCall,
        result: &CallResult,
        _wrapped: Option<bool>,
    ) -> Result<Encoded, MissingCallId> {
        let id = call_id(call, RESPONSES)?;
        if result.content.iter().all(|c| c.as_text().is_some()) {
            let output = marked(result.text_joined(), result.is_error);
            return Ok(Encoded::item(
                json!({ "type": "function_call_output", "call_id": id, "output": output }),
            ));
        }
        let deliveries: Vec<Delivery<'_>> = result.content.iter().map(responses_delivery).collect();
        if let Some(error) = over_limit(
            &call.tool,
            RESPONSES,
            media_len(&deliveries),
            OPENAI_MAX_MEDIA_BYTES,
            "its images and files",
        ) {
            return self.result(call, &error, None);
        }
        let mut parts: Vec<Value> = deliveries
            .into_iter()
            .map(|d| match d {
                Delivery::Text(text) => json!({ "type": "input_text", "text": text }),
                Delivery::Part(part, _) | Delivery::Attachment(part, _) => part(),
            })
            .collect();
        if result.is_error {
            parts.insert(0, json!({ "type": "input_text", "text": "Error:" }));
        }
        Ok(Encoded::item(
            json!({ "type": "function_call_output", "call_id": id, "output": parts }),
        ))
    }
}

/// `tool_calls` of an assistant message (or of `choices[0].message` of a response).
fn decode_chat(payload: &Value) -> Result<Vec<ToolCall>, DecodeError> {
    let at = At::root(CHAT, payload);
    match payload {
        Value::Array(_) => chat_calls(at),
        Value::Object(map) if map.contains_key("choices") => at.with_field("choices", |choices| {
            choices.first("a list of choices", |first| {
                first.with_field("message", |message| {
                    message.object()?;
                    message.with_field("tool_calls", |calls| calls.optional(chat_calls))
                })
            })
        }),
        Value::Object(_) => at.with_field("tool_calls", |calls| calls.optional(chat_calls)),
        _ => Err(at.error("an assistant message, a response or a list of tool calls")),
    }
}

fn chat_calls(at: At<'_, '_>) -> Result<Vec<ToolCall>, DecodeError> {
    at.each(|item| {
        item.object()?;
        let kind = item.with_field("type", |t| t.opt_string())?;
        if kind.is_some_and(|k| k != "function") {
            return Err(item.with_field("type", |t| {
                t.error("\"function\" (other tool types are not toolkit tools)")
            }));
        }
        let id = item.with_field("id", |id| id.string())?;
        item.with_field("function", |function| {
            function.object()?;
            let name = function.with_field("name", |n| n.name())?;
            let arguments = function.with_field("arguments", |a| a.text_arguments())?;
            Ok(Some(call(Some(id), name, arguments)))
        })
    })
}

/// `function_call` items of a response's `output` (or of the list itself).
fn decode_responses(payload: &Value) -> Result<Vec<ToolCall>, DecodeError> {
    let at = At::root(RESPONSES, payload);
    let items = |list: At<'_, '_>| {
        list.each(|item| {
            item.object()?;
            let kind = item.with_field("type", |t| t.string())?;
            if kind != "function_call" {
                return Ok(None);
            }
            let id = item.with_field("call_id", |id| id.string())?;
            let name = item.with_field("name", |n| n.name())?;
            let arguments = item.with_field("arguments", |a| a.text_arguments())?;
            Ok(Some(call(Some(id), name, arguments)))
        })
    };
    match payload {
        Value::Array(_) => items(at),
        Value::Object(_) => at.with_field("output", items),
        _ => Err(at.error("a response or a list of output items")),
    }
}

/// The text sent back, marked when it is an error (OpenAI has no error flag on tool results).
fn marked(text: String, is_error: bool) -> String {
    if is_error {
        format!("Error: {text}")
    } else {
        text
    }
}

/// Text, resources and links as text; what a tool message cannot carry (images, WAV and MP3
/// audio, PDF files) as parts of the next user message; anything else as a note.
fn chat_delivery(block: &Content) -> Delivery<'_> {
    fn image<'a>(mime: &'a str, data: &'a [u8]) -> Delivery<'a> {
        Delivery::attachment(
            data.len(),
            move || json!({ "type": "image_url", "image_url": { "url": data_url(mime, data) } }),
        )
    }
    match block {
        Content::Text { text, .. } => Delivery::Text(text.clone()),
        Content::Image {
            data, mime_type, ..
        } if is_one_of(mime_type, IMAGE_TYPES) => image(mime_type, data),
        Content::Audio {
            data, mime_type, ..
        } => match audio_format(mime_type) {
            Some(format) => Delivery::attachment(data.len(), move || {
                json!({
                    "type": "input_audio",
                    "input_audio": { "data": crate::result::base64_encode(data), "format": format },
                })
            }),
            None => Delivery::Text(unsupported_note(block, CHAT)),
        },
        Content::Resource { resource, .. } => match resource {
            ResourceContents::Text {
                uri,
                mime_type,
                text,
                ..
            } => Delivery::Text(resource_text(uri, mime_type.as_deref(), text)),
            ResourceContents::Blob {
                uri,
                mime_type: Some(mime),
                blob,
                ..
            } if is_one_of(mime, FILE_TYPES) => Delivery::attachment(blob.len(), move || {
                json!({
                    "type": "file",
                    "file": { "filename": file_name(uri, "document.pdf"), "file_data": data_url(mime, blob) },
                })
            }),
            ResourceContents::Blob {
                mime_type: Some(mime),
                blob,
                ..
            } if is_one_of(mime, IMAGE_TYPES) => image(mime, blob),
            _ => Delivery::Text(unsupported_note(block, CHAT)),
        },
        _ => match link_text(block) {
            Some(text) => Delivery::Text(text),
            None => Delivery::Text(unsupported_note(block, CHAT)),
        },
    }
}

/// Text, resources and links as `input_text`; images as `input_image` and PDF files as
/// `input_file` parts of the output; anything else (audio) as a note.
fn responses_delivery(block: &Content) -> Delivery<'_> {
    fn image<'a>(mime: &'a str, data: &'a [u8]) -> Delivery<'a> {
        Delivery::part(
            data.len(),
            move || json!({ "type": "input_image", "image_url": data_url(mime, data), "detail": "auto" }),
        )
    }
    match block {
        Content::Text { text, .. } => Delivery::Text(text.clone()),
        Content::Image {
            data, mime_type, ..
        } if is_one_of(mime_type, IMAGE_TYPES) => image(mime_type, data),
        Content::Resource { resource, .. } => match resource {
            ResourceContents::Text {
                uri,
                mime_type,
                text,
                ..
            } => Delivery::Text(resource_text(uri, mime_type.as_deref(), text)),
            ResourceContents::Blob {
                uri,
                mime_type: Some(mime),
                blob,
                ..
            } if is_one_of(mime, FILE_TYPES) => Delivery::part(blob.len(), move || {
                json!({
                    "type": "input_file",
                    "filename": file_name(uri, "document.pdf"),
                    "file_data": data_url(mime, blob),
                })
            }),
            ResourceContents::Blob {
                mime_type: Some(mime),
                blob,
                ..
            } if is_one_of(mime, IMAGE_TYPES) => image(mime, blob),
            _ => Delivery::Text(unsupported_note(block, RESPONSES)),
        },
        _ => match link_text(block) {
            Some(text) => Delivery::Text(text),
            None => Delivery::Text(unsupported_note(block, RESPONSES)),
        },
    }
}

/// The `input_audio` format of an audio MIME type. Source: OpenAI API reference, Chat
/// Completions `input_audio.format` (`wav` or `mp3`).
fn audio_format(mime: &str) -> Option<&'static str> {
    match super::content::essence(mime).as_str() {
        "audio/wav" | "audio/x-wav" | "audio/wave" | "audio/vnd.wave" => Some("wav"),
        "audio/mpeg" | "audio/mp3" => Some("mp3"),
        _ => None,
    }
}
