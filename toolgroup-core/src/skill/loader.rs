//! Skills read at run time: a directory of skill folders, checked like compiled-in skills.

use std::fmt;
use std::path::{Path, PathBuf};

use toolgroup_skills::{Diagnostic, LoadedSkill};

use super::info::{SkillFile, SkillInfo};

/// The skills of a directory read at run time (a user's own skills folder): every immediate
/// subdirectory that holds a `SKILL.md`, checked with the rules compiled-in skills follow
/// (frontmatter, name equal to the folder, links of the body, no file or symlink leaving the
/// folder, at most [`MAX_FILES`](super::MAX_FILES) files and
/// [`MAX_TOTAL_BYTES`](super::MAX_TOTAL_BYTES) per skill).
///
/// Give it to a group with [`Toolkit::with_skills`](crate::Toolkit::with_skills). Loading
/// reads every file into memory once; the skills then live for the rest of the process.
#[derive(Debug)]
pub struct SkillDir {
    root: PathBuf,
    skills: Vec<LoadedSkill>,
}

impl SkillDir {
    /// Read and check every skill under `root`. Every problem of every skill is returned at
    /// once; nothing is loaded unless all of them are fine.
    pub fn load(root: impl AsRef<Path>) -> Result<SkillDir, SkillDirError> {
        let root = root.as_ref();
        let (skills, problems) = toolgroup_skills::load_skills_dir(root);
        if problems.is_empty() {
            Ok(SkillDir {
                root: root.to_path_buf(),
                skills,
            })
        } else {
            Err(SkillDirError {
                root: root.to_path_buf(),
                problems,
            })
        }
    }

    /// The skills' names, sorted.
    pub fn names(&self) -> impl Iterator<Item = &str> + '_ {
        self.skills.iter().map(LoadedSkill::name)
    }

    /// How many skills there are.
    pub fn len(&self) -> usize {
        self.skills.len()
    }

    /// Whether the directory held no skill.
    pub fn is_empty(&self) -> bool {
        self.skills.is_empty()
    }

    pub(crate) fn root(&self) -> &Path {
        &self.root
    }

    /// The skills, owned by group `group` from now on (`'static`: see the type's docs).
    pub(crate) fn into_infos(self, group: &'static str) -> Vec<&'static SkillInfo> {
        self.skills
            .into_iter()
            .map(|s| &*Box::leak(Box::new(leak(s, group))))
            .collect()
    }

    pub(crate) fn loaded(&self) -> &[LoadedSkill] {
        &self.skills
    }
}

fn leak(skill: LoadedSkill, group: &'static str) -> SkillInfo {
    let LoadedSkill { md, files, .. } = skill;
    let text = |s: String| -> &'static str { Box::leak(s.into_boxed_str()) };
    let files: Vec<SkillFile> = files
        .into_iter()
        .map(|f| {
            SkillFile::__new(
                text(f.path),
                Box::leak(f.bytes.into_boxed_slice()),
                text(f.sha256),
                f.mime,
                f.text,
            )
        })
        .collect();
    let skill_md = files
        .iter()
        .find(|f| f.path == super::SKILL_MD)
        .and_then(SkillFile::as_text)
        .unwrap_or_default();
    let allowed: Vec<&'static str> = md.frontmatter.allowed_tools.into_iter().map(text).collect();
    SkillInfo::__new(
        text(md.frontmatter.name),
        text(md.frontmatter.description),
        group,
        text(md.frontmatter.raw),
        Box::leak(allowed.into_boxed_slice()),
        Box::leak(files.into_boxed_slice()),
        skill_md,
        md.body_offset.min(skill_md.len()),
    )
}

/// What is wrong with a directory of skills (or with giving its skills to a group): every
/// problem, by skill folder.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct SkillDirError {
    /// The directory.
    pub root: PathBuf,
    /// Each folder with a problem (empty for the directory itself) and its problems.
    pub problems: Vec<(String, Vec<Diagnostic>)>,
}

impl SkillDirError {
    pub(crate) fn new(root: &Path, folder: &str, message: String) -> Self {
        SkillDirError {
            root: root.to_path_buf(),
            problems: vec![(
                folder.to_owned(),
                vec![Diagnostic {
                    file: String::new(),
                    line: None,
                    message,
                }],
            )],
        }
    }
}

impl fmt::Display for SkillDirError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the skills in {} could not be loaded:",
            self.root.display()
        )?;
        for (folder, diagnostics) in &self.problems {
            for d in diagnostics {
                if folder.is_empty() {
                    write!(f, "\n- {d}")?;
                } else if d.file.is_empty() {
                    write!(f, "\n- {folder}: {}", d.message)?;
                } else {
                    write!(f, "\n- {folder}/{d}")?;
                }
            }
        }
        Ok(())
    }
}

impl std::error::Error for SkillDirError {}
