//! Calling tools: single calls, batches, `reset_tools`, and the path through policy, layers,
//! timeouts and cancellation.
//!
//! A call that needs none of those (no tracing subscriber listening, no policy, no layer, no
//! timeout, no progress observer, no cancellation token) takes the fast path. For a plain
//! `fn` tool, the call future's first poll runs it outright: [`Toolkit::call`] returns a
//! small hand-written future (`Call`) that reads the call's parts in place, the generated
//! `match` parses the arguments straight into the tool and writes its result into a slot of
//! the caller's (so the result does not travel back through the unwind guard), and one unwind
//! guard catches panics. An `async` tool without options runs in an unboxed
//! `async` continuation; everything else in a boxed future, so the fast path pays nothing for
//! features it does not use.
//!
//! Why it is shaped like this: sampled with `perf`, the cheapest calls spent their extra time
//! not on instructions but on copies of memory written a moment before (an `async fn` moving
//! its parameters into its state, `Result` and `Option` layers around the 64-byte result, a
//! re-wrapped parse result, the tool's value held in a `Cell` on its way to conversion),
//! each of which stalls the processor's store forwarding. The layout above copies the result
//! once instead of six times. BENCHMARKS.md has the numbers.

use std::future::{Future, poll_fn};
use std::pin::pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::Poll;
use std::time::{Duration, Instant};

use tracing::Instrument as _;
use tracing::Span;
use tracing::field::Empty;

use crate::args::{ArgumentError, Arguments};
use crate::context::{CallContext, ToolContext};
use crate::futures::{CatchUnwind, JoinAll, catch_panic};
use crate::group::SyncCall;
use crate::middleware::{Inner, ResetState, Run, Target, ToolRequest, ToolService};
use crate::policy::{BoxFuture, Decision, PolicyRequest};
use crate::registry::{GroupId, Registry};
use crate::reset::{self, RESET_TOOLS};
use crate::result::CallResult;
use crate::session::Session;
use crate::tool::ToolAnnotations;

use super::messages;
use super::{Core, Slot, ToolCall, ToolDefinition, Toolkit};

/// The caller's side of one call: the id (a batch gives each call its own) and the shared
/// context.
#[derive(Clone, Copy)]
struct Cx<'a> {
    id: Option<&'a str>,
    context: Option<&'a CallContext>,
}

impl<'a> Cx<'a> {
    fn plain(&self) -> bool {
        self.context.is_none_or(CallContext::is_plain)
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
        self.dispatch(session, name, arguments.into(), cx)
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
            id: context.id(),
            context: Some(context),
        };
        self.dispatch(session, name, arguments.into(), cx)
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
            if self.is_reset(&call.name) {
                self.concurrently(*session, &calls[start..i], context, &mut results)
                    .await;
                let cx = Cx {
                    id: call.id.as_deref(),
                    context,
                };
                results.push(
                    self.dispatch(session, &call.name, call.arguments.as_arguments(), cx)
                        .await,
                );
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
                id: call.id.as_deref(),
                context,
            };
            let mut session = session;
            let (name, arguments) = (call.name.as_str(), call.arguments.as_arguments());
            async move { self.dispatch(&mut session, name, arguments, cx).await }
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

    /// Every call, single or in a batch: the [`Call`] future, whose first poll tries the
    /// fast path.
    #[inline]
    fn dispatch<'a>(
        &'a self,
        session: &'a mut Session<R>,
        name: &'a str,
        arguments: Arguments<'a>,
        cx: Cx<'a>,
    ) -> impl Future<Output = CallResult> + Send + 'a {
        Call::new(self, session, name, arguments, cx)
    }

    /// A call that [`fast`](Self::fast) did not finish: the `async` tool it found (`slot`)
    /// runs here, unboxed; every other call on the boxed full path.
    async fn dispatch_in(
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
        Box::pin(self.traced(session, span, name, arguments, cx)).await
    }

    /// The fast path, run in the call future's first poll. A call that needs none of the
    /// full path (no tracing subscriber wants its span, no policy, no layer, no per-call
    /// data) and no timeout is finished here when it is `reset_tools`, a tool of an inactive
    /// group or a plain-`fn` tool: its result is then in `out` (which is `None` on entry).
    /// For an `async` tool it sets `pending` to the tool's slot and runs nothing; every other
    /// call leaves both `None` with nothing done.
    ///
    /// The result goes to the caller's `out` rather than back as the return value, and the
    /// `async` tool through `pending` rather than in an enum beside the result: each of
    /// those layers copied the result once more (measured: in an enum, the structured call
    /// went from 0.98x to 1.07-1.09x the hand-written one; returned, the cheap call was
    /// 1-2 ns slower than written to `out`).
    #[inline]
    #[allow(clippy::too_many_arguments)] // the call's parts, borrowed in place, and two slots
    fn fast<'k>(
        &'k self,
        session: &mut Session<R>,
        name: &str,
        arguments: &Arguments<'_>,
        cx: &Cx<'_>,
        span: &Span,
        pending: &mut Option<&'k Slot>,
        out: &mut Option<CallResult>,
    ) {
        if !(span.is_disabled() && self.policy.is_none() && self.pipeline.is_none() && cx.plain()) {
            return;
        }
        // The tools first: no tool is called `reset_tools` (a compile error), and a tool
        // call then skips comparing its name with it.
        let Some(slot) = self.core.slot(name) else {
            if self.is_reset(name) {
                *out = Some(self.core.reset(session, *arguments).1);
            }
            // Otherwise unknown here: perhaps found at run time; the full path looks those
            // up and words the error.
            return;
        };
        if let Some(switch) = slot.switch
            && !session.slot_active(switch as usize)
        {
            *out = Some(self.inactive(slot.info.name, R::GROUPS[slot.group as usize].name));
            return;
        }
        if slot.info.timeout.is_some() || self.default_timeout.is_some() {
            return;
        }
        let (group, tool) = (slot.group as usize, slot.tool as usize);
        let registry = &self.core.registry;
        // The result is written to `out`, not returned through the unwind guard (see
        // `ToolGroup::call_tool_sync`). The context is built inside the guard, beside the
        // generated arms: for a tool that takes none, its stores are then dead code.
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
                    self.panic_details,
                ))
            }
        }
    }

    /// The full path, in the call's span, cancellable.
    async fn traced(
        &self,
        session: &mut Session<R>,
        span: Span,
        name: &str,
        arguments: Arguments<'_>,
        cx: Cx<'_>,
    ) -> CallResult {
        let started = Instant::now();
        let body = self
            .full(session, name, arguments, cx)
            .instrument(span.clone());
        let (outcome, result) = match cx.context.and_then(CallContext::cancellation) {
            None => body.await,
            Some(token) => {
                let mut body = pin!(body);
                let mut cancelled = pin!(token.cancelled());
                poll_fn(|task| {
                    if cancelled.as_mut().poll(task).is_ready() {
                        // The name as the model sent it (escaped): it may name no tool at all.
                        let tool = crate::echo::echo(name, 64);
                        return Poll::Ready(("cancelled", messages::cancelled(&tool)));
                    }
                    body.as_mut().poll(task)
                })
                .await
            }
        };
        if !span.is_disabled() {
            if let Some(group) = self.group_of(name) {
                span.record("group", group.name);
            }
            span.record("outcome", outcome);
            span.record("duration_us", started.elapsed().as_micros() as u64);
        }
        result
    }

    async fn full(
        &self,
        session: &mut Session<R>,
        name: &str,
        arguments: Arguments<'_>,
        cx: Cx<'_>,
    ) -> (&'static str, CallResult) {
        let (target, tool, group, annotations) = if self.is_reset(name) {
            let reset = self.core.reset.as_ref().expect("reset_tools is exposed");
            (Target::Reset, RESET_TOOLS, None, reset.annotations)
        } else if let Some((index, &slot)) = self.core.lookup(name) {
            let group = R::GROUPS[slot.group as usize].name;
            if let Some(switch) = slot.switch
                && !session.slot_active(switch as usize)
            {
                return ("inactive_group", self.inactive(slot.info.name, group));
            }
            let timeout = slot.info.timeout.or(self.default_timeout);
            let target = Target::Tool { index, timeout };
            (target, slot.info.name, Some(group), slot.info.annotations)
        } else {
            let Some(found) = self.core.found_view().and_then(|view| view.get(name)) else {
                return ("unknown_tool", self.unknown_tool(session, name));
            };
            let place = self.core.found[found.found as usize];
            let definition = found.definition;
            let group = R::GROUPS[place.group as usize].name;
            if let Some(switch) = place.switch
                && !session.slot_active(switch as usize)
            {
                return ("inactive_group", self.inactive(definition.name, group));
            }
            let target = Target::Found {
                group: place.group,
                definition,
                timeout: self.default_timeout,
            };
            (target, definition.name, Some(group), definition.annotations)
        };
        let extensions = cx.context.map(CallContext::extensions);
        if let Some(policy) = &self.policy {
            let request = PolicyRequest {
                tool,
                group,
                annotations,
                arguments,
                call_id: cx.id,
                extensions,
            };
            match contained(|| policy.check(&request)).await {
                Ok(Decision::Allow) => {}
                Ok(Decision::Deny(reason)) => return ("denied", messages::denied(tool, &reason)),
                Err(panic) => {
                    return (
                        "panic",
                        messages::panicked_around(tool, "policy", &panic, self.panic_details),
                    );
                }
            }
        }
        if let Some(pipeline) = &self.pipeline {
            return self
                .through_layers(
                    pipeline,
                    session,
                    target,
                    tool,
                    group,
                    annotations,
                    arguments,
                    cx,
                )
                .await;
        }
        let context = cx.context;
        let ctx = ToolContext::new(
            tool,
            group.unwrap_or_default(),
            cx.id,
            extensions,
            context.and_then(CallContext::progress).map(|p| &**p),
            context.and_then(CallContext::cancellation),
        );
        match target {
            Target::Reset => self.core.reset(session, arguments),
            Target::Tool { index, timeout } => {
                let slot = &self.core.slots[index as usize];
                self.core
                    .run_tool(slot, ctx, arguments, timeout, self.panic_details)
                    .await
            }
            Target::Found {
                group,
                definition,
                timeout,
            } => {
                // Boxed: a remote call's state stays out of every call's future.
                Box::pin(self.core.run_found(
                    group,
                    definition,
                    ctx,
                    arguments,
                    timeout,
                    self.panic_details,
                ))
                .await
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    async fn through_layers(
        &self,
        pipeline: &Mutex<ToolService>,
        session: &mut Session<R>,
        target: Target,
        tool: &'static str,
        group: Option<&'static str>,
        annotations: ToolAnnotations,
        arguments: Arguments<'_>,
        cx: Cx<'_>,
    ) -> (&'static str, CallResult) {
        let reset = matches!(target, Target::Reset).then(|| ResetState {
            old: session.bits().as_ref().into(),
            new: Arc::default(),
        });
        let new_state = reset.as_ref().map(|r| r.new.clone());
        let request = ToolRequest {
            tool,
            group,
            annotations,
            call_id: cx.id.map(str::to_owned),
            arguments: arguments.to_buf(),
            extensions: cx
                .context
                .map(|c| c.extensions().clone())
                .unwrap_or_default(),
            inner: Inner {
                run: self.core.clone(),
                target,
                progress: cx.context.and_then(CallContext::progress).cloned(),
                cancel: cx.context.and_then(CallContext::cancellation).cloned(),
                reset,
                panic_details: self.panic_details,
            },
        };
        let mut service = pipeline
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        let outcome = contained(move || {
            Box::pin(async move {
                poll_fn(|task| tower_service::Service::poll_ready(&mut service, task)).await?;
                tower_service::Service::call(&mut service, request).await
            })
        })
        .await;
        match outcome {
            Ok(Ok(result)) => {
                if let Some(new_state) = new_state
                    && !result.is_error
                    && let Some(bits) = new_state
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .take()
                {
                    let mut next = R::EMPTY;
                    next.as_mut().copy_from_slice(&bits);
                    *session = Session::from_bits(next);
                }
                (if result.is_error { "tool_error" } else { "ok" }, result)
            }
            Ok(Err(error)) => ("layer_error", messages::layer_error(tool, &error)),
            Err(panic) => (
                "panic",
                messages::panicked_around(tool, "middleware", &panic, self.panic_details),
            ),
        }
    }
}

/// Starts a future and runs it to completion, turning a panic in either into `Err(message)`.
async fn contained<'a, T>(start: impl FnOnce() -> BoxFuture<'a, T>) -> Result<T, String> {
    let future = catch_panic(start)?;
    CatchUnwind::new(pin!(future)).await
}

impl<R: Registry> Core<R> {
    /// Parse and apply a `reset_tools` call on `session`.
    fn reset(
        &self,
        session: &mut Session<R>,
        arguments: Arguments<'_>,
    ) -> (&'static str, CallResult) {
        let (new, answer) = self.reset_answer(session.bits(), arguments);
        if let Some(new) = new {
            *session = Session::from_bits(new);
        }
        answer
    }

    /// The new state (if accepted) and the answer to a `reset_tools` call, given the old state.
    fn reset_answer(
        &self,
        old: &R::Bits,
        arguments: Arguments<'_>,
    ) -> (Option<R::Bits>, (&'static str, CallResult)) {
        match reset::parse(arguments, &self.names, R::EMPTY) {
            Ok(bits) => {
                let answer = reset::accepted(R::GROUPS, R::SWITCHABLE, old.as_ref(), bits.as_ref());
                (Some(bits), ("ok", answer))
            }
            Err(problems) => {
                let old = Session::<R>::from_bits(*old);
                let active: Vec<&'static str> = old.active().map(GroupId::name).collect();
                (
                    None,
                    (
                        "refused",
                        reset::refusal(&problems, &self.names.names, &active),
                    ),
                )
            }
        }
    }

    /// Parse the arguments and run the tool, with its timeout, catching panics.
    async fn run_tool(
        &self,
        slot: &Slot,
        ctx: ToolContext<'_>,
        arguments: Arguments<'_>,
        timeout: Option<Duration>,
        panic_details: bool,
    ) -> (&'static str, CallResult) {
        let (group, tool) = (slot.group as usize, slot.tool as usize);
        let name = slot.info.name;
        // A plain-`fn` tool runs to completion inside one poll: a timer could not interrupt
        // it, so it runs without one.
        let mut out = None;
        match catch_panic(|| {
            self.registry
                .dispatch_sync(group, tool, &ctx, &arguments, &mut out)
        }) {
            Ok(SyncCall::Async) => {}
            Ok(SyncCall::Invalid) => {
                return ("invalid_arguments", out.expect("the error result"));
            }
            Ok(SyncCall::Ran) => {
                return finish(name, Ok(Ok(out.expect("the tool's result"))), panic_details);
            }
            Err(panic) => return finish(name, Err(panic), panic_details),
        }
        // Started inside `run_future`, so the tool's future is stored once, in its state.
        let start = || self.registry.dispatch(group, tool, ctx, arguments);
        run_future(name, start, timeout, panic_details).await
    }

    /// Run a tool found at run time, with the timeout, catching panics.
    async fn run_found(
        &self,
        group: u32,
        definition: &'static ToolDefinition,
        ctx: ToolContext<'_>,
        arguments: Arguments<'_>,
        timeout: Option<Duration>,
        panic_details: bool,
    ) -> (&'static str, CallResult) {
        let name = definition.name;
        let Some(source) = self.registry.dynamic_tools(group as usize) else {
            // Unreachable: the group was found to have a source when the toolkit was built.
            return (
                "tool_error",
                CallResult::error(format!("`{name}` has no source of tools any more")),
            );
        };
        let future = match catch_panic(|| source.call(definition, ctx, arguments)) {
            Ok(future) => future,
            Err(panic) => return finish(name, Err(panic), panic_details),
        };
        run_future(
            name,
            move || async move { Ok(future.await) },
            timeout,
            panic_details,
        )
        .await
    }
}

/// Start a tool's future and run it to completion, with a timeout, catching panics.
async fn run_future<F: Future<Output = Result<CallResult, ArgumentError>>>(
    name: &'static str,
    start: impl FnOnce() -> F,
    timeout: Option<Duration>,
    panic_details: bool,
) -> (&'static str, CallResult) {
    let future = pin!(start());
    let future = CatchUnwind::new(future);
    let outcome = match timeout {
        None => future.await,
        // Without a Tokio timer, `timeout` panics when it builds its `Sleep`: report that
        // as a configuration error instead of unwinding into the caller.
        Some(limit) => match catch_panic(|| Box::pin(tokio::time::timeout(limit, future))) {
            Err(_) => return ("no_timer", messages::no_timer(name)),
            Ok(timed) => match timed.await {
                Ok(outcome) => outcome,
                Err(_) => return ("timeout", messages::timed_out(name, limit)),
            },
        },
    };
    finish(name, outcome, panic_details)
}

/// The result of a finished tool future, for the caller that needs no outcome label.
///
/// It does not read the result's `is_error`, and that matters to the fast path, which shares
/// the call future's `poll` with this: a read of the one-byte field made LLVM split the
/// 64-byte result around it and copy the seven bytes of padding after it as two overlapping
/// 4-byte moves, each copy of which then waited on the last (a failed store forward). The
/// cheap call measured about 3 ns faster without that read (stand-alone A/B, five runs each).
#[inline]
fn result_of(
    name: &'static str,
    outcome: Result<Result<CallResult, ArgumentError>, String>,
    panic_details: bool,
) -> CallResult {
    match outcome {
        Ok(Ok(result)) => result,
        Ok(Err(e)) => messages::invalid_arguments(name, &e),
        Err(panic) => messages::panicked(name, &panic, panic_details),
    }
}

/// The outcome label and result of a finished tool future.
#[inline]
fn finish(
    name: &'static str,
    outcome: Result<Result<CallResult, ArgumentError>, String>,
    panic_details: bool,
) -> (&'static str, CallResult) {
    let label = match &outcome {
        Ok(Ok(result)) if result.is_error => "tool_error",
        Ok(Ok(_)) => "ok",
        Ok(Err(_)) => "invalid_arguments",
        Err(_) => "panic",
    };
    (label, result_of(name, outcome, panic_details))
}

impl<R: Registry> Run for Core<R> {
    fn run(self: Arc<Self>, request: ToolRequest) -> BoxFuture<'static, CallResult> {
        Box::pin(async move {
            let ToolRequest {
                tool,
                group,
                call_id,
                arguments,
                extensions,
                inner,
                ..
            } = request;
            match inner.target {
                Target::Reset => {
                    let Some(state) = inner.reset else {
                        return messages::layer_error(tool, &"the request lost its session state");
                    };
                    let mut old = R::EMPTY;
                    old.as_mut().copy_from_slice(&state.old);
                    let (new, (_, answer)) = self.reset_answer(&old, arguments.as_arguments());
                    if let Some(new) = new {
                        *state.new.lock().unwrap_or_else(PoisonError::into_inner) =
                            Some(new.as_ref().into());
                    }
                    answer
                }
                Target::Tool { index, timeout } => {
                    let slot = &self.slots[index as usize];
                    let ctx = ToolContext::new(
                        slot.info.name,
                        group.unwrap_or_default(),
                        call_id.as_deref(),
                        Some(&extensions),
                        inner.progress.as_deref(),
                        inner.cancel.as_ref(),
                    );
                    self.run_tool(
                        slot,
                        ctx,
                        arguments.as_arguments(),
                        timeout,
                        inner.panic_details,
                    )
                    .await
                    .1
                }
                Target::Found {
                    group: index,
                    definition,
                    timeout,
                } => {
                    let ctx = ToolContext::new(
                        definition.name,
                        group.unwrap_or_default(),
                        call_id.as_deref(),
                        Some(&extensions),
                        inner.progress.as_deref(),
                        inner.cancel.as_ref(),
                    );
                    // Boxed, as on the path without layers.
                    Box::pin(self.run_found(
                        index,
                        definition,
                        ctx,
                        arguments.as_arguments(),
                        timeout,
                        inner.panic_details,
                    ))
                    .await
                    .1
                }
            }
        })
    }
}

/// The call's span. Disabled (and cheap) unless a subscriber wants it.
#[inline]
fn call_span(name: &str) -> Span {
    // The level check inline and the span out of line: inline, the span's fields were
    // gathered (the name copied) before the macro found that no subscriber listens.
    if tracing::level_enabled!(tracing::Level::INFO) {
        new_call_span(name)
    } else {
        Span::none()
    }
}

#[inline(never)]
fn new_call_span(name: &str) -> Span {
    tracing::info_span!(
        "tool_call",
        tool = name,
        group = Empty,
        outcome = Empty,
        duration_us = Empty
    )
}

/// The tool's context for a call on the fast path (which has no progress observer and no
/// cancellation token).
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

/// What a call future holds until its first poll.
struct Start<'a, R: Registry> {
    kit: &'a Toolkit<R>,
    session: &'a mut Session<R>,
    name: &'a str,
    arguments: Arguments<'a>,
    cx: Cx<'a>,
}

pin_project_lite::pin_project! {
    /// The future of [`Toolkit::call`]. Its first poll runs the fast path
    /// ([`Toolkit::fast`]) with the call's parts read in place; only a call the fast path
    /// does not finish builds the `async` rest of the dispatch (`rest`, of type `F`), which
    /// stays `None` otherwise. An `async fn` would move its parameters into its state on
    /// the first poll, which cost the cheapest calls more time than their work.
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
                s.kit
                    .dispatch_in(s.session, s.name, s.arguments, s.cx, span, slot)
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
    fn poll(self: std::pin::Pin<&mut Self>, task: &mut std::task::Context<'_>) -> Poll<CallResult> {
        let mut this = self.project();
        if let Some(start) = this.start.as_mut() {
            let span = call_span(start.name);
            let kit = start.kit;
            let mut pending = None;
            let mut out = None;
            kit.fast(
                start.session,
                start.name,
                &start.arguments,
                &start.cx,
                &span,
                &mut pending,
                &mut out,
            );
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
