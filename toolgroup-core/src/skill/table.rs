//! A toolkit's skills, with where each one's group and loaded mark live: what listing,
//! `reset_tools` and the two builtin tools read.

use std::sync::{Mutex, PoisonError};

use rustc_hash::FxHashMap;
use serde::Deserialize;
use serde_json::json;

use super::info::SkillInfo;
use super::text;
use crate::args::{Arguments, invalid_arguments};
use crate::meta::{GroupInfo, ToolDefinition};
use crate::registry::{bit, set_bit};
use crate::result::{CallOutcome, CallResult, Content};

/// One skill of the toolkit.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Entry {
    pub(crate) info: &'static SkillInfo,
    /// Its group's index in the registry's groups.
    pub(crate) group: u32,
    /// Its group's switchable slot (`None`: basic).
    pub(crate) switch: Option<u32>,
    /// The state bit that says it was loaded in the session (`None` for skills read at run
    /// time, which the state has no room for).
    pub(crate) mark: Option<u32>,
}

/// The two builtin definitions for one set of visible skills.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Defs {
    pub(crate) skill: Option<&'static ToolDefinition>,
    pub(crate) file: Option<&'static ToolDefinition>,
}

/// Every skill of a toolkit, basic groups' first, then in group declaration order.
#[derive(Debug, Default)]
pub(crate) struct Table {
    pub(crate) entries: Vec<Entry>,
    index: FxHashMap<&'static str, u32>,
    /// Loading a skill of an inactive group activates the group.
    pub(crate) activate: bool,
    /// `reset_tools` is not shown to the model (answers do not tell it to call it).
    pub(crate) hide_reset: bool,
    /// The definitions naming every skill (the mask mode's, and under `activate`, the list
    /// mode's too).
    pub(crate) all: Defs,
    /// The list mode's definitions, by visible set. Interned: a toolkit sees few distinct
    /// sets (at most one per combination of groups that have skills).
    by_visible: Mutex<FxHashMap<Box<[u64]>, Defs>>,
}

impl Clone for Table {
    fn clone(&self) -> Self {
        Table {
            entries: self.entries.clone(),
            index: self.index.clone(),
            activate: self.activate,
            hide_reset: self.hide_reset,
            all: self.all,
            by_visible: Mutex::new(
                self.by_visible
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .clone(),
            ),
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SkillArgs {
    skill: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileArgs {
    path: String,
}

fn intern(def: Option<ToolDefinition>) -> Option<&'static ToolDefinition> {
    def.map(|d| &*Box::leak(Box::new(d)))
}

impl Table {
    /// The compiled-in skills of `groups`, each loaded mark after the `switchable` slots.
    pub(crate) fn new(
        groups: &[GroupInfo],
        switchable: &[usize],
        slot_of_group: &[Option<u32>],
    ) -> Table {
        let mut table = Table::default();
        let basic_first = groups
            .iter()
            .enumerate()
            .filter(|(_, g)| g.basic)
            .chain(groups.iter().enumerate().filter(|(_, g)| !g.basic));
        let mut mark = switchable.len() as u32;
        for (g, group) in basic_first {
            for &info in group.skills {
                table.push(Entry {
                    info,
                    group: g as u32,
                    switch: slot_of_group[g],
                    mark: Some(mark),
                });
                mark += 1;
            }
        }
        table.rebuild();
        table
    }

    fn push(&mut self, entry: Entry) {
        self.index
            .insert(entry.info.name, self.entries.len() as u32);
        self.entries.push(entry);
    }

    /// Add skills read at run time to group `group` (its index and slot). Returns the name
    /// of a skill that clashes with one the toolkit already has.
    pub(crate) fn add(
        &mut self,
        group: u32,
        switch: Option<u32>,
        infos: Vec<&'static SkillInfo>,
    ) -> Result<(), &'static str> {
        if let Some(clash) = infos.iter().find(|i| self.index.contains_key(i.name)) {
            return Err(clash.name);
        }
        // Keep listing order: a group's skills together, groups in table order.
        for info in infos {
            self.push(Entry {
                info,
                group,
                switch,
                mark: None,
            });
        }
        self.rebuild();
        Ok(())
    }

    pub(crate) fn set_activate(&mut self, on: bool) {
        self.activate = on;
        self.rebuild();
    }

    /// Keep only the skills of the groups (indices into the registry's groups) `keep` accepts.
    /// Each skill keeps its loaded mark's bit.
    pub(crate) fn retain(&mut self, keep: impl Fn(u32) -> bool) {
        if self.entries.iter().all(|e| keep(e.group)) {
            return;
        }
        let entries = std::mem::take(&mut self.entries);
        self.index.clear();
        for entry in entries.into_iter().filter(|e| keep(e.group)) {
            self.push(entry);
        }
        self.rebuild();
    }

    fn rebuild(&mut self) {
        let all: Vec<&SkillInfo> = self.entries.iter().map(|e| e.info).collect();
        self.all = Defs {
            skill: intern(text::skill_definition(&all, self.activate)),
            file: intern(text::read_file_definition(&all)),
        };
        self.by_visible
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner)
            .clear();
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub(crate) fn get(&self, name: &str) -> Option<&Entry> {
        self.index.get(name).map(|&i| &self.entries[i as usize])
    }

    /// Whether the skill may be loaded in a session in state `bits`.
    pub(crate) fn visible(&self, entry: &Entry, bits: &[u64]) -> bool {
        self.activate || entry.switch.is_none_or(|w| bit(bits, w as usize))
    }

    /// The skills visible in state `bits`, in listing order.
    pub(crate) fn visible_infos(&self, bits: &[u64]) -> Vec<&'static SkillInfo> {
        self.entries
            .iter()
            .filter(|e| self.visible(e, bits))
            .map(|e| e.info)
            .collect()
    }

    /// The builtin definitions a session in state `bits` is shown.
    pub(crate) fn defs(&self, bits: &[u64]) -> Defs {
        if self.entries.is_empty() {
            return Defs::default();
        }
        if self.activate || self.entries.iter().all(|e| e.switch.is_none()) {
            return self.all;
        }
        // The key of the visible set, on the stack for up to 512 skills: listing allocates
        // only the first time a set is seen.
        let words = self.entries.len().div_ceil(64);
        let mut stack = [0u64; 8];
        let mut heap = Vec::new();
        let key: &mut [u64] = if words <= stack.len() {
            &mut stack[..words]
        } else {
            heap.resize(words, 0);
            &mut heap
        };
        for (i, e) in self.entries.iter().enumerate() {
            if self.visible(e, bits) {
                set_bit(key, i, true);
            }
        }
        let mut cache = self
            .by_visible
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(defs) = cache.get(&*key) {
            return *defs;
        }
        let visible = self.visible_infos(bits);
        let defs = Defs {
            skill: intern(text::skill_definition(&visible, false)),
            file: intern(text::read_file_definition(&visible)),
        };
        cache.insert(key.into(), defs);
        defs
    }

    /// `new` with the loaded marks of `old` (a `reset_tools` call sets groups only).
    pub(crate) fn carry_marks(&self, old: &[u64], new: &mut [u64]) {
        for e in &self.entries {
            if let Some(mark) = e.mark {
                set_bit(new, mark as usize, bit(old, mark as usize));
            }
        }
    }

    /// The skills of the groups a state change from `old` to `new` activates.
    pub(crate) fn brought(&self, old: &[u64], new: &[u64]) -> Vec<&'static SkillInfo> {
        self.entries
            .iter()
            .filter(|e| {
                e.switch
                    .is_some_and(|w| !bit(old, w as usize) && bit(new, w as usize))
            })
            .map(|e| e.info)
            .collect()
    }

    /// A `Skill` call in state `state` (marked loaded, and under `activate` its group made
    /// active, only if it is answered without error).
    pub(crate) fn load(
        &self,
        groups: &[GroupInfo],
        state: &mut [u64],
        arguments: Arguments<'_>,
        with_reset: bool,
    ) -> CallResult {
        let name = match arguments.parse::<SkillArgs>() {
            Ok(args) => args.skill,
            Err(e) => {
                return invalid_arguments(super::SKILL_TOOL, &e)
                    .labelled(CallOutcome::InvalidArguments);
            }
        };
        let Some(entry) = self.get(&name) else {
            // The did-you-mean list, gathered only for a name that is no skill.
            let visible = self.visible_infos(state);
            return text::unknown(&name, &visible).labelled(CallOutcome::Refused);
        };
        if !self.visible(entry, state) {
            return text::inactive(entry.info, with_reset && !self.hide_reset)
                .labelled(CallOutcome::InactiveGroup);
        }
        let activates = entry
            .switch
            .filter(|&w| !bit(state, w as usize))
            .map(|w| w as usize);
        if let Some(mark) = entry.mark
            && bit(state, mark as usize)
            && activates.is_none()
        {
            return text::already_loaded(entry.info).labelled(CallOutcome::Ok);
        }
        if let Some(mark) = entry.mark {
            set_bit(state, mark as usize, true);
        }
        let mut answer = text::loaded(entry.info);
        if let Some(slot) = activates {
            set_bit(state, slot, true);
            let group = &groups[entry.group as usize];
            let head = text::activated(entry.info, group.instructions);
            answer.content.insert(0, Content::text(head));
            if let Some(serde_json::Value::Object(map)) = &mut answer.structured_content {
                map.insert("activated".into(), json!([group.name]));
            }
        }
        answer.labelled(CallOutcome::Ok)
    }

    /// The skill a `Skill` call's arguments name, when it is one of the table's: the
    /// table's own copy of the name, never the model's text.
    pub(crate) fn named(&self, arguments: Arguments<'_>) -> Option<&'static str> {
        let args = arguments.parse::<SkillArgs>().ok()?;
        self.get(&args.skill).map(|e| e.info.name)
    }

    /// A `read_skill_file` call in state `state`.
    pub(crate) fn read(
        &self,
        state: &[u64],
        arguments: Arguments<'_>,
        with_reset: bool,
    ) -> CallResult {
        let path = match arguments.parse::<FileArgs>() {
            Ok(args) => args.path,
            Err(e) => {
                return invalid_arguments(super::READ_SKILL_FILE, &e)
                    .labelled(CallOutcome::InvalidArguments);
            }
        };
        let found = path.split_once('/').and_then(|(skill, file)| {
            let entry = self.get(skill)?;
            let f = entry
                .info
                .file(file)
                .filter(|f| f.path != super::SKILL_MD)?;
            Some((entry, f))
        });
        match found {
            Some((entry, file)) if self.visible(entry, state) => {
                text::file(entry.info, file).labelled(CallOutcome::Ok)
            }
            Some((entry, file)) => {
                text::inactive_file(entry.info, file.path, with_reset && !self.hide_reset)
                    .labelled(CallOutcome::InactiveGroup)
            }
            None => {
                let visible = self.visible_infos(state);
                text::unknown_file(&path, &visible).labelled(CallOutcome::Refused)
            }
        }
    }
}
