//! A conversation's active groups, rebuilt from its own transcript.
//!
//! The `reset_tools` calls a transcript holds, with their results, say which groups the model
//! was told are active: [`replay`] applies, in order, every call whose result is not an error
//! (a refused call changed nothing) to a new session. So a conversation resumed from storage,
//! or moved to another provider, renders the same deferred state
//! ([`Deferred::resume`](super::deferred::Deferred::resume)) without a session of its own.
//!
//! How a transcript maps to a session, per provider (the conversation as sent to the
//! provider, in its shapes):
//!
//! | provider | calls | results (an error result does not count) |
//! |---|---|---|
//! | Anthropic | `tool_use` blocks of assistant messages | `tool_result` blocks by `tool_use_id`, `is_error` |
//! | OpenAI Responses | `function_call` items | `function_call_output` items by `call_id`; an error's output starts with `Error:` |
//! | OpenAI Chat | `tool_calls` of assistant messages | `tool` messages by `tool_call_id`; an error's content starts with `Error:` |
//! | Gemini | `functionCall` parts of model contents | `functionResponse` parts by `id`, else the next response of `reset_tools`; an error has `response.error` |
//!
//! `Skill` calls are replayed too: they record which skills were loaded and, under
//! [`Toolkit::with_skill_activation`], activate a group. Under
//! [`Toolkit::with_first_use_activation`], a call of a tool of an inactive group whose result
//! is not an error activated that group, as it did in the live call. A call without a result (the last
//! turn, interrupted) is not applied. When the rebuilt
//! state disagrees with a session stored beside the conversation, [`Replayed::check`] names
//! the groups on each side: the transcript is what the model read, so resume from it (or
//! deliver the stored state as a change with [`Deferred::sync`](super::deferred::Deferred::sync),
//! which tells the model). Under [lifecycle](crate::lifecycle) rules, [`replay_managed`]
//! rebuilds the [`ManagedSession`] too: the same uses, activations and evictions.

use std::fmt;

use serde_json::Value;

use super::Provider;
use super::decode::DecodeError;
use crate::lifecycle::state::{Now, used_slot};
use crate::lifecycle::{Lifecycle, ManagedSession};
use crate::meta::RESET_TOOLS;
use crate::registry::Registry;
use crate::reset;
use crate::result::CallOutcome;
use crate::session::Session;
use crate::skill::SKILL_TOOL;
use crate::toolkit::{ToolCall, Toolkit};

/// The state a transcript leaves.
pub struct Replayed<R: Registry> {
    pub(crate) session: Session<R>,
    pub(crate) loaded: Session<R>,
    resets: usize,
}

impl<R: Registry> Replayed<R> {
    /// The active groups after the last accepted `reset_tools` call.
    pub fn session(&self) -> Session<R> {
        self.session
    }

    /// Every group the transcript ever made active (whose definitions it holds).
    pub fn loaded(&self) -> Session<R> {
        self.loaded
    }

    /// How many accepted `reset_tools` calls were applied.
    pub fn resets(&self) -> usize {
        self.resets
    }

    /// Whether `stored` (a session saved beside the conversation) agrees with the transcript.
    ///
    /// # Errors
    ///
    /// A [`StateMismatch`] naming the groups active on one side only.
    pub fn check(&self, stored: &Session<R>) -> Result<(), StateMismatch> {
        let ours: Vec<&'static str> = self.session.active_names().collect();
        let theirs: Vec<&'static str> = stored.active_names().collect();
        let mismatch = StateMismatch {
            only_in_transcript: ours
                .iter()
                .filter(|n| !theirs.contains(n))
                .copied()
                .collect(),
            only_in_store: theirs
                .iter()
                .filter(|n| !ours.contains(n))
                .copied()
                .collect(),
        };
        if mismatch.only_in_transcript.is_empty() && mismatch.only_in_store.is_empty() {
            Ok(())
        } else {
            Err(mismatch)
        }
    }
}

impl<R: Registry> fmt::Debug for Replayed<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Replayed")
            .field("session", &self.session.active_names().collect::<Vec<_>>())
            .field("loaded", &self.loaded.active_names().collect::<Vec<_>>())
            .field("resets", &self.resets)
            .finish()
    }
}

/// A stored session that disagrees with the transcript of its conversation.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct StateMismatch {
    /// Groups active by the transcript, inactive in the stored session.
    pub only_in_transcript: Vec<&'static str>,
    /// Groups active in the stored session, inactive by the transcript.
    pub only_in_store: Vec<&'static str>,
}

impl fmt::Display for StateMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |names: &[&str]| {
            if names.is_empty() {
                "none".to_owned()
            } else {
                names.join(", ")
            }
        };
        write!(
            f,
            "the stored session disagrees with the conversation's transcript: active only in the transcript: {}; active only in the stored session: {} (the transcript is what the model read)",
            list(&self.only_in_transcript),
            list(&self.only_in_store)
        )
    }
}

impl std::error::Error for StateMismatch {}

/// A transcript that cannot be replayed.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum TranscriptError {
    /// A message of the wrong shape.
    Shape(DecodeError),
    /// The provider's messages are not a conversation (MCP).
    NotAConversation(Provider),
    /// An accepted `reset_tools` call that this toolkit refuses (its groups changed since):
    /// the call's position among the transcript's calls, and the refusal.
    Refused {
        /// The call's position (0-based) among the transcript's tool calls.
        call: usize,
        /// What this toolkit says about the call.
        refusal: String,
    },
}

impl fmt::Display for TranscriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TranscriptError::Shape(e) => write!(f, "cannot replay the transcript: {e}"),
            TranscriptError::NotAConversation(p) => write!(
                f,
                "{p} messages are no conversation transcript; replay the conversation as the model provider received it"
            ),
            TranscriptError::Refused { call, refusal } => write!(
                f,
                "cannot replay the transcript: its tool call #{call} is an accepted `reset_tools` call that this toolkit refuses (were groups renamed?): {refusal}"
            ),
        }
    }
}

impl std::error::Error for TranscriptError {}

impl From<DecodeError> for TranscriptError {
    fn from(e: DecodeError) -> Self {
        TranscriptError::Shape(e)
    }
}

/// One tool result of a transcript.
struct Outcome {
    id: Option<String>,
    name: Option<String>,
    is_error: bool,
}

/// Rebuild the active groups of `conversation` (the messages, or the input items, as sent to
/// `provider`; see the [module docs](self)).
///
/// # Errors
///
/// [`TranscriptError`] for messages of the wrong shape, MCP, or an accepted `reset_tools`
/// call this toolkit refuses.
pub fn replay<R: Registry>(
    toolkit: &Toolkit<R>,
    provider: Provider,
    conversation: &[Value],
) -> Result<Replayed<R>, TranscriptError> {
    replay_tracked(toolkit, provider, conversation, None)
}

/// [`replay`] under the toolkit's [lifecycle](crate::lifecycle) rules: the
/// [`ManagedSession`] the live conversation had, each model response (with calls or not)
/// taken as one turn, so the same uses, activations and evictions happen in the same order.
/// (On OpenAI Responses, whose items do not say where a response ends, a run of output items
/// with no tool output or user message between them is one response.) Every turn but the
/// last is ended (call [`Toolkit::end_turn`] if the last one ended too).
///
/// What cannot be rebuilt: the groups `idle_for` switched off (a transcript has no clock),
/// and, under `idle_requests`, a batch whose calls ran together while one of them left a
/// group idle that a later one used (the replay runs them one by one).
///
/// # Errors
///
/// As [`replay`].
pub fn replay_managed<R: Registry>(
    toolkit: &Toolkit<R>,
    provider: Provider,
    conversation: &[Value],
) -> Result<ManagedSession<R>, TranscriptError> {
    let mut managed = toolkit.managed_session();
    replay_tracked(toolkit, provider, conversation, Some(&mut managed))?;
    Ok(managed)
}

fn replay_tracked<R: Registry>(
    toolkit: &Toolkit<R>,
    provider: Provider,
    conversation: &[Value],
    mut managed: Option<&mut ManagedSession<R>>,
) -> Result<Replayed<R>, TranscriptError> {
    let mut calls: Vec<ToolCall> = Vec::new();
    // The model response (turn) of each call, counting from 0, and the responses.
    let mut turns: Vec<usize> = Vec::new();
    let mut responses = 0;
    let mut outcomes: Vec<Outcome> = Vec::new();
    match provider {
        Provider::Mcp => return Err(TranscriptError::NotAConversation(provider)),
        Provider::OpenAiResponses => {
            calls = provider.decode_calls(&Value::Array(conversation.to_vec()))?;
            let mut in_response = false;
            for item in conversation {
                // A response's output items: its calls, its text, its reasoning.
                let from_model =
                    matches!(item["type"].as_str(), Some("function_call" | "reasoning"))
                        || item["role"] == "assistant";
                if from_model && !in_response {
                    responses += 1;
                }
                in_response = from_model;
                if item["type"] == "function_call" {
                    turns.push(responses - 1);
                }
                if item["type"] == "function_call_output" {
                    outcomes.push(Outcome {
                        id: item["call_id"].as_str().map(str::to_owned),
                        name: None,
                        is_error: marked_error(&item["output"]),
                    });
                }
            }
        }
        _ => {
            for message in conversation {
                let role = message["role"].as_str().unwrap_or_default();
                match (provider, role) {
                    (_, "assistant") | (Provider::Gemini | Provider::GeminiLegacy, "model") => {
                        let these = provider.decode_calls(message)?;
                        turns.extend(std::iter::repeat_n(responses, these.len()));
                        responses += 1;
                        calls.extend(these);
                    }
                    (Provider::OpenAiChat, "tool") => outcomes.push(Outcome {
                        id: message["tool_call_id"].as_str().map(str::to_owned),
                        name: None,
                        is_error: marked_error(&message["content"]),
                    }),
                    _ => outcomes.extend(block_outcomes(message)),
                }
            }
        }
    }
    if turns.len() != calls.len() {
        // Items this count does not see as calls: one turn per call.
        turns = (0..calls.len()).collect();
        responses = calls.len();
    }
    let mut ended = 0;
    let default_rules = Lifecycle::empty();
    let rules = toolkit.lifecycle().unwrap_or(&default_rules);
    let mut session = Session::<R>::new();
    let mut loaded = *session.bits();
    let mut resets = 0;
    let mut used = vec![false; outcomes.len()];
    for (i, call) in calls.iter().enumerate() {
        if let Some(managed) = managed.as_deref_mut() {
            while ended < turns[i] {
                managed.end_turn(rules);
                ended += 1;
            }
            session = *managed.session();
        }
        let before = session;
        let skill = call.tool == SKILL_TOOL && toolkit.skill_target(SKILL_TOOL).is_some();
        let resolved = toolkit.resolve(&session, &call.tool);
        // Under first-use activation, a call of a tool of an inactive group activated it.
        let activation = (call.tool != RESET_TOOLS && !skill)
            .then_some(resolved.as_ref())
            .flatten()
            .filter(|r| r.activates());
        let plain = call.tool != RESET_TOOLS && !skill && activation.is_none();
        if plain && managed.is_none() {
            continue;
        }
        let found = outcomes.iter().enumerate().position(|(j, o)| {
            !used[j]
                && match (&call.call_id, &o.id) {
                    (Some(a), Some(b)) => a == b,
                    _ => o.name.as_deref() == Some(call.tool.as_str()),
                }
        });
        let Some(j) = found else { continue };
        used[j] = true;
        let failed = outcomes[j].is_error;
        if !failed && !plain {
            apply(
                toolkit,
                &mut session,
                &mut resets,
                call,
                i,
                skill,
                activation.is_some(),
            )?;
            for (w, word) in loaded.as_mut().iter_mut().zip(session.bits().as_ref()) {
                *w |= word;
            }
        }
        if let Some(managed) = managed.as_deref_mut() {
            *managed.session_ref_mut() = session;
            let slot = used_slot(resolved.as_ref(), &before, &session);
            managed.after_call(rules, &before, slot, Now::default());
            // The live result of this call told what was switched off before it.
            managed.take_pending();
            session = *managed.session();
        }
    }
    // The responses after the last call (text) ended turns too; the last one may go on.
    if let Some(managed) = managed {
        while ended + 1 < responses {
            managed.end_turn(rules);
            ended += 1;
        }
    }
    Ok(Replayed {
        session,
        loaded: Session::from_bits(loaded),
        resets,
    })
}

/// Apply one accepted call that changes the session (`reset_tools`, `Skill`, a first use).
fn apply<R: Registry>(
    toolkit: &Toolkit<R>,
    session: &mut Session<R>,
    resets: &mut usize,
    call: &ToolCall,
    i: usize,
    skill: bool,
    activates: bool,
) -> Result<(), TranscriptError> {
    if activates {
        let group = toolkit.resolve(session, &call.tool).and_then(|r| r.group());
        if let Some(group) = group
            && let Some(switch) = R::SWITCHABLE
                .iter()
                .position(|&g| R::GROUPS[g].name == group.name)
        {
            let mut bits = *session.bits();
            crate::registry::set_bit(bits.as_mut(), switch, true);
            session.apply(bits);
        }
        return Ok(());
    }
    let result = if skill {
        // A skill load records that the skill was loaded (and, under the activation
        // policy, activates its group), as the call did.
        let mut bits = *session.bits();
        let result = toolkit.core.skills.load(
            R::GROUPS,
            bits.as_mut(),
            call.arguments.as_arguments(),
            true,
        );
        if result.outcome() == CallOutcome::Ok {
            session.apply(bits);
        }
        result
    } else {
        *resets += 1;
        reset::apply(
            &toolkit.core.names,
            &toolkit.core.skills,
            &*toolkit.core,
            session,
            call.arguments.as_arguments(),
        )
    };
    // A skill this toolkit no longer has is skipped: which skills were loaded is advice
    // for later answers, not the state of a group.
    if result.is_error && !skill {
        return Err(TranscriptError::Refused {
            call: i,
            refusal: result.text_joined(),
        });
    }
    Ok(())
}

/// The results in a message's content blocks or parts (Anthropic `tool_result`, Gemini
/// `functionResponse`).
fn block_outcomes(message: &Value) -> Vec<Outcome> {
    let blocks = message
        .get("content")
        .or_else(|| message.get("parts"))
        .and_then(Value::as_array);
    blocks
        .into_iter()
        .flatten()
        .filter_map(|b| {
            if b["type"] == "tool_result" {
                return Some(Outcome {
                    id: b["tool_use_id"].as_str().map(str::to_owned),
                    name: None,
                    is_error: b["is_error"] == true,
                });
            }
            let response = b.get("functionResponse")?;
            Some(Outcome {
                id: response["id"].as_str().map(str::to_owned),
                name: response["name"].as_str().map(str::to_owned),
                is_error: response["response"].get("error").is_some(),
            })
        })
        .collect()
}

/// Whether an OpenAI tool output is marked as an error (the `Error:` prefix the renderer
/// writes, OpenAI having no error flag).
fn marked_error(output: &Value) -> bool {
    match output {
        Value::String(text) => text.starts_with("Error:"),
        Value::Array(parts) => parts
            .first()
            .and_then(|p| p["text"].as_str())
            .is_some_and(|t| t.starts_with("Error:")),
        _ => false,
    }
}
