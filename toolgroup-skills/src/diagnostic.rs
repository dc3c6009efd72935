//! The one error type, and the helpers every module uses to write actionable messages.

use std::fmt;

/// One problem found in a skill, with where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// The file inside the skill folder, `/`-separated and relative to it (e.g. "SKILL.md");
    /// empty for the folder itself.
    pub file: String,
    /// 1-based line in that file, when there is one.
    pub line: Option<usize>,
    /// What is wrong, the value found and what to write instead.
    pub message: String,
}

impl Diagnostic {
    /// A diagnostic on `file` at `line`.
    pub fn new(file: impl Into<String>, line: Option<usize>, message: impl Into<String>) -> Self {
        Diagnostic {
            file: file.into(),
            line,
            message: message.into(),
        }
    }

    /// A diagnostic on `SKILL.md` at `line`.
    pub(crate) fn skill_md(line: Option<usize>, message: impl Into<String>) -> Self {
        Diagnostic::new(crate::SKILL_MD, line, message)
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.file.is_empty(), self.line) {
            (true, _) => f.write_str(&self.message),
            (false, Some(line)) => write!(f, "{}:{line}: {}", self.file, self.message),
            (false, None) => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

impl std::error::Error for Diagnostic {}

/// A value as a message shows it: in backticks when that reads unambiguously, else escaped
/// with `{:?}` (control characters, backticks, surrounding blanks); long values are cut so a
/// 2000-character description does not drown the message.
pub(crate) fn show(value: &str) -> String {
    const MAX: usize = 60;
    let cut: String = value.chars().take(MAX).collect();
    let ellipsis = if cut.len() < value.len() { "…" } else { "" };
    let plain =
        !cut.is_empty() && cut.trim() == cut && !cut.chars().any(|c| c.is_control() || c == '`');
    if plain {
        format!("`{cut}`{ellipsis}")
    } else {
        format!("{cut:?}{ellipsis}")
    }
}

/// " (did you mean `x`?)" or nothing.
pub(crate) fn suggestion<'a>(input: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    crate::did_you_mean(input, candidates)
        .map(|s| format!(": did you mean `{s}`?"))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_has_three_forms() {
        assert_eq!(
            Diagnostic::new("SKILL.md", Some(3), "bad").to_string(),
            "SKILL.md:3: bad"
        );
        assert_eq!(
            Diagnostic::new("SKILL.md", None, "bad").to_string(),
            "SKILL.md: bad"
        );
        assert_eq!(Diagnostic::new("", None, "bad").to_string(), "bad");
    }

    #[test]
    fn show_escapes_what_backticks_would_hide() {
        assert_eq!(show("pdf"), "`pdf`");
        assert_eq!(show("a\tb"), "\"a\\tb\"");
        assert_eq!(show(" x"), "\" x\"");
        assert_eq!(show(""), "\"\"");
        assert!(show(&"x".repeat(100)).ends_with('…'));
    }
}
