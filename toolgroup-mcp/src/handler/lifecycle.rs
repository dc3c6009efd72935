//! The lifecycle rules over MCP: applied around each call of a connection's own active set,
//! and of a stateless client's state in the server's store (read, changed and saved back
//! under the store's revision check, so that replicas sharing the store lose no change).

use std::time::Duration;

use toolgroup_core::lifecycle::ManagedSession;
use toolgroup_core::{CallResult, Registry, Session, Toolkit};

use super::{Handler, Place};
use crate::StoreError;

/// How many times a stateless call reads the state again after another replica's save came
/// first. Each round, one of the contending saves succeeds, so this many replicas serving one
/// client at the same moment all get through.
const SAVE_ATTEMPTS: u32 = 16;

/// What the rules did before a call.
pub(super) struct Ahead<R: Registry> {
    /// Whether they switched groups off (for `list_changed`).
    pub(super) changed: bool,
    /// A stateless client's active set as the rules left it (already read from the store).
    pub(super) session: Option<Session<R>>,
}

impl<R: Registry> Default for Ahead<R> {
    fn default() -> Self {
        Ahead {
            changed: false,
            session: None,
        }
    }
}

impl<R: Registry> Handler<R> {
    /// Keep what a call changed (`before` -> `after`) in the connection's active set. Under
    /// lifecycle rules, calls that ran beside this one may have switched groups off in the
    /// meantime: the groups this call left alone keep the current state, so no other call's
    /// change is lost.
    pub(super) fn set_local_session(&self, before: &Session<R>, after: Session<R>) {
        let mut local = self.local();
        local.session_mut().apply_change(before, &after);
    }

    /// Whether stateless clients' states in the store are under the rules: the server's
    /// toolkit has some (a principal's toolkit keeps them).
    pub(super) fn keyed_rules(&self) -> bool {
        self.toolkit().lifecycle().is_some()
    }

    /// The lifecycle state saved under `key` and its revision; a key saved before the rules
    /// were on (a list of names) starts a state from its names. Unknown groups are dropped.
    pub(super) async fn load_managed(
        &self,
        key: &str,
    ) -> Result<(ManagedSession<R>, u64), StoreError> {
        let Some(stored) = self.shared.store.load_state(key).await? else {
            let names = self.shared.store.load(key).await?.unwrap_or_default();
            let (session, dropped) =
                Session::<R>::restore_lenient(names.iter().map(String::as_str));
            warn_dropped(&dropped);
            return Ok((ManagedSession::new(session), 0));
        };
        let value: serde_json::Value = serde_json::from_str(&stored.state)
            .map_err(|e| StoreError::with_source("the saved lifecycle state is not JSON", e))?;
        let (managed, dropped) = ManagedSession::<R>::restore_lenient(&value).map_err(|e| {
            StoreError::with_source(
                "the saved lifecycle state is not a state this server wrote",
                e,
            )
        })?;
        warn_dropped(&dropped);
        Ok((managed, stored.revision))
    }

    /// Apply `change` to the state under `key` and save it if it changed, reading it again
    /// (and applying `change` to what another replica saved) while another save comes first.
    /// The state as saved, and whether its active set changed. Calls of one key in this
    /// process wait for each other (`gated`: the caller holds the key's gate already); only
    /// replicas contend.
    async fn update_managed(
        &self,
        key: &str,
        gated: bool,
        mut change: impl FnMut(&mut ManagedSession<R>),
    ) -> Result<(ManagedSession<R>, bool), StoreError> {
        let _gate = match gated {
            true => None,
            false => Some(self.shared.key_gates.lock(key).await),
        };
        for attempt in 0..SAVE_ATTEMPTS {
            let (mut managed, revision) = self.load_managed(key).await?;
            let ahead = managed.clone();
            change(&mut managed);
            if managed == ahead {
                return Ok((managed, false));
            }
            let text = serde_json::to_string(&managed).map_err(|e| {
                StoreError::with_source("the lifecycle state could not be written", e)
            })?;
            if self.shared.store.save_state(key, text, revision).await? {
                let changed = managed.session() != ahead.session();
                return Ok((managed, changed));
            }
            // Another replica saved first: read its state and apply this call to it. A short,
            // growing pause keeps two replicas from colliding round after round.
            tokio::time::sleep(Duration::from_micros(100 << attempt.min(6))).await;
        }
        Err(StoreError::new(format!(
            "other calls for this client kept changing its lifecycle state ({SAVE_ATTEMPTS} attempts)"
        )))
    }

    /// Under the toolkit's lifecycle rules, before a call: switch off the groups idle for the
    /// rules' duration, in the connection's set or the client's state in the store.
    pub(super) async fn lifecycle_before(
        &self,
        place: &Place<R>,
        toolkit: &Toolkit<R>,
    ) -> Result<Ahead<R>, StoreError> {
        let mut ahead = Ahead::default();
        if toolkit.lifecycle().is_none() {
            return Ok(ahead);
        }
        match place {
            Place::Local => {
                let mut local = self.local();
                let before = *local.session();
                toolkit.lifecycle_before_call(&mut local);
                ahead.changed = *local.session() != before;
            }
            Place::Keyed(key) if self.keyed_rules() => {
                let (managed, changed) = self
                    .update_managed(key, false, |m| toolkit.lifecycle_before_call(m))
                    .await?;
                ahead = Ahead {
                    changed,
                    session: Some(*managed.session()),
                };
            }
            _ => {}
        }
        Ok(ahead)
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
        let mut local = self.local();
        let ahead = *local.session();
        toolkit.lifecycle_after_call(&mut local, before, name, result, first_use);
        *local.session() != ahead
    }

    /// Under the toolkit's lifecycle rules, after a stateless client's call under `key` that
    /// took its active set from `before` to `after`: the call's change and its use go into the
    /// state in the store, the rules switch groups off, and `result` tells the model of every
    /// switch-off not told yet. Whether the saved active set changed. `gated`: the caller
    /// holds the key's gate.
    #[allow(clippy::too_many_arguments)]
    pub(super) async fn keyed_after(
        &self,
        key: &str,
        gated: bool,
        toolkit: &Toolkit<R>,
        before: &Session<R>,
        after: &Session<R>,
        name: &str,
        result: &mut CallResult,
    ) -> Result<bool, StoreError> {
        let first_use = self.first_use();
        let pristine = result.clone();
        let mut told = None;
        let (_, changed) = self
            .update_managed(key, gated, |managed| {
                managed.session_mut().apply_change(before, after);
                let mut r = pristine.clone();
                toolkit.lifecycle_after_call(managed, before, name, &mut r, first_use);
                told = Some(r);
            })
            .await?;
        if let Some(r) = told {
            *result = r;
        }
        Ok(changed || after != before)
    }
}

impl<R: Registry> Handler<R> {
    /// Under the toolkit's lifecycle rules, when a call of `name` was started as a task (its
    /// result comes later, through `tasks/result`, where nothing can be told): the call, which
    /// took the active set from `before` to `after` (a first use's activation), is a use and
    /// the rules apply; what they switch off is told with the client's next result. `gated`:
    /// the caller holds the key's gate. Whether the active set changed.
    pub(super) async fn lifecycle_task(
        &self,
        place: &Place<R>,
        toolkit: &Toolkit<R>,
        before: &Session<R>,
        after: &Session<R>,
        name: &str,
    ) -> Result<bool, StoreError> {
        if toolkit.lifecycle().is_none() {
            return Ok(false);
        }
        match place {
            Place::Local => {
                let mut local = self.local();
                let ahead = *local.session();
                local.session_mut().apply_change(before, after);
                toolkit.lifecycle_task_started(&mut local, before, name);
                Ok(*local.session() != ahead)
            }
            Place::Keyed(key) if self.keyed_rules() => {
                let (_, changed) = self
                    .update_managed(key, false, |managed| {
                        managed.session_mut().apply_change(before, after);
                        toolkit.lifecycle_task_started(managed, before, name);
                    })
                    .await?;
                Ok(changed)
            }
            _ => Ok(false),
        }
    }
}

impl<R: Registry> Handler<R> {
    /// Keep under `key` what a stateless client's call changed (`before` -> `after`): under
    /// the toolkit's lifecycle rules, into its state with the call's use ([`keyed_after`],
    /// which tells `result` the switch-offs); otherwise its active groups, saved when they
    /// changed or when `save` asks (a `reset_tools` that succeeded). Whether they changed.
    ///
    /// [`keyed_after`]: Self::keyed_after
    #[allow(clippy::too_many_arguments)]
    pub(super) async fn keep_keyed(
        &self,
        key: &str,
        gated: bool,
        toolkit: &Toolkit<R>,
        before: &Session<R>,
        after: &Session<R>,
        name: &str,
        result: &mut CallResult,
        save: bool,
    ) -> Result<bool, StoreError> {
        if self.keyed_rules() {
            return self
                .keyed_after(key, gated, toolkit, before, after, name, result)
                .await;
        }
        let changed = after != before;
        if changed || save {
            let names = after.active_names().map(str::to_owned).collect();
            self.shared.store.save(key, names).await?;
        }
        Ok(changed)
    }
}

fn warn_dropped(dropped: &[String]) {
    if !dropped.is_empty() {
        tracing::warn!(
            ?dropped,
            "stored active groups name groups this toolkit does not have; ignored"
        );
    }
}
