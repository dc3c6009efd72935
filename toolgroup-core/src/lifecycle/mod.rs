//! Lifecycle policies: the active set stays small without the model managing it.
//!
//! With [first-use activation](crate::Toolkit::with_first_use_activation) groups switch on by
//! themselves, and nothing switches them off: a long conversation ends with every group it
//! ever touched active, and the model is shown all their tools on every turn. A [`Lifecycle`]
//! switches groups off again, each rule off by default:
//!
//! | rule | what it switches off | when |
//! |---|---|---|
//! | [`max_active`](Lifecycle::max_active) | the least recently used active group | a call makes more groups active than the cap |
//! | [`idle_turns`](Lifecycle::idle_turns) | a group not used for that many turns | at the end of a turn |
//! | [`turn_scoped`](Lifecycle::turn_scoped) (or `#[tool_group(turn_scoped)]`) | the group | at the end of the turn it was used in |
//! | [`idle_for`](Lifecycle::idle_for) | a group unused for that long (the wall clock) | before a call |
//! | [`idle_requests`](Lifecycle::idle_requests) | a group unused by that many tool calls | after a call |
//!
//! A [pinned](Lifecycle::pin) group (or a `#[pinned]` field of the `#[toolkit]`) is never
//! switched off by a rule; the model's `reset_tools` and the application still can.
//!
//! **A use** of a group is a call of one of its tools that reached it: the group was active,
//! or the call activated it (first use, a skill load, `reset_tools`, which counts as a use of
//! every group it switches on). A call refused because the group is inactive is no use.
//! **A turn** is what the application marks with
//! [`Toolkit::end_turn`](crate::Toolkit::end_turn): one model response and its tool calls.
//! The rig adapter and the scripted model of `toolgroup::testing` mark it for you.
//!
//! Every group a rule switches off is told to the model in the next result it reads: the
//! result of the call that evicted it (the cap), or the first result after the turn ended
//! (idle and turn-scoped groups), as a last text block, and as data in
//! [`CallResult::deactivations`](crate::CallResult::deactivations). The rules act on the calls
//! of a [`ManagedSession`]; a plain [`Session`] has no history and no rule
//! applies to it. The MCP server applies them to each connection's own active set (see
//! `toolgroup_mcp`), where every `tools/call` is a use and no turn exists.

pub(crate) mod notice;
pub(crate) mod state;

use std::fmt;
use std::time::Duration;

use crate::registry::{GroupId, Registry};
use crate::session::Session;

pub use notice::{Deactivation, Reason};
pub use state::ManagedSession;

/// The rules that keep a toolkit's active set small (see the [module docs](self)): give one
/// to [`Toolkit::with_lifecycle`](crate::Toolkit::with_lifecycle), which checks it.
///
/// ```
/// use toolgroup::prelude::*;
/// use toolgroup::lifecycle::Lifecycle;
/// # /// Search.
/// # #[tool] fn search(
/// #     /// Query.
/// #     q: String,
/// # ) -> String { q }
/// # /// Fetch.
/// # #[tool] fn fetch(
/// #     /// Url.
/// #     url: String,
/// # ) -> String { url }
/// # /// Note.
/// # #[tool] fn note(
/// #     /// Text.
/// #     text: String,
/// # ) -> String { text }
/// # #[tool_group(name = "web", description = "Web search.", tools = [search])] struct Web;
/// # #[tool_group(name = "pages", description = "Fetch pages.", tools = [fetch])] struct Pages;
/// # #[tool_group(name = "notes", description = "Notes.", tools = [note])] struct Notes;
/// #[toolkit]
/// struct Agent {
///     web: Web,
///     pages: Pages,
///     notes: Notes,
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let toolkit = Toolkit::new(Agent { web: Web, pages: Pages, notes: Notes })
///     .with_first_use_activation(true)
///     .with_lifecycle(Lifecycle::new().max_active(2).pin(AgentGroup::Notes))?;
/// let mut session = toolkit.managed_session();
///
/// toolkit.call_managed(&mut session, "note", r#"{"text": "start"}"#).await;
/// toolkit.call_managed(&mut session, "search", r#"{"q": "rust"}"#).await;
/// toolkit.end_turn(&mut session);
/// // A third group: the least recently used one that is not pinned makes room.
/// let result = toolkit.call_managed(&mut session, "fetch", r#"{"url": "a"}"#).await;
/// assert_eq!(result.deactivations()[0].group, "web");
/// assert!(result.text_joined().contains("`web`"));
/// assert!(session.session().is_active(AgentGroup::Notes));
/// assert!(!session.session().is_active(AgentGroup::Web));
/// # Ok(())
/// # }
/// ```
pub struct Lifecycle<R: Registry> {
    pub(crate) max_active: Option<usize>,
    pub(crate) idle_turns: Option<u32>,
    pub(crate) idle_for: Option<Duration>,
    pub(crate) idle_requests: Option<u32>,
    pub(crate) pinned: Session<R>,
    pub(crate) turn_scoped: Session<R>,
    /// The groups pinned and made turn-scoped by the builder (the attributes' facts are
    /// checked at compile time).
    pub(crate) both: Vec<&'static str>,
}

impl<R: Registry> Lifecycle<R> {
    /// No rule at all, not even the attributes' (for a toolkit that declares none).
    pub(crate) fn empty() -> Self {
        Lifecycle {
            max_active: None,
            idle_turns: None,
            idle_for: None,
            idle_requests: None,
            pinned: Session::new(),
            turn_scoped: Session::new(),
            both: Vec::new(),
        }
    }

    /// Whether the toolkit's attributes declare a pinned or turn-scoped group.
    pub(crate) fn declared() -> bool {
        R::SWITCHABLE
            .iter()
            .any(|&g| R::GROUPS[g].pinned || R::GROUPS[g].turn_scoped)
    }

    /// No rule but what the toolkit's attributes declare: its `#[pinned]` fields and its
    /// `#[tool_group(turn_scoped)]` groups (which a toolkit applies without
    /// [`Toolkit::with_lifecycle`](crate::Toolkit::with_lifecycle)).
    pub fn new() -> Self {
        let mut pinned = Session::new();
        let mut turn_scoped = Session::new();
        for &group in R::Group::ALL {
            let info = &R::GROUPS[R::SWITCHABLE[group.slot()]];
            pinned.set_active(group, info.pinned);
            turn_scoped.set_active(group, info.turn_scoped);
        }
        Lifecycle {
            max_active: None,
            idle_turns: None,
            idle_for: None,
            idle_requests: None,
            pinned,
            turn_scoped,
            both: Vec::new(),
        }
    }

    /// At most `max` switchable groups active at once, pinned ones included: a call that
    /// activates one more switches off the least recently used group that is not pinned and
    /// not the call's own. A `reset_tools` call asking for more than `max` is refused and
    /// changes nothing.
    #[must_use]
    pub fn max_active(mut self, max: usize) -> Self {
        self.max_active = Some(max);
        self
    }

    /// A group not used for `turns` turns is switched off when a turn ends.
    ///
    /// ```
    /// # use toolgroup::prelude::*;
    /// # use toolgroup::lifecycle::Lifecycle;
    /// # /// Search.
    /// # #[tool] fn search(
    /// #     /// Query.
    /// #     q: String,
    /// # ) -> String { q }
    /// # /// Fetch.
    /// # #[tool] fn fetch(
    /// #     /// Url.
    /// #     url: String,
    /// # ) -> String { url }
    /// # #[tool_group(name = "web", description = "Web search.", tools = [search])] struct Web;
    /// # #[tool_group(name = "pages", description = "Fetch pages.", tools = [fetch])] struct Pages;
    /// # #[toolkit] struct Agent { web: Web, pages: Pages }
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let toolkit = Toolkit::new(Agent { web: Web, pages: Pages })
    ///     .with_first_use_activation(true)
    ///     .with_lifecycle(Lifecycle::new().idle_turns(1))?;
    /// let mut session = toolkit.managed_session();
    /// toolkit.call_managed(&mut session, "search", r#"{"q": "a"}"#).await;
    /// toolkit.end_turn(&mut session); // web was used in this turn
    /// toolkit.call_managed(&mut session, "fetch", r#"{"url": "a"}"#).await;
    /// let off = toolkit.end_turn(&mut session); // a whole turn without web
    /// assert_eq!(off[0].group, "web");
    /// # Ok(())
    /// # }
    /// ```
    #[must_use]
    pub fn idle_turns(mut self, turns: u32) -> Self {
        self.idle_turns = Some(turns);
        self
    }

    /// A group not used for `duration` (the wall clock) is switched off before the next
    /// call. For where no turn is marked; a transcript's replay cannot reproduce it (it has
    /// no clock), so prefer [`idle_turns`](Self::idle_turns) where turns exist.
    ///
    /// ```
    /// # use toolgroup::prelude::*;
    /// # use toolgroup::lifecycle::Lifecycle;
    /// # /// Search.
    /// # #[tool] fn search(
    /// #     /// Query.
    /// #     q: String,
    /// # ) -> String { q }
    /// # /// Fetch.
    /// # #[tool] fn fetch(
    /// #     /// Url.
    /// #     url: String,
    /// # ) -> String { url }
    /// # #[tool_group(name = "web", description = "Web search.", tools = [search])] struct Web;
    /// # #[tool_group(name = "pages", description = "Fetch pages.", tools = [fetch])] struct Pages;
    /// # #[toolkit] struct Agent { web: Web, pages: Pages }
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// use std::time::Duration;
    /// let toolkit = Toolkit::new(Agent { web: Web, pages: Pages })
    ///     .with_first_use_activation(true)
    ///     .with_lifecycle(Lifecycle::new().idle_for(Duration::from_millis(20)))?;
    /// let mut session = toolkit.managed_session();
    /// toolkit.call_managed(&mut session, "search", r#"{"q": "a"}"#).await;
    /// std::thread::sleep(Duration::from_millis(40));
    /// let result = toolkit.call_managed(&mut session, "fetch", r#"{"url": "a"}"#).await;
    /// assert_eq!(result.deactivations()[0].group, "web");
    /// # Ok(())
    /// # }
    /// ```
    #[must_use]
    pub fn idle_for(mut self, duration: Duration) -> Self {
        self.idle_for = Some(duration);
        self
    }

    /// A group not used by the last `requests` tool calls is switched off after the call
    /// that makes it so (its result tells the model). For where no turn is marked.
    ///
    /// ```
    /// # use toolgroup::prelude::*;
    /// # use toolgroup::lifecycle::Lifecycle;
    /// # /// Search.
    /// # #[tool] fn search(
    /// #     /// Query.
    /// #     q: String,
    /// # ) -> String { q }
    /// # /// Fetch.
    /// # #[tool] fn fetch(
    /// #     /// Url.
    /// #     url: String,
    /// # ) -> String { url }
    /// # #[tool_group(name = "web", description = "Web search.", tools = [search])] struct Web;
    /// # #[tool_group(name = "pages", description = "Fetch pages.", tools = [fetch])] struct Pages;
    /// # #[toolkit] struct Agent { web: Web, pages: Pages }
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let toolkit = Toolkit::new(Agent { web: Web, pages: Pages })
    ///     .with_first_use_activation(true)
    ///     .with_lifecycle(Lifecycle::new().idle_requests(2))?;
    /// let mut session = toolkit.managed_session();
    /// toolkit.call_managed(&mut session, "search", r#"{"q": "a"}"#).await;
    /// toolkit.call_managed(&mut session, "fetch", r#"{"url": "a"}"#).await;
    /// let result = toolkit.call_managed(&mut session, "fetch", r#"{"url": "b"}"#).await;
    /// assert_eq!(result.deactivations()[0].group, "web");
    /// # Ok(())
    /// # }
    /// ```
    #[must_use]
    pub fn idle_requests(mut self, requests: u32) -> Self {
        self.idle_requests = Some(requests);
        self
    }

    /// No rule ever switches `group` off.
    #[must_use]
    pub fn pin(mut self, group: R::Group) -> Self {
        if self.turn_scoped.is_active(group) {
            self.both.push(group.name());
        }
        self.pinned.activate(group);
        self
    }

    /// `group` is switched off at the end of each turn in which it is active.
    ///
    /// ```
    /// # use toolgroup::prelude::*;
    /// # use toolgroup::lifecycle::Lifecycle;
    /// # /// Search.
    /// # #[tool] fn search(
    /// #     /// Query.
    /// #     q: String,
    /// # ) -> String { q }
    /// # /// Fetch.
    /// # #[tool] fn fetch(
    /// #     /// Url.
    /// #     url: String,
    /// # ) -> String { url }
    /// # #[tool_group(name = "web", description = "Web search.", tools = [search])] struct Web;
    /// # #[tool_group(name = "pages", description = "Fetch pages.", tools = [fetch])] struct Pages;
    /// # #[toolkit] struct Agent { web: Web, pages: Pages }
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let toolkit = Toolkit::new(Agent { web: Web, pages: Pages })
    ///     .with_first_use_activation(true)
    ///     .with_lifecycle(Lifecycle::new().turn_scoped(AgentGroup::Pages))?;
    /// let mut session = toolkit.managed_session();
    /// toolkit.call_managed(&mut session, "fetch", r#"{"url": "a"}"#).await;
    /// toolkit.call_managed(&mut session, "search", r#"{"q": "a"}"#).await;
    /// let off = toolkit.end_turn(&mut session);
    /// assert_eq!(off.iter().map(|d| d.group).collect::<Vec<_>>(), ["pages"]);
    /// # Ok(())
    /// # }
    /// ```
    #[must_use]
    pub fn turn_scoped(mut self, group: R::Group) -> Self {
        if self.pinned.is_active(group) {
            self.both.push(group.name());
        }
        self.turn_scoped.activate(group);
        self
    }

    /// Whether `group` is pinned.
    pub fn is_pinned(&self, group: R::Group) -> bool {
        self.pinned.is_active(group)
    }

    /// Whether `group` is turn-scoped.
    pub fn is_turn_scoped(&self, group: R::Group) -> bool {
        self.turn_scoped.is_active(group)
    }

    /// The cap, if any.
    pub fn max_active_groups(&self) -> Option<usize> {
        self.max_active
    }

    /// Check the rules together: what [`Toolkit::with_lifecycle`](crate::Toolkit::with_lifecycle)
    /// refuses.
    ///
    /// # Errors
    ///
    /// A [`LifecycleError`] naming the first problem and how to fix it.
    pub fn check(&self) -> Result<(), LifecycleError> {
        if let Some(&group) = self.both.first() {
            return Err(LifecycleError::PinnedAndTurnScoped { group });
        }
        if self.max_active == Some(0) {
            return Err(LifecycleError::ZeroMaxActive);
        }
        if self.idle_turns == Some(0) {
            return Err(LifecycleError::ZeroIdle { rule: "idle_turns" });
        }
        if self.idle_requests == Some(0) {
            return Err(LifecycleError::ZeroIdle {
                rule: "idle_requests",
            });
        }
        if self.idle_for == Some(Duration::ZERO) {
            return Err(LifecycleError::ZeroIdle { rule: "idle_for" });
        }
        let pinned: Vec<&'static str> = self.pinned.active_names().collect();
        if let Some(max) = self.max_active
            && pinned.len() >= max
        {
            return Err(LifecycleError::NoRoomBesidePinned { max, pinned });
        }
        Ok(())
    }

    /// Whether no rule is set (pins alone change nothing).
    pub fn is_off(&self) -> bool {
        self.max_active.is_none()
            && self.idle_turns.is_none()
            && self.idle_for.is_none()
            && self.idle_requests.is_none()
            && self.turn_scoped == Session::new()
    }
}

impl<R: Registry> Default for Lifecycle<R> {
    fn default() -> Self {
        Self::new()
    }
}

impl<R: Registry> Clone for Lifecycle<R> {
    fn clone(&self) -> Self {
        Lifecycle {
            max_active: self.max_active,
            idle_turns: self.idle_turns,
            idle_for: self.idle_for,
            idle_requests: self.idle_requests,
            pinned: self.pinned,
            turn_scoped: self.turn_scoped,
            both: self.both.clone(),
        }
    }
}

impl<R: Registry> fmt::Debug for Lifecycle<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Lifecycle")
            .field("max_active", &self.max_active)
            .field("idle_turns", &self.idle_turns)
            .field("idle_for", &self.idle_for)
            .field("idle_requests", &self.idle_requests)
            .field("pinned", &self.pinned)
            .field("turn_scoped", &self.turn_scoped)
            .finish()
    }
}

/// Rules that cannot work together (see [`Lifecycle::check`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum LifecycleError {
    /// `max_active(0)`: no group could ever be active.
    ZeroMaxActive,
    /// An idle rule of zero: every group would be switched off as soon as it is used.
    ZeroIdle {
        /// The rule: `idle_turns`, `idle_requests` or `idle_for`.
        rule: &'static str,
    },
    /// The pinned groups fill the cap: no other group could become active.
    NoRoomBesidePinned {
        /// The cap.
        max: usize,
        /// The pinned groups.
        pinned: Vec<&'static str>,
    },
    /// A group both pinned and turn-scoped.
    PinnedAndTurnScoped {
        /// The group.
        group: &'static str,
    },
}

impl fmt::Display for LifecycleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LifecycleError::ZeroMaxActive => f.write_str(
                "`max_active(0)` lets no group be active; give a cap of at least 1, or no cap",
            ),
            LifecycleError::ZeroIdle { rule } => write!(
                f,
                "`{rule}` of zero would switch every group off as soon as it is used; give at least 1, or leave the rule out"
            ),
            LifecycleError::NoRoomBesidePinned { max, pinned } => write!(
                f,
                "`max_active({max})` leaves no room beside the {} pinned group(s) ({}); raise the cap above {} or pin fewer groups",
                pinned.len(),
                pinned.join(", "),
                pinned.len()
            ),
            LifecycleError::PinnedAndTurnScoped { group } => write!(
                f,
                "the group `{group}` is both pinned (never switched off) and turn-scoped (switched off when a turn ends); choose one"
            ),
        }
    }
}

impl std::error::Error for LifecycleError {}
