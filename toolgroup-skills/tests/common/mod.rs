//! Fixture folders made at test time under the system temp dir, removed on drop.

#![allow(dead_code, unreachable_pub)]

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use toolgroup_skills::Diagnostic;

/// A fresh, empty folder unique to this process and call.
#[derive(Debug)]
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(label: &str) -> TempDir {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path = std::env::temp_dir()
            .join("toolgroup-skills-tests")
            .join(format!("{}-{n}-{label}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        TempDir(path)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    /// Writes `content` at `relative`, creating the folders above it.
    pub fn write(&self, relative: &str, content: impl AsRef<[u8]>) -> PathBuf {
        let path = self.0.join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, content).unwrap();
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A SKILL.md with this name and body and a fixed description.
pub fn skill_md(name: &str, body: &str) -> String {
    format!(
        "---\nname: {name}\ndescription: Fills PDF forms. Use when a form must be filled.\n---\n{body}"
    )
}

/// `(line, message)` of each diagnostic, for compact assertions.
pub fn lines(diagnostics: &[Diagnostic]) -> Vec<(Option<usize>, &str)> {
    diagnostics
        .iter()
        .map(|d| (d.line, d.message.as_str()))
        .collect()
}

/// Panics with every diagnostic unless one has `line` and a message containing `needle`.
pub fn assert_has(diagnostics: &[Diagnostic], line: Option<usize>, needle: &str) {
    assert!(
        diagnostics
            .iter()
            .any(|d| d.line == line && d.message.contains(needle)),
        "no diagnostic at {line:?} containing {needle:?} in:\n{}",
        diagnostics
            .iter()
            .map(|d| format!("  {d}\n"))
            .collect::<String>()
    );
}
