//! The server's group modes and the groups a client names (a command-line flag, a URL).

use std::fmt;

use serde_json::Value;
use toolgroup_core::{Registry, Session, registry::GroupId};

use crate::{did_you_mean, echo};

/// How groups reach MCP clients. See the [crate docs](crate) for the full picture.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Mode {
    /// The groups are chosen at connect time (a command-line flag, the URL); `reset_tools`
    /// is hidden.
    Selected,
    /// Every tool is listed, always in the same order; calls to inactive groups are refused.
    Gated,
    /// The list follows the active set, with `notifications/tools/list_changed`; gated for
    /// 2026-07-28 clients.
    Dynamic,
}

impl Mode {
    /// The mode's name as [`FromStr`](std::str::FromStr) accepts it.
    pub const fn name(self) -> &'static str {
        match self {
            Mode::Selected => "selected",
            Mode::Gated => "gated",
            Mode::Dynamic => "dynamic",
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Mode {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        [Mode::Selected, Mode::Gated, Mode::Dynamic]
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| {
                format!("unknown mode `{s}`; expected one of `selected`, `gated`, `dynamic`")
            })
    }
}

/// Group names that are not switchable groups of the toolkit: every problem at once, each
/// with a did-you-mean.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct GroupsError {
    /// The unknown names, in the order given.
    pub unknown: Vec<String>,
    /// The toolkit's switchable groups.
    pub known: Vec<&'static str>,
}

impl GroupsError {
    /// The closest real group to the unknown name `name`, if it looks like a typo of one.
    pub fn suggestion(&self, name: &str) -> Option<&'static str> {
        did_you_mean(name, self.known.iter().copied())
    }

    /// The error as the JSON body of the HTTP service's `400` answer:
    /// `{"error": "unknown_groups", "message": ..., "unknown": [{"name", "did_you_mean"}],
    /// "groups": [every switchable group]}`.
    pub fn to_json(&self) -> Value {
        let unknown: Vec<Value> = self
            .unknown
            .iter()
            .map(|name| {
                serde_json::json!({
                    "name": echo(name, 64),
                    "did_you_mean": self.suggestion(name),
                })
            })
            .collect();
        serde_json::json!({
            "error": "unknown_groups",
            "message": self.to_string(),
            "unknown": unknown,
            "groups": self.known,
        })
    }
}

impl fmt::Display for GroupsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, name) in self.unknown.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "unknown group `{}`", echo(name, 64))?;
            if let Some(s) = self.suggestion(name) {
                write!(f, " (did you mean `{s}`?)")?;
            }
        }
        f.write_str(". The groups are ")?;
        for (i, name) in self.known.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "`{name}`")?;
        }
        if self.known.is_empty() {
            f.write_str("none")?;
        }
        Ok(())
    }
}

impl std::error::Error for GroupsError {}

pub(crate) fn parse_groups<'a, R: Registry>(
    names: impl IntoIterator<Item = &'a str>,
) -> Result<Session<R>, GroupsError> {
    let mut session = Session::new();
    let mut unknown = Vec::new();
    for name in names {
        let name = name.trim();
        if name.is_empty() {
            continue;
        }
        match R::Group::ALL.iter().find(|g| g.name() == name) {
            Some(group) => session.activate(*group),
            None => unknown.push(name.to_owned()),
        }
    }
    if unknown.is_empty() {
        Ok(session)
    } else {
        Err(GroupsError {
            unknown,
            known: R::Group::ALL.iter().map(|g| g.name()).collect(),
        })
    }
}
