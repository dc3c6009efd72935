//! Loading a skill folder and a folder of skills.

use std::fs;
use std::path::{Path, PathBuf};

use crate::SKILL_MD;
use crate::diagnostic::{Diagnostic, show, suggestion};
use crate::frontmatter::{self, SkillMd};
use crate::links::{Target, references};
use crate::walk::{SkillFile, walk};

/// A skill folder, read and checked.
#[derive(Debug, Clone)]
pub struct LoadedSkill {
    /// The parsed SKILL.md.
    pub md: SkillMd,
    /// The canonical folder.
    pub dir: PathBuf,
    /// Every file including SKILL.md, sorted by path.
    pub files: Vec<SkillFile>,
}

impl LoadedSkill {
    /// The skill's `name`.
    pub fn name(&self) -> &str {
        &self.md.frontmatter.name
    }

    /// The file at `path` (relative, `/`-separated, as in [`SkillFile::path`]).
    pub fn file(&self, path: &str) -> Option<&SkillFile> {
        self.files
            .binary_search_by(|file| file.path.as_str().cmp(path))
            .ok()
            .map(|index| &self.files[index])
    }
}

/// Read a skill folder, check SKILL.md, its links against the files, symlinks and caps.
/// Every problem at once.
///
/// `name` is checked against the name of the canonical folder (a symlink's target), so an
/// alias of a skill under another name reads as the same skill.
pub fn load_skill(dir: &Path) -> Result<LoadedSkill, Vec<Diagnostic>> {
    let root = match fs::canonicalize(dir) {
        Ok(root) if root.is_dir() => root,
        Ok(_) => return Err(vec![folder_problem(dir, "is not a folder")]),
        Err(error) => {
            return Err(vec![folder_problem(
                dir,
                &format!("cannot be opened: {error}"),
            )]);
        }
    };
    let Some(dir_name) = root.file_name().and_then(|n| n.to_str()).map(str::to_owned) else {
        return Err(vec![folder_problem(
            dir,
            "has a name that is not valid UTF-8: rename it",
        )]);
    };
    let walked = walk(&root);
    let mut problems = walked.problems;
    let Some(main) = walked.files.iter().find(|f| f.path == SKILL_MD) else {
        problems.push(missing_skill_md(&root, &walked.seen));
        return Err(problems);
    };
    let Ok(text) = std::str::from_utf8(&main.bytes) else {
        problems.push(Diagnostic::new(
            SKILL_MD,
            None,
            "is not valid UTF-8: save it as UTF-8",
        ));
        return Err(problems);
    };
    let parsed = frontmatter::parse(text, Some(&dir_name));
    let mut md_problems = parsed.problems;
    if let Some(split) = &parsed.split
        && !walked.file_cap_hit
    {
        md_problems.extend(link_problems(split.body, split.body_line, &walked.seen));
    }
    md_problems.sort_by_key(|d| d.line);
    problems.splice(0..0, md_problems);
    match (parsed.split, parsed.frontmatter) {
        (Some(split), Some(frontmatter)) if problems.is_empty() => Ok(LoadedSkill {
            md: SkillMd {
                frontmatter,
                body: split.body.to_owned(),
                body_offset: split.body_offset,
                body_line: split.body_line,
            },
            dir: root,
            files: walked.files,
        }),
        _ => Err(problems),
    }
}

fn folder_problem(dir: &Path, what: &str) -> Diagnostic {
    Diagnostic::new(
        "",
        None,
        format!(
            "the skill folder {} {what}",
            show(&dir.display().to_string())
        ),
    )
}

fn skills_root_problem(root: &Path, what: &str) -> Diagnostic {
    let shown = show(&root.display().to_string());
    Diagnostic::new(
        "",
        None,
        format!("the skills folder {shown} {what}: create it or fix the path"),
    )
}

fn missing_skill_md(root: &Path, seen: &[String]) -> Diagnostic {
    let hint = match seen.iter().find(|p| p.eq_ignore_ascii_case(SKILL_MD)) {
        Some(other) => format!("found `{other}`: rename it to `SKILL.md`"),
        None => "add one: `---`, `name:`, `description:`, `---`, then the instructions".to_owned(),
    };
    Diagnostic::new(
        "",
        None,
        format!(
            "no SKILL.md in {}: {hint}",
            show(&root.display().to_string())
        ),
    )
}

/// The references of the body that name nothing in the folder, leave it, or are absolute.
fn link_problems(body: &str, body_line: usize, seen: &[String]) -> Vec<Diagnostic> {
    let mut problems = Vec::new();
    for reference in references(body, body_line) {
        let written = show(&reference.written);
        let message = match reference.target {
            Target::Absolute => format!(
                "{written} is an absolute path: write it relative to the skill folder, e.g. \
                 `references/{}`",
                reference.written.rsplit('/').next().unwrap_or_default()
            ),
            Target::Escapes => format!(
                "{written} leaves the skill folder (through `..`): a skill may refer only to its \
                 own files; copy the file in"
            ),
            Target::Inside(path) if exists(&path, seen) => continue,
            Target::Inside(path) => format!(
                "{written} names no file or folder in the skill{}",
                match suggestion(&path, seen.iter().map(String::as_str)) {
                    hint if !hint.is_empty() => hint,
                    _ => ": add the file or fix the path (hidden files are not part of a skill)"
                        .to_owned(),
                }
            ),
        };
        problems.push(Diagnostic::new(SKILL_MD, Some(reference.line), message));
    }
    problems
}

/// A file of that path, or a folder holding one; the folder itself for the empty path.
fn exists(path: &str, seen: &[String]) -> bool {
    path.is_empty()
        || seen.binary_search_by(|p| p.as_str().cmp(path)).is_ok()
        || seen.iter().any(|p| {
            p.strip_prefix(path)
                .is_some_and(|rest| rest.starts_with('/'))
        })
}

/// A run-time directory of skills: every immediate subdirectory holding a SKILL.md.
///
/// Returns the skills that loaded and, for each that did not (or each duplicate `name`), its
/// folder name and diagnostics, never only a log line. Subdirectories without SKILL.md, and
/// hidden ones, are ignored; folders are taken in name order, so of two skills with one
/// `name` the later folder is the duplicate. `root` itself must exist and be a directory,
/// else one entry named after `root` (as displayed) with one diagnostic.
pub fn load_skills_dir(root: &Path) -> (Vec<LoadedSkill>, Vec<(String, Vec<Diagnostic>)>) {
    let mut loaded: Vec<LoadedSkill> = Vec::new();
    let mut failed = Vec::new();
    let shown = root.display().to_string();
    if root.exists() && !root.is_dir() {
        failed.push((shown, vec![skills_root_problem(root, "is not a folder")]));
        return (loaded, failed);
    }
    let entries = match fs::read_dir(root) {
        Ok(entries) => entries,
        Err(error) => {
            let what = format!("cannot be opened: {error}");
            failed.push((shown, vec![skills_root_problem(root, &what)]));
            return (loaded, failed);
        }
    };
    let mut folders: Vec<(String, PathBuf)> = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        if !path.is_dir() || !path.join(SKILL_MD).exists() {
            continue;
        }
        match entry.file_name().into_string() {
            Ok(name) if name.starts_with('.') => {}
            Ok(name) => folders.push((name, path)),
            Err(name) => failed.push((
                name.to_string_lossy().into_owned(),
                vec![Diagnostic::new(
                    "",
                    None,
                    "the folder's name is not valid UTF-8: rename it",
                )],
            )),
        }
    }
    folders.sort();
    for (folder, path) in folders {
        match load_skill(&path) {
            Ok(skill) => match loaded.iter().find(|other| other.name() == skill.name()) {
                Some(other) => {
                    let message = format!(
                        "the skill name `{}` is already used by the skill in {}: give each \
                         skill its own name (and folder)",
                        skill.name(),
                        show(&other.dir.display().to_string())
                    );
                    failed.push((folder, vec![Diagnostic::new(SKILL_MD, None, message)]));
                }
                None => loaded.push(skill),
            },
            Err(problems) => failed.push((folder, problems)),
        }
    }
    (loaded, failed)
}
