//! A group's skills as read from disk: each path literal with its skill or its problems.

use std::path::PathBuf;

use syn::LitStr;
use toolgroup_skills::{Diagnostic, LoadedSkill};

/// One `skills = [...]` entry.
pub(crate) struct Skill {
    /// The path as written (errors are reported on it).
    pub(crate) lit: LitStr,
    /// The folder read and checked, or every problem found.
    pub(crate) read: Result<LoadedSkill, Vec<Diagnostic>>,
}

/// Read each folder, relative to the crate's `CARGO_MANIFEST_DIR`.
pub(crate) fn read(lits: &[LitStr]) -> Vec<Skill> {
    lits.iter()
        .map(|lit| Skill {
            lit: lit.clone(),
            read: resolve(&lit.value()).and_then(|dir| toolgroup_skills::load_skill(&dir)),
        })
        .collect()
}

fn resolve(path: &str) -> Result<PathBuf, Vec<Diagnostic>> {
    let problem = |message: String| {
        Err(vec![Diagnostic {
            file: String::new(),
            line: None,
            message,
        }])
    };
    if path.is_empty() {
        return problem("the skill path is empty: name the skill's folder, relative to the crate's Cargo.toml (`skills = [\"skills/pdf-tools\"]`)".into());
    }
    let relative = std::path::Path::new(path);
    if relative.is_absolute() {
        return problem("give the skill's folder relative to the crate's Cargo.toml, not as an absolute path (the build must not depend on where the crate sits)".into());
    }
    let Some(root) = std::env::var_os("CARGO_MANIFEST_DIR") else {
        return problem("`CARGO_MANIFEST_DIR` is not set: skills are read relative to the crate's Cargo.toml, so build with cargo".into());
    };
    let dir = PathBuf::from(root).join(relative);
    if !dir.is_dir() {
        return problem(format!(
            "no folder `{path}` next to the crate's Cargo.toml: a skill is a folder holding a `SKILL.md`"
        ));
    }
    Ok(dir)
}
