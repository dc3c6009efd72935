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
            RemoteError::Handshake { source, .. } | RemoteError::List { source, .. } => {
                Some(&**source)
            }
            RemoteError::Timeout { .. } => None,
        }
    }
}

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
