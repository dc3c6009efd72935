//! Running a resolved call: the one place that runs a [`Target`] (for the full path and for
//! the innermost service under layers alike), with the tool's timeout, catching panics.

use std::future::Future;
use std::pin::pin;
use std::time::Duration;

use crate::args::{ArgumentError, Arguments};
use crate::context::{CancellationToken, Extensions, Observers, ToolContext};
use crate::futures::{BoxFuture, CatchUnwind, catch_panic};
use crate::meta::{RESET_TOOLS, ToolAnnotations, ToolDefinition};
use crate::registry::Registry;
use crate::reset;
use crate::result::{CallOutcome, CallResult};
use crate::tool::SyncCall;

use super::{Core, Slot, messages};

/// What a resolved call runs.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Target {
    Reset,
    /// `Skill`: loads a skill (marks it loaded, and may activate its group).
    Skill,
    /// `read_skill_file`.
    SkillFile,
    Tool {
        index: u32,
        timeout: Option<Duration>,
    },
    /// A tool found at run time: its group's index in `R::GROUPS`.
    Dynamic {
        group: u32,
        definition: &'static ToolDefinition,
        timeout: Option<Duration>,
    },
}

impl Target {
    /// Whether running it may change the session's state: its new state is then handed back
    /// (and a layer must never answer it itself).
    pub(crate) fn changes_session(self) -> bool {
        matches!(self, Target::Reset | Target::Skill)
    }

    /// Whether running it reads the session's state (the builtins), which must then travel
    /// with the call.
    pub(crate) fn reads_session(self) -> bool {
        matches!(self, Target::Reset | Target::Skill | Target::SkillFile)
    }
}

/// A resolved call's parts, borrowed from the caller or from a [`ToolRequest`](super::layers::ToolRequest):
/// what the policy, the layers and the tool's context are built from.
pub(crate) struct Parts<'a> {
    pub(crate) target: Target,
    pub(crate) tool: &'static str,
    pub(crate) group: Option<&'static str>,
    pub(crate) annotations: ToolAnnotations,
    pub(crate) call_id: Option<&'a str>,
    pub(crate) extensions: Option<&'a Extensions>,
    pub(crate) observers: Option<&'a Observers>,
    pub(crate) cancel: Option<&'a CancellationToken>,
}

impl<R: Registry> Core<R> {
    /// The name of the tool `target` runs.
    pub(crate) fn name_of(&self, target: Target) -> &'static str {
        match target {
            Target::Reset => RESET_TOOLS,
            Target::Skill => crate::skill::SKILL_TOOL,
            Target::SkillFile => crate::skill::READ_SKILL_FILE,
            Target::Tool { index, .. } => self.slots[index as usize].info.name,
            Target::Dynamic { definition, .. } => definition.name,
        }
    }

    /// Run `parts.target`. For `reset_tools`, `state` is the session's state before the call,
    /// replaced by the new one if the call is accepted; nothing else reads it.
    pub(crate) async fn run_target(
        &self,
        parts: &Parts<'_>,
        arguments: Arguments<'_>,
        state: &mut R::Bits,
        panic_details: bool,
    ) -> CallResult {
        let ctx = ToolContext::new(
            parts.tool,
            parts.group.unwrap_or_default(),
            parts.call_id,
            parts.extensions,
            parts.observers,
            parts.cancel,
        );
        match parts.target {
            Target::Reset => {
                let (new, result) =
                    reset::answer::<R>(&self.names, &self.skills, self, state, arguments);
                if let Some(new) = new {
                    *state = new;
                }
                result
            }
            Target::Skill => {
                let mut next = *state;
                let result =
                    self.skills
                        .load(R::GROUPS, next.as_mut(), arguments, self.reset.is_some());
                if result.outcome() == CallOutcome::Ok {
                    *state = next;
                }
                result
            }
            Target::SkillFile => self
                .skills
                .read(state.as_ref(), arguments, self.reset.is_some()),
            Target::Tool { index, timeout } => {
                let slot = &self.slots[index as usize];
                self.run_tool(slot, ctx, arguments, timeout, panic_details)
                    .await
            }
            Target::Dynamic {
                group,
                definition,
                timeout,
            } => {
                // Boxed: a remote call's state stays out of every call's future.
                Box::pin(self.run_dynamic(
                    group,
                    definition,
                    ctx,
                    arguments,
                    timeout,
                    panic_details,
                ))
                .await
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
    ) -> CallResult {
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
                return out.expect("the error result");
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
    async fn run_dynamic(
        &self,
        group: u32,
        definition: &'static ToolDefinition,
        ctx: ToolContext<'_>,
        arguments: Arguments<'_>,
        timeout: Option<Duration>,
        panic_details: bool,
    ) -> CallResult {
        let name = definition.name;
        let Some(source) = self.registry.dynamic_tools(group as usize) else {
            // Unreachable: the group was found to have a source when the toolkit was built.
            return CallResult::error(format!("`{name}` has no source of tools any more"));
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
) -> CallResult {
    let future = pin!(start());
    let future = CatchUnwind::new(future);
    let outcome = match timeout {
        None => future.await,
        // Without a Tokio timer, `timeout` panics when it builds its `Sleep`: report that
        // as a configuration error instead of unwinding into the caller.
        Some(limit) => match catch_panic(|| Box::pin(tokio::time::timeout(limit, future))) {
            Err(_) => return messages::no_timer(name),
            Ok(timed) => match timed.await {
                Ok(outcome) => outcome,
                Err(_) => return messages::timed_out(name, limit),
            },
        },
    };
    finish(name, outcome, panic_details)
}

/// Starts a future and runs it to completion, turning a panic in either into `Err(message)`.
pub(crate) async fn contained<'a, T>(
    start: impl FnOnce() -> BoxFuture<'a, T>,
) -> Result<T, String> {
    let future = catch_panic(start)?;
    CatchUnwind::new(pin!(future)).await
}

/// The result of a finished tool future, for the caller that needs no outcome label.
///
/// Invariant: don't read the result's `is_error` here. The fast path shares the call future's
/// `poll` with this, and the read makes LLVM copy the result's padding as overlapping moves
/// that stall store forwarding.
#[inline]
pub(crate) fn result_of(
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

/// The result of a finished tool future (the messages carry their own outcome labels).
#[inline]
fn finish(
    name: &'static str,
    outcome: Result<Result<CallResult, ArgumentError>, String>,
    panic_details: bool,
) -> CallResult {
    result_of(name, outcome, panic_details)
}
