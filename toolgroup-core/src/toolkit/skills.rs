//! A toolkit's skills: the two builtin tools' place in listing and dispatch, the catalog,
//! and the application's side (listing skills, loading one, adding skills read at run time).

use crate::group::ToolGroup;
use crate::meta::ToolDefinition;
use crate::registry::Registry;
use crate::result::CallResult;
use crate::session::Session;
use crate::skill::table::Defs;
use crate::skill::{
    READ_SKILL_FILE, SKILL_TOOL, SkillDir, SkillDirError, SkillId, SkillInfo, UnknownSkill, text,
};

use super::run::Target;
use super::{Core, Toolkit};

impl<R: Registry> Toolkit<R> {
    /// Every skill of the toolkit, basic groups' first, then groups in declaration order.
    pub fn skills(&self) -> impl ExactSizeIterator<Item = &'static SkillInfo> + '_ {
        self.core.skills.entries.iter().map(|e| e.info)
    }

    /// The skill named `name`.
    pub fn skill(&self, name: &str) -> Option<&'static SkillInfo> {
        self.core.skills.get(name).map(|e| e.info)
    }

    /// The skills a model may load in `session`: those of the basic and the active groups
    /// (every skill under [`with_skill_activation`](Self::with_skill_activation)).
    pub fn visible_skills(&self, session: &Session<R>) -> Vec<&'static SkillInfo> {
        self.core.skills.visible_infos(session.bits().as_ref())
    }

    /// The `<agent-skills>` block for a system prompt: each visible skill's name, description
    /// and `skill://<name>/` address, every field escaped, then a sentence saying that skills
    /// are loaded with the `Skill` tool. Empty when no skill is visible.
    ///
    /// Rewriting a system prompt breaks a provider's prompt cache: render it once at the start
    /// of a conversation. The `reset_tools` answers list the skills each newly active group
    /// brings, so the block need not follow the session.
    pub fn skills_prompt(&self, session: &Session<R>) -> String {
        text::catalog(&self.visible_skills(session))
    }

    /// Whether `session` has loaded `skill` (with the `Skill` tool or
    /// [`load_skill`](Self::load_skill)). Always `false` for skills read at run time, whose
    /// loads are not recorded.
    pub fn is_skill_loaded(&self, session: &Session<R>, skill: impl SkillId) -> bool {
        self.core
            .skills
            .get(skill.name())
            .and_then(|e| e.mark)
            .is_some_and(|m| crate::registry::bit(session.bits().as_ref(), m as usize))
    }

    /// Load `skill` for the application (to put its instructions in a conversation
    /// yourself): the answer the `Skill` tool gives, the skill marked loaded in `session`.
    /// Unlike the model's call it does not need the skill's group to be active, and never
    /// activates it.
    pub fn load_skill(
        &self,
        session: &mut Session<R>,
        skill: impl SkillId,
    ) -> Result<CallResult, UnknownSkill> {
        let Some(entry) = self
            .core
            .skills
            .get(skill.name())
            .filter(|e| e.info.group == skill.info().group)
        else {
            return Err(UnknownSkill {
                name: skill.name().to_owned(),
                known: self.skills().map(|s| s.name).collect(),
            });
        };
        let mut bits = *session.bits();
        if let Some(mark) = entry.mark {
            crate::registry::set_bit(bits.as_mut(), mark as usize, true);
        }
        session.apply(bits);
        Ok(text::loaded(entry.info))
    }

    /// Let a model's `Skill` call of a skill whose group is not active activate that group,
    /// in that session only (default `false`: the call is refused with the group to
    /// activate). Every skill is then visible: in the catalog and in `Skill`'s enum.
    ///
    /// The activation is checked first and is a no-op when the call is refused; it is
    /// reported in the answer like a `reset_tools` activation (the group, its instructions);
    /// the next `reset_tools` call sets every group's state again (the model gives the final
    /// state, so a group it leaves out is deactivated). A `Skill` call is a barrier in a batch,
    /// like `reset_tools`. `read_skill_file` then serves the files of every skill; reading one
    /// activates nothing (a tool its instructions name is refused, with the hint, until the
    /// skill is loaded or the group activated).
    #[must_use]
    pub fn with_skill_activation(mut self, on: bool) -> Self {
        self.configure(|core| core.skills.set_activate(on));
        self
    }

    /// Add the skills of `dir` (read at run time) to the group `G` of this toolkit. Refused,
    /// with every problem, when `G` is not one of the toolkit's groups, when a skill's name is
    /// already taken, or when an `allowed-tools` entry in plain tool-name form names no tool
    /// of `G` or of the basic groups.
    pub fn with_skills<G: ToolGroup>(mut self, dir: SkillDir) -> Result<Self, SkillDirError> {
        let groups = R::GROUPS;
        let Some(g) = groups.iter().position(|info| info.name == G::NAME) else {
            return Err(SkillDirError::new(
                dir.root(),
                "",
                format!("the group `{}` is not a group of this toolkit", G::NAME),
            ));
        };
        let switch = R::SWITCHABLE.iter().position(|&s| s == g).map(|s| s as u32);
        let known: Vec<&str> = groups[g]
            .tools
            .iter()
            .chain(
                groups
                    .iter()
                    .filter(|i| i.basic)
                    .flat_map(|i| i.tools.iter()),
            )
            .map(|t| t.name)
            .collect();
        let problems: Vec<(String, Vec<toolgroup_skills::Diagnostic>)> = dir
            .loaded()
            .iter()
            .filter_map(|s| {
                let d = toolgroup_skills::unknown_allowed_tools(&s.md, &known);
                (!d.is_empty()).then(|| (s.name().to_owned(), d))
            })
            .collect();
        if !problems.is_empty() {
            return Err(SkillDirError {
                root: dir.root().to_path_buf(),
                problems,
            });
        }
        let root = dir.root().to_path_buf();
        let infos = dir.into_infos(groups[g].name);
        if let Err(clash) = self.configure(|core| core.skills.add(g as u32, switch, infos)) {
            return Err(SkillDirError::new(
                &root,
                clash,
                format!(
                    "the toolkit already has a skill named `{clash}`: skill names must be unique"
                ),
            ));
        }
        Ok(self)
    }

    /// `Skill` or `read_skill_file`, if the toolkit has skills: the target and the definition
    /// that names every skill.
    pub(crate) fn skill_target(&self, name: &str) -> Option<(Target, &'static ToolDefinition)> {
        self.core.skill_target(name)
    }
}

impl<R: Registry> Core<R> {
    /// The builtin definitions `session` is shown.
    pub(crate) fn skill_defs(&self, session: &Session<R>) -> Defs {
        self.skills.defs(session.bits().as_ref())
    }

    /// [`Toolkit::skill_target`].
    pub(crate) fn skill_target(&self, name: &str) -> Option<(Target, &'static ToolDefinition)> {
        let all = self.skills.all;
        match name {
            SKILL_TOOL => all.skill.map(|d| (Target::Skill, d)),
            READ_SKILL_FILE => all.file.map(|d| (Target::SkillFile, d)),
            _ => None,
        }
    }
}
