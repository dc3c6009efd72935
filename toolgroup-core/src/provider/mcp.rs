//! MCP: `Tool` objects (with `outputSchema` wrapping), `tools/call` requests and
//! `CallToolResult`s.

use serde_json::{Map, Value, json};

use super::decode::{At, DecodeError, MissingCallId, call};
use super::format::{Definition, Encoded, Format, Strictness};
use super::schema::object_root;
use crate::meta::ToolDefinition;
use crate::result::CallResult;
use crate::toolkit::ToolCall;

const NAME: &str = "MCP";

/// MCP `tools/list` and `tools/call`. `lifecycle`: the toolkit has lifecycle rules, so
/// output schemas admit [`DEACTIVATED_GROUPS_KEY`].
pub(crate) struct Mcp {
    pub(crate) lifecycle: bool,
}

impl Format for Mcp {
    fn definitions(&self, defs: &[&ToolDefinition]) -> Vec<Definition> {
        defs.iter()
            .map(|def| {
                let mcp_form = crate::reset::mcp_form(def);
                let def = mcp_form.as_ref().unwrap_or(def);
                let (json, wrapped) = definition(def, self.lifecycle);
                Definition {
                    json,
                    strictness: Strictness::NotApplicable,
                    wrapped,
                }
            })
            .collect()
    }

    fn decode(&self, payload: &Value) -> Result<Vec<ToolCall>, DecodeError> {
        decode(payload)
    }

    fn result(
        &self,
        _call: &ToolCall,
        result: &CallResult,
        wrapped: Option<bool>,
    ) -> Result<Encoded, MissingCallId> {
        Ok(Encoded::item(call_tool_result(result, wrapped)))
    }
}

/// A `Tool`, and whether its output is wrapped (`None` when it declares no output schema).
fn definition(def: &ToolDefinition, lifecycle: bool) -> (Value, Option<bool>) {
    let mut tool = Map::new();
    tool.insert("name".to_owned(), json!(def.name));
    tool.insert("description".to_owned(), json!(def.description));
    tool.insert("inputSchema".to_owned(), input_schema(&def.input_schema));
    let mut wrapped = None;
    if let Some(output) = &def.output_schema {
        let mut output = mcp_output_schema(output);
        if lifecycle {
            output = output.admitting_deactivations();
        }
        wrapped = Some(output.wrapped);
        tool.insert("outputSchema".to_owned(), output.schema);
    }
    let hints = def.annotations;
    if !hints.is_empty() {
        let mut annotations = Map::new();
        for (key, value) in [
            ("readOnlyHint", hints.read_only),
            ("destructiveHint", hints.destructive),
            ("idempotentHint", hints.idempotent),
            ("openWorldHint", hints.open_world),
        ] {
            if let Some(value) = value {
                annotations.insert(key.to_owned(), Value::Bool(value));
            }
        }
        tool.insert("annotations".to_owned(), Value::Object(annotations));
    }
    (Value::Object(tool), wrapped)
}

/// The dialect MCP's `inputSchema` is read in, named in every input schema.
const MCP_SCHEMA_DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

/// A tool's `inputSchema`: an object root (`object_root`) that names its dialect first,
/// unless it names one already (a remote server's schema keeps its own). Why only MCP: see
/// the module docs, "MCP input schemas name their dialect".
fn input_schema(schema: &Value) -> Value {
    let mut schema = object_root(schema);
    if let Value::Object(map) = &mut schema
        && !map.contains_key("$schema")
    {
        let mut named = Map::with_capacity(map.len() + 1);
        named.insert("$schema".to_owned(), json!(MCP_SCHEMA_DIALECT));
        named.append(map);
        *map = named;
    }
    schema
}

/// A `tools/call` request (its JSON-RPC `id` becomes the call's id) or its `params`.
fn decode(payload: &Value) -> Result<Vec<ToolCall>, DecodeError> {
    let at = At::root(NAME, payload);
    let map = at.object()?;
    let (id, params) = if map.contains_key("method") {
        let method = at.with_field("method", |m| m.string())?;
        if method != "tools/call" {
            return Err(at.with_field("method", |m| m.error("\"tools/call\"")));
        }
        let id = match map.get("id") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(Value::Number(n)) => Some(n.to_string()),
            Some(_) => return Err(at.with_field("id", |i| i.error("a string or a number"))),
        };
        (id, "params")
    } else {
        (None, "")
    };
    let read = |params: At<'_, '_>| -> Result<ToolCall, DecodeError> {
        params.object()?;
        let name = params.with_field("name", |n| n.name())?;
        let arguments = params.with_field("arguments", |a| a.object_arguments())?;
        Ok(call(id.as_deref(), name, arguments))
    };
    let one = if params.is_empty() {
        read(at)?
    } else {
        at.with_field(params, read)?
    };
    Ok(vec![one])
}

/// A `CallToolResult`: every content block as is (MCP defines them; no size limit is stated).
/// MCP's `structuredContent` is an object: the output of a tool whose
/// `outputSchema` was wrapped, or any non-object output, is sent as `{"result": <output>}`.
/// The text content is the result's own text (for structured output, its JSON unwrapped).
/// A first use's activation is in the structured content too, under
/// [`ACTIVATED_GROUP_KEY`], and a lifecycle rule's switch-offs under
/// [`DEACTIVATED_GROUPS_KEY`] (see [`mcp_structured_content`]).
fn call_tool_result(result: &CallResult, wrapped: Option<bool>) -> Value {
    let mut out = Map::new();
    out.insert(
        "content".to_owned(),
        serde_json::to_value(&result.content).expect("content blocks serialise"),
    );
    if let Some(value) = mcp_structured_content(
        result.structured_content.clone(),
        wrapped,
        result.activation(),
        result.switched_off(),
    ) {
        out.insert("structuredContent".to_owned(), value);
    }
    out.insert("isError".to_owned(), Value::Bool(result.is_error));
    Value::Object(out)
}

/// A result's MCP `structuredContent`: the output as is when it is an object its
/// `outputSchema` declares as is, else `{"result": <output>}`; with a first use's
/// `activation` under [`ACTIVATED_GROUP_KEY`], which every listed output schema admits
/// ([`mcp_output_schema`]). Clients that show their model only a result's structured
/// content when it has one (Claude Code, Codex's function tools, pydantic-ai) would
/// otherwise never show the group's instructions; clients that show the text read them in
/// the result's last text block. Likewise the groups a lifecycle rule switched off
/// (`switched_off`, [`CallResult::switched_off`]) under [`DEACTIVATED_GROUPS_KEY`], which
/// the output schemas of a toolkit with rules admit
/// ([`McpOutputSchema::admitting_deactivations`]). An object output that has a key itself
/// at run time (a map) keeps its own value.
pub fn mcp_structured_content(
    structured: Option<Value>,
    wrapped: Option<bool>,
    activation: Option<&Value>,
    switched_off: Option<&Value>,
) -> Option<Value> {
    let value = structured?;
    let mut value = if wrapped == Some(true) || !value.is_object() {
        json!({ MCP_RESULT_KEY: value })
    } else {
        value
    };
    if let (Some(activation), Value::Object(map)) = (activation, &mut value)
        && !map.contains_key(ACTIVATED_GROUP_KEY)
    {
        map.insert(ACTIVATED_GROUP_KEY.to_owned(), activation.clone());
    }
    if let (Some(switched_off), Value::Object(map)) = (switched_off, &mut value)
        && !map.contains_key(DEACTIVATED_GROUPS_KEY)
    {
        map.insert(DEACTIVATED_GROUPS_KEY.to_owned(), switched_off.clone());
    }
    Some(value)
}

/// An MCP `outputSchema` and whether it wraps the tool's output.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct McpOutputSchema {
    /// The schema to declare: always `"type": "object"`, as MCP requires.
    pub schema: Value,
    /// Whether the output is wrapped as `{"result": <output>}` (the output's own schema is
    /// not an object schema), in which case the structured content must be wrapped too.
    pub wrapped: bool,
    /// Whether the output object declares a property named [`ACTIVATED_GROUP_KEY`] itself (or
    /// [`DEACTIVATED_GROUPS_KEY`], once [admitted](Self::admitting_deactivations)):
    /// the schema then keeps the tool's own property, and a first use's activation cannot be
    /// carried in its structured content. The MCP server refuses to serve such a tool
    /// (`McpServer::new` panics, naming it): rename the field
    /// (`#[serde(rename = "...")]`).
    pub reserved_key_taken: bool,
}

/// The property that holds a wrapped MCP structured output.
const MCP_RESULT_KEY: &str = "result";

pub use crate::result::{ACTIVATED_GROUP_KEY, DEACTIVATED_GROUPS_KEY};

/// A tool's output schema as MCP's `outputSchema`, which must describe an object.
///
/// An output whose schema is `"type": "object"` is declared as is. Any other output (a list,
/// a number, an `Option`, an enum) is wrapped: `{"type": "object", "properties": {"result":
/// <schema>}, "required": ["result"], "additionalProperties": false}`, with the inner
/// `$defs` moved to the wrapper's root so references still resolve; the structured content
/// of its results is then `{"result": <output>}` ([`Rendered::result_message`](super::Rendered::result_message)
/// does this).
///
/// Both forms admit an optional [`ACTIVATED_GROUP_KEY`] property (`{"type": "object"}`):
/// a call that activates its tool's group on first use carries the group's tools and
/// instructions there, and MCP requires structured content to validate against the listed
/// schema, `additionalProperties: false` included. Every tool's schema admits it, whether
/// or not its group can be activated, so that a schema never changes with the session.
pub fn mcp_output_schema(schema: &Value) -> McpOutputSchema {
    let is_object = schema.get("type").and_then(Value::as_str) == Some("object");
    if is_object {
        let mut schema = schema.clone();
        let mut reserved_key_taken = false;
        if let Value::Object(map) = &mut schema {
            let properties = map
                .entry("properties")
                .or_insert_with(|| Value::Object(Map::new()));
            if let Value::Object(properties) = properties {
                reserved_key_taken = properties.contains_key(ACTIVATED_GROUP_KEY);
                if !reserved_key_taken {
                    properties.insert(ACTIVATED_GROUP_KEY.to_owned(), activation_schema());
                }
            }
        }
        return McpOutputSchema {
            schema,
            wrapped: false,
            reserved_key_taken,
        };
    }
    let mut inner = schema.clone();
    let defs = match &mut inner {
        Value::Object(map) => map.remove("$defs"),
        _ => None,
    };
    let mut wrapper = json!({
        "type": "object",
        "properties": { MCP_RESULT_KEY: inner, ACTIVATED_GROUP_KEY: activation_schema() },
        "required": [MCP_RESULT_KEY],
        "additionalProperties": false,
    });
    if let (Some(defs), Value::Object(map)) = (defs, &mut wrapper) {
        map.insert("$defs".to_owned(), defs);
    }
    McpOutputSchema {
        schema: wrapper,
        wrapped: true,
        reserved_key_taken: false,
    }
}

impl McpOutputSchema {
    /// The schema admitting [`DEACTIVATED_GROUPS_KEY`] too (`{"type": "object"}`), for a
    /// toolkit with lifecycle rules, whose results may tell of groups switched off in their
    /// structured content. An output object that declares that property itself keeps it,
    /// and [`reserved_key_taken`](Self::reserved_key_taken) is then set.
    #[must_use]
    pub fn admitting_deactivations(mut self) -> Self {
        if let Some(Value::Object(properties)) = self.schema.get_mut("properties") {
            if properties.contains_key(DEACTIVATED_GROUPS_KEY) {
                self.reserved_key_taken = true;
            } else {
                properties.insert(DEACTIVATED_GROUPS_KEY.to_owned(), activation_schema());
            }
        }
        self
    }
}

/// The schema of an activation in structured content: an object, left open (its fields are
/// the text block's, for the model; a client validates only that it is an object).
fn activation_schema() -> Value {
    json!({ "type": "object" })
}
