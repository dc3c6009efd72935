//! One conversation's lifecycle state: its session and, beside it, when each active group was
//! last used and what the model has not been told yet.

use std::fmt;

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};

use super::Lifecycle;
use super::notice::{Deactivation, Reason};
use crate::registry::{GroupId, Registry, UnknownGroup};
use crate::session::Session;

/// When an active group was last used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Use {
    /// The group's switchable slot.
    slot: usize,
    /// The session's use counter at the use: orders uses within a turn.
    order: u64,
    /// The turn of the use (turns ended before it).
    turn: u64,
    /// The tool call of the use (tool calls before it).
    request: u64,
    /// The wall clock of the use, in milliseconds since the Unix epoch (0 unless a rule
    /// reads the clock).
    at_ms: u64,
}

/// A moment of the conversation: what a use is stamped with.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Now {
    /// Milliseconds since the Unix epoch (0 unless a rule reads the clock).
    pub(crate) at_ms: u64,
}

/// A [`Session`] and the state the [lifecycle](super) rules keep beside it: when each active
/// group was last used, the turns that ended, and the groups switched off that the model has
/// not been told about yet.
///
/// Make one with [`Toolkit::managed_session`](crate::Toolkit::managed_session) and call
/// through it ([`Toolkit::call_managed`](crate::Toolkit::call_managed),
/// [`Toolkit::call_batch_managed`](crate::Toolkit::call_batch_managed),
/// [`Toolkit::end_turn`](crate::Toolkit::end_turn)). A toolkit without rules needs none: a
/// [`Session`] is its whole state.
///
/// It serialises as `{"active": [...], "turn", "order", "requests", "uses": [{"group",
/// "order", "turn", "request", "at_ms"}], "pending": [{"group", "reason", ...}]}`; a plain
/// session's list of names deserialises too (every active group then counts as just used).
/// Deserialising is strict (an unknown group is an error, as for [`Session`]);
/// [`restore_lenient`](Self::restore_lenient) drops unknown groups instead. A state restored
/// under a toolkit with other rules is brought under them at its next call or turn end, and
/// the model is told of what they switch off.
pub struct ManagedSession<R: Registry> {
    session: Session<R>,
    /// Turns ended.
    turn: u64,
    /// Uses counted (orders the uses).
    order: u64,
    /// Tool calls counted.
    requests: u64,
    /// One per active switchable group (at most), in no particular order.
    uses: Vec<Use>,
    /// Switched off by a rule, not told yet.
    pending: Vec<Deactivation>,
}

impl<R: Registry> ManagedSession<R> {
    /// A conversation with `session`'s groups active, each counted as just used.
    pub fn new(session: Session<R>) -> Self {
        let mut managed = ManagedSession {
            session,
            turn: 0,
            order: 0,
            requests: 0,
            uses: Vec::new(),
            pending: Vec::new(),
        };
        managed.reconcile(Now::default());
        managed
    }

    /// The active groups.
    pub fn session(&self) -> &Session<R> {
        &self.session
    }

    /// The active groups, to switch them as the application decides. A group switched on
    /// here counts as used at the next call or turn end, and the rules apply then.
    pub fn session_mut(&mut self) -> &mut Session<R> {
        &mut self.session
    }

    /// The turns ended so far.
    pub fn turns(&self) -> u64 {
        self.turn
    }

    /// The groups switched off by a rule that the next result will tell the model about.
    pub fn pending(&self) -> &[Deactivation] {
        &self.pending
    }

    /// The active groups from the least to the most recently used.
    pub fn by_recency(&self) -> Vec<R::Group> {
        let mut uses = self.uses.clone();
        uses.sort_by_key(|u| u.order);
        uses.iter().map(|u| R::Group::ALL[u.slot]).collect()
    }

    pub(crate) fn session_ref_mut(&mut self) -> &mut Session<R> {
        &mut self.session
    }

    /// Stamp every active group without a use (switched on by the application, or restored)
    /// as used now, and forget the uses of inactive groups and the untold deactivations of
    /// groups active again.
    fn reconcile(&mut self, now: Now) {
        let session = self.session;
        self.uses.retain(|u| session.slot_active(u.slot));
        self.pending.retain(|d| !is_active_named(&session, d.group));
        for group in session.active() {
            let slot = group.slot();
            if !self.uses.iter().any(|u| u.slot == slot) {
                let stamp = self.stamp(slot, now);
                self.uses.push(stamp);
            }
        }
    }

    fn stamp(&mut self, slot: usize, now: Now) -> Use {
        self.order = self.order.saturating_add(1);
        Use {
            slot,
            order: self.order,
            turn: self.turn,
            request: self.requests,
            at_ms: now.at_ms,
        }
    }

    /// Record a use of `slot`.
    fn touch(&mut self, slot: usize, now: Now) {
        let stamp = self.stamp(slot, now);
        match self.uses.iter_mut().find(|u| u.slot == slot) {
            Some(u) => *u = stamp,
            None => self.uses.push(stamp),
        }
    }

    fn switch_off(&mut self, slot: usize) {
        self.session.set_active(R::Group::ALL[slot], false);
        self.uses.retain(|u| u.slot != slot);
    }

    /// After a call: `before` is the session the call started from, `used` the switchable
    /// slot of the group the call reached (if any). Returns the groups the cap switched off, to tell with this call's
    /// result.
    pub(crate) fn after_call(
        &mut self,
        policy: &Lifecycle<R>,
        before: &Session<R>,
        used: Option<usize>,
        now: Now,
    ) -> Vec<Deactivation> {
        self.requests = self.requests.saturating_add(1);
        self.reconcile(now);
        // Groups the call switched on (reset_tools, a skill) are used by it.
        let session = self.session;
        for group in session.active() {
            if !before.is_active(group) {
                self.touch(group.slot(), now);
            }
        }
        // A call of a batch may have used a group that an earlier call's settling switched
        // off: the group stays off, and the use is not recorded.
        let used = used.filter(|&slot| self.session.slot_active(slot));
        if let Some(slot) = used {
            self.touch(slot, now);
        }
        let evicted = self.enforce_cap(policy, used);
        // Groups no call used for the rule's count: the next result tells them.
        if let Some(n) = policy.idle_requests {
            let off: Vec<(usize, Reason)> = self
                .uses
                .iter()
                .filter(|u| !policy.pinned.slot_active(u.slot))
                .filter(|u| self.requests.saturating_sub(u.request) >= u64::from(n))
                .map(|u| (u.slot, Reason::IdleRequests { requests: n }))
                .collect();
            self.switch_all_off(off);
        }
        evicted
    }

    /// Switch off the least recently used groups (not pinned, not `keep`) while more than the
    /// cap are active.
    pub(crate) fn enforce_cap(
        &mut self,
        policy: &Lifecycle<R>,
        keep: Option<usize>,
    ) -> Vec<Deactivation> {
        let mut out = Vec::new();
        let Some(max) = policy.max_active else {
            return out;
        };
        while self.session.active().count() > max {
            let victim = self
                .uses
                .iter()
                .filter(|u| Some(u.slot) != keep && !policy.pinned.slot_active(u.slot))
                .min_by_key(|u| u.order)
                .map(|u| u.slot);
            let Some(slot) = victim else { break };
            self.switch_off(slot);
            out.push(Deactivation {
                group: R::Group::ALL[slot].name(),
                reason: Reason::MaxActive { max_active: max },
            });
        }
        out
    }

    /// End a turn: switch off the turn-scoped groups and those idle for the rule's turns.
    /// The model is told with the next result.
    pub(crate) fn end_turn(&mut self, policy: &Lifecycle<R>) -> Vec<Deactivation> {
        self.reconcile(Now::default());
        self.turn = self.turn.saturating_add(1);
        let mut off = Vec::new();
        for u in &self.uses {
            if policy.pinned.slot_active(u.slot) {
                continue;
            }
            let reason = if policy.turn_scoped.slot_active(u.slot) {
                Reason::TurnEnded
            } else if let Some(turns) = policy.idle_turns
                && self.turn.saturating_sub(u.turn.saturating_add(1)) >= u64::from(turns)
            {
                Reason::IdleTurns { turns }
            } else {
                continue;
            };
            off.push((u.slot, reason));
        }
        self.switch_all_off(off)
    }

    /// Before a call: switch off the groups unused for the rule's duration (the wall
    /// clock). A clock that went back counts as no time passed.
    pub(crate) fn expire(&mut self, policy: &Lifecycle<R>, now: Now) -> Vec<Deactivation> {
        let Some(d) = policy.idle_for else {
            return Vec::new();
        };
        self.reconcile(now);
        // A use stamped without the clock (a new or restored session, a turn's end) or from
        // the future (a clock that went back, a forged state) counts from now.
        for u in &mut self.uses {
            if u.at_ms == 0 || u.at_ms > now.at_ms {
                u.at_ms = now.at_ms;
            }
        }
        let seconds = d.as_secs() + u64::from(d.subsec_nanos() > 0);
        let off: Vec<(usize, Reason)> = self
            .uses
            .iter()
            .filter(|u| !policy.pinned.slot_active(u.slot))
            .filter(|u| u128::from(now.at_ms.saturating_sub(u.at_ms)) >= d.as_millis())
            .map(|u| (u.slot, Reason::IdleFor { seconds }))
            .collect();
        self.switch_all_off(off)
    }

    fn switch_all_off(&mut self, mut off: Vec<(usize, Reason)>) -> Vec<Deactivation> {
        off.sort_by_key(|(slot, _)| *slot);
        let told: Vec<Deactivation> = off
            .into_iter()
            .map(|(slot, reason)| {
                self.switch_off(slot);
                Deactivation {
                    group: R::Group::ALL[slot].name(),
                    reason,
                }
            })
            .collect();
        self.pending.extend(told.iter().cloned());
        told
    }

    /// Tell `deactivation` with the next result after all (nothing carried it).
    pub(crate) fn requeue(&mut self, deactivation: Deactivation) {
        self.pending.push(deactivation);
    }

    /// The untold deactivations, for the next result.
    pub(crate) fn take_pending(&mut self) -> Vec<Deactivation> {
        std::mem::take(&mut self.pending)
    }

    /// Restore from a serialised state, dropping unknown group names and returning them.
    ///
    /// # Errors
    ///
    /// A message for a value of the wrong shape (not a list of names, not the object
    /// [`ManagedSession`] serialises as).
    pub fn restore_lenient(
        value: &serde_json::Value,
    ) -> Result<(Self, Vec<String>), serde_json::Error> {
        let repr: Repr = serde_json::from_value(value.clone())?;
        Ok(repr.into_state())
    }
}

impl<R: Registry> Default for ManagedSession<R> {
    fn default() -> Self {
        Self::new(Session::new())
    }
}

impl<R: Registry> Clone for ManagedSession<R> {
    fn clone(&self) -> Self {
        ManagedSession {
            session: self.session,
            turn: self.turn,
            order: self.order,
            requests: self.requests,
            uses: self.uses.clone(),
            pending: self.pending.clone(),
        }
    }
}

/// Two states are equal when every rule would treat them alike.
impl<R: Registry> PartialEq for ManagedSession<R> {
    fn eq(&self, other: &Self) -> bool {
        let sorted = |uses: &[Use]| {
            let mut v = uses.to_vec();
            v.sort_by_key(|u| u.slot);
            v
        };
        self.session == other.session
            && self.turn == other.turn
            && self.order == other.order
            && self.requests == other.requests
            && sorted(&self.uses) == sorted(&other.uses)
            && self.pending == other.pending
    }
}

impl<R: Registry> fmt::Debug for ManagedSession<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ManagedSession")
            .field("active", &self.session)
            .field("turn", &self.turn)
            .field(
                "by_recency",
                &self
                    .by_recency()
                    .iter()
                    .map(|g| g.name())
                    .collect::<Vec<_>>(),
            )
            .field("pending", &self.pending)
            .finish()
    }
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct UseRepr {
    group: String,
    order: u64,
    turn: u64,
    #[serde(default)]
    request: u64,
    #[serde(default)]
    at_ms: u64,
}

/// Not `deny_unknown_fields`: serde cannot combine it with `flatten`; the reason's own tag
/// and fields are checked by `Reason`.
#[derive(Serialize, Deserialize)]
struct PendingRepr {
    group: String,
    #[serde(flatten)]
    reason: Reason,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Fields {
    active: Vec<String>,
    #[serde(default)]
    turn: u64,
    #[serde(default)]
    order: u64,
    #[serde(default)]
    requests: u64,
    #[serde(default)]
    uses: Vec<UseRepr>,
    #[serde(default)]
    pending: Vec<PendingRepr>,
}

/// What a serialised state holds: a plain session's names, or the whole state.
enum Repr {
    Names(Vec<String>),
    Full(Fields),
}

impl<'de> Deserialize<'de> for Repr {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Repr;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a list of group names, or an object with `active` and `uses`")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Repr, A::Error> {
                Vec::<String>::deserialize(de::value::SeqAccessDeserializer::new(seq))
                    .map(Repr::Names)
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Repr, A::Error> {
                Fields::deserialize(de::value::MapAccessDeserializer::new(map)).map(Repr::Full)
            }
        }
        deserializer.deserialize_any(V)
    }
}

/// The switchable slot of the group named `name`.
pub(crate) fn slot_of<R: Registry>(name: &str) -> Option<usize> {
    R::Group::ALL
        .iter()
        .find(|g| g.name() == name)
        .map(|g| g.slot())
}

/// Whether the group named `name` is active in `session`.
pub(crate) fn is_active_named<R: Registry>(session: &Session<R>, name: &str) -> bool {
    slot_of::<R>(name).is_some_and(|slot| session.slot_active(slot))
}

/// The switchable slot of the group a call of `resolved` reached: its tool's group, active
/// before the call or after it (the call activated it). `None` for the builtins, basic
/// tools, unknown names and a refused call of an inactive group.
pub(crate) fn used_slot<R: Registry>(
    resolved: Option<&crate::toolkit::Resolved>,
    before: &Session<R>,
    after: &Session<R>,
) -> Option<usize> {
    let slot = slot_of::<R>(resolved?.group()?.name)?;
    (before.slot_active(slot) || after.slot_active(slot)).then_some(slot)
}

impl Repr {
    /// The state, and the unknown names (dropped).
    fn into_state<R: Registry>(self) -> (ManagedSession<R>, Vec<String>) {
        let fields = match self {
            Repr::Names(active) => Fields {
                active,
                turn: 0,
                order: 0,
                requests: 0,
                uses: Vec::new(),
                pending: Vec::new(),
            },
            Repr::Full(fields) => fields,
        };
        let mut unknown = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut known = |name: &str| {
            let slot = slot_of::<R>(name);
            if slot.is_none() && seen.insert(name.to_owned()) {
                unknown.push(name.to_owned());
            }
            slot
        };
        let mut state = ManagedSession {
            session: Session::<R>::new(),
            turn: fields.turn,
            order: fields.order,
            requests: fields.requests,
            uses: Vec::new(),
            pending: Vec::new(),
        };
        for name in &fields.active {
            if let Some(slot) = known(name) {
                state.session.set_active(R::Group::ALL[slot], true);
            }
        }
        for u in &fields.uses {
            if let Some(slot) = known(&u.group)
                && !state.uses.iter().any(|x| x.slot == slot)
            {
                // A forged stamp from the future counts as now.
                state.uses.push(Use {
                    slot,
                    order: u.order.min(fields.order),
                    turn: u.turn.min(fields.turn),
                    request: u.request.min(fields.requests),
                    at_ms: u.at_ms,
                });
            }
        }
        for p in &fields.pending {
            if let Some(slot) = known(&p.group)
                && !state
                    .pending
                    .iter()
                    .any(|d| d.group == R::Group::ALL[slot].name())
            {
                state.pending.push(Deactivation {
                    group: R::Group::ALL[slot].name(),
                    reason: p.reason,
                });
            }
        }
        state.reconcile(Now::default());
        (state, unknown)
    }
}

impl<R: Registry> Serialize for ManagedSession<R> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut uses = self.uses.clone();
        uses.sort_by_key(|u| u.order);
        Fields {
            active: self.session.active_names().map(str::to_owned).collect(),
            turn: self.turn,
            order: self.order,
            requests: self.requests,
            uses: uses
                .iter()
                .map(|u| UseRepr {
                    group: R::Group::ALL[u.slot].name().to_owned(),
                    order: u.order,
                    turn: u.turn,
                    request: u.request,
                    at_ms: u.at_ms,
                })
                .collect(),
            pending: self
                .pending
                .iter()
                .map(|d| PendingRepr {
                    group: d.group.to_owned(),
                    reason: d.reason,
                })
                .collect(),
        }
        .serialize(serializer)
    }
}

/// Strict: an unknown group name is an error (use [`ManagedSession::restore_lenient`] to drop
/// them).
impl<'de, R: Registry> Deserialize<'de> for ManagedSession<R> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let repr = Repr::deserialize(deserializer)?;
        let (state, unknown) = repr.into_state::<R>();
        if unknown.is_empty() {
            Ok(state)
        } else {
            Err(de::Error::custom(UnknownGroup {
                unknown,
                known: R::Group::ALL.iter().map(|g| g.name()).collect(),
            }))
        }
    }
}
