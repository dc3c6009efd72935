//! The names the groups have on the wire of the groups drafts: the draft's rule is
//! lowercase letters, digits and single hyphens, where toolgroup's group names are
//! `snake_case` identifiers (capitals allowed).

use std::fmt;

use toolgroup_core::meta::GroupInfo;

/// Longest name the draft allows.
const MAX_CHARS: usize = 64;

/// Why a server does not declare the groups extensions nor label its tools with
/// `_meta["io.modelcontextprotocol/groups"]`: a group's name has no name under the drafts'
/// rule, or two groups would share one. See
/// [`McpServer::group_name_problems`](crate::McpServer::group_name_problems).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum GroupNameProblem {
    /// These groups (two or more) map to the same name.
    Clash {
        /// The groups, by their own names, in declaration order.
        groups: Vec<&'static str>,
        /// The name they would share.
        name: String,
    },
    /// The group's name maps to a name the drafts refuse (empty: only underscores).
    Invalid {
        /// The group, by its own name.
        group: &'static str,
        /// What its name maps to.
        name: String,
    },
}

impl fmt::Display for GroupNameProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GroupNameProblem::Clash { groups, name } => {
                f.write_str("the groups ")?;
                for (i, group) in groups.iter().enumerate() {
                    if i > 0 {
                        f.write_str(if i + 1 == groups.len() { " and " } else { ", " })?;
                    }
                    write!(f, "`{group}`")?;
                }
                write!(
                    f,
                    " all map to the name `{name}` (lowercase, `_` as `-`): rename one so each group has a name of its own"
                )
            }
            GroupNameProblem::Invalid { group, name } => write!(
                f,
                "the group `{group}` maps to `{name}`, which is not a name under the groups drafts' rule (1 to 64 lowercase letters, digits and single hyphens): rename it"
            ),
        }
    }
}

impl std::error::Error for GroupNameProblem {}

/// `name` under the drafts' rule: lowercase, `_` as `-`, runs of hyphens as one, none at
/// either end (`Web__Search_` is `web-search`).
pub(crate) fn wire_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        let c = if c == '_' {
            '-'
        } else {
            c.to_ascii_lowercase()
        };
        if c == '-' && (out.is_empty() || out.ends_with('-')) {
            continue;
        }
        out.push(c);
    }
    if out.ends_with('-') {
        out.pop();
    }
    out
}

/// Whether `name` follows the drafts' rule: `^[a-z0-9]+(-[a-z0-9]+)*$`, 1 to 64 characters.
pub(crate) fn is_wire_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_CHARS
        && !name.starts_with('-')
        && !name.ends_with('-')
        && !name.contains("--")
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// Every switchable group's name on the wire, computed once per server.
#[derive(Debug)]
pub(crate) struct GroupNames {
    /// `(index in GROUPS, wire name)` for each switchable group, in declaration order.
    entries: Vec<(usize, String)>,
    problems: Vec<GroupNameProblem>,
}

impl GroupNames {
    /// The wire names of the switchable groups `switchable` (indices into `groups`).
    pub(crate) fn new(groups: &'static [GroupInfo], switchable: &[usize]) -> Self {
        let entries: Vec<(usize, String)> = switchable
            .iter()
            .map(|&i| (i, wire_name(groups[i].name)))
            .collect();
        let mut problems = Vec::new();
        for (k, (i, name)) in entries.iter().enumerate() {
            if !is_wire_name(name) {
                problems.push(GroupNameProblem::Invalid {
                    group: groups[*i].name,
                    name: name.clone(),
                });
                continue;
            }
            // Reported once, at the first group of the clash.
            if entries[..k].iter().any(|(_, other)| other == name) {
                continue;
            }
            let clash: Vec<&'static str> = entries
                .iter()
                .filter(|(_, other)| other == name)
                .map(|(j, _)| groups[*j].name)
                .collect();
            if clash.len() > 1 {
                problems.push(GroupNameProblem::Clash {
                    groups: clash,
                    name: name.clone(),
                });
            }
        }
        GroupNames { entries, problems }
    }

    /// What keeps the groups off the wire (empty: nothing).
    pub(crate) fn problems(&self) -> &[GroupNameProblem] {
        &self.problems
    }

    /// Whether every switchable group has a name of its own on the wire.
    pub(crate) fn is_clean(&self) -> bool {
        self.problems.is_empty()
    }

    /// The wire name of the switchable group named `group` (`None` for basic groups and
    /// unknown names).
    pub(crate) fn wire(&self, group: &str, groups: &[GroupInfo]) -> Option<&str> {
        self.entries
            .iter()
            .find(|(i, _)| groups[*i].name == group)
            .map(|(_, name)| name.as_str())
    }

    /// The index in `GROUPS` of the group whose wire name is `name`.
    pub(crate) fn find(&self, name: &str) -> Option<usize> {
        self.entries
            .iter()
            .find(|(_, n)| n == name)
            .map(|(i, _)| *i)
    }

    /// `(index in GROUPS, wire name)` of each switchable group, in declaration order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (usize, &str)> {
        self.entries.iter().map(|(i, n)| (*i, n.as_str()))
    }
}

#[cfg(test)]
mod tests {
    use super::{is_wire_name, wire_name};

    #[test]
    fn names_map_to_the_drafts_rule() {
        for (name, wire) in [
            ("web_search", "web-search"),
            ("WebSearch", "websearch"),
            ("_private", "private"),
            ("a__b_", "a-b"),
            ("x1_2", "x1-2"),
            ("___", ""),
        ] {
            assert_eq!(wire_name(name), wire, "{name}");
            assert_eq!(is_wire_name(wire), !wire.is_empty(), "{wire}");
        }
        for bad in ["-a", "a-", "a--b", "A", "a_b", "é", &"a".repeat(65)] {
            assert!(!is_wire_name(bad), "{bad}");
        }
        assert!(is_wire_name(&"a".repeat(64)));
    }
}
