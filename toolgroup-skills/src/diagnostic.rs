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

/// Closest candidate by edit distance (for did-you-mean), `None` when nothing is close.
///
/// Compares case-insensitively and accepts a distance of at most a third of the input's
/// length (at least 1), so `descripton` finds `description` but `foo` finds nothing. Ties go
/// to the earliest candidate.
pub fn did_you_mean<'a>(
    input: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let input_lower = input.to_lowercase();
    let budget = (input.chars().count() / 3).max(1);
    let mut best: Option<(usize, &'a str)> = None;
    for candidate in candidates {
        let distance = levenshtein(&input_lower, &candidate.to_lowercase());
        if distance <= budget && best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, candidate)| candidate)
}

fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current = vec![0; b.len() + 1];
    for (i, ca) in a.chars().enumerate() {
        current[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != *cb);
            current[j + 1] = substitution.min(previous[j + 1] + 1).min(current[j] + 1);
        }
        std::mem::swap(&mut previous, &mut current);
    }
    previous[b.len()]
}

/// " (did you mean `x`?)" or nothing.
pub(crate) fn suggestion<'a>(input: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    did_you_mean(input, candidates)
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
    fn did_you_mean_finds_close_and_refuses_far() {
        let keys = ["name", "description", "license"];
        assert_eq!(did_you_mean("descripton", keys), Some("description"));
        assert_eq!(did_you_mean("Name", keys), Some("name"));
        assert_eq!(did_you_mean("foo", keys), None);
        assert_eq!(
            did_you_mean("when-to-use", ["when_to_use"]),
            Some("when_to_use")
        );
    }

    #[test]
    fn levenshtein_counts_edits() {
        assert_eq!(levenshtein("kitten", "sitting"), 3);
        assert_eq!(levenshtein("", "abc"), 3);
        assert_eq!(levenshtein("same", "same"), 0);
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
