//! Skills: a group's Agent Skills (folders with a `SKILL.md`), disclosed with the group.
//!
//! A group declares its skills with `#[tool_group(..., skills = ["skills/pdf-tools"])]`; the
//! macro reads each folder at compile time, checks it (the frontmatter, the name, the links of
//! the body, the files and their sizes) and embeds every file with its SHA-256 digest. The
//! toolkit then shows the model two builtin tools beside `reset_tools`:
//!
//! - [`SKILL_TOOL`] (`Skill`), `{"skill": <one of the visible skills>}`: the skill's
//!   instructions, wrapped as `<skill_content name="...">`, then the paths of its files;
//! - [`READ_SKILL_FILE`] (`read_skill_file`), `{"path": "<skill>/<file>"}`: one file of a
//!   visible skill (text as text, images as image blocks, other files as a resource).
//!
//! A skill is *visible* when its group is basic or active. `Skill` is listed only while a
//! skill is visible, `read_skill_file` only while a visible skill has files besides its
//! `SKILL.md`; in list mode their enums hold the visible skills, in mask mode (whose tool
//! array never changes) every skill. [`Toolkit::skills_prompt`](crate::Toolkit::skills_prompt)
//! renders the `<agent-skills>` block for a system prompt, and each `reset_tools` answer lists
//! the skills the newly active groups bring, so a prompt need not be rewritten.
//!
//! A skill of an inactive group is refused with the group to activate; with
//! [`Toolkit::with_skill_activation`](crate::Toolkit::with_skill_activation) loading it
//! activates its group instead (every skill is then visible).
//!
//! Every file is embedded with `include_bytes!`, so cargo rebuilds the crate when one of them
//! changes; a file *added* to a folder is picked up by the next build of the crate (a proc
//! macro cannot ask cargo to watch a folder), which any edit of the crate or of `SKILL.md`
//! triggers.
//!
//! Skills found at run time (a user's own folder) are read with [`SkillDir`], which runs the
//! same checks and returns every problem to the application.

pub(crate) mod info;
mod loader;
pub(crate) mod table;
pub(crate) mod text;

pub use info::{READ_SKILL_FILE, SKILL_MD, SKILL_TOOL, SkillFile, SkillId, SkillInfo};
pub use loader::{SkillDir, SkillDirError};

pub use toolgroup_skills::{HOST_KEYS, MAX_FILES, MAX_TOTAL_BYTES, SPEC_KEYS};

/// A skill name given by the application that this toolkit does not hold.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct UnknownSkill {
    /// The name asked for.
    pub name: String,
    /// The toolkit's skills.
    pub known: Vec<&'static str>,
}

impl std::fmt::Display for UnknownSkill {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "unknown skill `{}`",
            text::escape(&crate::echo::echo(&self.name, 64))
        )?;
        if let Some(s) = crate::suggest::did_you_mean(&self.name, self.known.iter().copied()) {
            write!(f, " (did you mean `{s}`?)")?;
        }
        write!(
            f,
            "; the skills are {}",
            crate::suggest::list_names(self.known.iter().copied())
        )
    }
}

impl std::error::Error for UnknownSkill {}
