//! The files of a skill folder: a deterministic walk with the symlink, file-kind and cap
//! rules, and [`resolve_under`] for paths callers send at run time.

use std::fs;
use std::path::{Component, Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::diagnostic::{Diagnostic, show};
use crate::mime::{is_text, mime_type};
use crate::{MAX_FILES, MAX_TOTAL_BYTES, SKILL_MD};

/// One file of a skill, read.
#[derive(Debug, Clone)]
pub struct SkillFile {
    /// Relative, `/`-separated, e.g. "references/forms.md"; "SKILL.md" for the main file.
    pub path: String,
    /// Canonical absolute path on disk (a symlink's target).
    pub abs: PathBuf,
    /// Size in bytes.
    pub size: u64,
    /// SHA-256 of the content, lowercase hex (64 characters).
    pub sha256: String,
    /// MIME type by extension ([`mime_type`](crate::mime_type)).
    pub mime: &'static str,
    /// Valid UTF-8 and of a text type ([`is_text`](crate::is_text)).
    pub text: bool,
    /// The content.
    pub bytes: Vec<u8>,
}

/// The SHA-256 of `bytes` as 64 lowercase hex digits.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// What the walk found: the files read (sorted by path), every path seen (for link checks),
/// whether it stopped at the file cap, and the problems.
#[derive(Debug, Default)]
pub(crate) struct Walk {
    pub(crate) files: Vec<SkillFile>,
    pub(crate) seen: Vec<String>,
    pub(crate) file_cap_hit: bool,
    pub(crate) problems: Vec<Diagnostic>,
}

struct Candidate {
    path: String,
    abs: PathBuf,
    size: u64,
}

/// Walks `root` (canonical) recursively, skipping entries whose name starts with `.`.
///
/// Collects the regular files (and symlinks to files or folders inside `root`), then reads
/// them in path order so the caps cut at the same file on every machine. Past
/// [`MAX_FILES`] the walk stops, which bounds the work on a wrong folder such as a home
/// directory.
pub(crate) fn walk(root: &Path) -> Walk {
    let mut walk = Walk::default();
    let mut candidates = Vec::new();
    // (folder on disk, its relative path, the canonical folders above it for loop checks)
    let mut stack: Vec<(PathBuf, String, Vec<PathBuf>)> =
        vec![(root.to_path_buf(), String::new(), vec![root.to_path_buf()])];
    'folders: while let Some((dir, rel_dir, ancestors)) = stack.pop() {
        let entries = match fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(error) => {
                walk.problems.push(Diagnostic::new(
                    rel_dir,
                    None,
                    format!("cannot read the folder: {error}"),
                ));
                continue;
            }
        };
        for entry in entries {
            let entry = match entry {
                Ok(entry) => entry,
                Err(error) => {
                    walk.problems.push(Diagnostic::new(
                        &rel_dir,
                        None,
                        format!("cannot read the folder: {error}"),
                    ));
                    continue;
                }
            };
            let os_name = entry.file_name();
            let Some(name) = os_name.to_str() else {
                walk.problems.push(Diagnostic::new(
                    &rel_dir,
                    None,
                    format!(
                        "the name {:?} is not valid UTF-8: rename it (skill paths are sent as text)",
                        os_name.to_string_lossy()
                    ),
                ));
                continue;
            };
            if name.starts_with('.') {
                continue;
            }
            let rel = if rel_dir.is_empty() {
                name.to_owned()
            } else {
                format!("{rel_dir}/{name}")
            };
            let path = entry.path();
            let Some((abs, meta)) = follow(root, &path, &rel, &mut walk.problems) else {
                continue;
            };
            if meta.is_dir() {
                if ancestors.contains(&abs) {
                    walk.problems.push(Diagnostic::new(
                        &rel,
                        None,
                        "this symlink points to a folder that contains it (a loop): remove it",
                    ));
                    continue;
                }
                let mut below = ancestors.clone();
                below.push(abs.clone());
                stack.push((abs, rel, below));
            } else if meta.is_file() {
                walk.seen.push(rel.clone());
                candidates.push(Candidate {
                    path: rel,
                    abs,
                    size: meta.len(),
                });
                if candidates.len() > MAX_FILES {
                    walk.file_cap_hit = true;
                    break 'folders;
                }
            } else {
                walk.problems.push(Diagnostic::new(
                    &rel,
                    None,
                    "is not a regular file (a fifo, socket or device): remove it from the skill",
                ));
            }
        }
    }
    // SKILL.md is read first, so a cap never hides the one file every skill needs.
    candidates.sort_by(|a, b| (a.path != SKILL_MD, &a.path).cmp(&(b.path != SKILL_MD, &b.path)));
    walk.seen.sort();
    if walk.file_cap_hit {
        walk.problems.push(Diagnostic::new(
            "",
            None,
            format!(
                "the skill has more than {MAX_FILES} files (hidden ones not counted): keep at \
                 most {MAX_FILES}, e.g. by archiving rarely used assets"
            ),
        ));
        candidates.truncate(MAX_FILES);
    }
    read_all(candidates, &mut walk);
    walk.files.sort_by(|a, b| a.path.cmp(&b.path));
    walk
}

/// The canonical path and metadata of an entry, following a symlink when its target is
/// inside `root`; `None` (and a problem) otherwise.
fn follow(
    root: &Path,
    path: &Path,
    rel: &str,
    problems: &mut Vec<Diagnostic>,
) -> Option<(PathBuf, fs::Metadata)> {
    let meta = match fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(error) => {
            problems.push(Diagnostic::new(
                rel,
                None,
                format!("cannot read it: {error}"),
            ));
            return None;
        }
    };
    if !meta.file_type().is_symlink() {
        return Some((path.to_path_buf(), meta));
    }
    let target = fs::read_link(path)
        .map(|t| t.display().to_string())
        .unwrap_or_default();
    let abs = match fs::canonicalize(path) {
        Ok(abs) => abs,
        Err(_) => {
            problems.push(Diagnostic::new(
                rel,
                None,
                format!(
                    "is a symlink to {}, which does not exist: fix or remove it",
                    show(&target)
                ),
            ));
            return None;
        }
    };
    if !abs.starts_with(root) {
        problems.push(Diagnostic::new(
            rel,
            None,
            format!(
                "is a symlink to {}, outside the skill folder: copy the file into the folder \
                 instead (a skill must be self-contained)",
                show(&from_root(root, &abs))
            ),
        ));
        return None;
    }
    match fs::metadata(&abs) {
        Ok(meta) => Some((abs, meta)),
        Err(error) => {
            problems.push(Diagnostic::new(
                rel,
                None,
                format!("cannot read its target: {error}"),
            ));
            None
        }
    }
}

/// `abs` as seen from the skill folder `root` (both canonical), e.g. `../../outside.txt`, so a
/// message names the target the same way wherever the checkout and the build folder live;
/// the absolute path when the two share nothing below the filesystem's root (another drive,
/// or `/etc/...`), where a chain of `..` would say less.
fn from_root(root: &Path, abs: &Path) -> String {
    let root_parts: Vec<Component<'_>> = root.components().collect();
    let abs_parts: Vec<Component<'_>> = abs.components().collect();
    let common = root_parts
        .iter()
        .zip(&abs_parts)
        .take_while(|(a, b)| a == b)
        .count();
    let shares_a_folder = root_parts[..common]
        .iter()
        .any(|c| matches!(c, Component::Normal(_)));
    if !shares_a_folder {
        return abs.display().to_string();
    }
    let ups = root_parts.len() - common;
    let mut parts: Vec<String> = vec!["..".to_owned(); ups];
    parts.extend(
        abs_parts[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    parts.join("/")
}

fn read_all(candidates: Vec<Candidate>, walk: &mut Walk) {
    let mut total: u64 = 0;
    for candidate in candidates {
        if total.saturating_add(candidate.size) > MAX_TOTAL_BYTES {
            walk.problems.push(Diagnostic::new(
                "",
                None,
                format!(
                    "the skill's files add up to more than {} MiB (at {}): keep the total \
                     under {MAX_TOTAL_BYTES} bytes, e.g. by leaving large assets out",
                    MAX_TOTAL_BYTES / (1024 * 1024),
                    show(&candidate.path)
                ),
            ));
            return;
        }
        match fs::read(&candidate.abs) {
            Ok(bytes) => {
                total += bytes.len() as u64;
                let mime = mime_type(&candidate.path);
                walk.files.push(SkillFile {
                    sha256: sha256_hex(&bytes),
                    size: bytes.len() as u64,
                    text: is_text(mime, &bytes),
                    mime,
                    path: candidate.path,
                    abs: candidate.abs,
                    bytes,
                });
            }
            Err(error) => walk.problems.push(Diagnostic::new(
                candidate.path,
                None,
                format!("cannot read it: {error}"),
            )),
        }
    }
}

/// Shell of the run-time check: a path given by a caller (relative, `/`-separated) resolved
/// under `root`. Refuses an empty path, absolute paths, `..` components, and anything that
/// canonicalises outside `root` (canonicalise, then `starts_with`), which catches symlinks.
/// Hidden entries (a component starting with `.`) are refused too. The path must exist
/// (canonicalising needs it).
pub fn resolve_under(root: &Path, relative: &str) -> Result<PathBuf, Diagnostic> {
    let refuse = |why: String| Err(Diagnostic::new(relative, None, why));
    if relative.is_empty() {
        return refuse("the path is empty: name a file inside the skill, e.g. `SKILL.md`".into());
    }
    if relative.contains('\0') {
        return refuse(format!("the path {} holds a NUL character", show(relative)));
    }
    let path = Path::new(relative);
    if relative.starts_with(['/', '\\']) || path.has_root() || path.is_absolute() {
        return refuse(format!(
            "the path {} is absolute: give it relative to the skill folder, e.g. `references/x.md`",
            show(relative)
        ));
    }
    if relative.split(['/', '\\']).any(|part| part == "..")
        || path
            .components()
            .any(|c| matches!(c, Component::ParentDir | Component::Prefix(_)))
    {
        return refuse(format!(
            "the path {} has a `..` component: name a file inside the skill folder",
            show(relative)
        ));
    }
    // Hidden entries are not part of a skill (the walk skips them), so `.git/config` or `.env`
    // beside the skill are not served either.
    if relative
        .split('/')
        .any(|part| part.starts_with('.') && part != ".")
    {
        return refuse(format!(
            "the path {} names a hidden entry (starting with `.`), which is not part of a skill",
            show(relative)
        ));
    }
    let root = fs::canonicalize(root).map_err(|error| {
        Diagnostic::new(
            "",
            None,
            format!("cannot open the skill folder {}: {error}", root.display()),
        )
    })?;
    let resolved = match fs::canonicalize(root.join(path)) {
        Ok(resolved) => resolved,
        Err(_) => return refuse(format!("no file {} in the skill folder", show(relative))),
    };
    if !resolved.starts_with(&root) {
        return refuse(format!(
            "the path {} leads outside the skill folder (through a symlink)",
            show(relative)
        ));
    }
    Ok(resolved)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn a_target_is_named_from_the_skill_folder() {
        let root = Path::new("/home/a very/long path/target/skills/escapes");
        assert_eq!(
            from_root(root, Path::new("/home/a very/long path/target/outside.txt")),
            "../../outside.txt"
        );
        assert_eq!(
            from_root(
                root,
                Path::new("/home/a very/long path/target/skills/other/x.md")
            ),
            "../other/x.md"
        );
        // Nothing shared below `/`: the absolute path says more than `../../../../../../etc`.
        assert_eq!(from_root(root, Path::new("/etc/passwd")), "/etc/passwd");
    }
}
