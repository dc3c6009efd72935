//! Calls through a [`ManagedSession`]: the [lifecycle](crate::lifecycle) rules applied after
//! each call and at each turn end, and what they switched off told to the model.
//!
//! The rules wrap the ordinary call: a plain [`Session`](crate::Session) call never pays for
//! them.

use std::sync::Arc;

use crate::args::Arguments;
use crate::context::CallContext;
use crate::lifecycle::notice::{Comeback, notice};
use crate::lifecycle::{Deactivation, Lifecycle, LifecycleError, ManagedSession};
use crate::meta::RESET_TOOLS;
use crate::outcome::CallOutcome;
use crate::registry::Registry;
use crate::result::CallResult;
use crate::session::Session;

use super::{ToolCall, ToolKind, Toolkit};

use crate::lifecycle::state::{Now, is_active_named, used_slot};

impl<R: Registry> Toolkit<R> {
    /// Keep the active set small with `lifecycle`'s rules (see [`crate::lifecycle`]),
    /// replacing any earlier ones. They act on the calls of a [`ManagedSession`]
    /// ([`call_managed`](Self::call_managed), [`call_batch_managed`](Self::call_batch_managed),
    /// [`end_turn`](Self::end_turn)) and on the MCP server's sessions.
    ///
    /// # Errors
    ///
    /// A [`LifecycleError`] when the rules cannot work together: a cap of 0, a cap the pinned
    /// groups fill, an idle rule of 0, a group both pinned and turn-scoped.
    pub fn with_lifecycle(mut self, lifecycle: Lifecycle<R>) -> Result<Self, LifecycleError> {
        lifecycle.check()?;
        self.lifecycle = Some(Arc::new(lifecycle));
        Ok(self)
    }

    /// The lifecycle rules, if any: [`with_lifecycle`](Self::with_lifecycle)'s, else those the
    /// attributes declare (`#[pinned]`, `#[tool_group(turn_scoped)]`).
    pub fn lifecycle(&self) -> Option<&Lifecycle<R>> {
        self.lifecycle.as_deref()
    }

    /// A new conversation's [`ManagedSession`]: no switchable group active.
    pub fn managed_session(&self) -> ManagedSession<R> {
        ManagedSession::new(Session::new())
    }

    /// [`call`](Self::call) through a [`ManagedSession`]: the call counts as a use of its
    /// group, the cap switches off the least recently used groups if the call made one more
    /// active, and the result tells the model what was switched off (by this call, and since
    /// the last result).
    pub async fn call_managed(
        &self,
        session: &mut ManagedSession<R>,
        name: &str,
        arguments: impl Into<Arguments<'_>>,
    ) -> CallResult {
        self.one_managed(session, name, arguments.into(), None, None)
            .await
    }

    /// [`call_managed`](Self::call_managed) with the caller's [`CallContext`].
    pub async fn call_managed_with(
        &self,
        session: &mut ManagedSession<R>,
        name: &str,
        arguments: impl Into<Arguments<'_>>,
        context: &CallContext,
    ) -> CallResult {
        let id = context.call_id();
        self.one_managed(session, name, arguments.into(), id, Some(context))
            .await
    }

    /// [`call_batch`](Self::call_batch) through a [`ManagedSession`]: the same order and
    /// barriers; each call is a use, and the first result tells the model what was switched
    /// off since the last one.
    pub async fn call_batch_managed(
        &self,
        session: &mut ManagedSession<R>,
        calls: &[ToolCall],
    ) -> Vec<CallResult> {
        self.batch_managed(session, calls, None).await
    }

    /// [`call_batch_managed`](Self::call_batch_managed) with a [`CallContext`] shared by every
    /// call.
    pub async fn call_batch_managed_with(
        &self,
        session: &mut ManagedSession<R>,
        calls: &[ToolCall],
        context: &CallContext,
    ) -> Vec<CallResult> {
        self.batch_managed(session, calls, Some(context)).await
    }

    /// End a turn: switch off the turn-scoped groups and those idle for the rule's turns.
    /// Returns them; the next result tells the model. Without rules it only counts the turn.
    ///
    /// Call it once the turn's calls ran and before the next request is built, so that the
    /// next request lists the smaller set. In the deferred mode, end it before
    /// [`Deferred::result_messages`](crate::provider::deferred::Deferred::result_messages):
    /// the change then goes out with the turn's results, as any other change, with no break
    /// of the cached prefix (after it, the next turn's results carry it).
    pub fn end_turn(&self, session: &mut ManagedSession<R>) -> Vec<Deactivation> {
        match &self.lifecycle {
            Some(policy) => session.end_turn(policy),
            None => session.end_turn(&Lifecycle::empty()),
        }
    }

    /// For a server that runs calls itself (the MCP server): before a call of `session`,
    /// switch off the groups idle for the rules' duration (told with the call's result).
    #[doc(hidden)]
    pub fn lifecycle_before_call(&self, session: &mut ManagedSession<R>) {
        self.expire(session, self.now());
    }

    /// For a server that runs calls itself (the MCP server): after a call of `name` that
    /// started from `before`, with `session` holding the groups as the call left them, apply
    /// the rules and tell `result` what they and the earlier rules switched off.
    /// `first_use`: the server's own first-use choice, which says how the model gets a group
    /// back.
    #[doc(hidden)]
    pub fn lifecycle_after_call(
        &self,
        session: &mut ManagedSession<R>,
        before: &Session<R>,
        name: &str,
        result: &mut CallResult,
        first_use: bool,
    ) {
        let evicted = self.settle_quiet(session, before, name, result, self.now());
        let mut told = evicted;
        told.extend(session.take_pending());
        if !told.is_empty() {
            let comeback = if first_use {
                Comeback::FirstUse
            } else {
                self.comeback()
            };
            let (text, how_back) = notice(&told, comeback);
            result.tell_deactivations(told, text, how_back);
        }
    }

    /// For a server that runs a call as a task (its result arrives later, through another
    /// request): the call, which started from `before`, is a use, the rules apply, and what
    /// they switch off is told with the session's next result.
    #[doc(hidden)]
    pub fn lifecycle_task_started(
        &self,
        session: &mut ManagedSession<R>,
        before: &Session<R>,
        name: &str,
    ) {
        let mut started = CallResult::empty();
        let evicted = self.settle_quiet(session, before, name, &mut started, self.now());
        for d in evicted {
            session.requeue(d);
        }
    }

    async fn one_managed(
        &self,
        session: &mut ManagedSession<R>,
        name: &str,
        arguments: Arguments<'_>,
        id: Option<&str>,
        context: Option<&CallContext>,
    ) -> CallResult {
        let now = self.now();
        self.expire(session, now);
        let before = *session.session();
        let mut result = self
            .call_cx(session.session_ref_mut(), name, arguments, id, context)
            .await;
        self.settle(session, &before, name, &mut result, now);
        let pending = session.take_pending();
        self.tell(&mut result, pending);
        result
    }

    async fn batch_managed(
        &self,
        session: &mut ManagedSession<R>,
        calls: &[ToolCall],
        context: Option<&CallContext>,
    ) -> Vec<CallResult> {
        self.expire(session, self.now());
        let pending = session.take_pending();
        let mut results: Vec<CallResult> = Vec::with_capacity(calls.len());
        let mut start = 0;
        for (i, call) in calls.iter().enumerate() {
            if self.is_barrier(session.session(), &call.tool, context) {
                self.segment(session, &calls[start..i], context, &mut results)
                    .await;
                let arguments = call.arguments.as_arguments();
                let id = call.call_id.as_deref();
                let result = self
                    .one_managed(session, &call.tool, arguments, id, context)
                    .await;
                results.push(result);
                start = i + 1;
            }
        }
        self.segment(session, &calls[start..], context, &mut results)
            .await;
        // A group the batch switched back on needs no notice any more.
        let active = *session.session();
        let pending: Vec<Deactivation> = pending
            .into_iter()
            .filter(|d| !is_active_named(&active, d.group))
            .collect();
        if let Some(first) = results.first_mut() {
            self.tell(first, pending);
        } else {
            // Nothing to tell it with: the next result will.
            for d in pending {
                session.requeue(d);
            }
        }
        results
    }

    /// Calls that change nothing, run together on a copy of the session; each is then a use.
    async fn segment(
        &self,
        session: &mut ManagedSession<R>,
        calls: &[ToolCall],
        context: Option<&CallContext>,
        out: &mut Vec<CallResult>,
    ) {
        if calls.is_empty() {
            return;
        }
        let before = *session.session();
        let first = out.len();
        let results = match context {
            Some(c) => {
                self.call_batch_with(session.session_ref_mut(), calls, c)
                    .await
            }
            None => self.call_batch(session.session_ref_mut(), calls).await,
        };
        out.extend(results);
        let now = self.now();
        for (call, result) in calls.iter().zip(&mut out[first..]) {
            self.settle(session, &before, &call.tool, result, now);
        }
    }

    /// Apply the rules after one call and tell the call's own evictions.
    fn settle(
        &self,
        session: &mut ManagedSession<R>,
        before: &Session<R>,
        name: &str,
        result: &mut CallResult,
        now: Now,
    ) {
        let evicted = self.settle_quiet(session, before, name, result, now);
        self.tell(result, evicted);
    }

    /// Apply the rules after one call; the call's own evictions, untold.
    fn settle_quiet(
        &self,
        session: &mut ManagedSession<R>,
        before: &Session<R>,
        name: &str,
        result: &mut CallResult,
        now: Now,
    ) -> Vec<Deactivation> {
        let default_policy;
        let policy = match &self.lifecycle {
            Some(policy) => policy.as_ref(),
            None => {
                default_policy = Lifecycle::empty();
                &default_policy
            }
        };
        let resolved = self.resolve(before, name);
        if let (Some(max), Some(r)) = (policy.max_active, &resolved)
            && r.kind() == ToolKind::ResetTools
            && !result.is_error
            && session.session().active().count() > max
        {
            // The model asked for more groups than may be active: refused, nothing changed
            // (the call still counts as one, as a transcript's replay counts it).
            let asked = session.session().active().count();
            *session.session_ref_mut() = *before;
            *result = CallResult::error(format!(
                "`{RESET_TOOLS}` asked for {asked} groups at once, and at most {max} may be active (pinned ones included); nothing changed. Ask for at most {max}."
            ))
            .labelled(CallOutcome::Refused);
        }
        let used = used_slot(resolved.as_ref(), before, session.session());
        session.after_call(policy, before, used, now)
    }

    /// The wall clock, when a rule reads it (`idle_for`).
    fn now(&self) -> Now {
        let reads_clock = self
            .lifecycle
            .as_ref()
            .is_some_and(|l| l.idle_for.is_some());
        if !reads_clock {
            return Now::default();
        }
        let at_ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
        Now { at_ms }
    }

    /// Before a call: switch off the groups unused for the rule's duration; the call's
    /// result tells them.
    fn expire(&self, session: &mut ManagedSession<R>, now: Now) {
        if let Some(policy) = &self.lifecycle {
            session.expire(policy, now);
        }
    }

    fn comeback(&self) -> Comeback {
        if self.first_use {
            Comeback::FirstUse
        } else if self.core.expose_reset {
            Comeback::Reset
        } else {
            Comeback::Application
        }
    }

    /// Append the notice of `deactivations` to `result`.
    pub(crate) fn tell(&self, result: &mut CallResult, deactivations: Vec<Deactivation>) {
        if deactivations.is_empty() {
            return;
        }
        let (text, how_back) = notice(&deactivations, self.comeback());
        result.tell_deactivations(deactivations, text, how_back);
    }
}
