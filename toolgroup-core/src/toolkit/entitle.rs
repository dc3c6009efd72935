//! Entitlements: one principal's view of a toolkit, derived from the scopes they hold.
//!
//! A view is a core of its own, built once per distinct held set from the unfiltered core
//! and cached there: it has only the entitled tools, a `reset_tools` naming only the
//! entitled groups, and only their skills. Every listing, provider rendering and call then
//! reads the view as it reads any core, so a toolkit without requirements pays nothing, and
//! what a principal may not use has no name in their view. What the view lacks but the
//! unfiltered core has is answered with the scopes it needs.

use std::sync::{Arc, Mutex, PoisonError};

use rustc_hash::FxHashMap;

use crate::meta::GroupInfo;
use crate::registry::Registry;
use crate::result::{CallOutcome, CallResult};
use crate::scope::Scopes;

use super::{Core, Toolkit, index};

/// At most this many views are cached per toolkit; a principal with a set beyond them gets a
/// view built for the request (correct, only slower).
const MAX_VIEWS: usize = 256;

/// The scopes each group and tool requires: declared in source, plus those the application
/// adds with [`Toolkit::with_required_scopes`].
#[derive(Debug, Clone, Default)]
pub(crate) struct Requirements {
    /// By index into the registry's groups.
    group: Vec<Scopes>,
    /// By group index, then tool index: the tool's own scopes (its group's come on top).
    tool: Vec<Vec<Scopes>>,
}

impl Requirements {
    pub(crate) fn declared(groups: &[GroupInfo]) -> Self {
        Requirements {
            group: groups.iter().map(|g| Scopes::declared(g.scopes)).collect(),
            tool: groups
                .iter()
                .map(|g| g.tools.iter().map(|t| Scopes::declared(t.scopes)).collect())
                .collect(),
        }
    }

    /// Whether any group or tool requires a scope.
    fn any(&self) -> bool {
        self.group.iter().any(|s| !s.is_empty())
            || self.tool.iter().flatten().any(|s| !s.is_empty())
    }

    /// What group `group` requires.
    pub(crate) fn group(&self, group: usize) -> &Scopes {
        &self.group[group]
    }

    /// What tool `tool` of group `group` requires: its group's scopes and its own.
    pub(crate) fn tool(&self, group: usize, tool: usize) -> Scopes {
        self.group[group].union(&self.tool[group][tool])
    }

    /// The union of every requirement.
    fn all(&self) -> Scopes {
        self.group
            .iter()
            .chain(self.tool.iter().flatten())
            .fold(Scopes::none(), |all, s| all.union(s))
    }
}

/// The views of an unfiltered core, by held set.
pub(crate) struct Views<R: Registry>(Arc<Mutex<FxHashMap<Scopes, Arc<Core<R>>>>>);

impl<R: Registry> Default for Views<R> {
    fn default() -> Self {
        Views(Arc::default())
    }
}

impl<R: Registry> Core<R> {
    /// The view of this (unfiltered) core for a principal holding `held`.
    fn view(self: &Arc<Self>, held: &Scopes) -> Arc<Core<R>> {
        let mut views = self.views.0.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(view) = views.get(held) {
            return view.clone();
        }
        let view = Arc::new(self.derive(held));
        if views.len() < MAX_VIEWS {
            views.insert(held.clone(), view.clone());
        }
        view
    }

    /// This core with only what `held` entitles.
    fn derive(&self, held: &Scopes) -> Core<R> {
        let req = &self.requirements;
        let group_ok: Vec<bool> = (0..R::GROUPS.len())
            .map(|g| held.covers(req.group(g)))
            .collect();
        let (tools, slots): (Vec<_>, Vec<_>) = self
            .tools
            .iter()
            .zip(&self.slots)
            .filter(|(_, s)| {
                group_ok[s.group as usize]
                    && held.covers(&req.tool(s.group as usize, s.tool as usize))
            })
            .map(|(d, s)| (d.clone(), *s))
            .unzip();
        let switchable: Vec<usize> = R::SWITCHABLE
            .iter()
            .copied()
            .filter(|&g| group_ok[g])
            .collect();
        let missing = R::SWITCHABLE
            .iter()
            .map(|&g| held.missing(req.group(g)))
            .collect();
        let mut skills = self.skills.clone();
        skills.retain(|g| group_ok[g as usize]);
        Core {
            registry: self.registry.clone(),
            index: index::NameIndex::new(tools.iter().map(|t| t.name).collect()),
            tools,
            slots,
            reset: crate::reset::definition(R::GROUPS, &switchable),
            expose_reset: self.expose_reset,
            names: self.names.restricted(missing),
            dynamic: self
                .dynamic
                .iter()
                .filter(|p| group_ok[p.group as usize])
                .copied()
                .collect(),
            dynamic_cache: Mutex::new(None),
            skills,
            requirements: self.requirements.clone(),
            held: Some(held.clone()),
            views: Views::default(),
        }
    }
}

impl<R: Registry> Toolkit<R> {
    /// The core this toolkit shows: the unfiltered one when nothing requires a scope, else
    /// the view for the held scopes (none when none were given).
    pub(super) fn shown(&self) -> Arc<Core<R>> {
        if self.full.requirements.any() {
            self.full
                .view(self.held.as_ref().unwrap_or(&Scopes::none()))
        } else {
            self.full.clone()
        }
    }

    /// Configure the unfiltered core with `f`, then show it again through the held scopes.
    pub(super) fn configure<T>(&mut self, f: impl FnOnce(&mut Core<R>) -> T) -> T {
        let full = Arc::make_mut(&mut self.full);
        full.views = Views::default();
        let out = f(full);
        self.core = self.shown();
        out
    }

    /// This toolkit as a principal holding `held` sees it: only the tools and groups whose
    /// required scopes they hold.
    ///
    /// Groups are a context budget, not a boundary: the model can switch on any group it is
    /// shown. Scopes are the boundary. A tool requires its group's scopes
    /// (`#[tool_group(scopes = [...])]`, [`with_required_scopes`](Self::with_required_scopes))
    /// and its own (`#[tool(scopes = [...])]`). In the returned toolkit:
    ///
    /// - the listed tools ([`definitions`](Self::definitions),
    ///   [`all_definitions`](Self::all_definitions), every provider's rendering and delivery
    ///   mode) are the entitled ones;
    /// - `reset_tools` lists only the entitled groups (closed and strict, one required
    ///   boolean each), so a strict provider cannot name another; a `reset_tools` call that
    ///   names one anyway is refused as a whole, changes nothing, and says which scope is
    ///   missing; the groups the principal may not use keep their state;
    /// - a call of a tool they may not use is an error result naming the missing scopes
    ///   ([`CallOutcome::InsufficientScope`]); the tool never runs, it never activates its
    ///   group, and no policy is asked (the policy and approval run after, for the calls the
    ///   principal may make);
    /// - the skills of groups they may not use are neither listed nor loadable.
    ///
    /// A toolkit whose groups and tools require no scope is unchanged by it. One that
    /// requires some and is used without it treats the caller as holding no scope: what
    /// requires one is hidden, so a forgotten principal fails closed. `held` replaces any
    /// set given before; the [`Session`](crate::Session) is not involved, so one session
    /// can be served to principals with different scopes, each seeing their part of it.
    ///
    /// Cheap to call per request: the view for each distinct held set is built once and
    /// cached in the toolkit (the first 256 sets; a view beyond them is built per call).
    ///
    /// ```
    /// use toolgroup::prelude::*;
    /// use toolgroup::{CallOutcome, Scopes};
    ///
    /// /// Read a file.
    /// #[tool]
    /// fn read(path: String) -> String {
    ///     format!("contents of {path}")
    /// }
    ///
    /// /// Delete a file.
    /// #[tool(scopes = ["files:delete"])]
    /// fn delete(path: String) -> String {
    ///     format!("deleted {path}")
    /// }
    ///
    /// #[tool_group(
    ///     name = "files",
    ///     description = "Files.",
    ///     scopes = ["files:read"],
    ///     tools = [read, delete]
    /// )]
    /// struct Files;
    ///
    /// #[toolkit]
    /// struct Kit {
    ///     #[basic]
    ///     files: Files,
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// let toolkit = Toolkit::new(Kit { files: Files });
    /// let reader = toolkit.entitled(&Scopes::parse("files:read").unwrap());
    /// let mut session = reader.session();
    /// let names: Vec<_> = reader.definitions(&session).map(|d| d.name).collect();
    /// assert_eq!(names, ["read"]);
    ///
    /// let denied = reader.call(&mut session, "delete", r#"{"path": "a"}"#).await;
    /// assert_eq!(denied.outcome(), CallOutcome::InsufficientScope);
    /// assert!(denied.text_joined().contains("files:delete"));
    ///
    /// // Without a principal, nothing that requires a scope is shown.
    /// assert_eq!(toolkit.definitions(&session).count(), 0);
    /// # }
    /// ```
    #[must_use]
    pub fn entitled(&self, held: &Scopes) -> Toolkit<R> {
        let core = if self.full.requirements.any() {
            self.full.view(held)
        } else {
            self.full.clone()
        };
        Toolkit {
            core,
            full: self.full.clone(),
            held: Some(held.clone()),
            default_timeout: self.default_timeout,
            policy: self.policy.clone(),
            pipeline: self.pipeline.as_ref().map(|service| {
                Mutex::new(
                    service
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .clone(),
                )
            }),
            audit: self.audit.clone(),
            plain: self.plain,
            panic_details: self.panic_details,
            telemetry_content: self.telemetry_content,
            first_use: self.first_use,
            lifecycle: self.lifecycle.clone(),
        }
    }

    /// Require `scopes` for `group`, on top of what it declares in source: its tools, its
    /// place in `reset_tools` and its skills are then shown only to principals holding them
    /// (see [`entitled`](Self::entitled)). For requirements that depend on the deployment
    /// (the scopes an identity provider issues) rather than on the code.
    ///
    /// ```
    /// # use toolgroup::prelude::*;
    /// # /// Echo.
    /// # #[tool] fn echo(
    /// #     /// Text.
    /// #     text: String,
    /// # ) -> String { text }
    /// # #[tool_group(name = "echo", description = "Echo.", tools = [echo])] struct Echo;
    /// # #[toolkit] struct Kit { echo: Echo }
    /// use toolgroup::Scopes;
    ///
    /// let toolkit = Toolkit::new(Kit { echo: Echo })
    ///     .with_required_scopes(KitGroup::Echo, Scopes::parse("echo:use").unwrap());
    /// assert!(toolkit.reset_definition().is_none()); // no principal: no group to switch
    /// let user = toolkit.entitled(&Scopes::parse("echo:use").unwrap());
    /// assert!(user.reset_definition().is_some());
    /// ```
    #[must_use]
    pub fn with_required_scopes(mut self, group: R::Group, scopes: Scopes) -> Self {
        use crate::registry::GroupId;
        let g = R::SWITCHABLE[group.slot()];
        self.configure(|core| {
            let req = Arc::make_mut(&mut core.requirements);
            req.group[g] = req.group[g].union(&scopes);
        });
        self
    }

    /// The scopes held by the principal this toolkit was [`entitled`](Self::entitled) for
    /// (`None` if it was not).
    pub fn held_scopes(&self) -> Option<&Scopes> {
        self.held.as_ref()
    }

    /// Every scope some group or tool requires (what an authorization server's protected
    /// resource metadata lists as `scopes_supported`). Empty when nothing requires one.
    pub fn declared_scopes(&self) -> Scopes {
        self.full.requirements.all()
    }

    /// What a principal must hold to call the tool `tool` (its group's scopes and its own),
    /// whether or not this toolkit's principal holds them; `None` when no tool has that
    /// name. `reset_tools` and the skill tools require nothing.
    pub fn required_scopes(&self, tool: &str) -> Option<Scopes> {
        let full = &*self.full;
        if let Some(slot) = full.slot(tool) {
            return Some(
                full.requirements
                    .tool(slot.group as usize, slot.tool as usize),
            );
        }
        if let Some(listed) = full.dynamic_view().as_ref().and_then(|view| view.get(tool)) {
            let group = full.dynamic[listed.place as usize].group as usize;
            return Some(full.requirements.group(group).clone());
        }
        self.definition(tool).map(|_| Scopes::none())
    }

    /// The scopes this toolkit's principal lacks to call `tool`: `None` when they may call
    /// it (or no tool has that name), else the missing ones.
    pub fn missing_scopes(&self, tool: &str) -> Option<Scopes> {
        let held = self.core.held.as_ref()?;
        let missing = held.missing(&self.required_scopes(tool)?);
        (!missing.is_empty()).then_some(missing)
    }

    /// The answer to a call of a tool this principal may not use, if `name` is one.
    pub(super) fn unentitled(&self, name: &str) -> Option<CallResult> {
        let missing = self.missing_scopes(name)?;
        let tool = self.full.definition_name(name)?;
        let plural = if missing.len() == 1 { "" } else { "s" };
        let list: Vec<String> = missing.iter().map(|s| format!("`{s}`")).collect();
        Some(
            CallResult::error(format!(
                "`{tool}` was not run: it requires the scope{plural} {}, which the user has not been granted. Switching groups cannot grant a scope; the user or an administrator can.",
                list.join(", ")
            ))
            .labelled(CallOutcome::InsufficientScope),
        )
    }
}

impl<R: Registry> Core<R> {
    /// The toolkit's own copy of a compiled-in or run-time tool's name.
    fn definition_name(&self, name: &str) -> Option<&'static str> {
        match self.slot(name) {
            Some(slot) => Some(slot.info.name),
            None => Some(self.dynamic_view()?.get(name)?.definition.name),
        }
    }
}
