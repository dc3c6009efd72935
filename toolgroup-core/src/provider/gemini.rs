//! Gemini: function declarations (JSON Schema or the legacy OpenAPI dialect), the
//! `functionDeclarations` envelope, `toolConfig` allow-lists, `functionCall` parts and
//! `functionResponse` parts.

use serde_json::{Map, Value, json};

use super::decode::{At, DecodeError, MissingCallId, call};
use super::format::{AllowMode, Definition, Envelope, Format};
use super::schema::{gemini_json_schema, gemini_legacy_schema, has_no_parameters, object_root};
use crate::result::CallResult;
use crate::toolkit::{ToolCall, ToolDefinition};

const NAME: &str = "Gemini";

/// The most function declarations in one Gemini request. Source: Vertex AI function calling
/// reference, "Limitations" ("a maximum of 128 function declarations").
pub const GEMINI_MAX_FUNCTIONS: usize = 128;

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
    /// result is sent as JSON, any other as its text.
    fn result(
        &self,
        call: &ToolCall,
        result: &CallResult,
        _wrapped: Option<bool>,
    ) -> Result<Value, MissingCallId> {
        let response = if result.is_error {
            json!({ "error": result.text_joined() })
        } else {
            match &result.structured_content {
                Some(value) => json!({ "output": value }),
                None => json!({ "output": result.text_joined() }),
            }
        };
        let mut function_response = Map::new();
        if let Some(id) = &call.id {
            function_response.insert("id".to_owned(), json!(id));
        }
        function_response.insert("name".to_owned(), json!(call.name));
        function_response.insert("response".to_owned(), response);
        Ok(json!({ "functionResponse": function_response }))
    }

    /// One user content carrying the turn's `functionResponse` parts.
    fn messages(&self, items: Vec<Value>) -> Vec<Value> {
        vec![json!({ "role": "user", "parts": items })]
    }
}

/// `functionCall` parts of a response (`candidates[0].content`), a content, or a list of parts.
fn decode(payload: &Value) -> Result<Vec<ToolCall>, DecodeError> {
    let at = At::root(NAME, payload);
    match payload {
        Value::Array(_) => parts(at),
        Value::Object(map) if map.contains_key("candidates") => {
            at.with_field("candidates", |candidates| {
                match candidates.value {
                    Some(Value::Array(items)) if items.is_empty() => Ok(Vec::new()),
                    Some(Value::Array(_)) => candidates.with_index(0, |first| {
                        first.with_field("content", |content| match content.value {
                            // A candidate stopped before any content (safety, length) has no calls.
                            None => Ok(Vec::new()),
                            Some(_) => content.with_field("parts", optional_parts),
                        })
                    }),
                    _ => Err(candidates.error("a list of candidates")),
                }
            })
        }
        Value::Object(_) => at.with_field("parts", optional_parts),
        _ => Err(at.error("a response, a content or a list of parts")),
    }
}

fn optional_parts(at: At<'_, '_>) -> Result<Vec<ToolCall>, DecodeError> {
    match at.value {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(_) => parts(at),
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
