//! Per-conversation activation state.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;

use serde::de::{Deserialize, Deserializer, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeSeq, Serializer};

use crate::registry::{GroupId, Registry, UnknownGroup, bit, set_bit};

/// Which switchable groups are active in one conversation.
///
/// A session is a small `Copy` bit set, separate from the toolkit: one `Toolkit` (shared behind
/// an `Arc`) serves any number of sessions. A new session has no switchable group active; the
/// basic group is always active. It serialises as the list of active group names.
///
/// A session is its active groups: equality, hashing, `Debug` and serialisation see only them,
/// so `from_value(to_value(s)) == s`. Beside them it remembers which skills it loaded (so a
/// second `Skill` call of the same skill answers briefly, and
/// [`Toolkit::is_skill_loaded`](crate::Toolkit::is_skill_loaded) can tell); those marks live in
/// memory only: a restored session has loaded no skill, and loading one again gives its
/// instructions again.
pub struct Session<R: Registry> {
    bits: R::Bits,
    _registry: PhantomData<fn() -> R>,
}

impl<R: Registry> Session<R> {
    /// A session with no switchable group active.
    pub const fn new() -> Self {
        Session {
            bits: R::EMPTY,
            _registry: PhantomData,
        }
    }

    /// A session with exactly the groups of `reset` active.
    pub fn with_active(reset: R::Reset) -> Self {
        Session {
            bits: R::reset_to_bits(&reset),
            _registry: PhantomData,
        }
    }

    /// Whether `group` is active.
    pub fn is_active(&self, group: R::Group) -> bool {
        bit(self.bits.as_ref(), group.slot())
    }

    /// Switch `group` on or off.
    pub fn set_active(&mut self, group: R::Group, on: bool) {
        set_bit(self.bits.as_mut(), group.slot(), on);
    }

    /// Keep what a call changed: the groups that `before` (the session the call started
    /// from) and `after` (as it left it) differ on take `after`'s state; the others keep this
    /// session's. For calls that run at once on copies of one session: each call's switches
    /// survive the others', whatever order they finish in.
    pub fn apply_change(&mut self, before: &Session<R>, after: &Session<R>) {
        for &group in R::Group::ALL {
            if before.is_active(group) != after.is_active(group) {
                self.set_active(group, after.is_active(group));
            }
        }
    }

    /// Switch `group` on.
    pub fn activate(&mut self, group: R::Group) {
        self.set_active(group, true);
    }

    /// Switch `group` off.
    pub fn deactivate(&mut self, group: R::Group) {
        self.set_active(group, false);
    }

    /// Switch every group on.
    pub fn activate_all(&mut self) {
        for &group in R::Group::ALL {
            self.activate(group);
        }
    }

    /// Switch every group off (which skills the session loaded is kept).
    pub fn deactivate_all(&mut self) {
        self.set_groups(R::EMPTY);
    }

    /// A session with every switchable group active.
    pub fn all() -> Self {
        let mut session = Self::new();
        session.activate_all();
        session
    }

    /// Replace the active set with `reset` (the typed `reset_tools` value); which skills the
    /// session loaded is kept, as a `reset_tools` call keeps it.
    pub fn reset(&mut self, reset: R::Reset) {
        self.set_groups(R::reset_to_bits(&reset));
    }

    /// Take the state a call left (`reset_tools`, a skill load): the one way a new state
    /// reaches a session.
    #[inline]
    pub(crate) fn apply(&mut self, state: R::Bits) {
        self.bits = state;
    }

    /// The bits of the groups alone, the skills' loaded marks cleared.
    fn group_bits(&self) -> R::Bits {
        let mut only = Self::new();
        only.set_groups(self.bits);
        only.bits
    }

    /// The group bits of `groups`, the bits after them (skills' loaded marks) unchanged.
    fn set_groups(&mut self, groups: R::Bits) {
        let switch = R::SWITCHABLE.len();
        for (w, (word, new)) in self
            .bits
            .as_mut()
            .iter_mut()
            .zip(groups.as_ref())
            .enumerate()
        {
            let first = w * 64;
            let mask = if first + 64 <= switch {
                u64::MAX
            } else if first >= switch {
                0
            } else {
                (1u64 << (switch - first)) - 1
            };
            *word = (*word & !mask) | (new & mask);
        }
    }

    /// The active set as the typed reset value.
    pub fn snapshot(&self) -> R::Reset {
        R::bits_to_reset(&self.bits)
    }

    /// The active switchable groups, in declaration order.
    pub fn active(&self) -> impl Iterator<Item = R::Group> + '_ {
        R::Group::ALL.iter().copied().filter(|g| self.is_active(*g))
    }

    /// The names of the active switchable groups, in declaration order.
    pub fn active_names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.active().map(GroupId::name)
    }

    pub(crate) fn slot_active(&self, slot: usize) -> bool {
        bit(self.bits.as_ref(), slot)
    }

    pub(crate) fn bits(&self) -> &R::Bits {
        &self.bits
    }

    pub(crate) fn from_bits(bits: R::Bits) -> Self {
        Session {
            bits,
            _registry: PhantomData,
        }
    }

    /// Restore a session from group names (as saved by serialising one).
    ///
    /// Fails, naming every unknown name, if a name is not a switchable group of this toolkit
    /// (for example, after a group was renamed); use [`restore_lenient`](Self::restore_lenient)
    /// to drop unknown names instead. For a comma-separated list (a command-line flag), parse
    /// it: `"web_search, files".parse::<Session<_>>()`.
    pub fn restore<'n>(names: impl IntoIterator<Item = &'n str>) -> Result<Self, UnknownGroup> {
        let (session, unknown) = Self::restore_lenient(names);
        if unknown.is_empty() {
            Ok(session)
        } else {
            Err(UnknownGroup {
                unknown,
                known: R::Group::ALL.iter().map(|g| g.name()).collect(),
            })
        }
    }

    /// Restore a session from group names, dropping unknown ones and returning them.
    pub fn restore_lenient<'n>(names: impl IntoIterator<Item = &'n str>) -> (Self, Vec<String>) {
        let mut session = Self::new();
        let mut unknown = Vec::new();
        for name in names {
            match R::Group::ALL.iter().find(|g| g.name() == name) {
                Some(g) => session.activate(*g),
                None => unknown.push(name.to_owned()),
            }
        }
        (session, unknown)
    }
}

impl<R: Registry> Default for Session<R> {
    fn default() -> Self {
        Self::new()
    }
}

impl<R: Registry> Clone for Session<R> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<R: Registry> Copy for Session<R> {}

/// Compares the active groups (not which skills were loaded: see the type's docs).
impl<R: Registry> PartialEq for Session<R> {
    fn eq(&self, other: &Self) -> bool {
        self.group_bits() == other.group_bits()
    }
}

impl<R: Registry> Eq for Session<R> {}

impl<R: Registry> Hash for Session<R> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.group_bits().hash(state);
    }
}

impl<R: Registry> fmt::Debug for Session<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.active_names()).finish()
    }
}

impl<R: Registry> Serialize for Session<R> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(None)?;
        for name in self.active_names() {
            seq.serialize_element(name)?;
        }
        seq.end()
    }
}

/// Strict: an unknown group name is an error (use [`Session::restore_lenient`] to drop them).
impl<'de, R: Registry> Deserialize<'de> for Session<R> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V<R>(PhantomData<fn() -> R>);
        impl<'de, R: Registry> Visitor<'de> for V<R> {
            type Value = Session<R>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a list of group names")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut names: Vec<std::borrow::Cow<'de, str>> = Vec::new();
                while let Some(n) = seq.next_element()? {
                    names.push(n);
                }
                Session::restore(names.iter().map(|n| n.as_ref())).map_err(serde::de::Error::custom)
            }
        }
        deserializer.deserialize_seq(V(PhantomData))
    }
}

/// A comma-separated list of group names (`"web_search, files"`), each trimmed, empty items
/// skipped: what a command-line flag or a URL gives. Every unknown name is refused at once.
impl<R: Registry> std::str::FromStr for Session<R> {
    type Err = UnknownGroup;

    fn from_str(list: &str) -> Result<Self, UnknownGroup> {
        Self::restore(
            list.split(',')
                .map(str::trim)
                .filter(|name| !name.is_empty()),
        )
    }
}
