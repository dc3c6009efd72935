//! A scripted model: plays a [`Script`] through a provider's shapes, as an agent loop would
//! with a real model.

use std::fmt;

use serde_json::Value;

use super::script::{Script, ScriptTurn};
use super::shapes;
use crate::lifecycle::ManagedSession;
use crate::provider::deferred::{
    Deferred, DeferredDecodeError, DeferredError, DeferredOptions, DeferredState,
};
use crate::provider::{AllowMode, MissingCallId, Provider, Rendered};
use crate::registry::Registry;
use crate::result::{CallOutcome, CallResult};
use crate::session::Session;
use crate::toolkit::{ToolCall, Toolkit};

/// How the tools reach the scripted model (see
/// [delivery modes](crate::provider#delivery-modes)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Delivery {
    /// The session's tools only ([`Rendered::tools_json`]).
    #[default]
    List,
    /// Every tool, with the provider's allow-list of the active ones
    /// ([`Rendered::all_tools_json`] and [`Rendered::allowed_tools_json`]); OpenAI and Gemini.
    Mask,
    /// One tool array for the conversation and the provider's own message for each change
    /// ([`Deferred`]).
    Deferred(DeferredOptions),
}

/// A model that answers from a [`Script`], in a provider's shapes.
///
/// Each turn does what an agent loop does with a real model: render the definitions the
/// model is offered (in the chosen [`Delivery`] mode), build the provider's response holding
/// the scripted calls, decode it with the toolkit's decoder, run the calls with
/// [`Toolkit::call_batch`] and encode the results as the provider's messages. The
/// [`Transcript`] records, per turn, the tools offered, the calls and the results.
///
/// ```
/// # use toolgroup::prelude::*;
/// use toolgroup::provider::Provider;
/// use toolgroup::testing::{Script, ScriptedModel};
/// # /// Echo.
/// # #[tool] fn echo(
/// #     /// Text.
/// #     text: String,
/// # ) -> String { text }
/// # #[tool_group(name = "echo", description = "Echo.", tools = [echo])] struct Echo;
/// # #[toolkit] struct Kit { echo: Echo }
/// # #[tokio::main(flavor = "current_thread")] async fn main() {
/// let toolkit = Toolkit::new(Kit { echo: Echo });
/// let script = Script::new()
///     .call("reset_tools", serde_json::json!({"echo": true}))
///     .call("echo", serde_json::json!({"text": "hi"}))
///     .text("Done.");
/// let mut session = toolkit.session();
/// let transcript = ScriptedModel::new(script, Provider::Anthropic)
///     .play(&toolkit, &mut session)
///     .await
///     .unwrap();
/// assert_eq!(transcript.turns[0].offered, ["reset_tools"]);
/// assert_eq!(transcript.turns[1].offered, ["reset_tools", "echo"]);
/// assert_eq!(transcript.turns[1].results[0].text_joined(), "hi");
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct ScriptedModel {
    script: Script,
    provider: Provider,
    delivery: Delivery,
}

impl ScriptedModel {
    /// A model playing `script` in `provider`'s shapes, in the list mode.
    pub fn new(script: Script, provider: Provider) -> Self {
        ScriptedModel {
            script,
            provider,
            delivery: Delivery::List,
        }
    }

    /// The delivery mode.
    #[must_use]
    pub fn delivery(mut self, delivery: Delivery) -> Self {
        self.delivery = delivery;
        self
    }

    /// Play every turn of the script against `toolkit`, from `session` (left as the calls
    /// leave it).
    ///
    /// # Errors
    ///
    /// [`PlayError`] when the provider's shapes cannot carry the script (a call's arguments
    /// that are not an object, for a provider that sends objects; the mask mode for a
    /// provider without an allow-list) or the toolkit cannot be delivered in the mode. A tool
    /// that fails is no error: its result is in the transcript, as the model would read it.
    pub async fn play<R: Registry>(
        &self,
        toolkit: &Toolkit<R>,
        session: &mut Session<R>,
    ) -> Result<Transcript, PlayError> {
        self.play_driven(toolkit, Driver::Plain(session)).await
    }

    /// [`play`](Self::play) through a [`ManagedSession`]: the toolkit's
    /// [lifecycle](crate::lifecycle) rules apply, and each scripted turn ends
    /// ([`Toolkit::end_turn`]) once its calls ran, before their results are rendered (so the
    /// deferred mode delivers what the turn's end switched off with them).
    ///
    /// # Errors
    ///
    /// As [`play`](Self::play).
    pub async fn play_managed<R: Registry>(
        &self,
        toolkit: &Toolkit<R>,
        session: &mut ManagedSession<R>,
    ) -> Result<Transcript, PlayError> {
        self.play_driven(toolkit, Driver::Managed(session)).await
    }

    async fn play_driven<R: Registry>(
        &self,
        toolkit: &Toolkit<R>,
        mut driver: Driver<'_, R>,
    ) -> Result<Transcript, PlayError> {
        let mut mode = Mode::new(toolkit, self.provider, self.delivery)?;
        let mut transcript = Transcript::default();
        if let Mode::Deferred(deferred, state) = &mut mode
            && let Some(change) = deferred.sync(state, driver.session())
        {
            transcript.messages.extend(change.messages);
        }
        let mut next_id = 1;
        for (index, turn) in self.script.turns().iter().enumerate() {
            let (tools, offered) = mode.request(toolkit, driver.session());
            let (text, scripted): (Option<&str>, &[ToolCall]) = match turn {
                ScriptTurn::Text(text) => (Some(text), &[]),
                ScriptTurn::Calls(calls) => (None, calls),
            };
            let with_ids: Vec<(String, &ToolCall)> = scripted
                .iter()
                .map(|call| {
                    next_id += 1;
                    (shapes::call_id(self.provider, next_id - 1), call)
                })
                .collect();
            let response = shapes::response(self.provider, text, &with_ids).map_err(
                |shapes::Unrepresentable| PlayError::Unrepresentable {
                    turn: index + 1,
                    provider: self.provider,
                },
            )?;
            let at = |error| PlayError::Decode {
                turn: index + 1,
                error,
            };
            transcript
                .messages
                .extend(response.messages.iter().cloned());
            let mut calls = Vec::new();
            let mut decoded = None;
            for payload in &response.payloads {
                match &mode {
                    Mode::Deferred(deferred, _) => {
                        let turn = deferred.decode(payload).map_err(at)?;
                        calls.extend(turn.calls.iter().cloned());
                        // MCP decodes one request per call: its turn is rebuilt below.
                        if response.payloads.len() == 1 {
                            decoded = Some(turn);
                        }
                    }
                    _ => calls.extend(
                        self.provider
                            .decode_calls(payload)
                            .map_err(|e| at(DeferredDecodeError::Shape(e)))?,
                    ),
                }
            }
            let results = driver.call_batch(toolkit, &calls).await;
            let session = driver.session();
            let encoded = match (&mut mode, decoded) {
                (Mode::Deferred(deferred, state), Some(turn)) => {
                    deferred.result_messages(state, session, &turn, turn.calls.iter().zip(&results))
                }
                (Mode::Deferred(deferred, state), None) => {
                    // MCP's calls, each decoded from its own request; its list strategy has
                    // no change message to place.
                    let messages = deferred
                        .rendered()
                        .result_messages(calls.iter().zip(&results));
                    deferred.sync(state, session);
                    messages
                }
                (Mode::List(rendered) | Mode::Mask(rendered), _) => {
                    rendered.result_messages(calls.iter().zip(&results))
                }
            }
            .map_err(|error| PlayError::MissingCallId {
                turn: index + 1,
                error,
            })?;
            transcript.messages.extend(encoded);
            transcript.turns.push(TurnRecord {
                tools,
                offered,
                response: response.payloads.into_iter().next().unwrap_or(Value::Null),
                calls,
                results,
                text: text.map(str::to_owned),
                active: session.active_names().collect(),
            });
        }
        Ok(transcript)
    }
}

/// The session a play drives: plain, or managed by the toolkit's lifecycle rules.
enum Driver<'a, R: Registry> {
    Plain(&'a mut Session<R>),
    Managed(&'a mut ManagedSession<R>),
}

impl<R: Registry> Driver<'_, R> {
    fn session(&self) -> &Session<R> {
        match self {
            Driver::Plain(session) => session,
            Driver::Managed(managed) => managed.session(),
        }
    }

    /// A turn's calls; a managed turn then ends.
    async fn call_batch(&mut self, toolkit: &Toolkit<R>, calls: &[ToolCall]) -> Vec<CallResult> {
        match self {
            Driver::Plain(session) => toolkit.call_batch(session, calls).await,
            Driver::Managed(managed) => {
                let results = toolkit.call_batch_managed(managed, calls).await;
                toolkit.end_turn(managed);
                results
            }
        }
    }
}

/// The renderer of the chosen delivery mode.
enum Mode<R: Registry> {
    List(Rendered<R>),
    Mask(Rendered<R>),
    Deferred(Box<Deferred<R>>, DeferredState<R>),
}

impl<R: Registry> Mode<R> {
    fn new(
        toolkit: &Toolkit<R>,
        provider: Provider,
        delivery: Delivery,
    ) -> Result<Self, PlayError> {
        Ok(match delivery {
            Delivery::List => Mode::List(Rendered::new(toolkit, provider)),
            Delivery::Mask => {
                let rendered = Rendered::new(toolkit, provider);
                if rendered
                    .allowed_tools_json(&toolkit.session(), AllowMode::Auto)
                    .is_none()
                {
                    return Err(PlayError::NoAllowList(provider));
                }
                Mode::Mask(rendered)
            }
            Delivery::Deferred(options) => {
                let deferred =
                    Deferred::new(toolkit, provider, options).map_err(PlayError::Deferred)?;
                let state = deferred.state();
                Mode::Deferred(Box::new(deferred), state)
            }
        })
    }

    /// The names in the request's `tools`, and the names the model may call.
    fn request(&self, toolkit: &Toolkit<R>, session: &Session<R>) -> (Vec<String>, Vec<String>) {
        match self {
            Mode::List(rendered) => {
                let tools = shapes::tool_names(&rendered.tools_value(session));
                (tools.clone(), tools)
            }
            Mode::Mask(rendered) => {
                let tools = shapes::tool_names(&rendered.all_tools_value());
                let choice = rendered
                    .allowed_tools_value(session, AllowMode::Auto)
                    .unwrap_or_default();
                (tools, shapes::allowed_names(&choice))
            }
            Mode::Deferred(deferred, state) => {
                let tools = shapes::tool_names(&deferred.tools_value(state));
                let offered = match deferred.tool_choice_json(state) {
                    Some(choice) => shapes::allowed_names(
                        &serde_json::from_str(choice).expect("rendered JSON is valid"),
                    ),
                    // Anthropic and MCP: the groups the model was last told about.
                    None => toolkit
                        .definitions(state.active())
                        .map(|d| d.name.to_owned())
                        .collect(),
                };
                (tools, offered)
            }
        }
    }
}

/// What a [`ScriptedModel`] did, turn by turn.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct Transcript {
    /// One record per scripted turn.
    pub turns: Vec<TurnRecord>,
    /// The conversation in the provider's shapes: each turn's assistant message (its
    /// response's messages) followed by what the provider's encoder appended (the results,
    /// and in the deferred mode the change messages).
    pub messages: Vec<Value>,
}

impl Transcript {
    /// Every call's result, in order.
    pub fn results(&self) -> impl Iterator<Item = &CallResult> + '_ {
        self.turns.iter().flat_map(|t| &t.results)
    }
}

/// One turn of a [`Transcript`].
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct TurnRecord {
    /// The tool names of the request's `tools` (every tool in the mask mode, the stable
    /// array in the deferred mode), in order.
    pub tools: Vec<String>,
    /// The tool names the model may call this turn: the listed tools, or the allow-list's,
    /// or (deferred, without an allow-list) the tools of the groups the model was told of.
    pub offered: Vec<String>,
    /// The provider's response the scripted model answered with (for MCP, the first
    /// `tools/call` request; `null` for a text turn).
    pub response: Value,
    /// The calls as the toolkit decoded them, with their ids.
    pub calls: Vec<ToolCall>,
    /// Their results, in order.
    pub results: Vec<CallResult>,
    /// The turn's text, for a text turn.
    pub text: Option<String>,
    /// The active groups after the turn.
    pub active: Vec<&'static str>,
}

impl TurnRecord {
    /// How each call ended.
    pub fn outcomes(&self) -> Vec<CallOutcome> {
        self.results.iter().map(CallResult::outcome).collect()
    }
}

/// Why a script could not be played. [`source`](std::error::Error::source) gives the
/// provider module's error, when one is the cause.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum PlayError {
    /// The provider sends arguments as an object, and a call of this turn has arguments
    /// that are not one.
    Unrepresentable {
        /// The turn (from 1).
        turn: usize,
        /// The provider.
        provider: Provider,
    },
    /// The toolkit's decoder refused the scripted response (a bug in either: please report).
    Decode {
        /// The turn (from 1).
        turn: usize,
        /// The decoder's error.
        error: DeferredDecodeError,
    },
    /// A result could not be encoded without the call's id.
    MissingCallId {
        /// The turn (from 1).
        turn: usize,
        /// The encoder's error.
        error: MissingCallId,
    },
    /// The mask mode needs an allow-list, which this provider does not have.
    NoAllowList(Provider),
    /// The toolkit cannot be delivered in the deferred mode.
    Deferred(DeferredError),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::Unrepresentable { turn, provider } => write!(
                f,
                "turn {turn}: {provider} sends tool arguments as a JSON object, and a call of this turn has arguments that are not one; script them as an object, or play malformed arguments through openai-chat or openai-responses"
            ),
            PlayError::Decode { turn, error } => write!(f, "turn {turn}: {error}"),
            PlayError::MissingCallId { turn, error } => write!(f, "turn {turn}: {error}"),
            PlayError::NoAllowList(provider) => write!(
                f,
                "{provider} has no allow-list, so the mask mode cannot say which tools are active; use Delivery::List or Delivery::Deferred"
            ),
            PlayError::Deferred(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for PlayError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PlayError::Decode { error, .. } => Some(error),
            PlayError::MissingCallId { error, .. } => Some(error),
            PlayError::Deferred(error) => Some(error),
            PlayError::Unrepresentable { .. } | PlayError::NoAllowList(_) => None,
        }
    }
}
