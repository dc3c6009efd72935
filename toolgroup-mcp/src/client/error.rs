//! Why connecting failed: [`RemoteError`], and durations written for people.

use std::fmt;
use std::time::Duration;

/// Why connecting to a remote server failed.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RemoteError {
    /// The child process could not be started.
    Spawn {
        /// The server's label.
        server: String,
        /// The operating system's error.
        detail: String,
    },
    /// The server could not be reached, or the MCP handshake failed.
    Handshake {
        /// The server's label.
        server: String,
        /// What went wrong.
        detail: String,
    },
    /// Listing the tools failed.
    List {
        /// The server's label.
        server: String,
        /// What went wrong.
        detail: String,
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
            RemoteError::Spawn { server, detail } => {
                write!(
                    f,
                    "the MCP server `{server}` could not be started: {detail}"
                )
            }
            RemoteError::Handshake { server, detail } => {
                write!(
                    f,
                    "the MCP server `{server}` could not be reached: {detail}"
                )
            }
            RemoteError::List { server, detail } => {
                write!(
                    f,
                    "the MCP server `{server}` did not list its tools: {detail}"
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

impl std::error::Error for RemoteError {}

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
