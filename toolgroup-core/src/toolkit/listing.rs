//! What the model is shown: the definitions of a session's available tools, in listing
//! order, and the questions a listing answers (is a tool available, which group is it in).

use std::sync::Arc;

use crate::meta::RESET_TOOLS;
use crate::meta::{GroupInfo, ToolDefinition};
use crate::registry::Registry;
use crate::session::Session;

use super::dynamic;
use super::{Core, Toolkit};

impl<R: Registry> Toolkit<R> {
    /// The `reset_tools` definition, if the toolkit has switchable groups and exposes it.
    pub fn reset_definition(&self) -> Option<&ToolDefinition> {
        self.core.reset_definition()
    }

    /// The tools a model should see in `session`: `reset_tools` first, then `Skill` and
    /// `read_skill_file` while a skill is visible (see [`skill`](crate::skill)), then the basic tools,
    /// then the active groups' tools, groups in declaration order, tools in source order;
    /// tools found at run time (see [`dynamic`](crate::dynamic)) come last, groups in
    /// declaration order. Nothing is built or allocated for compiled-in tools: their
    /// definitions were built with the toolkit.
    pub fn definitions(&self, session: &Session<R>) -> impl Iterator<Item = &ToolDefinition> + '_ {
        self.core.definitions_indexed(session).map(|(_, d)| d)
    }

    /// Every tool in the stable listing order, active or not (`reset_tools` first, tools
    /// found at run time last). For catalogs and for the "mask" delivery mode.
    pub fn all_definitions(&self) -> impl Iterator<Item = &ToolDefinition> + '_ {
        self.core
            .compiled_definitions()
            .chain(self.core.dynamic_definitions().map(shorten))
    }

    /// The shown tools found at run time, active or not, in listing order.
    pub(crate) fn dynamic_definitions(&self) -> impl Iterator<Item = &'static ToolDefinition> {
        self.core.dynamic_definitions()
    }

    /// The definition of the tool named `name` (`reset_tools` included when exposed), active
    /// or not.
    pub fn definition(&self, name: &str) -> Option<&ToolDefinition> {
        self.core.definition(name)
    }

    /// The tools found at run time that are not shown to the model, with the reason (a name
    /// taken by another tool, or one that providers refuse). See [`dynamic`](crate::dynamic).
    pub fn hidden_tools(&self) -> Vec<crate::dynamic::HiddenTool> {
        self.core
            .dynamic_view()
            .map(|view| view.hidden.clone())
            .unwrap_or_default()
    }

    /// Whether the model may call `name` in `session` (exposed and active): see
    /// [`resolve`](Self::resolve).
    pub fn is_available(&self, session: &Session<R>, name: &str) -> bool {
        self.resolve(session, name)
            .is_some_and(|resolved| resolved.is_available())
    }

    /// The group a tool belongs to (`None` for `reset_tools` and unknown names).
    pub fn group_of(&self, tool: &str) -> Option<&'static GroupInfo> {
        let group = match self.core.slot(tool) {
            Some(slot) => slot.group,
            None => {
                let found = self.core.dynamic_view()?.get(tool)?;
                self.core.dynamic[found.place as usize].group
            }
        };
        Some(&R::GROUPS[group as usize])
    }

    pub(crate) fn is_reset(&self, name: &str) -> bool {
        name == RESET_TOOLS && self.reset_definition().is_some()
    }
}

/// The listings proper, read from the core alone: a toolkit lists its shown core (one
/// principal's view, see [`Toolkit::entitled`]), and a provider rendering lists the core it
/// was rendered from, so the two cannot disagree on what a position means.
impl<R: Registry> Core<R> {
    /// The `reset_tools` definition, if there are switchable groups and it is exposed.
    pub(crate) fn reset_definition(&self) -> Option<&ToolDefinition> {
        self.reset.as_ref().filter(|_| self.expose_reset)
    }

    /// `reset_tools` (when exposed), the skill tools naming every skill, and the compiled-in
    /// tools, in listing order.
    pub(crate) fn compiled_definitions(&self) -> impl Iterator<Item = &ToolDefinition> + '_ {
        let all = self.skills.all;
        self.reset_definition()
            .into_iter()
            .chain(all.skill)
            .chain(all.file)
            .chain(self.tools.iter())
    }

    /// The shown tools found at run time, active or not, in listing order. Read from the
    /// sources now (not when the core was built), so a new tool set shows at once.
    pub(crate) fn dynamic_definitions(&self) -> impl Iterator<Item = &'static ToolDefinition> {
        DynamicDefinitions::new(self.dynamic_view(), |_| true)
    }

    /// [`Toolkit::definition`].
    pub(crate) fn definition(&self, name: &str) -> Option<&ToolDefinition> {
        if let Some((_, definition)) = self.skill_target(name) {
            return Some(definition);
        }
        match self.reset_definition() {
            Some(reset) if name == RESET_TOOLS => Some(reset),
            _ => match self.index.get(name) {
                Some(i) => Some(&self.tools[i as usize]),
                None => self
                    .dynamic_view()
                    .and_then(|view| view.get(name))
                    .map(|t| t.definition),
            },
        }
    }

    /// Like [`Toolkit::definitions`], each compiled-in tool with its position in
    /// [`compiled_definitions`](Self::compiled_definitions) (`None` for tools found at run
    /// time), so a renderer can reuse per-tool output it built once for the whole list.
    pub(crate) fn definitions_indexed(
        &self,
        session: &Session<R>,
    ) -> impl Iterator<Item = (Option<usize>, &ToolDefinition)> + '_ {
        let session = *session;
        let all = self.skills.all;
        let offset = usize::from(self.reset_definition().is_some())
            + usize::from(all.skill.is_some())
            + usize::from(all.file.is_some());
        // The skill tools naming every skill are the pre-rendered ones; a session that sees
        // fewer skills gets definitions of its own.
        let shown = self.skill_defs(&session);
        let reset = usize::from(self.reset_definition().is_some());
        let same = |d: &'static ToolDefinition, pre: Option<&'static ToolDefinition>, at: usize| {
            (
                pre.is_some_and(|p| std::ptr::eq(p, d)).then_some(at),
                shorten(d),
            )
        };
        let skill = shown.skill.map(|d| same(d, all.skill, reset));
        let file = shown
            .file
            .map(|d| same(d, all.file, reset + usize::from(all.skill.is_some())));
        self.reset_definition()
            .map(|d| (Some(0), d))
            .into_iter()
            .chain(skill)
            .chain(file)
            .chain(
                self.tools
                    .iter()
                    .zip(&self.slots)
                    .enumerate()
                    .filter(move |(_, (_, s))| {
                        s.switch.is_none_or(|w| session.slot_active(w as usize))
                    })
                    .map(move |(i, (d, _))| (Some(i + offset), d)),
            )
            .chain(
                DynamicDefinitions::new(self.dynamic_view(), move |t| {
                    self.dynamic[t.place as usize]
                        .switch
                        .is_none_or(|w| session.slot_active(w as usize))
                })
                .map(|d| (None, shorten(d))),
            )
    }
}

/// The shown run-time tools of a view that pass `keep`, as `'static` definitions.
struct DynamicDefinitions<F> {
    view: Option<Arc<dynamic::View>>,
    next: usize,
    keep: F,
}

impl<F: FnMut(&dynamic::Listed) -> bool> DynamicDefinitions<F> {
    fn new(view: Option<Arc<dynamic::View>>, keep: F) -> Self {
        DynamicDefinitions {
            view,
            next: 0,
            keep,
        }
    }
}

impl<F: FnMut(&dynamic::Listed) -> bool> Iterator for DynamicDefinitions<F> {
    type Item = &'static ToolDefinition;

    fn next(&mut self) -> Option<&'static ToolDefinition> {
        let view = self.view.as_ref()?;
        while let Some(tool) = view.tools.get(self.next) {
            self.next += 1;
            if (self.keep)(tool) {
                return Some(tool.definition);
            }
        }
        None
    }
}

/// A `'static` definition as one borrowed from the toolkit (so both kinds chain).
fn shorten<'a>(definition: &'static ToolDefinition) -> &'a ToolDefinition {
    definition
}
