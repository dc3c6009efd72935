//! Pre-rendered tool definitions for one provider, listed per session without re-rendering.

use std::borrow::Cow;
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};

use rustc_hash::FxHashMap;
use serde_json::Value;
use serde_json::value::RawValue;

use super::Provider;
use super::decode::{DecodeError, MissingCallId};
use super::format::{AllowMode, Definition, Encoded, Envelope, Format, Strictness};
use crate::meta::ToolDefinition;
use crate::registry::Registry;
use crate::result::CallResult;
use crate::session::Session;
use crate::toolkit::{Core, ToolCall, Toolkit};

/// One pre-rendered tool definition.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct RenderedTool<'a> {
    /// The tool's name.
    pub name: &'static str,
    /// The definition's JSON, exactly as it goes into the request.
    pub json: &'a RawValue,
    /// Whether it is strict.
    pub strictness: &'a Strictness,
}

struct Entry {
    name: &'static str,
    json: Box<RawValue>,
    /// The tool's entry in the provider's allow-list (empty when there is none).
    allowed: Box<str>,
    strictness: Strictness,
    /// MCP: whether the output schema wraps the output (`None`: no output schema).
    wrapped: Option<bool>,
}

impl Entry {
    /// `def`'s entry from its rendering by `format`.
    fn new(format: &dyn Format, def: &ToolDefinition, rendered: Definition) -> Entry {
        Entry {
            name: def.name,
            json: RawValue::from_string(rendered.json.to_string())
                .expect("serde_json writes valid JSON"),
            allowed: format.allow_entry(def.name).into_boxed_str(),
            strictness: rendered.strictness,
            wrapped: rendered.wrapped,
        }
    }
}

/// Every tool definition of a toolkit rendered once for one [`Provider`].
///
/// Build it once per toolkit and provider (at start-up) and share it: listing the tools of a
/// session concatenates the pre-rendered definitions into one string with one allocation,
/// and renders nothing anew.
///
/// It holds what it lists: the toolkit's shown tools as they were when it was rendered
/// (for an [entitled](Toolkit::entitled) toolkit, that principal's view), whether
/// `reset_tools` is exposed, and the toolkit's skills, so its listings need no toolkit and
/// always describe the one it was rendered from, whatever becomes of that value (a toolkit
/// configured again with `with_*` is a new toolkit: render it anew). Tools found at run
/// time (see [`dynamic`](crate::dynamic)) are the exception, by design: their sources are
/// shared with the toolkit and read at each listing, exactly as
/// [`Toolkit::definitions`] reads them, so a new tool set shows in both at once and is
/// rendered on first use.
pub struct Rendered<R: Registry> {
    provider: Provider,
    /// The toolkit has lifecycle rules (MCP's output schemas then admit their switch-offs).
    lifecycle: bool,
    entries: Vec<Entry>,
    index: FxHashMap<&'static str, u32>,
    /// The core the entries were rendered from: the listings read which tools a session
    /// sees from it, and the entries sit at its positions.
    core: Arc<Core<R>>,
    /// Every definition, as the mask mode sends it.
    all_json: String,
    /// Tools found at run time, rendered on first use (their definitions are interned, so
    /// the address identifies one).
    found: Mutex<FxHashMap<usize, Arc<Entry>>>,
}

/// A listed tool: compiled-in (its entry) or found at run time (its definition).
enum Listed<'a> {
    Entry(usize),
    Dynamic(&'a ToolDefinition),
}

impl<R: Registry> Rendered<R> {
    /// Render every definition of `toolkit` for `provider`; the result lists `toolkit`'s
    /// tools (see above) and keeps what it needs of it, so `toolkit` need not outlive it.
    pub fn new(toolkit: &Toolkit<R>, provider: Provider) -> Self {
        let lifecycle = toolkit.lifecycle().is_some();
        let format = provider.format_for(lifecycle);
        let core = toolkit.core.clone();
        let defs: Vec<&ToolDefinition> = core.compiled_definitions().collect();
        let entries: Vec<Entry> = format
            .definitions(&defs)
            .into_iter()
            .zip(&defs)
            .map(|(rendered, def)| Entry::new(format, def, rendered))
            .collect();
        if let Some(max) = provider.max_tools()
            && entries.len() > max
        {
            tracing::warn!(
                provider = provider.name(),
                tools = entries.len(),
                max,
                "the toolkit has more tools than the provider accepts in one request: the mask mode will be refused, and the list mode only works while a session's tools stay under the limit"
            );
        }
        let index = entries
            .iter()
            .enumerate()
            .map(|(i, e)| (e.name, i as u32))
            .collect();
        let mut rendered = Rendered {
            provider,
            lifecycle,
            entries,
            index,
            core,
            all_json: String::new(),
            found: Mutex::default(),
        };
        rendered.all_json = rendered.concat((0..rendered.entries.len()).map(Listed::Entry));
        rendered
    }

    /// The provider these definitions are for.
    pub fn provider(&self) -> Provider {
        self.provider
    }

    /// How many tools there are (every tool, active or not).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the toolkit has no tool at all.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Every rendered definition, in the stable order of [`Toolkit::all_definitions`].
    pub fn entries(&self) -> impl ExactSizeIterator<Item = RenderedTool<'_>> + '_ {
        self.entries.iter().map(Entry::view)
    }

    /// Whether the tool `name` is rendered strict for this provider, and if it fell back to
    /// non-strict, why: for every tool, those found at run time included (which
    /// [`get`](Self::get) and [`entries`](Self::entries) do not cover).
    pub fn strictness(&self, name: &str) -> Option<Strictness> {
        if let Some(&i) = self.index.get(name) {
            return Some(self.entries[i as usize].strictness.clone());
        }
        let def = self.core.definition(name)?;
        Some(self.dynamic_entry(def).strictness.clone())
    }

    /// The rendered definition of the compiled-in tool `name` (tools found at run time
    /// render when listed: see [`strictness`](Self::strictness)).
    pub fn get(&self, name: &str) -> Option<RenderedTool<'_>> {
        self.index
            .get(name)
            .map(|&i| self.entries[i as usize].view())
    }

    /// The request's tools in the list mode: the definitions of the tools available in
    /// `session`, in the order of [`Toolkit::definitions`], as the JSON of the request's
    /// `tools` field: a list of definitions, for Gemini `[{"functionDeclarations": [...]}]`
    /// (or `[]` when no tool is available).
    pub fn tools_json(&self, session: &Session<R>) -> String {
        self.concat(self.core.definitions_indexed(session).map(listed))
    }

    /// [`tools_json`](Self::tools_json) as a JSON value.
    pub fn tools_value(&self, session: &Session<R>) -> Value {
        parse(&self.tools_json(session))
    }

    /// The request's tools in the mask mode: every definition, active or not, in the stable
    /// order of [`Toolkit::all_definitions`]. Rendered once (borrowed) while the toolkit has
    /// no tools found at run time; with them, their current definitions are added after the
    /// compiled-in ones. Send it with [`allowed_tools_json`](Self::allowed_tools_json).
    pub fn all_tools_json(&self) -> Cow<'_, str> {
        let found: Vec<&ToolDefinition> = self.core.dynamic_definitions().collect();
        if found.is_empty() {
            return Cow::Borrowed(&self.all_json);
        }
        Cow::Owned(
            self.concat(
                (0..self.entries.len())
                    .map(Listed::Entry)
                    .chain(found.into_iter().map(Listed::Dynamic)),
            ),
        )
    }

    /// [`all_tools_json`](Self::all_tools_json) as a JSON value.
    pub fn all_tools_value(&self) -> Value {
        parse(&self.all_tools_json())
    }

    /// The allow-list of the mask mode: which of [`all_tools_json`](Self::all_tools_json)'s
    /// tools the model may call in `session`, as the provider expresses it.
    ///
    /// | provider | request field | value |
    /// |---|---|---|
    /// | OpenAI Chat | `tool_choice` | `{"type":"allowed_tools","allowed_tools":{"mode":"auto","tools":[{"type":"function","function":{"name":...}}]}}` |
    /// | OpenAI Responses | `tool_choice` | `{"type":"allowed_tools","mode":"auto","tools":[{"type":"function","name":...}]}` |
    /// | Gemini | `toolConfig` | `{"functionCallingConfig":{"mode":"VALIDATED","allowedFunctionNames":[...]}}` |
    ///
    /// [`AllowMode::Required`] asks for `"required"` (OpenAI) or `"ANY"` (Gemini) instead:
    /// the model must call a tool. With no tool available the value forbids tool calls
    /// (`"none"`, Gemini mode `"NONE"`). Shapes: OpenAI's `ChatCompletionAllowedToolChoice`
    /// and Responses `ToolChoiceAllowed` (openai-python `types/chat` and `types/responses`);
    /// Gemini API reference, `FunctionCallingConfig` (`allowedFunctionNames` only with modes
    /// `ANY` and `VALIDATED`).
    ///
    /// `None` for Anthropic and MCP, which have no allow-list: use the list mode there.
    pub fn allowed_tools_json(&self, session: &Session<R>, mode: AllowMode) -> Option<String> {
        let Envelope { open, close, empty } = self.format().allow_envelope(mode)?;
        let mut out = String::with_capacity(open.len() + close.len() + self.all_allowed_len());
        out.push_str(open);
        let mut any = false;
        for tool in self.core.definitions_indexed(session).map(listed) {
            if any {
                out.push(',');
            }
            match tool {
                Listed::Entry(i) => out.push_str(&self.entries[i].allowed),
                Listed::Dynamic(def) => out.push_str(&self.dynamic_entry(def).allowed),
            }
            any = true;
        }
        if !any {
            return Some(empty.to_owned());
        }
        out.push_str(close);
        Some(out)
    }

    /// [`allowed_tools_json`](Self::allowed_tools_json) as a JSON value.
    pub fn allowed_tools_value(&self, session: &Session<R>, mode: AllowMode) -> Option<Value> {
        self.allowed_tools_json(session, mode).map(|s| parse(&s))
    }

    /// The tool calls of a provider response: [`Provider::decode_calls`] for this provider.
    ///
    /// # Errors
    ///
    /// A [`DecodeError`] for a payload of the wrong shape.
    pub fn decode_calls(&self, payload: &Value) -> Result<Vec<ToolCall>, DecodeError> {
        self.provider.decode_calls(payload)
    }

    /// One call's result as the provider's tool-result item.
    ///
    /// | provider | item |
    /// |---|---|
    /// | OpenAI Chat | message `{"role":"tool","tool_call_id","content"}` |
    /// | OpenAI Responses | input item `{"type":"function_call_output","call_id","output"}` |
    /// | Anthropic | content block `{"type":"tool_result","tool_use_id","content","is_error"}` |
    /// | Gemini | part `{"functionResponse":{"id","name","response","parts"}}` |
    /// | MCP | `CallToolResult` `{"content","structuredContent","isError"}` |
    ///
    /// OpenAI has no error flag: an error result's text is prefixed with `Error: `. Gemini's
    /// `response` is `{"output": ...}` (the structured value, or the text) or `{"error":
    /// text}`. For MCP, a non-object structured output is wrapped as `{"result": ...}`
    /// (see [`mcp_output_schema`](super::mcp_output_schema)).
    ///
    /// # Content blocks
    ///
    /// How each [`Content`](crate::Content) block reaches each provider. "Note" means a text
    /// line in the result that names the block (`[audio (audio/ogg, 912 bytes): not shown,
    /// Anthropic cannot receive this kind of content]`), so nothing is dropped silently;
    /// "next message" means the block is delivered in a user message right after the results,
    /// by [`result_messages`](Self::result_messages), with a note in the result saying so
    /// (with `result_message`, take those parts from
    /// [`result_attachments`](Self::result_attachments)). Gemini reads media in a function
    /// response's `parts` from Gemini 3 on.
    ///
    /// | block | OpenAI Chat | OpenAI Responses | Anthropic | Gemini | MCP |
    /// |---|---|---|---|---|---|
    /// | text | text | `input_text` (or the plain string when all blocks are text) | `text` | in `output` | as is |
    /// | image (PNG, JPEG, WebP, GIF) | next message, `image_url` data URL | `input_image` data URL | `image` block, base64 source | `parts[].inlineData` (PNG, JPEG, WebP; GIF: note) | as is |
    /// | audio | next message, `input_audio` (WAV, MP3; others: note) | note | note | an `inlineData` part of the same user content, after the function responses | as is |
    /// | text resource | text: a header line with the URI, then the text | `input_text`, the same | `text`, the same | in `output`, the same | as is |
    /// | binary resource | PDF: next message, `file` with `file_data`; image: as an image; else note | PDF: `input_file` with `file_data`; image: as an image; else note | PDF: `document` block, base64 source; image: as an image; else note | PDF, plain text, PNG, JPEG, WebP: `parts[].inlineData`; else note | as is |
    /// | resource link | text: `Resource link: name <uri> (mime, size bytes): description` | `input_text`, the same | `text`, the same | in `output`, the same | as is |
    ///
    /// Annotations are MCP's alone; the other providers have no place for them.
    ///
    /// # Size limits
    ///
    /// A result whose media (the base64 of its images, audio and binary resources) pass the
    /// provider's limit is sent as an error result naming the sizes instead, so the model can
    /// try something smaller: [`OPENAI_MAX_MEDIA_BYTES`](super::limits::OPENAI_MAX_MEDIA_BYTES),
    /// [`ANTHROPIC_MAX_MEDIA_BYTES`](super::limits::ANTHROPIC_MAX_MEDIA_BYTES) and
    /// [`ANTHROPIC_MAX_IMAGE_BYTES`](super::limits::ANTHROPIC_MAX_IMAGE_BYTES) (per image),
    /// [`GEMINI_MAX_INLINE_BYTES`](super::limits::GEMINI_MAX_INLINE_BYTES). MCP states no limit.
    ///
    /// # Errors
    ///
    /// [`MissingCallId`] when OpenAI or Anthropic needs the call's id and `call` has none.
    pub fn result_message(
        &self,
        call: &ToolCall,
        result: &CallResult,
    ) -> Result<Value, MissingCallId> {
        self.encode(call, result).map(|e| e.item)
    }

    /// The content parts of `result` that go in the user message after the results rather
    /// than in the tool result itself (see [`result_message`](Self::result_message)): for
    /// OpenAI Chat, a text part naming the call followed by its images, audio and PDF files;
    /// for Gemini, its audio as `inlineData` parts. Empty for every other provider, and for
    /// results without such content. [`result_messages`](Self::result_messages) already
    /// places them.
    ///
    /// # Errors
    ///
    /// As [`result_message`](Self::result_message).
    pub fn result_attachments(
        &self,
        call: &ToolCall,
        result: &CallResult,
    ) -> Result<Vec<Value>, MissingCallId> {
        self.encode(call, result).map(|e| e.attachments)
    }

    fn encode(&self, call: &ToolCall, result: &CallResult) -> Result<Encoded, MissingCallId> {
        let wrapped = self
            .index
            .get(call.tool.as_str())
            .and_then(|&i| self.entries[i as usize].wrapped);
        self.format().result(call, result, wrapped)
    }

    /// A turn's results (as [`Toolkit::call_batch`] returns them, in call order) as what to
    /// append to the conversation: one message per result for OpenAI (and one
    /// `CallToolResult` per result for MCP); one user message of `tool_result` blocks for
    /// Anthropic; one `{"role":"user","parts":[...]}` content for Gemini. For OpenAI Chat, the
    /// images, audio and PDFs a tool message cannot carry follow in one user message after the
    /// tool messages (each call's attachments introduced by a text part naming the call); for
    /// Gemini, audio follows the function responses in the same content (see
    /// [`result_message`](Self::result_message)). No calls, no messages.
    ///
    /// # Errors
    ///
    /// As [`result_message`](Self::result_message).
    pub fn result_messages<'c>(
        &self,
        answered: impl IntoIterator<Item = (&'c ToolCall, &'c CallResult)>,
    ) -> Result<Vec<Value>, MissingCallId> {
        let items = answered
            .into_iter()
            .map(|(c, r)| self.encode(c, r))
            .collect::<Result<Vec<_>, _>>()?;
        if items.is_empty() {
            return Ok(Vec::new());
        }
        Ok(self.format().messages(items))
    }

    /// Tools of the application's own (not the toolkit's) rendered for this provider, to
    /// list beside the toolkit's: their definitions, and their allow-list entries, each
    /// joined by commas.
    pub(super) fn render_own(&self, definitions: &[ToolDefinition]) -> (String, String) {
        let entries: Vec<Entry> = definitions.iter().map(|d| self.entry(d)).collect();
        let join =
            |part: fn(&Entry) -> &str| entries.iter().map(part).collect::<Vec<_>>().join(",");
        (join(|e| e.json.get()), join(|e| &e.allowed))
    }

    /// `tools` (a `tools` value of this provider) with the definitions `joined` (comma
    /// separated, none when empty) appended.
    pub(super) fn append_tools(&self, tools: String, joined: &str) -> String {
        self.format().tools_envelope().append(tools, joined)
    }

    /// `allowed` (an allow-list of this provider in `mode`) with the entries `joined`
    /// appended; `None` where the provider has no allow-list.
    pub(super) fn append_allowed(
        &self,
        allowed: Option<String>,
        mode: AllowMode,
        joined: &str,
    ) -> Option<String> {
        let allowed = allowed?;
        Some(match self.format().allow_envelope(mode) {
            Some(envelope) => envelope.append(allowed, joined),
            None => allowed,
        })
    }

    fn format(&self) -> &'static dyn Format {
        self.provider.format_for(self.lifecycle)
    }

    fn all_allowed_len(&self) -> usize {
        self.entries.iter().map(|e| e.allowed.len() + 1).sum()
    }

    /// The entry of a tool found at run time, rendered on first use.
    fn dynamic_entry(&self, def: &ToolDefinition) -> Arc<Entry> {
        let key = std::ptr::from_ref(def) as usize;
        let mut found = self.found.lock().unwrap_or_else(PoisonError::into_inner);
        found
            .entry(key)
            .or_insert_with(|| Arc::new(self.entry(def)))
            .clone()
    }

    /// `def` rendered alone for this provider.
    fn entry(&self, def: &ToolDefinition) -> Entry {
        let format = self.format();
        let rendered = format
            .definitions(&[def])
            .pop()
            .expect("one definition renders as one");
        Entry::new(format, def, rendered)
    }

    /// The definitions of `tools`, in the request's envelope, in one allocation.
    fn concat<'d>(&self, tools: impl Iterator<Item = Listed<'d>>) -> String {
        let Envelope { open, close, empty } = self.format().tools_envelope();
        let capacity = if self.all_json.is_empty() {
            open.len()
                + close.len()
                + self
                    .entries
                    .iter()
                    .map(|e| e.json.get().len() + 1)
                    .sum::<usize>()
        } else {
            self.all_json.len()
        };
        let mut out = String::with_capacity(capacity);
        out.push_str(open);
        let mut any = false;
        for tool in tools {
            if any {
                out.push(',');
            }
            match tool {
                Listed::Entry(i) => out.push_str(self.entries[i].json.get()),
                Listed::Dynamic(def) => out.push_str(self.dynamic_entry(def).json.get()),
            }
            any = true;
        }
        if !any {
            out.clear();
            out.push_str(empty);
            return out;
        }
        out.push_str(close);
        out
    }
}

fn listed<'a>((index, def): (Option<usize>, &'a ToolDefinition)) -> Listed<'a> {
    match index {
        Some(i) => Listed::Entry(i),
        None => Listed::Dynamic(def),
    }
}

impl Entry {
    fn view(&self) -> RenderedTool<'_> {
        RenderedTool {
            name: self.name,
            json: &self.json,
            strictness: &self.strictness,
        }
    }
}

impl<R: Registry> fmt::Debug for Rendered<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Rendered")
            .field("provider", &self.provider)
            .field(
                "tools",
                &self.entries.iter().map(|e| e.name).collect::<Vec<_>>(),
            )
            .finish_non_exhaustive()
    }
}

fn parse(json: &str) -> Value {
    serde_json::from_str(json).expect("pre-rendered definitions are valid JSON")
}
