//! The full path: a call that the fast path did not finish, in its span and cancellable.
//! It resolves the name to a [`Target`], asks the policy, then runs the target through the
//! layers or directly.

use std::future::{Future, poll_fn};
use std::pin::{Pin, pin};
use std::task::{Context, Poll};
use std::time::Instant;

use tracing::Span;

use crate::args::Arguments;
use crate::context::CallContext;
use crate::echo::echo;
use crate::meta::RESET_TOOLS;
use crate::policy::{Decision, PolicyRequest};
use crate::registry::Registry;
use crate::result::CallOutcome;
use crate::session::Session;

use super::Toolkit;
use super::audit::Pending;
use super::call::Cx;
use super::messages;
use super::run::{Outcome, Parts, Target, contained};

impl<R: Registry> Toolkit<R> {
    /// The full path, in the call's span, cancellable.
    pub(super) async fn traced(
        &self,
        session: &mut Session<R>,
        span: Span,
        name: &str,
        arguments: Arguments<'_>,
        cx: Cx<'_>,
    ) -> crate::result::CallResult {
        let started = Instant::now();
        // Recorded on every way out, a drop of this future included.
        let audit = (!self.audit.is_empty()).then(|| {
            let tool = match self.definition(name) {
                Some(definition) => definition.name.to_owned(),
                None => echo(name, 64),
            };
            let group = self.group_of(name).map(|g| g.name);
            // Boxed: the record stays out of the future of every call without an audit.
            Box::new(Pending::new(&self.audit, tool, group, cx.id))
        });
        let body = pin!(Some(self.full(
            session,
            name,
            arguments,
            cx,
            audit.is_some() || !span.is_disabled(),
        )));
        let mut body = InSpan { span: &span, body };
        let mut cancelled = pin!(
            cx.context
                .and_then(CallContext::cancellation)
                .map(|token| token.cancelled())
        );
        let (outcome, result) = poll_fn(|task| {
            if let Some(cancelled) = cancelled.as_mut().as_pin_mut()
                && cancelled.poll(task).is_ready()
            {
                // The name as the model sent it (escaped): it may name no tool at all.
                let tool = echo(name, 64);
                return Poll::Ready((CallOutcome::Cancelled, messages::cancelled(&tool)));
            }
            body.poll(task)
        })
        .await;
        drop(body);
        if !span.is_disabled() {
            if let Some(group) = self.group_of(name) {
                span.record("group", group.name);
            }
            span.record("outcome", outcome.as_str());
            span.record("duration_us", started.elapsed().as_micros() as u64);
        }
        if let Some(audit) = audit {
            audit.finish(outcome, &result);
        }
        result
    }

    async fn full(
        &self,
        session: &mut Session<R>,
        name: &str,
        arguments: Arguments<'_>,
        cx: Cx<'_>,
        wants_label: bool,
    ) -> Outcome {
        let parts = match self.resolve(session, name, cx) {
            Ok(parts) => parts,
            Err(Refused::Unknown) => {
                return (CallOutcome::UnknownTool, self.unknown_tool(session, name));
            }
            Err(Refused::Inactive(tool, group)) => {
                return (CallOutcome::InactiveGroup, self.inactive(tool, group));
            }
        };
        if let Some(policy) = &self.policy {
            let request = PolicyRequest {
                tool: parts.tool,
                group: parts.group,
                annotations: parts.annotations,
                arguments,
                call_id: cx.id,
                extensions: parts.extensions,
            };
            match contained(|| policy.check(&request)).await {
                Ok(Decision::Allow) => {}
                Ok(Decision::Deny(reason)) => {
                    return (CallOutcome::Denied, messages::denied(parts.tool, &reason));
                }
                Err(panic) => {
                    return (
                        CallOutcome::Panic,
                        messages::panicked_around(parts.tool, "policy", &panic, self.panic_details),
                    );
                }
            }
        }
        if let Some(pipeline) = &self.pipeline {
            return self
                .through_layers(pipeline, session, parts, arguments, wants_label)
                .await;
        }
        let mut state = *session.bits();
        let outcome = self
            .core
            .run_target(&parts, arguments, &mut state, self.panic_details)
            .await;
        if parts.target.changes_session() {
            *session = Session::from_bits(state);
        }
        outcome
    }

    /// What `name` runs in `session`, with the call's parts; or the answer to a call of an
    /// unknown tool or of a tool whose group is not active.
    #[inline]
    fn resolve<'c>(
        &self,
        session: &Session<R>,
        name: &str,
        cx: Cx<'c>,
    ) -> Result<Parts<'c>, Refused> {
        let (target, tool, group, annotations) = if self.is_reset(name) {
            let reset = self.core.reset.as_ref().expect("reset_tools is exposed");
            (Target::Reset, RESET_TOOLS, None, reset.annotations)
        } else if let Some((index, &slot)) = self.core.lookup(name) {
            let group = R::GROUPS[slot.group as usize].name;
            if let Some(switch) = slot.switch
                && !session.slot_active(switch as usize)
            {
                return Err(Refused::Inactive(slot.info.name, group));
            }
            let timeout = slot.info.timeout.or(self.default_timeout);
            let target = Target::Tool { index, timeout };
            (target, slot.info.name, Some(group), slot.info.annotations)
        } else if let Some((target, definition)) = self.skill_target(name) {
            // After the tools: no tool has a builtin's name (a compile error).
            (target, definition.name, None, definition.annotations)
        } else {
            let Some(listed) = self.core.dynamic_view().and_then(|view| view.get(name)) else {
                return Err(Refused::Unknown);
            };
            let place = self.core.dynamic[listed.place as usize];
            let definition = listed.definition;
            let group = R::GROUPS[place.group as usize].name;
            if let Some(switch) = place.switch
                && !session.slot_active(switch as usize)
            {
                return Err(Refused::Inactive(definition.name, group));
            }
            let target = Target::Dynamic {
                group: place.group,
                definition,
                timeout: self.default_timeout,
            };
            (target, definition.name, Some(group), definition.annotations)
        };
        Ok(Parts {
            target,
            tool,
            group,
            annotations,
            call_id: cx.id,
            extensions: cx.context.map(CallContext::extensions),
            progress: cx.context.and_then(CallContext::progress),
            cancel: cx.context.and_then(CallContext::cancellation),
        })
    }
}

/// A future polled and dropped in a span, as with `tracing::Instrumented`, but pinned where
/// it was built.
///
/// Invariant: don't wrap the full path's body in `Instrumented`: it moves the whole body into
/// itself, a copy of a future too large to copy on every call.
struct InSpan<'a, F> {
    span: &'a Span,
    body: Pin<&'a mut Option<F>>,
}

impl<F: Future> InSpan<'_, F> {
    fn poll(&mut self, task: &mut Context<'_>) -> Poll<F::Output> {
        let _entered = self.span.enter();
        match self.body.as_mut().as_pin_mut() {
            Some(body) => body.poll(task),
            None => unreachable!("polled after it was dropped"),
        }
    }
}

impl<F> Drop for InSpan<'_, F> {
    fn drop(&mut self) {
        let _entered = self.span.enter();
        self.body.set(None);
    }
}

/// Why [`Toolkit::resolve`] found nothing to run; the caller words the answer (kept small, so
/// resolving does not move a result around).
enum Refused {
    Unknown,
    /// The tool and its group.
    Inactive(&'static str, &'static str),
}
