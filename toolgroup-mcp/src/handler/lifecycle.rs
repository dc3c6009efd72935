//! A connection's lifecycle rules: the toolkit's rules applied around each call of the
//! connection's own active set.

use toolgroup_core::{CallResult, Registry, Session, Toolkit};

use super::{Handler, Place};

impl<R: Registry> Handler<R> {
    /// Replace the connection's active set (its lifecycle state follows at the next call).
    pub(super) fn set_local_session(&self, session: Session<R>) {
        *self
            .local
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .session_mut() = session;
    }

    /// Under the toolkit's lifecycle rules, before a call of the connection: switch off the
    /// groups idle for the rules' duration.
    pub(super) fn lifecycle_before(&self, place: &Place<R>, toolkit: &Toolkit<R>) {
        if matches!(place, Place::Local) && toolkit.lifecycle().is_some() {
            let mut local = self.local.lock().unwrap_or_else(|e| e.into_inner());
            toolkit.lifecycle_before_call(&mut local);
        }
    }

    /// Under the toolkit's lifecycle rules, after a call of the connection that started from
    /// `before`: the call is a use, the rules switch groups off, and `result` tells the model.
    /// Whether the active set changed (for `list_changed`).
    pub(super) fn lifecycle_after(
        &self,
        place: &Place<R>,
        toolkit: &Toolkit<R>,
        before: &Session<R>,
        name: &str,
        result: &mut CallResult,
    ) -> bool {
        if !matches!(place, Place::Local) || toolkit.lifecycle().is_none() {
            return false;
        }
        let mut local = self.local.lock().unwrap_or_else(|e| e.into_inner());
        let ahead = *local.session();
        toolkit.lifecycle_after_call(&mut local, before, name, result);
        *local.session() != ahead
    }
}
