//! The toolkit's view of the tools found at run time: which are shown, under which group,
//! and which are hidden and why. Rebuilt when a source reports a new tool set.

use std::sync::{Arc, PoisonError};

use rustc_hash::FxHashMap;

use crate::dynamic::{HiddenTool, ToolSet, is_valid_tool_name};
use crate::meta::RESET_TOOLS;
use crate::registry::Registry;

use crate::meta::ToolDefinition;

use super::Core;

/// A group whose tools are found at run time: its index in `R::GROUPS` and its switch.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Place {
    pub(crate) group: u32,
    pub(crate) switch: Option<u32>,
}

/// One shown run-time tool.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Listed {
    /// Index into `Core::dynamic`.
    pub(crate) place: u32,
    pub(crate) definition: &'static ToolDefinition,
}

/// The run-time tools at one moment.
#[derive(Debug, Default)]
pub(crate) struct View {
    /// Each source's set this view was built from (kept so a new set is noticed by identity).
    sources: Vec<Arc<ToolSet>>,
    /// Shown tools, groups in declaration order, tools in the source's order.
    pub(crate) tools: Vec<Listed>,
    index: FxHashMap<&'static str, u32>,
    pub(crate) hidden: Vec<HiddenTool>,
}

impl View {
    pub(crate) fn get(&self, name: &str) -> Option<Listed> {
        self.index.get(name).map(|&i| self.tools[i as usize])
    }
}

impl<R: Registry> Core<R> {
    /// The current view of the run-time tools (`None` when the toolkit has no such group).
    pub(crate) fn dynamic_view(&self) -> Option<Arc<View>> {
        if self.dynamic.is_empty() {
            return None;
        }
        let sets: Vec<Arc<ToolSet>> = self
            .dynamic
            .iter()
            .map(|f| {
                self.registry
                    .dynamic_tools(f.group as usize)
                    .map(|source| source.tools())
                    .unwrap_or_default()
            })
            .collect();
        let mut cached = self
            .dynamic_cache
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(view) = &*cached
            && view.sources.len() == sets.len()
            && view
                .sources
                .iter()
                .zip(&sets)
                .all(|(a, b)| Arc::ptr_eq(a, b))
        {
            return Some(view.clone());
        }
        let view = Arc::new(self.build_dynamic_view(sets));
        for hidden in &view.hidden {
            tracing::warn!(
                group = hidden.group,
                tool = hidden.name,
                reason = %hidden.reason,
                "a tool found at run time is hidden from the model"
            );
        }
        *cached = Some(view.clone());
        Some(view)
    }

    fn build_dynamic_view(&self, sources: Vec<Arc<ToolSet>>) -> View {
        let mut view = View::default();
        let mut owner: FxHashMap<&'static str, &'static str> = FxHashMap::default();
        for (place, set) in sources.iter().enumerate() {
            let group = R::GROUPS[self.dynamic[place].group as usize].name;
            for tool in set.tools() {
                let definition = crate::dynamic::intern(group, tool);
                let name = definition.name;
                let reason = if !is_valid_tool_name(name) {
                    Some(format!(
                        "its name is invalid: {}",
                        toolgroup_skills::shared::TOOL_NAME_RULE
                    ))
                } else if name == RESET_TOOLS {
                    Some("`reset_tools` is the toolkit's own tool".to_owned())
                } else if !self.skills.is_empty()
                    && (name == crate::skill::SKILL_TOOL || name == crate::skill::READ_SKILL_FILE)
                {
                    Some(format!("`{name}` is the toolkit's own tool for its skills"))
                } else if let Some(i) = self.index.get(name) {
                    let other = R::GROUPS[self.slots[i as usize].group as usize].name;
                    Some(format!(
                        "the name is taken by the compiled-in tool of group `{other}`"
                    ))
                } else if let Some(other) = owner.get(name) {
                    if *other == group {
                        Some("the source lists this name twice".to_owned())
                    } else {
                        Some(format!(
                            "the name is taken by a tool of group `{other}`, declared earlier"
                        ))
                    }
                } else {
                    None
                };
                match reason {
                    Some(reason) => view.hidden.push(HiddenTool {
                        group,
                        name,
                        reason,
                    }),
                    None => {
                        owner.insert(name, group);
                        view.index.insert(name, view.tools.len() as u32);
                        view.tools.push(Listed {
                            place: place as u32,
                            definition,
                        });
                    }
                }
            }
        }
        view.sources = sources;
        view
    }
}

/// What a `reset_tools` answer (or an activation by a call) says about a group: its
/// compiled-in tools, then those found at run time that are shown now.
impl<R: Registry> crate::reset::Disclose for Core<R> {
    fn tools(&self, group: usize) -> Vec<&'static str> {
        let mut tools: Vec<&'static str> = R::GROUPS[group].tools.iter().map(|t| t.name).collect();
        if let Some(view) = self.dynamic_view() {
            tools.extend(
                view.tools
                    .iter()
                    .filter(|t| self.dynamic[t.place as usize].group as usize == group)
                    .map(|t| t.definition.name),
            );
        }
        tools
    }

    fn source_instructions(&self, group: usize) -> Option<String> {
        self.registry
            .dynamic_tools(group)
            .and_then(|source| source.instructions())
            .filter(|text| !text.trim().is_empty())
    }
}
