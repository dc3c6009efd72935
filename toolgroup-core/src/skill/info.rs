//! What is known of a skill before any call: its frontmatter, body and files.

/// One file of a skill (its `SKILL.md` included), embedded in the binary.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct SkillFile {
    /// The path inside the skill's folder, `/`-separated (`"references/forms.md"`).
    pub path: &'static str,
    /// The file's bytes.
    pub bytes: &'static [u8],
    /// The SHA-256 digest of the bytes, lowercase hex (computed when the skill was read).
    pub sha256: &'static str,
    /// The MIME type, from the file's extension.
    pub mime: &'static str,
    /// Whether the file is UTF-8 text (served as text rather than as a blob).
    pub text: bool,
}

impl SkillFile {
    #[doc(hidden)]
    pub const fn __new(
        path: &'static str,
        bytes: &'static [u8],
        sha256: &'static str,
        mime: &'static str,
        text: bool,
    ) -> Self {
        SkillFile {
            path,
            bytes,
            sha256,
            mime,
            text,
        }
    }

    /// The file's size in bytes.
    pub const fn size(&self) -> usize {
        self.bytes.len()
    }

    /// The contents as text, for a text file.
    pub fn as_text(&self) -> Option<&'static str> {
        if self.text {
            std::str::from_utf8(self.bytes).ok()
        } else {
            None
        }
    }
}

/// A skill of a group: a `SKILL.md` (frontmatter and body) and the files of its folder.
///
/// Compiled-in skills are declared with `#[tool_group(skills = ["path/to/skill"])]`, read and
/// checked at compile time; skills read at run time (see
/// [`SkillDir`](crate::skill::SkillDir)) live for the rest of the process, like tools found
/// at run time.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct SkillInfo {
    /// The skill's name (its folder's name).
    pub name: &'static str,
    /// What the skill is for and when to use it.
    pub description: &'static str,
    /// The name of the group the skill belongs to.
    pub group: &'static str,
    /// The YAML frontmatter, verbatim (without its `---` lines).
    pub frontmatter: &'static str,
    /// The entries of `allowed-tools`, verbatim.
    pub allowed_tools: &'static [&'static str],
    /// Every file of the folder, `SKILL.md` included, sorted by path.
    pub files: &'static [SkillFile],
    skill_md: &'static str,
    body_offset: usize,
}

impl SkillInfo {
    #[doc(hidden)]
    #[allow(clippy::too_many_arguments)]
    pub const fn __new(
        name: &'static str,
        description: &'static str,
        group: &'static str,
        frontmatter: &'static str,
        allowed_tools: &'static [&'static str],
        files: &'static [SkillFile],
        skill_md: &'static str,
        body_offset: usize,
    ) -> Self {
        assert!(
            body_offset <= skill_md.len() && skill_md.is_char_boundary(body_offset),
            "toolgroup: a skill's body offset is outside its SKILL.md (the file changed during the build: build again)"
        );
        SkillInfo {
            name,
            description,
            group,
            frontmatter,
            allowed_tools,
            files,
            skill_md,
            body_offset,
        }
    }

    /// The Markdown body of `SKILL.md` (after the frontmatter): the instructions the model
    /// reads when it loads the skill.
    pub fn body(&self) -> &'static str {
        &self.skill_md[self.body_offset..]
    }

    /// The whole `SKILL.md`, frontmatter included.
    pub fn skill_md(&self) -> &'static str {
        self.skill_md
    }

    /// The file at `path` (relative to the skill's folder).
    pub fn file(&self, path: &str) -> Option<&'static SkillFile> {
        self.files.iter().find(|f| f.path == path)
    }

    /// The files besides `SKILL.md`, which `read_skill_file` serves.
    pub fn resources(&self) -> impl Iterator<Item = &'static SkillFile> + 'static {
        self.files.iter().filter(|f| f.path != SKILL_MD)
    }

    /// The skill's URI in the `skill://` scheme (`skill://<name>/`).
    pub fn uri(&self) -> String {
        format!("skill://{}/", self.name)
    }
}

/// The name of a skill's main file.
pub const SKILL_MD: &str = "SKILL.md";

/// The name of the builtin tool that loads a skill (the name AgentScope and Claude use).
pub const SKILL_TOOL: &str = "Skill";

/// The name of the builtin tool that reads one file of a skill.
pub const READ_SKILL_FILE: &str = "read_skill_file";

/// A generated skill enum: each `#[tool_group]` with skills gets one, named after the group
/// type (`DocumentsSkill` for `Documents`), one variant per skill.
pub trait SkillId: Copy + Eq + std::hash::Hash + std::fmt::Debug + Send + Sync + 'static {
    /// Every skill of the group, in declaration order.
    const ALL: &'static [Self];

    /// The skill's facts.
    fn info(self) -> &'static SkillInfo;

    /// The skill's name.
    fn name(self) -> &'static str {
        self.info().name
    }
}
