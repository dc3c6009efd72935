//! Tool definitions and call payloads in each provider's format.
//!
//! A toolkit holds one canonical JSON schema per tool (schemars' draft 2020-12 output). The
//! providers each accept a different subset of JSON Schema, so this module renders every
//! definition once per provider, applying that provider's rules, and keeps the rendered JSON:
//! listing the tools of a session then only concatenates pre-rendered text.
//!
//! | [`Provider`] | one definition | strict mode |
//! |---|---|---|
//! | [`OpenAiChat`](Provider::OpenAiChat) | `{"type":"function","function":{"name","description","parameters","strict"}}` | yes, with fallback |
//! | [`OpenAiResponses`](Provider::OpenAiResponses) | `{"type":"function","name","description","parameters","strict"}` | yes, with fallback |
//! | [`Anthropic`](Provider::Anthropic) | `{"name","description","input_schema"}` | no |
//! | [`AnthropicStrict`](Provider::AnthropicStrict) | the same, plus `"strict": true` where allowed | yes, with fallback and budgets |
//! | [`Gemini`](Provider::Gemini) | `{"name","description","parametersJsonSchema"}` | no |
//! | [`GeminiLegacy`](Provider::GeminiLegacy) | `{"name","description","parameters"}` (OpenAPI 3.0 subset) | no |
//! | [`Mcp`](Provider::Mcp) | MCP `Tool`: `name`, `description`, `inputSchema`, `outputSchema`, `annotations` | no |
//!
//! # Strict mode and its fallback
//!
//! OpenAI's and Anthropic's strict modes enforce the schema while the model writes the
//! arguments, but accept only a subset of JSON Schema (see [`openai_strict`] and
//! [`anthropic_strict`] for the exact rewriting). A tool whose argument type cannot be
//! expressed in that subset is rendered **non-strict** for that provider (`"strict": false`
//! for OpenAI, no `strict` key for Anthropic) with its full schema, never as a schema the
//! provider rejects. [`Rendered::entries`] tells which tools fell back, and why. The causes:
//!
//! - a free-form value: `serde_json::Value`, an untyped or property-less object;
//! - a map (`HashMap<String, T>`, `BTreeMap`): an object with an `additionalProperties` schema;
//! - for OpenAI, a property that may be omitted but cannot be `null` (a `#[serde(default)]`
//!   field that is not an `Option`): strict mode makes every property required, optional
//!   ones as a union with `null`, and such a field would reject the `null`;
//! - for Anthropic, a recursive type, and tools beyond the per-request budgets
//!   ([`ANTHROPIC_MAX_STRICT_TOOLS`](limits::ANTHROPIC_MAX_STRICT_TOOLS), [`ANTHROPIC_MAX_STRICT_OPTIONAL_PARAMS`](limits::ANTHROPIC_MAX_STRICT_OPTIONAL_PARAMS),
//!   [`ANTHROPIC_MAX_STRICT_UNION_PARAMS`](limits::ANTHROPIC_MAX_STRICT_UNION_PARAMS)), spent in listing order;
//! - keywords with no strict equivalent: `allOf`, `not`, `if`/`then`/`else`, tuples
//!   (`prefixItems`), `patternProperties`, `unevaluatedProperties`...;
//! - for OpenAI, a schema over the size limits ([`OPENAI_STRICT_MAX_PROPERTIES`](limits::OPENAI_STRICT_MAX_PROPERTIES),
//!   [`OPENAI_STRICT_MAX_NESTING`](limits::OPENAI_STRICT_MAX_NESTING), [`OPENAI_STRICT_MAX_ENUM_VALUES`](limits::OPENAI_STRICT_MAX_ENUM_VALUES)).
//!
//! # Delivery modes
//!
//! - **List**: [`Rendered::tools_json`] lists only the tools available in a session (the
//!   order of [`Toolkit::definitions`](crate::Toolkit::definitions)).
//! - **Mask**: [`Rendered::all_tools_json`] lists every tool in a stable order, and
//!   [`Rendered::allowed_tools_json`] gives the active subset as the provider's allow-list
//!   (OpenAI `tool_choice` `allowed_tools`, Gemini `toolConfig.functionCallingConfig`). The
//!   tool array never changes, so provider prompt caches survive a `reset_tools` call; a call
//!   to an inactive tool is still refused by [`Toolkit::call`](crate::Toolkit::call).
//!   Anthropic and MCP have no allow-list: use the list mode there (MCP servers list a
//!   stable set and rely on the refusal at call time).
//! - **Deferred**: [`deferred::Deferred`] keeps one tool array for the whole conversation,
//!   with the inactive tools deferred where the provider can defer them (Anthropic,
//!   OpenAI Responses), and after each change of the active groups gives the provider's own
//!   message for it; elsewhere it falls back to the mask or the list mode. A conversation's
//!   state can be rebuilt from its transcript ([`transcript`]).
//!
//! # MCP input schemas name their dialect
//!
//! The canonical schema has no `$schema`, and no LLM provider's rendering adds one: none of
//! them documents the keyword, strict modes accept only the keywords they list, and Gemini's
//! legacy dialect rejects it. MCP's `inputSchema` is the exception: it starts with
//! `"$schema": "https://json-schema.org/draft/2020-12/schema"` (a schema that names a dialect
//! already, such as a remote server's, keeps its own). MCP reads a schema without `$schema` as
//! 2020-12, so validation is the same either way; the keyword is kept because MCP asks servers
//! to preserve it beside `$defs` (SEP-1613, the conformance suite's `json-schema-2020-12`
//! scenario), and because a client that gathers tools from many servers cannot otherwise tell
//! which dialect a schema means. The official SDK clients accept it: the Python `mcp` package
//! (2.3) and the TypeScript `@modelcontextprotocol/sdk` (1.32, with its default validation of
//! `inputSchema`) list such tools and call them. `outputSchema` stays without it: MCP asks
//! nothing there, and a client compiles it to check results, where an unknown meta-schema
//! would be one more way to fail.
//!
//! # Calls and results
//!
//! [`Provider::decode_calls`] turns a provider's response into [`ToolCall`]s
//! and [`Rendered::result_message`] turns a [`CallResult`](crate::CallResult) into the
//! provider's tool-result message, images, audio, documents and resource links included (each
//! provider in its own shape; content a provider cannot take in a tool result follows in the
//! next user message or is named in a note, and media over a provider's size limit become an
//! error result; see [`Rendered::result_message`]), so an agent turn is:
//!
//! ```
//! # use toolgroup_core::provider::{Provider, Rendered};
//! # use toolgroup_core::{Registry, Toolkit};
//! # async fn turn<R: Registry>(kit: &Toolkit<R>, session: &mut toolgroup_core::Session<R>, response: &serde_json::Value)
//! # -> Result<Vec<serde_json::Value>, Box<dyn std::error::Error>> {
//! let openai = Rendered::new(kit, Provider::OpenAiChat); // once, at start-up
//! let tools = openai.tools_value(session);                 // the request's `tools`
//! # let _ = tools;
//! let calls = openai.decode_calls(response)?;              // the assistant's message
//! let results = kit.call_batch(session, &calls).await;
//! let messages = openai.result_messages(calls.iter().zip(&results))?; // append to the conversation
//! # Ok(messages) }
//! ```

mod anthropic;
mod content;
mod decode;
pub mod deferred;
mod format;
mod gemini;
mod mcp;
mod openai;
mod render;
mod schema;
pub mod transcript;

pub use decode::{DecodeError, MissingCallId};
pub use format::{AllowMode, Strictness};
pub use mcp::{
    ACTIVATED_GROUP_KEY, DEACTIVATED_GROUPS_KEY, McpOutputSchema, mcp_output_schema,
    mcp_structured_content,
};
pub use render::{Rendered, RenderedTool};
pub use schema::{
    NotStrict, anthropic_strict, gemini_json_schema, gemini_legacy_schema, openai_strict,
};

/// The providers' documented limits that the renderers enforce or work around.
pub mod limits {
    pub use super::anthropic::{
        ANTHROPIC_MAX_IMAGE_BYTES, ANTHROPIC_MAX_MEDIA_BYTES, ANTHROPIC_MAX_STRICT_OPTIONAL_PARAMS,
        ANTHROPIC_MAX_STRICT_TOOLS, ANTHROPIC_MAX_STRICT_UNION_PARAMS,
    };
    pub use super::gemini::{GEMINI_MAX_FUNCTIONS, GEMINI_MAX_INLINE_BYTES};
    pub use super::openai::{OPENAI_MAX_MEDIA_BYTES, OPENAI_MAX_TOOLS};
    pub use super::schema::{
        OPENAI_STRICT_MAX_ENUM_VALUES, OPENAI_STRICT_MAX_NESTING, OPENAI_STRICT_MAX_PROPERTIES,
    };
}

use std::fmt;
use std::str::FromStr;

use serde_json::Value;

use crate::meta::ToolDefinition;
use crate::suggest::list_names;
use crate::toolkit::ToolCall;
use format::Format;

/// A consumer of tool definitions: an LLM provider's API, or MCP.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Provider {
    /// OpenAI Chat Completions: `tools` of `{"type":"function","function":{...}}`, strict
    /// where the schema allows it.
    OpenAiChat,
    /// OpenAI Responses: `tools` of flat `{"type":"function","name",...}`, strict where the
    /// schema allows it (`"strict": false` is written out, since an omitted `strict` means
    /// strict there).
    OpenAiResponses,
    /// Anthropic Messages: `tools` of `{"name","description","input_schema"}`, not strict.
    Anthropic,
    /// Anthropic Messages with `"strict": true` on every tool that can be strict, within the
    /// per-request budgets (spent in listing order, so `reset_tools` and the basic tools
    /// come first).
    AnthropicStrict,
    /// Gemini: `tools: [{"functionDeclarations": [...]}]` with `parametersJsonSchema` (full
    /// JSON Schema, see [`gemini_json_schema`]). A tool without parameters declares none:
    /// Gemini documents leaving them unset, and its legacy dialect rejects an object schema
    /// without properties.
    Gemini,
    /// Gemini with the legacy `parameters` field: the OpenAPI 3.0 subset (inlined
    /// references, `nullable`, no `additionalProperties`); see [`gemini_legacy_schema`].
    GeminiLegacy,
    /// MCP: `Tool` objects of a `tools/list` result: the canonical `inputSchema` naming its
    /// dialect (`"$schema": "https://json-schema.org/draft/2020-12/schema"`; a tool without
    /// parameters declares `{"type":"object","additionalProperties":false}` besides, as MCP
    /// recommends), an `outputSchema` wrapped as `{"result": ...}` when the output is not an
    /// object (see [`mcp_output_schema`]), and `annotations` holding only the hints the tool
    /// states. See [MCP input schemas](self#mcp-input-schemas-name-their-dialect) for why
    /// only MCP gets `$schema`.
    Mcp,
}

impl Provider {
    /// Every provider, in declaration order.
    pub const ALL: &'static [Provider] = &[
        Provider::OpenAiChat,
        Provider::OpenAiResponses,
        Provider::Anthropic,
        Provider::AnthropicStrict,
        Provider::Gemini,
        Provider::GeminiLegacy,
        Provider::Mcp,
    ];

    /// The provider's name as [`FromStr`] accepts it (`openai-chat`, `gemini-legacy`...).
    pub const fn name(self) -> &'static str {
        match self {
            Provider::OpenAiChat => "openai-chat",
            Provider::OpenAiResponses => "openai-responses",
            Provider::Anthropic => "anthropic",
            Provider::AnthropicStrict => "anthropic-strict",
            Provider::Gemini => "gemini",
            Provider::GeminiLegacy => "gemini-legacy",
            Provider::Mcp => "mcp",
        }
    }

    /// The most tools one request may declare, when the provider states a limit.
    pub const fn max_tools(self) -> Option<usize> {
        match self {
            Provider::OpenAiChat | Provider::OpenAiResponses => Some(limits::OPENAI_MAX_TOOLS),
            Provider::Gemini | Provider::GeminiLegacy => Some(limits::GEMINI_MAX_FUNCTIONS),
            Provider::Anthropic | Provider::AnthropicStrict | Provider::Mcp => None,
        }
    }

    /// The provider's rules (each provider's file implements them).
    pub(crate) fn format(self) -> &'static dyn Format {
        self.format_for(false)
    }

    /// The provider's rules for a toolkit with lifecycle rules (`lifecycle`) or without:
    /// MCP's output schemas admit the switch-offs only where there can be some.
    pub(crate) fn format_for(self, lifecycle: bool) -> &'static dyn Format {
        match self {
            Provider::OpenAiChat => &openai::Chat,
            Provider::OpenAiResponses => &openai::Responses,
            Provider::Anthropic => &anthropic::Anthropic { strict: false },
            Provider::AnthropicStrict => &anthropic::Anthropic { strict: true },
            Provider::Gemini => &gemini::Gemini { legacy: false },
            Provider::GeminiLegacy => &gemini::Gemini { legacy: true },
            Provider::Mcp if lifecycle => &mcp::Mcp { lifecycle: true },
            Provider::Mcp => &mcp::Mcp { lifecycle: false },
        }
    }

    /// Parse the tool calls of a provider's response.
    ///
    /// Accepted inputs, per provider (each also accepts the bare list):
    ///
    /// | provider | input | calls |
    /// |---|---|---|
    /// | OpenAI Chat | the response (`choices[0].message`), or the message | `tool_calls[i]`: `id`, `function.name`, `function.arguments` (a JSON string) |
    /// | OpenAI Responses | the response (`output`) | `function_call` items: `call_id`, `name`, `arguments` |
    /// | Anthropic | the message (`content`) | `tool_use` blocks: `id`, `name`, `input` |
    /// | Gemini | the response (`candidates[0].content`), or a content (`parts`) | `functionCall` parts: `name`, `args`, `id` if present |
    /// | MCP | a `tools/call` request, or its `params` | `name`, `arguments` (the request's `id` becomes the call id) |
    ///
    /// Other items (text, reasoning, thinking blocks) are skipped; a message without calls
    /// gives an empty list. Arguments are kept as sent: arguments that are not valid JSON, or
    /// that do not match the tool, are no decoding error but an error result from
    /// [`Toolkit::call`](crate::Toolkit::call) that tells the model what to fix.
    ///
    /// # Errors
    ///
    /// A payload of the wrong shape (a call without a name, `tool_calls` that is not a list,
    /// arguments that are neither text nor an object...) gives a [`DecodeError`] naming the
    /// path of the problem.
    pub fn decode_calls(self, payload: &Value) -> Result<Vec<ToolCall>, DecodeError> {
        self.format().decode(payload)
    }

    /// One tool definition in this provider's shape, rendered now (with the fallback to
    /// non-strict and every transform [`Rendered`] applies). For a tool list, build a
    /// [`Rendered`] once instead: it renders each definition once.
    pub fn render_definition(self, definition: &ToolDefinition) -> Value {
        self.format()
            .definitions(&[definition])
            .pop()
            .expect("one definition renders as one")
            .json
    }
}

impl fmt::Display for Provider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A provider name that [`Provider::from_str`] does not know.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct UnknownProvider(pub String);

impl fmt::Display for UnknownProvider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown provider `{}`; expected one of {}",
            crate::echo::echo(&self.0, 64),
            list_names(Provider::ALL.iter().map(|p| p.name()))
        )
    }
}

impl std::error::Error for UnknownProvider {}

impl FromStr for Provider {
    type Err = UnknownProvider;

    fn from_str(s: &str) -> Result<Self, UnknownProvider> {
        Provider::ALL
            .iter()
            .copied()
            .find(|p| p.name() == s)
            .ok_or_else(|| UnknownProvider(s.to_owned()))
    }
}
