//! The server's group modes.

use std::fmt;

use crate::{did_you_mean, echo};

/// How groups reach MCP clients, in the words of the provider delivery modes
/// ([`toolgroup_core::provider`]). See the [crate docs](crate) for the full picture.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Mode {
    /// The groups are chosen at connect time (a command-line flag, the URL); `reset_tools`
    /// is hidden.
    Selected,
    /// Every tool is listed, always in the same order; calls to inactive groups are refused
    /// (the providers' mask mode, without an allow-list, which MCP does not have).
    Mask,
    /// The list follows the active set, with `notifications/tools/list_changed` (the
    /// providers' list mode); as [`Mask`](Self::Mask) for 2026-07-28 clients.
    List,
}

impl Mode {
    /// Every mode.
    pub const ALL: [Mode; 3] = [Mode::Selected, Mode::Mask, Mode::List];

    /// The mode's name as [`FromStr`](std::str::FromStr) accepts it: `selected`, `mask`,
    /// `list`.
    pub const fn name(self) -> &'static str {
        match self {
            Mode::Selected => "selected",
            Mode::Mask => "mask",
            Mode::List => "list",
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Mode {
    type Err = UnknownMode;

    fn from_str(s: &str) -> Result<Self, UnknownMode> {
        Mode::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| UnknownMode { name: s.to_owned() })
    }
}

/// A mode name that is not one of [`Mode`]'s.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct UnknownMode {
    /// The name given.
    pub name: String,
}

impl fmt::Display for UnknownMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown mode `{}`", echo(&self.name, 64))?;
        if let Some(s) = did_you_mean(&self.name, Mode::ALL.iter().map(|m| m.name())) {
            write!(f, " (did you mean `{s}`?)")?;
        }
        f.write_str("; the modes are `selected`, `mask`, `list`")
    }
}

impl std::error::Error for UnknownMode {}
