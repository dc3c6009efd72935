//! Per-call options: [`CallOptions`] and the progress callback type.

use std::fmt;
use std::time::Duration;

use tokio_util::sync::CancellationToken;

/// A remote progress report's receiver: `(progress, total, message)`, as MCP's
/// `notifications/progress` carries them (the signature of `ToolContext::report`).
pub type OnRemoteProgress<'a> = &'a (dyn Fn(f64, Option<f64>, Option<&str>) + Send + Sync);

/// Per-call options for [`RemoteTools::call_with`](super::RemoteTools::call_with).
#[derive(Clone, Default)]
#[non_exhaustive]
pub struct CallOptions<'a> {
    pub(super) cancellation: Option<CancellationToken>,
    pub(super) progress: Option<OnRemoteProgress<'a>>,
    pub(super) timeout: Option<Duration>,
}

impl fmt::Debug for CallOptions<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CallOptions")
            .field("cancellation", &self.cancellation)
            .field("progress", &self.progress.is_some())
            .field("timeout", &self.timeout)
            .finish()
    }
}

impl<'a> CallOptions<'a> {
    /// No option: the server's call timeout, no cancellation, progress ignored.
    pub fn new() -> Self {
        Self::default()
    }

    /// Cancel the call (and the remote request) when `token` is cancelled.
    #[must_use]
    pub fn with_cancellation(mut self, token: CancellationToken) -> Self {
        self.cancellation = Some(token);
        self
    }

    /// Receive the server's progress reports for this call, in order, on the calling task,
    /// before the call returns.
    #[must_use]
    pub fn with_progress(mut self, progress: OnRemoteProgress<'a>) -> Self {
        self.progress = Some(progress);
        self
    }

    /// This call's timeout instead of the server's
    /// [`call timeout`](super::RemoteServer::with_call_timeout).
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }
}
