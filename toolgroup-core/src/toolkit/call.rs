//! Calling tools: the call API (single calls and batches), the call future and the fast path.
//!
//! A call that needs none of the full path (no tracing subscriber listening, no policy, no
//! layer, no timeout, no progress observer, no cancellation token) takes the fast path. For a
//! plain `fn` tool, the call future's first poll runs it outright: [`Toolkit::call`] returns a
//! small hand-written future ([`Call`]) that reads the call's parts in place, the generated
//! `match` parses the arguments straight into the tool and writes its result into a slot of
//! the caller's, and one unwind guard catches panics. An `async` tool without options runs in
//! an unboxed `async` continuation; everything else on the boxed full path (`full`), so the
//! fast path pays nothing for features it does not use.
//!
//! Invariant: the 64-byte result is written once, where the caller reads it. Each layer it
//! would travel back through (an `async fn`'s state, a `Result` or `Option` around it, the
//! unwind guard's return value) is a copy of memory written a moment before, which stalls the
//! processor's store forwarding and costs the cheapest calls more than their instructions.

use std::future::Future;
use std::pin::{Pin, pin};
use std::task::{Context, Poll};

use tracing::Span;

use crate::args::Arguments;
use crate::context::{CallContext, ToolContext};
use crate::futures::{BoxFuture, CatchUnwind, JoinAll, catch_panic};
use crate::registry::Registry;
use crate::reset;
use crate::result::CallResult;
use crate::session::Session;
use crate::tool::SyncCall;

use super::run::result_of;
use super::{Slot, ToolCall, Toolkit, messages, telemetry};

/// The caller's side of one call: the id (a batch gives each call its own) and the shared
/// context.
#[derive(Clone, Copy)]
pub(super) struct Cx<'a> {
    pub(super) id: Option<&'a str>,
    pub(super) context: Option<&'a CallContext>,
}

impl Cx<'_> {
    fn plain(&self) -> bool {
        self.context.is_none_or(CallContext::is_plain)
    }

    /// Whether a call of a tool of an inactive group activates it: the context's choice,
    /// else the toolkit's.
    pub(super) fn first_use(&self, toolkit_default: bool) -> bool {
        self.context
            .and_then(CallContext::first_use)
            .unwrap_or(toolkit_default)
    }
}

impl<R: Registry> Toolkit<R> {
    /// Call a tool as the model asked: `arguments` is the raw JSON text a provider sends (or
    /// a `&serde_json::Value`). Every mistake comes back as an error result; nothing a model
    /// sends can panic this call or corrupt `session`.
    pub fn call<'a>(
        &'a self,
        session: &'a mut Session<R>,
        name: &'a str,
        arguments: impl Into<Arguments<'a>>,
    ) -> impl Future<Output = CallResult> + Send + 'a {
        let cx = Cx {
            id: None,
            context: None,
        };
        Call::new(self, session, name, arguments.into(), cx)
    }

    /// [`call`](Self::call) with the caller's [`CallContext`]: the call id, per-call data for
    /// the tool and the policy, a progress observer, a cancellation token.
    pub fn call_with<'a>(
        &'a self,
        session: &'a mut Session<R>,
        name: &'a str,
        arguments: impl Into<Arguments<'a>>,
        context: &'a CallContext,
    ) -> impl Future<Output = CallResult> + Send + 'a {
        let cx = Cx {
            id: context.call_id(),
            context: Some(context),
        };
        Call::new(self, session, name, arguments.into(), cx)
    }

    /// Whether a call of `name` is a barrier in a batch: it may change the session (under
    /// the context's first-use choice, else the toolkit's), so the calls before it run first
    /// and the calls after it see its change. Plain and managed batches both ask this.
    pub(super) fn is_barrier(
        &self,
        session: &Session<R>,
        name: &str,
        context: Option<&CallContext>,
    ) -> bool {
        let first_use = context
            .and_then(CallContext::first_use)
            .unwrap_or(self.first_use);
        self.resolve(session, name)
            .is_some_and(|r| r.with_first_use_activation(first_use).changes_session())
    }

    /// A call with its id and context as given (the managed calls' way in).
    pub(super) fn call_cx<'a>(
        &'a self,
        session: &'a mut Session<R>,
        name: &'a str,
        arguments: Arguments<'a>,
        id: Option<&'a str>,
        context: Option<&'a CallContext>,
    ) -> impl Future<Output = CallResult> + Send + 'a {
        Call::new(self, session, name, arguments, Cx { id, context })
    }

    /// Run one assistant turn's calls. Calls run concurrently, except that a `reset_tools`
    /// call is a barrier: calls before it see the old active set, calls after it the new one.
    /// Results come back in call order.
    pub async fn call_batch(
        &self,
        session: &mut Session<R>,
        calls: &[ToolCall],
    ) -> Vec<CallResult> {
        self.batch(session, calls, None).await
    }

    /// [`call_batch`](Self::call_batch) with a [`CallContext`] shared by every call (per-call
    /// data, progress observer, cancellation token); each call keeps its own id, which the
    /// progress events carry.
    pub async fn call_batch_with(
        &self,
        session: &mut Session<R>,
        calls: &[ToolCall],
        context: &CallContext,
    ) -> Vec<CallResult> {
        self.batch(session, calls, Some(context)).await
    }

    async fn batch(
        &self,
        session: &mut Session<R>,
        calls: &[ToolCall],
        context: Option<&CallContext>,
    ) -> Vec<CallResult> {
        let mut results = Vec::with_capacity(calls.len());
        let mut start = 0;
        for (i, call) in calls.iter().enumerate() {
            let cx = Cx {
                id: call.call_id.as_deref(),
                context,
            };
            if self.is_barrier(session, &call.tool, context) {
                self.concurrently(*session, &calls[start..i], context, &mut results)
                    .await;
                let arguments = call.arguments.as_arguments();
                results.push(Call::new(self, session, &call.tool, arguments, cx).await);
                start = i + 1;
            }
        }
        self.concurrently(*session, &calls[start..], context, &mut results)
            .await;
        results
    }

    /// Calls that are not `reset_tools` read the session and never change it: each gets a
    /// copy.
    async fn concurrently<'a>(
        &'a self,
        session: Session<R>,
        calls: &'a [ToolCall],
        context: Option<&'a CallContext>,
        out: &mut Vec<CallResult>,
    ) {
        let one = |call: &'a ToolCall| {
            let cx = Cx {
                id: call.call_id.as_deref(),
                context,
            };
            let mut session = session;
            let (name, arguments) = (call.tool.as_str(), call.arguments.as_arguments());
            async move { Call::new(self, &mut session, name, arguments, cx).await }
        };
        match calls {
            [] => {}
            [call] => out.push(one(call).await),
            _ => {
                let futures: Vec<BoxFuture<'a, CallResult>> = calls
                    .iter()
                    .map(|c| Box::pin(one(c)) as BoxFuture<'a, CallResult>)
                    .collect();
                out.extend(JoinAll::new(futures).await);
            }
        }
    }

    /// A call that the fast path did not finish: the `async` tool it found (`slot`) runs
    /// here, unboxed; every other call on the boxed full path.
    async fn rest(
        &self,
        session: &mut Session<R>,
        name: &str,
        arguments: Arguments<'_>,
        cx: Cx<'_>,
        span: Span,
        slot: Option<&Slot>,
    ) -> CallResult {
        if let Some(slot) = slot {
            let ctx = plain_context::<R>(slot, &cx);
            let future = self.core.registry.dispatch(
                slot.group as usize,
                slot.tool as usize,
                ctx,
                arguments,
            );
            let outcome = CatchUnwind::new(pin!(future)).await;
            return result_of(slot.info.name, outcome, self.panic_details);
        }
        // Boxed: the state of everything below stays out of this future.
        boxed_in_place(|| self.traced(session, span, name, arguments, cx)).await
    }
}

/// Boxes the future `make` builds, allocating first so the future is built in the box.
///
/// Invariant: don't `Box::pin(future)` the full path: the future is built on the stack and
/// then copied into the box, a copy of a large future on every call that takes it.
#[inline(always)]
fn boxed_in_place<F: Future>(make: impl FnOnce() -> F) -> Pin<Box<F>> {
    let slot = Box::<F>::new_uninit();
    Box::into_pin(Box::write(slot, make()))
}

/// What a call future holds until its first poll: the call's parts, read in place.
struct Start<'a, R: Registry> {
    kit: &'a Toolkit<R>,
    session: &'a mut Session<R>,
    name: &'a str,
    arguments: Arguments<'a>,
    cx: Cx<'a>,
}

impl<'a, R: Registry> Start<'a, R> {
    /// The fast path, run in the call future's first poll. A call that needs none of the
    /// full path (no tracing subscriber wants its span, no policy, no layer, no per-call
    /// data) and no timeout is finished here when it is `reset_tools`, a tool of an inactive
    /// group or a plain-`fn` tool: its result is then in `out` (which is `None` on entry).
    /// For an `async` tool it sets `pending` to the tool's slot and runs nothing; every other
    /// call leaves both `None` with nothing done.
    ///
    /// Invariant: the result goes to `out` and the `async` tool to `pending`, never back as a
    /// return value or in an enum beside the result: each such layer is one more copy of the
    /// result (see the module docs).
    #[inline]
    fn fast(&mut self, span: &Span, pending: &mut Option<&'a Slot>, out: &mut Option<CallResult>) {
        let kit = self.kit;
        // A call whose span a subscriber wants is the full path's: it records the span's
        // fields, so every call with an enabled span has them.
        if !(span.is_disabled() && kit.plain && self.cx.plain()) {
            return;
        }
        // The tools first: no tool is called `reset_tools` (a compile error), and a tool
        // call then skips comparing its name with it.
        let Some(slot) = kit.core.slot(self.name) else {
            if kit.is_reset(self.name) {
                *out = Some(reset::apply(
                    &kit.core.names,
                    &kit.core.skills,
                    &*kit.core,
                    self.session,
                    self.arguments,
                ));
            }
            // Otherwise unknown here: perhaps found at run time; the full path looks those
            // up and words the error.
            return;
        };
        if let Some(switch) = slot.switch
            && !self.session.slot_active(switch as usize)
        {
            // Activation on first use asks the policy and changes the session: the full path.
            if !self.cx.first_use(kit.first_use) {
                *out = Some(kit.inactive(slot.info.name, R::GROUPS[slot.group as usize].name));
            }
            return;
        }
        if slot.info.timeout.is_some() || kit.default_timeout.is_some() {
            return;
        }
        let (group, tool) = (slot.group as usize, slot.tool as usize);
        let registry = &kit.core.registry;
        let (arguments, cx) = (&self.arguments, &self.cx);
        // The result is written to `out`, not returned through the unwind guard. The context
        // is built inside the guard, beside the generated arms: for a tool that takes none,
        // its stores are then dead code.
        match catch_panic(|| {
            let ctx = plain_context::<R>(slot, cx);
            registry.dispatch_sync(group, tool, &ctx, arguments, out)
        }) {
            Ok(SyncCall::Ran | SyncCall::Invalid) => {}
            // An `async` tool: nothing ran.
            Ok(SyncCall::Async) => *pending = Some(slot),
            Err(panic) => {
                *out = Some(messages::panicked(
                    slot.info.name,
                    &panic,
                    kit.panic_details,
                ))
            }
        }
    }
}

/// The call's span ([`telemetry`](super::telemetry)). Disabled (and cheap) unless a
/// subscriber wants it.
#[inline]
fn call_span() -> Span {
    // Invariant: the level check inline, the span out of line. Inline, the span's fields are
    // gathered before the macro finds that no subscriber listens.
    if tracing::level_enabled!(tracing::Level::INFO) {
        telemetry::new_span()
    } else {
        Span::none()
    }
}

/// The tool's context for a call on the fast path (which has no observer and no cancellation
/// token).
#[inline]
fn plain_context<'c, R: Registry>(slot: &Slot, cx: &Cx<'c>) -> ToolContext<'c> {
    ToolContext::new(
        slot.info.name,
        R::GROUPS[slot.group as usize].name,
        cx.id,
        cx.context.map(CallContext::extensions),
        None,
        None,
    )
}

pin_project_lite::pin_project! {
    /// The future of [`Toolkit::call`]. Its first poll runs the fast path
    /// ([`Start::fast`]) with the call's parts read in place; only a call the fast path
    /// does not finish builds the `async` rest of the dispatch (`rest`, of type `F`), which
    /// stays `None` otherwise.
    ///
    /// Invariant: hand-written, not an `async fn`, which would move its parameters into its
    /// state on the first poll.
    struct Call<'a, R: Registry, M, F> {
        start: Option<Start<'a, R>>,
        make: M,
        #[pin]
        rest: Option<F>,
    }
}

impl<'a, R: Registry> Call<'a, R, (), ()> {
    #[inline]
    #[allow(clippy::new_ret_no_self)]
    fn new(
        kit: &'a Toolkit<R>,
        session: &'a mut Session<R>,
        name: &'a str,
        arguments: Arguments<'a>,
        cx: Cx<'a>,
    ) -> impl Future<Output = CallResult> + Send + 'a {
        Call {
            start: Some(Start {
                kit,
                session,
                name,
                arguments,
                cx,
            }),
            make: |s: Start<'a, R>, span: Span, slot: Option<&'a Slot>| {
                s.kit.rest(s.session, s.name, s.arguments, s.cx, span, slot)
            },
            rest: None,
        }
    }
}

impl<'a, R, M, F> Future for Call<'a, R, M, F>
where
    R: Registry,
    M: Fn(Start<'a, R>, Span, Option<&'a Slot>) -> F,
    F: Future<Output = CallResult>,
{
    type Output = CallResult;

    #[inline]
    fn poll(self: Pin<&mut Self>, task: &mut Context<'_>) -> Poll<CallResult> {
        let mut this = self.project();
        if let Some(start) = this.start.as_mut() {
            let span = call_span();
            let mut pending = None;
            let mut out = None;
            start.fast(&span, &mut pending, &mut out);
            let start = this.start.take().expect("the call's parts");
            if let Some(result) = out {
                return Poll::Ready(result);
            }
            this.rest.set(Some((this.make)(start, span, pending)));
        }
        match this.rest.as_pin_mut() {
            Some(rest) => rest.poll(task),
            None => panic!("a tool call's future polled after it finished"),
        }
    }
}
