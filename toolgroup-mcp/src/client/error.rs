//! Why connecting failed: [`RemoteError`], and durations written for people.

use std::error::Error;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

/// The underlying error of a [`RemoteError`], shared so the error stays `Clone`.
pub type RemoteSource = Arc<dyn Error + Send + Sync + 'static>;

/// Why connecting to a remote server failed. [`source`](Error::source) gives the underlying
/// error (the operating system's `io::Error` for [`Spawn`](Self::Spawn), rmcp's error
/// otherwise).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum RemoteError {
    /// The child process could not be started.
    Spawn {
        /// The server's label.
        server: String,
        /// The operating system's error.
        source: Arc<std::io::Error>,
    },
    /// The server could not be reached, or the MCP handshake failed.
    Handshake {
        /// The server's label.
        server: String,
        /// What went wrong.
        source: RemoteSource,
    },
    /// Listing the tools failed.
    List {
        /// The server's label.
        server: String,
        /// What went wrong.
        source: RemoteSource,
    },
    /// Listing the groups failed (a server that declares the `io.modelcontextprotocol/groups`
    /// extension): `groups/list` failed or answered something the client cannot read.
    ListGroups {
        /// The server's label.
        server: String,
        /// What went wrong.
        source: RemoteSource,
    },
    /// Connecting took longer than the connect timeout.
    Timeout {
        /// The server's label.
        server: String,
        /// The timeout.
        after: Duration,
    },
}

impl fmt::Display for RemoteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RemoteError::Spawn { server, source } => {
                write!(
                    f,
                    "the MCP server `{server}` could not be started: {source}"
                )
            }
            RemoteError::Handshake { server, source } => {
                write!(
                    f,
                    "the MCP server `{server}` could not be reached: {source}"
                )
            }
            RemoteError::List { server, source } => {
                write!(
                    f,
                    "the MCP server `{server}` did not list its tools: {source}"
                )
            }
            RemoteError::ListGroups { server, source } => {
                write!(
                    f,
                    "the MCP server `{server}` did not list its groups: {source}"
                )
            }
            RemoteError::Timeout { server, after } => write!(
                f,
                "the MCP server `{server}` did not connect and list its tools within {}",
                seconds(*after)
            ),
        }
    }
}

impl Error for RemoteError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            RemoteError::Spawn { source, .. } => Some(&**source),
            RemoteError::Handshake { source, .. }
            | RemoteError::List { source, .. }
            | RemoteError::ListGroups { source, .. } => Some(&**source),
            RemoteError::Timeout { .. } => None,
        }
    }
}

/// Why a remote group cannot be mounted with [`Remote::group`](super::Remote::group), or why
/// a mounted one exposes no tools now (see [`Remote::group_problem`](super::Remote::group_problem)).
/// Names that came from the server or the caller are shown escaped and shortened.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum GroupError {
    /// The server does not declare the `io.modelcontextprotocol/groups` extension, so it has
    /// no groups (its tools are all top-level: mount them with [`Remote::new`](super::Remote::new)).
    NotDeclared {
        /// The server's label.
        server: String,
        /// The group asked for.
        group: String,
    },
    /// The client was built without the extension
    /// ([`RemoteServer::with_groups_extension`](super::RemoteServer::with_groups_extension)),
    /// so it fetches no group.
    Disabled {
        /// The server's label.
        server: String,
        /// The group asked for.
        group: String,
    },
    /// The server lists no group of that name.
    Unknown {
        /// The server's label.
        server: String,
        /// The group asked for.
        group: String,
        /// The names the server lists (offered or hidden), in its order.
        known: Vec<String>,
    },
    /// The server lists the group, but the client hides it (see
    /// [`RemoteTools::hidden_groups`](super::RemoteTools::hidden_groups)).
    Hidden {
        /// The server's label.
        server: String,
        /// The group.
        group: String,
        /// Why it is hidden.
        reason: String,
    },
}

/// At most this many of a server's group names are shown in an error.
const SHOWN_NAMES: usize = 20;

impl fmt::Display for GroupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown = |s: &str| crate::echo(s, 64);
        match self {
            GroupError::NotDeclared { server, group } => write!(
                f,
                "the MCP server `{server}` has no group `{}`: it does not declare the `io.modelcontextprotocol/groups` extension (mount its tools with `Remote::new`)",
                shown(group)
            ),
            GroupError::Disabled { server, group } => write!(
                f,
                "the group `{}` of the MCP server `{server}` cannot be mounted: the client was built with `RemoteServer::with_groups_extension(false)`, so it fetches no group",
                shown(group)
            ),
            GroupError::Unknown {
                server,
                group,
                known,
            } => {
                write!(
                    f,
                    "the MCP server `{server}` has no group `{}`",
                    shown(group)
                )?;
                if let Some(guess) = crate::did_you_mean(group, known.iter().map(String::as_str)) {
                    write!(f, "; did you mean `{}`?", shown(guess))?;
                }
                if known.is_empty() {
                    return f.write_str(" (it lists no group)");
                }
                f.write_str(" (its groups: ")?;
                for (i, name) in known.iter().take(SHOWN_NAMES).enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "`{}`", shown(name))?;
                }
                if known.len() > SHOWN_NAMES {
                    write!(f, " and {} more", known.len() - SHOWN_NAMES)?;
                }
                f.write_str(")")
            }
            GroupError::Hidden {
                server,
                group,
                reason,
            } => write!(
                f,
                "the group `{}` of the MCP server `{server}` is hidden: {reason}",
                shown(group)
            ),
        }
    }
}

impl Error for GroupError {}

/// A duration for people: `1.5 s`, `30 s`, `250 ms`.
pub(super) fn seconds(d: Duration) -> String {
    if d < Duration::from_secs(1) {
        format!("{} ms", d.as_millis())
    } else if d.subsec_millis() == 0 {
        format!("{} s", d.as_secs())
    } else {
        format!("{:.1} s", d.as_secs_f64())
    }
}
