//! The deferred delivery mode: one tool array that never changes during a conversation (so the
//! provider's prompt cache survives every `reset_tools` call), and after each change of the
//! active groups the provider's own message for that change.
//!
//! | [`Provider`] | [`Strategy`] | tool array | on a change |
//! |---|---|---|---|
//! | Anthropic (both) | [`AnthropicToolChanges`](Strategy::AnthropicToolChanges) (default) | every tool; all but `reset_tools` and basic tools with `"defer_loading": true` | a `{"role":"system"}` message of `tool_removal` then `tool_addition` blocks and a text block with the new groups' instructions, after the turn's tool results; needs the beta header [`ANTHROPIC_TOOL_CHANGES_BETA`] |
//! | Anthropic (both) | [`AnthropicToolReferences`](Strategy::AnthropicToolReferences) | the same | `{"type":"tool_reference","tool_name"}` blocks in the `reset_tools` result for tools not loaded before; deactivation relies on the refusal at call time |
//! | OpenAI Responses | [`ResponsesAdditionalTools`](Strategy::ResponsesAdditionalTools) (default) | `reset_tools` and the basic tools | an `additional_tools` input item with the definitions of the groups never appended before, after the turn's outputs; `tool_choice` `allowed_tools` names what may be called |
//! | OpenAI Responses | [`ResponsesNamespaces`](Strategy::ResponsesNamespaces) | the eager tools, one `namespace` per group (its functions deferred) and `{"type":"tool_search"}` | nothing: the model loads a namespace with the tool search; inactive calls are refused |
//! | OpenAI Chat, Gemini | [`Mask`](Strategy::Mask) | every tool | nothing; the allow-list (`tool_choice`, `toolConfig`) changes |
//! | MCP | [`List`](Strategy::List) | the session's tools | nothing; the list changes (the `reset_tools` answer says what changed) |
//!
//! In every strategy a call of a tool whose group is inactive is refused by
//! [`Toolkit::call`](crate::Toolkit::call) with the hint to activate its group: removal on
//! Anthropic is a hint to the model, and a deferred tool the model calls without having been
//! given it is a call like any other.
//!
//! Tools of the application's own ([`Deferred::with_tools`], such as code mode's
//! `run_program`) are sent in full after the toolkit's in every strategy's tool array, and
//! every allow-list names them; no change touches them.
//!
//! Per turn nothing is rendered: [`Deferred::tools_json`] is built once, and the allow-list
//! (or the listed tools of the list fallback) is kept in the [`DeferredState`] and rebuilt only
//! when the active groups change. A change allocates its message, nothing else does.
//!
//! Which OpenAI models take deferred definitions: OpenAI documents `defer_loading`,
//! `namespace` and `tool_search` for gpt-5.4 and later. Whether a model honours an
//! `allowed_tools` list that names functions appended by `additional_tools` is not documented
//! (the SDK types put no restriction on the names): the refusal at call time is what
//! enforces the active set either way. For older models use the mask mode.

mod build;
mod change;
mod decode;

use std::fmt;

use serde_json::Value;

use super::format::AllowMode;
use super::render::Rendered;
use super::{MissingCallId, Provider};
use crate::meta::ToolDefinition;
use crate::registry::Registry;
use crate::result::CallResult;
use crate::session::Session;
use crate::toolkit::{ToolCall, Toolkit};

pub use change::Change;
pub use decode::{DeferredDecodeError, ToolSearchCall, Turn};

/// The Anthropic beta that allows `tool_addition` and `tool_removal` blocks in a
/// `{"role":"system"}` message (sent as the `anthropic-beta` header).
pub const ANTHROPIC_TOOL_CHANGES_BETA: &str = "mid-conversation-tool-changes-2026-07-01";

/// How a [`Deferred`] delivers a change of the active groups (see the [module](self) table).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Strategy {
    /// Anthropic: deferred tools and a system message of tool changes (beta).
    AnthropicToolChanges,
    /// Anthropic without the beta: deferred tools loaded by `tool_reference` blocks.
    AnthropicToolReferences,
    /// OpenAI Responses: the eager tools, `additional_tools` items and `allowed_tools`.
    ResponsesAdditionalTools,
    /// OpenAI Responses: groups as `namespace`s of deferred functions, with `tool_search`.
    ResponsesNamespaces,
    /// No deferral; the mask mode (every tool, an allow-list).
    Mask,
    /// No deferral and no allow-list; the list mode.
    List,
}

/// Choices for [`Deferred::new`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct DeferredOptions {
    /// Anthropic: `tool_reference` blocks instead of the tool-changes beta.
    pub without_beta: bool,
    /// OpenAI Responses: groups as namespaces with a tool search.
    pub namespaces: bool,
    /// The allow-list's mode, where one is sent.
    pub allow: AllowMode,
}

impl DeferredOptions {
    /// Anthropic: deliver activations as `tool_reference` blocks in the `reset_tools` result
    /// (generally available) rather than the tool-changes beta's system message.
    #[must_use]
    pub fn without_beta(mut self) -> Self {
        self.without_beta = true;
        self
    }

    /// OpenAI Responses: offer the groups as `namespace` tools (name and description shown,
    /// functions deferred) with the hosted `tool_search` tool.
    #[must_use]
    pub fn namespaces(mut self) -> Self {
        self.namespaces = true;
        self
    }

    /// The allow-list's mode ([`AllowMode::Auto`] by default).
    #[must_use]
    pub fn allow(mut self, mode: AllowMode) -> Self {
        self.allow = mode;
        self
    }
}

/// A toolkit that cannot be delivered in the deferred mode.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum DeferredError {
    /// Anthropic requires at least one tool without `defer_loading`; the toolkit has neither
    /// `reset_tools` (it is hidden) nor a basic tool.
    NoEagerTool,
    /// A tool of the application's own ([`Deferred::with_tools`]) has the name of another
    /// tool: the toolkit's, or another of its own.
    NameTaken {
        /// The name.
        name: &'static str,
    },
    /// The provider accepts at most `max` tools in a request and the toolkit has `tools`
    /// (with the application's own).
    TooManyTools {
        /// The provider.
        provider: Provider,
        /// The toolkit's tools.
        tools: usize,
        /// The provider's limit.
        max: usize,
    },
}

impl fmt::Display for DeferredError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DeferredError::NoEagerTool => f.write_str(
                "the deferred mode needs at least one tool that is not deferred (Anthropic rejects a request whose tools are all deferred); expose `reset_tools` or add a basic tool",
            ),
            DeferredError::NameTaken { name } => write!(
                f,
                "the deferred mode cannot add the tool `{name}`: the request already has a tool of that name; rename one of them"
            ),
            DeferredError::TooManyTools {
                provider,
                tools,
                max,
            } => write!(
                f,
                "the deferred mode for {provider} sends every tool, and the toolkit has {tools} while {provider} accepts {max}; use the list mode"
            ),
        }
    }
}

impl std::error::Error for DeferredError {}

/// The deferred delivery mode of one toolkit for one provider: build it once (at start-up),
/// share it, and keep one [`DeferredState`] per conversation.
pub struct Deferred<R: Registry> {
    rendered: Rendered<R>,
    strategy: Strategy,
    allow: AllowMode,
    built: build::Built,
}

impl<R: Registry> Deferred<R> {
    /// Render `toolkit`'s stable tool array for `provider`. Like [`Rendered`], the result
    /// holds what it needs of `toolkit` (its methods take no toolkit). The tools found at run
    /// time are those `toolkit` lists now: build a new `Deferred` when they change (the one
    /// change of the tool array that breaks the cache).
    ///
    /// # Errors
    ///
    /// [`DeferredError::NoEagerTool`] for Anthropic when no tool can stay non-deferred;
    /// [`DeferredError::TooManyTools`] when the provider's per-request limit is below the
    /// toolkit's size and the strategy sends every tool.
    pub fn new(
        toolkit: &Toolkit<R>,
        provider: Provider,
        options: DeferredOptions,
    ) -> Result<Self, DeferredError> {
        Self::with_tools(toolkit, provider, options, &[])
    }

    /// [`new`](Self::new), with tools of the application's own in every request beside the
    /// toolkit's (code mode's `run_program`: see `CodeMode::deferred`, feature `code-mode`).
    /// They are sent in full (never deferred), after the toolkit's tools, in every strategy's
    /// tool array, and every allow-list names them: a change of the active groups never
    /// touches them, so they keep the prompt cache as the rest of the array does. The toolkit
    /// does not know them: answer their calls yourself.
    ///
    /// # Errors
    ///
    /// As [`new`](Self::new) (an own tool counts as an eager tool, and towards the
    /// provider's limit), and [`DeferredError::NameTaken`] when one has the name of a tool of
    /// the toolkit or of another of them.
    pub fn with_tools(
        toolkit: &Toolkit<R>,
        provider: Provider,
        options: DeferredOptions,
        tools: &[ToolDefinition],
    ) -> Result<Self, DeferredError> {
        let strategy = match provider {
            Provider::Anthropic | Provider::AnthropicStrict if options.without_beta => {
                Strategy::AnthropicToolReferences
            }
            Provider::Anthropic | Provider::AnthropicStrict => Strategy::AnthropicToolChanges,
            Provider::OpenAiResponses if options.namespaces => Strategy::ResponsesNamespaces,
            Provider::OpenAiResponses => Strategy::ResponsesAdditionalTools,
            Provider::OpenAiChat | Provider::Gemini | Provider::GeminiLegacy => Strategy::Mask,
            Provider::Mcp => Strategy::List,
        };
        let rendered = Rendered::new(toolkit, provider);
        let built = build::build(toolkit, &rendered, strategy, tools)?;
        Ok(Deferred {
            rendered,
            strategy,
            allow: options.allow,
            built,
        })
    }

    /// The provider.
    pub fn provider(&self) -> Provider {
        self.rendered.provider()
    }

    /// How changes are delivered.
    pub fn strategy(&self) -> Strategy {
        self.strategy
    }

    /// The renderer of the provider's definitions and results, as the other modes use it.
    pub fn rendered(&self) -> &Rendered<R> {
        &self.rendered
    }

    /// The beta headers a request needs (`anthropic-beta` values); empty for the rest.
    pub fn beta_headers(&self) -> &'static [&'static str] {
        match self.strategy {
            Strategy::AnthropicToolChanges => &[ANTHROPIC_TOOL_CHANGES_BETA],
            _ => &[],
        }
    }

    /// The request's `tools`, the same on every turn of every conversation (for
    /// [`Strategy::List`], the tools of `state`'s groups, kept in the state). Gemini's value is
    /// the `tools` list of one `functionDeclarations` object, as in the other modes.
    pub fn tools_json<'a>(&'a self, state: &'a DeferredState<R>) -> &'a str {
        match &state.listed {
            Some(listed) => listed,
            None => &self.built.tools,
        }
    }

    /// [`tools_json`](Self::tools_json) as a JSON value.
    pub fn tools_value(&self, state: &DeferredState<R>) -> Value {
        serde_json::from_str(self.tools_json(state)).expect("rendered tools are valid JSON")
    }

    /// The allow-list for `state`, where the strategy sends one: OpenAI's `tool_choice`
    /// (Responses deferred and Chat) or Gemini's `toolConfig`, in the shapes of
    /// [`Rendered::allowed_tools_json`]. `None` otherwise.
    pub fn tool_choice_json<'a>(&self, state: &'a DeferredState<R>) -> Option<&'a str> {
        state.choice.as_deref()
    }

    /// The state of a new conversation whose session is `session`: nothing loaded yet. When
    /// `session` has active groups, the first [`sync`](Self::sync) (or
    /// [`result_messages`](Self::result_messages)) delivers them as a change; call `sync` with
    /// an empty state's conversation after the first user message to announce them at once.
    pub fn state(&self) -> DeferredState<R> {
        self.state_of(Session::new(), Session::new())
    }

    /// The state of a conversation resumed from its transcript (see
    /// [`transcript`](super::transcript)): the groups it left active, and those whose
    /// definitions it already holds.
    pub fn resume(&self, replayed: &super::transcript::Replayed<R>) -> DeferredState<R> {
        self.state_of(replayed.session, replayed.loaded)
    }

    fn state_of(&self, active: Session<R>, loaded: Session<R>) -> DeferredState<R> {
        let mut state = DeferredState {
            active,
            loaded,
            choice: None,
            listed: None,
        };
        self.refresh(&mut state);
        state
    }

    /// Bring `state` to `session`: the change to deliver (`None` when the active groups are
    /// those the model was last told). The state is updated as if the change were delivered;
    /// [`result_messages`](Self::result_messages) places it for you.
    pub fn sync(&self, state: &mut DeferredState<R>, session: &Session<R>) -> Option<Change> {
        let change = change::between::<R>(&self.built, self.strategy, state, session)?;
        state.active = *session;
        change::mark_loaded(&mut state.loaded, &change);
        self.refresh(state);
        Some(change)
    }

    /// The tool calls of a response, checking every item: an item type this provider does
    /// not document is an error naming it (the other modes skip it). Function calls of
    /// OpenAI Responses keep their `namespace`, and tool-search calls are listed.
    ///
    /// # Errors
    ///
    /// [`DeferredDecodeError`] for a payload of the wrong shape or an unknown item type.
    pub fn decode(&self, payload: &Value) -> Result<Turn, DeferredDecodeError> {
        decode::decode(self.provider(), payload)
    }

    /// What to append to the conversation after a turn: the `answered` calls with their
    /// results (as [`Rendered::result_messages`], in call order:
    /// `turn.calls.iter().zip(&results)`), with the namespaces `turn` decoded for OpenAI
    /// Responses calls replayed on their outputs (matched by call id), then the change to
    /// `session` (the state after the turn's calls) in the provider's own shape, placed after
    /// the results (never between a call and its result). With
    /// [`Strategy::AnthropicToolReferences`] the `tool_reference` blocks join the result of
    /// the last accepted `reset_tools` call (or the last result); a turn without results
    /// keeps them for the next one.
    ///
    /// # Errors
    ///
    /// [`MissingCallId`] when the provider needs a call's id and it has none.
    pub fn result_messages<'c>(
        &self,
        state: &mut DeferredState<R>,
        session: &Session<R>,
        turn: &Turn,
        answered: impl IntoIterator<Item = (&'c ToolCall, &'c CallResult)>,
    ) -> Result<Vec<Value>, MissingCallId> {
        let answered: Vec<(&ToolCall, &CallResult)> = answered.into_iter().collect();
        let mut messages = self.rendered.result_messages(answered.iter().copied())?;
        decode::replay_namespaces(self.provider(), turn, &mut messages);
        let loaded_before = state.loaded;
        let Some(change) = self.sync(state, session) else {
            return Ok(messages);
        };
        if self.strategy == Strategy::AnthropicToolReferences {
            if !change::attach_references(&mut messages, &answered, &change.references) {
                // Nowhere to put them: deliver them with the next turn's results.
                state.loaded = loaded_before;
            }
            return Ok(messages);
        }
        messages.extend(change.messages);
        Ok(messages)
    }

    /// Rebuild the per-state strings (the allow-list, the listed tools) after a change.
    fn refresh(&self, state: &mut DeferredState<R>) {
        state.choice = match self.strategy {
            Strategy::ResponsesAdditionalTools | Strategy::Mask => self.rendered.append_allowed(
                self.rendered.allowed_tools_json(&state.active, self.allow),
                self.allow,
                &self.built.own_allowed,
            ),
            _ => None,
        };
        state.listed = (self.strategy == Strategy::List).then(|| {
            self.rendered.append_tools(
                self.rendered.tools_json(&state.active),
                &self.built.own_tools,
            )
        });
    }
}

impl<R: Registry> fmt::Debug for Deferred<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Deferred")
            .field("provider", &self.provider())
            .field("strategy", &self.strategy)
            .finish_non_exhaustive()
    }
}

/// One conversation's deferred state: the groups the model was last told about, the groups
/// whose definitions the conversation already holds, and the allow-list for them.
pub struct DeferredState<R: Registry> {
    active: Session<R>,
    loaded: Session<R>,
    choice: Option<String>,
    listed: Option<String>,
}

impl<R: Registry> DeferredState<R> {
    /// The active groups as the model was last told.
    pub fn active(&self) -> &Session<R> {
        &self.active
    }

    /// The groups whose definitions the conversation holds (appended or referenced once).
    pub fn loaded(&self) -> &Session<R> {
        &self.loaded
    }
}

impl<R: Registry> Clone for DeferredState<R> {
    fn clone(&self) -> Self {
        DeferredState {
            active: self.active,
            loaded: self.loaded,
            choice: self.choice.clone(),
            listed: self.listed.clone(),
        }
    }
}

impl<R: Registry> fmt::Debug for DeferredState<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DeferredState")
            .field("active", &self.active.active_names().collect::<Vec<_>>())
            .field("loaded", &self.loaded.active_names().collect::<Vec<_>>())
            .finish_non_exhaustive()
    }
}
