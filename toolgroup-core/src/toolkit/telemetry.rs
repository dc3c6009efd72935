//! The call's `tracing` span, named and filled as the OpenTelemetry semantic conventions for
//! generative AI ask of a tool's execution (semantic conventions v1.41.0, "Execute tool
//! span", status Development). The conventions' attributes are `tracing` fields, which
//! `tracing-opentelemetry` maps: `otel.name` becomes the span's name, `otel.kind` its kind,
//! `otel.status_code` its status, every other field an attribute of the same name.
//!
//! Invariant: nothing here runs unless a subscriber wants the span. The call future checks the
//! level inline and calls [`new_span`] out of line; the full path records only when
//! `!span.is_disabled()`; a call whose span is enabled never takes the fast path.

use std::borrow::Cow;
use std::time::Instant;

use tracing::Span;
use tracing::field::Empty;

use crate::args::Arguments;
use crate::echo::echo;
use crate::registry::{Registry, bit};
use crate::result::{CallOutcome, CallResult};
use crate::session::Session;

use super::Toolkit;
use super::run::Target;

/// The operation's name (`gen_ai.operation.name`), and the span's.
const EXECUTE_TOOL: &str = "execute_tool";

/// A call's span, every field it may record declared (a `tracing` span records no other).
#[inline(never)]
pub(super) fn new_span() -> Span {
    tracing::info_span!(
        "execute_tool",
        otel.name = Empty,
        otel.kind = "internal",
        otel.status_code = Empty,
        gen_ai.operation.name = EXECUTE_TOOL,
        gen_ai.tool.name = Empty,
        gen_ai.tool.call.id = Empty,
        "gen_ai.tool.type" = Empty,
        gen_ai.tool.description = Empty,
        gen_ai.tool.call.arguments = Empty,
        gen_ai.tool.call.result = Empty,
        "error.type" = Empty,
        toolgroup.group = Empty,
        toolgroup.outcome = Empty,
        toolgroup.duration_us = Empty,
        toolgroup.groups.activated = Empty,
        toolgroup.groups.deactivated = Empty,
        toolgroup.skill = Empty,
    )
}

/// What a call's name stands for, as the span records it.
#[derive(Clone, Copy)]
pub(super) enum Called<'n> {
    /// A tool, or a builtin.
    Tool {
        tool: &'static str,
        group: Option<&'static str>,
        target: Target,
    },
    /// No tool of this toolkit: the name as the model sent it.
    Unknown(&'n str),
}

/// A call's enabled span while the call runs. [`finish`](Self::finish) records how the call
/// ended; dropped without it (the call's future dropped), the span says `cancelled`.
pub(super) struct Recording<'a, R: Registry> {
    span: &'a Span,
    started: Instant,
    /// The session's state before the call: the span names the groups the call switched.
    before: R::Bits,
    /// A `Skill` call's arguments, which name the skill it loads.
    skill: Option<Arguments<'a>>,
    content: bool,
    open: bool,
}

impl<R: Registry> Toolkit<R> {
    /// Records what is known of a call once its name is resolved; `started` is when the call
    /// began.
    ///
    /// Invariant: called before the span is first entered. `tracing-opentelemetry` starts
    /// the OpenTelemetry span on its first enter and reads the name and the kind only until
    /// then; attributes and the status it takes at any time.
    #[inline(never)]
    pub(super) fn record_start<'a>(
        &self,
        span: &'a Span,
        started: Instant,
        session: &Session<R>,
        called: Called<'_>,
        arguments: Arguments<'a>,
        call_id: Option<&str>,
    ) -> Recording<'a, R> {
        let target = match called {
            Called::Tool {
                tool,
                group,
                target,
            } => {
                span.record("otel.name", format!("{EXECUTE_TOOL} {tool}").as_str());
                span.record("gen_ai.tool.name", tool);
                let kind = match target {
                    // Found at run time (a remote MCP server's, for one): the conventions'
                    // agent-side extension.
                    Target::Dynamic { .. } => "extension",
                    _ => "function",
                };
                span.record("gen_ai.tool.type", kind);
                if let Some(group) = group {
                    span.record("toolgroup.group", group);
                }
                Some(target)
            }
            Called::Unknown(name) => {
                // A model's name for no tool would make one span name per typo.
                span.record("otel.name", EXECUTE_TOOL);
                span.record("gen_ai.tool.name", echo(name, 64).as_str());
                None
            }
        };
        if let Some(id) = call_id {
            span.record("gen_ai.tool.call.id", id);
        }
        if self.telemetry_content {
            if let Some(description) = target.and_then(|t| self.description(t)) {
                span.record("gen_ai.tool.description", description);
            }
            span.record(
                "gen_ai.tool.call.arguments",
                arguments_text(arguments).as_ref(),
            );
        }
        Recording {
            span,
            started,
            before: *session.bits(),
            skill: matches!(target, Some(Target::Skill)).then_some(arguments),
            content: self.telemetry_content,
            open: true,
        }
    }

    fn description(&self, target: Target) -> Option<&'static str> {
        match target {
            Target::Tool { index, .. } => Some(self.core.tools[index as usize].description),
            Target::Dynamic { definition, .. } => Some(definition.description),
            Target::Reset => self.core.reset.as_ref().map(|d| d.description),
            Target::Skill => self.core.skills.all.skill.map(|d| d.description),
            Target::SkillFile => self.core.skills.all.file.map(|d| d.description),
        }
    }
}

impl<R: Registry> Recording<'_, R> {
    /// Records how the call ended and what it changed in `session`: the groups it switched
    /// (a `reset_tools` call, a skill load or a first use that activates a group) and the
    /// skill it loaded.
    #[inline(never)]
    pub(super) fn finish(mut self, kit: &Toolkit<R>, session: &Session<R>, result: &CallResult) {
        self.open = false;
        let outcome = result.outcome();
        self.ended(outcome);
        let (activated, deactivated) = switched::<R>(self.before.as_ref(), session);
        if !activated.is_empty() {
            self.span
                .record("toolgroup.groups.activated", activated.as_str());
        }
        if !deactivated.is_empty() {
            self.span
                .record("toolgroup.groups.deactivated", deactivated.as_str());
        }
        if outcome == CallOutcome::Ok
            && let Some(skill) = self.skill.and_then(|a| kit.core.skills.named(a))
        {
            self.span.record("toolgroup.skill", skill);
        }
        if self.content {
            self.span
                .record("gen_ai.tool.call.result", result_text(result).as_str());
        }
    }

    fn ended(&self, outcome: CallOutcome) {
        let label = outcome.as_str();
        self.span.record("toolgroup.outcome", label);
        if outcome != CallOutcome::Ok {
            // One low-cardinality value per way a call fails, as `error.type` asks.
            self.span.record("error.type", label);
            self.span.record("otel.status_code", "error");
        }
        let micros = u64::try_from(self.started.elapsed().as_micros()).unwrap_or(u64::MAX);
        self.span.record("toolgroup.duration_us", micros);
    }
}

impl<R: Registry> Drop for Recording<'_, R> {
    fn drop(&mut self) {
        if self.open {
            self.ended(CallOutcome::Cancelled);
        }
    }
}

/// The switchable groups turned on and off between `before` and `session`, each list joined
/// with `,` in declaration order.
fn switched<R: Registry>(before: &[u64], session: &Session<R>) -> (String, String) {
    let (mut on, mut off) = (String::new(), String::new());
    for (slot, &group) in R::SWITCHABLE.iter().enumerate() {
        let now = session.slot_active(slot);
        if bit(before, slot) == now {
            continue;
        }
        let list = if now { &mut on } else { &mut off };
        if !list.is_empty() {
            list.push(',');
        }
        list.push_str(R::GROUPS[group].name);
    }
    (on, off)
}

/// The arguments as JSON text: the model's text as it sent it (empty text, which counts as
/// `{}`, as `{}`), or a parsed value written out.
fn arguments_text(arguments: Arguments<'_>) -> Cow<'_, str> {
    match arguments {
        Arguments::Text("") => Cow::Borrowed("{}"),
        Arguments::Text(text) => Cow::Borrowed(text),
        Arguments::Value(value) => Cow::Owned(value.to_string()),
    }
}

/// The result as the model reads it: its text when every block is text, else the content
/// blocks as JSON (images and audio in base64, as a provider receives them).
fn result_text(result: &CallResult) -> String {
    if result.content.iter().all(|block| block.as_text().is_some()) {
        result.text_joined()
    } else {
        serde_json::to_string(&result.content).unwrap_or_default()
    }
}
