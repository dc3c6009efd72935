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
use crate::policy::{Decision, PolicyRequest};
use crate::registry::Registry;
use crate::reset::Available;
use crate::result::CallResult;
use crate::session::Session;

use super::Toolkit;
use super::audit::Pending;
use super::call::Cx;
use super::messages;
use super::resolve::Resolved;
use super::run::{Parts, Target, contained};
use super::telemetry::Called;

impl<R: Registry> Toolkit<R> {
    /// The full path, in the call's span, cancellable. The name is resolved here, once; the
    /// audit, the span, the policy, the layers and the run read that resolution.
    pub(super) async fn traced(
        &self,
        session: &mut Session<R>,
        span: Span,
        name: &str,
        arguments: Arguments<'_>,
        cx: Cx<'_>,
    ) -> CallResult {
        // The clock only for a span: no call without a subscriber reads it.
        let started = (!span.is_disabled()).then(Instant::now);
        let resolved = self.resolve(session, name);
        let group = resolved.and_then(|r| r.group()).map(|g| g.name);
        // Before the span is first entered (see `record_start`). Boxed: the recording stays
        // out of the future of every call no subscriber listens to.
        let recording = started.map(|started| {
            let called = match resolved {
                Some(r) => Called::Tool {
                    tool: r.tool(),
                    group,
                    target: r.target,
                },
                None => Called::Unknown(name),
            };
            Box::new(self.record_start(&span, started, session, called, arguments, cx.id))
        });
        // Recorded on every way out, a drop of this future included.
        let audit = (!self.audit.is_empty()).then(|| {
            let tool = match resolved {
                Some(resolved) => resolved.tool().to_owned(),
                None => echo(name, 64),
            };
            // Boxed: the record stays out of the future of every call without an audit.
            Box::new(Pending::new(&self.audit, tool, group, cx.id))
        });
        // A block: the body, which borrows the session, ends (dropped in its span) before
        // the recording reads what the call changed.
        let result = {
            let body = pin!(Some(self.full(session, name, resolved, arguments, cx)));
            let mut body = InSpan { span: &span, body };
            let mut cancelled = pin!(
                cx.context
                    .and_then(CallContext::cancellation)
                    .map(|token| token.cancelled())
            );
            poll_fn(|task| {
                if let Some(cancelled) = cancelled.as_mut().as_pin_mut()
                    && cancelled.poll(task).is_ready()
                {
                    // The name as the model sent it (escaped): it may name no tool at all.
                    let tool = echo(name, 64);
                    return Poll::Ready(messages::cancelled(&tool));
                }
                body.poll(task)
            })
            .await
        };
        if let Some(recording) = recording {
            recording.finish(self, session, &result);
        }
        if let Some(audit) = audit {
            audit.finish(&result);
        }
        result
    }

    async fn full(
        &self,
        session: &mut Session<R>,
        name: &str,
        resolved: Option<Resolved>,
        arguments: Arguments<'_>,
        cx: Cx<'_>,
    ) -> CallResult {
        let Some(resolved) = resolved else {
            return match self.unentitled(name) {
                Some(refusal) => refusal,
                None => self.unknown_tool(session, name),
            };
        };
        // The builtins answer for themselves when nothing is visible to them.
        // The call's own first-use choice: one resolution answers what it changes, for the
        // batch, the layers and the MCP server alike.
        let resolved = resolved.with_first_use_activation(cx.first_use(self.first_use));
        let activates = resolved.activates();
        if resolved.is_inactive_tool() && !activates {
            let group = resolved.group().map_or("", |g| g.name);
            return self.inactive(resolved.tool(), group);
        }
        let parts = Parts {
            target: resolved.target,
            tool: resolved.tool(),
            group: resolved.group().map(|g| g.name),
            annotations: resolved.annotations(),
            call_id: cx.id,
            extensions: cx.context.map(CallContext::extensions),
            observers: cx.context.and_then(CallContext::observers),
            cancel: cx.context.and_then(CallContext::cancellation),
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
                Ok(Decision::Deny(reason)) => return messages::denied(parts.tool, &reason),
                Err(panic) => {
                    return messages::panicked_around(
                        parts.tool,
                        "policy",
                        &panic,
                        self.panic_details,
                    );
                }
            }
        }
        let result = if let Some(pipeline) = &self.pipeline {
            let changes = resolved.changes_session();
            self.through_layers(pipeline, session, parts, arguments, changes)
                .await
        } else {
            let mut state = *session.bits();
            let result = self
                .core
                .run_target(&parts, arguments, &mut state, self.panic_details)
                .await;
            if parts.target.changes_session() {
                session.apply(state);
            }
            result
        };
        if activates {
            return self.activated(session, resolved.target, result);
        }
        result
    }

    /// The end of a call that activates its group on first use: the group becomes active
    /// when the call succeeded, and the result says so, once.
    fn activated(
        &self,
        session: &mut Session<R>,
        target: Target,
        result: CallResult,
    ) -> CallResult {
        // An error result changes nothing (and a transcript's replay, which sees only
        // whether a result is an error, rebuilds the same state).
        if result.is_error {
            return result;
        }
        let (group, output_schema) = match target {
            Target::Tool { index, .. } => {
                let i = index as usize;
                (
                    self.core.slots[i].group as usize,
                    self.core.tools[i].output_schema.as_ref(),
                )
            }
            Target::Dynamic {
                group, definition, ..
            } => (group as usize, definition.output_schema.as_ref()),
            _ => return result,
        };
        let Some(switch) = R::SWITCHABLE.iter().position(|&g| g == group) else {
            return result;
        };
        let mut bits = *session.bits();
        crate::registry::set_bit(bits.as_mut(), switch, true);
        session.apply(bits);
        let available = Available::of(&R::GROUPS[group], group, &*self.core);
        messages::with_activation(result, &available, output_schema)
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
