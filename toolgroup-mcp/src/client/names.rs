//! The names remote tools are exposed under: validated against the tool-name rule every
//! provider accepts (the one the macros and the runtime check), with an optional prefix the
//! author sets.

use std::collections::HashSet;
use std::fmt;

use toolgroup_core::meta::BUILTIN_TOOLS;
use toolgroup_skills::shared::{TOOL_NAME_RULE, ToolNameError, check_tool_name};

/// The longest tool name every provider accepts (the macros and the runtime check the same).
pub use toolgroup_skills::shared::MAX_TOOL_NAME_LEN;

pub use toolgroup_skills::shared::is_valid_tool_name;

/// A remote tool and the name the model sees it under.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct ExposedName {
    /// The tool's name on the remote server (what a call sends).
    pub remote: String,
    /// The name shown to the model: the prefix followed by the remote name.
    pub exposed: String,
}

/// Why a remote tool cannot be exposed (or why the prefix is unusable).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum NameProblem {
    /// The prefix does not start a valid tool name (it must start with a letter or `_` and
    /// have only `[A-Za-z0-9_-]`) or is longer than 63 characters; no tool is exposed.
    InvalidPrefix {
        /// The prefix.
        prefix: String,
    },
    /// The remote name is empty or has characters outside `[A-Za-z0-9_-]` (dots, slashes,
    /// spaces...), or, without a prefix, starts with a digit or `-`.
    Invalid {
        /// The remote name.
        remote: String,
    },
    /// The name is longer than 64 characters (with the prefix).
    TooLong {
        /// The remote name.
        remote: String,
        /// The length of the prefixed name.
        len: usize,
    },
    /// The server listed this name more than once; the first is exposed, the others are not.
    Duplicate {
        /// The remote name.
        remote: String,
    },
    /// The prefixed name is `reset_tools`, which no remote tool can shadow.
    Reserved {
        /// The remote name.
        remote: String,
    },
}

impl NameProblem {
    /// The remote name concerned (`None` for [`InvalidPrefix`](Self::InvalidPrefix)).
    pub fn remote(&self) -> Option<&str> {
        match self {
            NameProblem::InvalidPrefix { .. } => None,
            NameProblem::Invalid { remote }
            | NameProblem::TooLong { remote, .. }
            | NameProblem::Duplicate { remote }
            | NameProblem::Reserved { remote } => Some(remote),
        }
    }
}

impl fmt::Display for NameProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown = |s: &str| crate::echo(s, 80);
        match self {
            NameProblem::InvalidPrefix { prefix } => write!(
                f,
                "the prefix `{}` is not usable in tool names: a prefix is at most {} characters and begins every name, and {TOOL_NAME_RULE}",
                shown(prefix),
                MAX_TOOL_NAME_LEN - 1
            ),
            NameProblem::Invalid { remote } => {
                write!(
                    f,
                    "the remote tool `{}` has a name providers refuse: {TOOL_NAME_RULE}",
                    shown(remote)
                )?;
                // Only the first character is wrong, which a prefix mends.
                if is_valid_tool_name(&format!("_{remote}")) {
                    f.write_str(" (set a prefix that starts with a letter or `_`)")?;
                }
                Ok(())
            }
            NameProblem::TooLong { remote, len } => write!(
                f,
                "the remote tool `{}` would be named with {len} characters, more than the {MAX_TOOL_NAME_LEN} providers accept (use a shorter prefix)",
                shown(remote)
            ),
            NameProblem::Duplicate { remote } => write!(
                f,
                "the remote server lists the tool `{}` more than once; only the first is exposed",
                shown(remote)
            ),
            NameProblem::Reserved { remote } => write!(
                f,
                "the remote tool `{}` would take the name of one of the toolkit's builtin tools (`{}`); set a prefix",
                shown(remote),
                BUILTIN_TOOLS.join("`, `")
            ),
        }
    }
}

impl std::error::Error for NameProblem {}

/// The outcome of [`expose_names`]: the tools that can be exposed, and every problem.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct ExposedNames {
    /// The exposable tools, in the server's order.
    pub names: Vec<ExposedName>,
    /// Every problem, in the server's order (an invalid prefix first).
    pub problems: Vec<NameProblem>,
}

impl ExposedNames {
    /// Whether every remote tool can be exposed.
    pub fn is_clean(&self) -> bool {
        self.problems.is_empty()
    }
}

/// The names under which remote tools are exposed: `prefix` (if any) followed by the remote
/// name, for every remote name that follows the tool-name rule once prefixed,
/// `^[A-Za-z_][A-Za-z0-9_-]{0,63}$` (so a remote `1tool` needs a prefix).
///
/// The rule is stable and never renames silently: a tool is exposed under exactly
/// `prefix + remote name`, or not at all with a [`NameProblem`] saying why (an invalid
/// name, too long with the prefix, listed twice by the server, or `reset_tools`).
/// Clashes with the toolkit's other tools are for the caller to check on
/// [`ExposedName::exposed`].
///
/// ```
/// use toolgroup_mcp::client::{NameProblem, expose_names};
///
/// let out = expose_names(["read_file", "list.dir", "read_file"], Some("fs_"));
/// assert_eq!(out.names.len(), 1);
/// assert_eq!(out.names[0].exposed, "fs_read_file");
/// assert_eq!(out.problems.len(), 2);
/// assert!(matches!(out.problems[0], NameProblem::Invalid { .. }));
/// assert!(matches!(out.problems[1], NameProblem::Duplicate { .. }));
/// ```
pub fn expose_names<'a>(
    remote: impl IntoIterator<Item = &'a str>,
    prefix: Option<&str>,
) -> ExposedNames {
    let prefix = prefix.unwrap_or("");
    let mut out = ExposedNames::default();
    if !prefix.is_empty() && (!is_valid_tool_name(prefix) || prefix.len() >= MAX_TOOL_NAME_LEN) {
        out.problems.push(NameProblem::InvalidPrefix {
            prefix: prefix.to_owned(),
        });
        return out;
    }
    let mut seen = HashSet::new();
    for name in remote {
        let exposed = format!("{prefix}{name}");
        let checked = check_tool_name(&exposed);
        let problem = if name.is_empty()
            || (checked.is_err() && !matches!(checked, Err(ToolNameError::TooLong { .. })))
        {
            Some(NameProblem::Invalid {
                remote: name.to_owned(),
            })
        } else if !seen.insert(name) {
            Some(NameProblem::Duplicate {
                remote: name.to_owned(),
            })
        } else if let Err(ToolNameError::TooLong { len }) = checked {
            Some(NameProblem::TooLong {
                remote: name.to_owned(),
                len,
            })
        } else if BUILTIN_TOOLS.contains(&exposed.as_str()) {
            Some(NameProblem::Reserved {
                remote: name.to_owned(),
            })
        } else {
            None
        };
        match problem {
            Some(p) => out.problems.push(p),
            None => out.names.push(ExposedName {
                remote: name.to_owned(),
                exposed,
            }),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unprefixed_names_follow_the_shared_table() {
        for &(name, ok) in toolgroup_skills::shared::TOOL_NAME_CASES {
            assert_eq!(is_valid_tool_name(name), ok, "{name:?}");
            let out = expose_names([name], None);
            assert_eq!(out.is_clean(), ok, "{name:?}: {:?}", out.problems);
        }
    }

    #[test]
    fn a_prefix_mends_a_leading_digit_or_dash() {
        let out = expose_names(["1tool", "-x", "ok"], None);
        assert_eq!(out.names.len(), 1);
        assert_eq!(
            out.problems,
            [
                NameProblem::Invalid {
                    remote: "1tool".into()
                },
                NameProblem::Invalid {
                    remote: "-x".into()
                }
            ]
        );
        let shown = out.problems[0].to_string();
        assert_eq!(
            shown,
            "the remote tool `1tool` has a name providers refuse: a tool name is 1 to 64 ASCII \
             letters, digits, `_` or `-`, starting with a letter or `_` (the rule every provider \
             accepts) (set a prefix that starts with a letter or `_`)"
        );
        let dotted = NameProblem::Invalid {
            remote: "a.b".into(),
        };
        assert!(!dotted.to_string().contains("set a prefix"), "{dotted}");

        let out = expose_names(["1tool", "-x"], Some("fs_"));
        assert!(out.is_clean(), "{:?}", out.problems);
        let exposed: Vec<&str> = out.names.iter().map(|n| n.exposed.as_str()).collect();
        assert_eq!(exposed, ["fs_1tool", "fs_-x"]);
    }

    #[test]
    fn prefix_and_problems() {
        let long = "y".repeat(62);
        let out = expose_names(
            ["read", "", "a/b", "read", long.as_str(), "tools", "ok"],
            Some("reset_"),
        );
        assert_eq!(
            out.names,
            vec![
                ExposedName {
                    remote: "read".into(),
                    exposed: "reset_read".into()
                },
                ExposedName {
                    remote: "ok".into(),
                    exposed: "reset_ok".into()
                }
            ]
        );
        assert_eq!(
            out.problems,
            vec![
                NameProblem::Invalid { remote: "".into() },
                NameProblem::Invalid {
                    remote: "a/b".into()
                },
                NameProblem::Duplicate {
                    remote: "read".into()
                },
                NameProblem::TooLong {
                    remote: long.clone(),
                    len: 68
                },
                NameProblem::Reserved {
                    remote: "tools".into()
                },
            ]
        );
        assert!(out.problems[4].to_string().contains("reset_tools"));
        assert!(!out.is_clean());
    }

    #[test]
    fn no_prefix_reserved_and_clean() {
        let out = expose_names(["reset_tools", "x"], None);
        assert_eq!(out.names.len(), 1);
        assert_eq!(out.problems.len(), 1);
        assert_eq!(out.problems[0].remote(), Some("reset_tools"));
        assert!(expose_names(["a", "b"], Some("")).is_clean());
    }

    #[test]
    fn bad_prefixes() {
        for prefix in ["fs.", "a b", "1_", "-", &"p".repeat(64)] {
            let out = expose_names(["x"], Some(prefix));
            assert!(out.names.is_empty(), "{prefix}");
            assert!(matches!(
                out.problems[..],
                [NameProblem::InvalidPrefix { .. }]
            ));
        }
        let shown = expose_names(["x"], Some("a\nb")).problems[0].to_string();
        assert!(shown.contains("a\\nb"), "{shown}");
    }
}
