//! `allowed-tools` entries checked against the tools a toolkit has.

use crate::diagnostic::{Diagnostic, show};
use crate::frontmatter::{SkillMd, key_line};

/// Entries of `allowed-tools` in plain tool-name form (`[A-Za-z0-9_.-]+`) that name none of
/// `known`; host patterns such as `Bash(git:*)` or `mcp__x__*` (anything with `(`, `*`, `:`)
/// are kept and ignored. One diagnostic each (line of the key), with did-you-mean.
///
/// Claude Code's docs write the list comma-separated (`Read, Grep`), so an entry is also split
/// on commas before it is checked; the entries in [`Frontmatter::allowed_tools`] stay verbatim.
///
/// [`Frontmatter::allowed_tools`]: crate::Frontmatter::allowed_tools
pub fn unknown_allowed_tools(md: &SkillMd, known: &[&str]) -> Vec<Diagnostic> {
    let line = key_line(&md.frontmatter.raw, "allowed-tools");
    let plain = |s: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c))
    };
    let mut problems = Vec::new();
    for entry in &md.frontmatter.allowed_tools {
        if entry.contains(['(', '*', ':']) {
            continue;
        }
        for tool in entry.split(',').filter(|t| plain(t)) {
            if known.contains(&tool) {
                continue;
            }
            let hint = match crate::did_you_mean(tool, known.iter().copied()) {
                Some(close) => format!("did you mean `{close}`?"),
                None if known.is_empty() => "this toolkit has no tools; remove it".to_owned(),
                None => format!("remove it, or write one of {}", list(known)),
            };
            problems.push(Diagnostic::new(
                crate::SKILL_MD,
                line,
                format!(
                    "`allowed-tools` names {}, which is no tool here: {hint}",
                    show(tool)
                ),
            ));
        }
    }
    problems
}

/// At most 20 names, so a toolkit of 300 tools does not make a page-long message.
fn list(known: &[&str]) -> String {
    const SHOWN: usize = 20;
    let mut names: Vec<String> = known.iter().take(SHOWN).map(|k| format!("`{k}`")).collect();
    if known.len() > SHOWN {
        names.push(format!("and {} more", known.len() - SHOWN));
    }
    names.join(", ")
}
