//! A connection's lifecycle rules: the toolkit's rules applied around each call of the
//! connection's own active set.

use toolgroup_core::registry::GroupId;
use toolgroup_core::{CallResult, Registry, Session, Toolkit};

use super::{Handler, Place};

impl<R: Registry> Handler<R> {
    /// Keep what a call changed (`before` -> `after`) in the connection's active set. Under
    /// lifecycle rules, calls that ran beside this one may have switched groups off in the
    /// meantime: the groups this call left alone keep the current state, so no other call's
    /// change is lost.
    pub(super) fn set_local_session(&self, before: &Session<R>, after: Session<R>) {
        let mut local = self.local.lock().unwrap_or_else(|e| e.into_inner());
        let current = *local.session();
        let mut merged = after;
        for &group in R::Group::ALL {
            if before.is_active(group) == after.is_active(group) {
                merged.set_active(group, current.is_active(group));
            }
        }
        *local.session_mut() = merged;
    }

    /// Under the toolkit's lifecycle rules, before a call of the connection: switch off the
    /// groups idle for the rules' duration. Whether the active set changed (for
    /// `list_changed`).
    pub(super) fn lifecycle_before(&self, place: &Place<R>, toolkit: &Toolkit<R>) -> bool {
        if !matches!(place, Place::Local) || toolkit.lifecycle().is_none() {
            return false;
        }
        let mut local = self.local.lock().unwrap_or_else(|e| e.into_inner());
        let ahead = *local.session();
        toolkit.lifecycle_before_call(&mut local);
        *local.session() != ahead
    }

    /// Under the toolkit's lifecycle rules, after a call of the connection that started from
    /// `before`: the call is a use, the rules switch groups off, and `result` tells the model
    /// (how to get a group back follows this server's first-use choice). Whether the active
    /// set changed (for `list_changed`).
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
        let first_use = self.first_use();
        let mut local = self.local.lock().unwrap_or_else(|e| e.into_inner());
        let ahead = *local.session();
        toolkit.lifecycle_after_call(&mut local, before, name, result, first_use);
        *local.session() != ahead
    }
}
