//! The texts a model reads when a call does not go as asked. Each says what happened and what
//! to do; none repeats a value the model sent, and names it sent are escaped and capped.

use std::fmt::Write as _;
use std::time::Duration;

use crate::echo::echo;
use crate::registry::Registry;
use crate::result::{CallOutcome, CallResult};
use crate::session::Session;
use crate::suggest::{did_you_mean, list_names};

use super::Toolkit;

impl<R: Registry> Toolkit<R> {
    pub(crate) fn unknown_tool(&self, session: &Session<R>, name: &str) -> CallResult {
        let mut text = format!("unknown tool `{}`.", echo(name, 64));
        if let Some(guess) = did_you_mean(name, self.all_definitions().map(|d| d.name)) {
            match self.group_of(guess) {
                Some(group) if !self.is_available(session, guess) => {
                    let _ = write!(
                        text,
                        " Did you mean `{guess}`? It is in the group `{}`, which is not active; activate it with `reset_tools`.",
                        group.name
                    );
                }
                _ => {
                    let _ = write!(text, " Did you mean `{guess}`?");
                }
            }
        }
        let _ = write!(
            text,
            " The available tools are {}.",
            list_names(self.definitions(session).map(|d| d.name))
        );
        CallResult::error(text).labelled(CallOutcome::UnknownTool)
    }

    pub(crate) fn inactive(&self, tool: &str, group: &str) -> CallResult {
        CallResult::error(if self.reset_definition().is_some() {
            format!(
                "`{tool}` was not run: it belongs to the group `{group}`, which is not active. Call `reset_tools` with `{group}` set to true (and every group you want to keep active) first"
            )
        } else {
            format!(
                "`{tool}` was not run: it belongs to the group `{group}`, which is not active in this session"
            )
        })
        .labelled(CallOutcome::InactiveGroup)
    }
}

pub(crate) fn denied(tool: &str, reason: &str) -> CallResult {
    CallResult::error(format!("`{tool}` was not run: denied by policy: {reason}"))
        .labelled(CallOutcome::Denied)
}

pub(crate) use crate::args::invalid_arguments;

/// A panic in the tool (or in something it called back, like a progress observer). The
/// message goes to `tracing`; the model reads it only when the toolkit says so.
pub(crate) fn panicked(tool: &str, message: &str, show: bool) -> CallResult {
    tracing::error!(tool, panic = message, "a tool panicked");
    let result = if show {
        CallResult::error(format!(
            "`{tool}` failed: the tool panicked ({}); the session is unchanged",
            crate::args::truncate(message, 300)
        ))
    } else {
        CallResult::error(format!(
            "`{tool}` failed: an internal error in the tool (a bug, not something your arguments can fix); the session is unchanged"
        ))
    };
    result.labelled(CallOutcome::Panic)
}

/// A panic in the policy or in a layer: the call did not complete.
pub(crate) fn panicked_around(tool: &str, part: &str, message: &str, show: bool) -> CallResult {
    tracing::error!(tool, panic = message, "a {part} panicked");
    let detail = if show {
        format!(" ({})", crate::args::truncate(message, 300))
    } else {
        String::new()
    };
    CallResult::error(format!(
        "`{tool}` failed: an internal error in the application's {part}{detail}; the session is unchanged"
    ))
    .labelled(CallOutcome::Panic)
}

pub(crate) fn layer_error(tool: &str, error: &dyn std::fmt::Display) -> CallResult {
    CallResult::error(format!(
        "`{tool}` failed: {error}; the session is unchanged"
    ))
    .labelled(CallOutcome::LayerError)
}

pub(crate) fn timed_out(tool: &str, limit: Duration) -> CallResult {
    CallResult::error(format!(
        "`{tool}` timed out after {limit:?} and was cancelled"
    ))
    .labelled(CallOutcome::Timeout)
}

pub(crate) fn no_timer(tool: &str) -> CallResult {
    CallResult::error(format!(
        "`{tool}` was not run: it has a timeout, and timeouts need a Tokio runtime with the time driver enabled"
    ))
    .labelled(CallOutcome::NoTimer)
}

pub(crate) fn cancelled(tool: &str) -> CallResult {
    CallResult::error(format!(
        "`{tool}` was cancelled by the application before it finished; the session is unchanged"
    ))
    .labelled(CallOutcome::Cancelled)
}

/// `result` with what its call's activation of a group made available (first-use
/// activation): a last text block, the same facts as the result's
/// [`activation`](CallResult::activation) (which the MCP rendering puts in the structured
/// content of every shape), and, in process, under `activated_group` in the structured
/// content when it is an object that its output schema lets grow.
pub(crate) fn with_activation(
    mut result: CallResult,
    available: &crate::reset::Available,
    output_schema: Option<&serde_json::Value>,
) -> CallResult {
    let mut text = format!(
        "This call activated the group `{}`; the other groups are unchanged.",
        available.group()
    );
    available.write(&mut text);
    result.content.push(crate::result::Content::text(text));
    let facts = available.to_json();
    let closed = output_schema.is_some_and(|schema| {
        schema.get("additionalProperties") == Some(&serde_json::Value::Bool(false))
            || schema
                .get("properties")
                .is_some_and(|p| p.get(ACTIVATED_GROUP).is_some())
    });
    if let Some(serde_json::Value::Object(map)) = &mut result.structured_content
        && !closed
        && !map.contains_key(ACTIVATED_GROUP)
    {
        map.insert(ACTIVATED_GROUP.to_owned(), facts.clone());
    }
    result.with_activation_record(facts)
}

/// The structured-content key of a first-use activation.
pub(crate) const ACTIVATED_GROUP: &str = crate::result::ACTIVATED_GROUP_KEY;
