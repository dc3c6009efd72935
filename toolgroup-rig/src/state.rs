//! What one conversation shares between rig's tool callbacks and the per-turn hook: the
//! toolkit, the names rig knows, the session, and the per-call data of its calls.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use toolgroup::lifecycle::ManagedSession;
use toolgroup::registry::Registry;
use toolgroup::{CallContext, CallResult, Session, Toolkit};

/// The names an agent's tool server holds, as the adapter registered them.
#[derive(Debug, Clone, Default)]
pub(crate) struct Listing {
    /// The toolkit's tools registered with rig (`reset_tools` included).
    pub(crate) registered: HashSet<&'static str>,
    /// The agent's own rig tools, advertised on every turn beside the toolkit's.
    pub(crate) rig_tools: Vec<String>,
}

pub(crate) struct Shared<R: Registry> {
    pub(crate) toolkit: Arc<Toolkit<R>>,
    pub(crate) listing: Arc<Listing>,
    /// The session and the lifecycle state beside it (the toolkit's rules apply to it).
    pub(crate) session: Mutex<ManagedSession<R>>,
    pub(crate) context: Option<CallContext>,
    /// Whether the model was called before in this conversation: each later model call
    /// starts a turn (the response before it, with or without tool calls, was one).
    pub(crate) called: AtomicBool,
}

impl<R: Registry> Shared<R> {
    /// A copy of the session: a call works on its own copy, so no lock is held across a
    /// tool's await, and only a call that changed the active set writes it back.
    pub(crate) fn session(&self) -> Session<R> {
        *self.managed().session()
    }

    pub(crate) fn set_session(&self, session: Session<R>) {
        *self
            .session
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .session_mut() = session;
    }

    /// A copy of the session with its lifecycle state.
    pub(crate) fn managed(&self) -> ManagedSession<R> {
        self.session
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    pub(crate) fn set_managed(&self, managed: ManagedSession<R>) {
        *self.session.lock().unwrap_or_else(PoisonError::into_inner) = managed;
    }

    /// Before a model call: the previous response, if any, was a turn, which ends now (the
    /// toolkit's lifecycle rules then switch off idle and turn-scoped groups; the next result
    /// tells the model). A transcript's replay counts turns the same way.
    pub(crate) fn next_model_call(&self) {
        if self.called.swap(true, Ordering::AcqRel) {
            let mut managed = self.session.lock().unwrap_or_else(PoisonError::into_inner);
            self.toolkit.end_turn(&mut managed);
        }
    }

    /// The names rig may advertise this turn: the session's tools that rig holds, in the
    /// toolkit's listing order, then the agent's own rig tools.
    pub(crate) fn advertised(&self) -> Vec<String> {
        let session = self.session();
        self.toolkit
            .definitions(&session)
            .map(|d| d.name)
            .filter(|name| self.listing.registered.contains(name))
            .map(str::to_owned)
            .chain(self.listing.rig_tools.iter().cloned())
            .collect()
    }

    /// Run one call through the toolkit on the session (with the conversation's per-call
    /// data and `extra`, if any), keeping what it changed.
    ///
    /// rig runs a turn's calls concurrently, so a call runs on a copy of the active set (no
    /// lock is held across a tool's await) and then writes back only the groups it switched
    /// on or off, into the state as the other calls left it; the lifecycle rules are applied
    /// to that state. Two calls activating two groups on first use both keep theirs.
    pub(crate) async fn call<T: Clone + Send + Sync + 'static>(
        &self,
        toolkit: &Toolkit<R>,
        name: &str,
        arguments: toolgroup::args::Arguments<'_>,
        extra: Option<T>,
    ) -> CallResult {
        let before = {
            let mut managed = self.session.lock().unwrap_or_else(PoisonError::into_inner);
            toolkit.lifecycle_before_call(&mut managed);
            *managed.session()
        };
        let mut session = before;
        let mut result = match (&self.context, extra) {
            (None, None) => toolkit.call(&mut session, name, arguments).await,
            (base, extra) => {
                let mut context = base.clone().unwrap_or_default();
                if let Some(extra) = extra {
                    context.extensions_mut().insert(extra);
                }
                toolkit
                    .call_with(&mut session, name, arguments, &context)
                    .await
            }
        };
        let mut managed = self.session.lock().unwrap_or_else(PoisonError::into_inner);
        managed.session_mut().apply_change(&before, &session);
        let first_use = toolkit.first_use_activation();
        toolkit.lifecycle_after_call(&mut managed, &before, name, &mut result, first_use);
        result
    }
}

impl<R: Registry> std::fmt::Debug for Shared<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shared")
            .field("active", &self.session().active_names().collect::<Vec<_>>())
            .field("listing", &self.listing)
            .finish_non_exhaustive()
    }
}
