//! Per-call options: [`CallOptions`] and the progress callback type.

use std::fmt;
use std::time::Duration;

use tokio_util::sync::CancellationToken;
use toolgroup_core::context::UserInput;

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
    pub(super) user_input: Option<UserInput>,
}

impl fmt::Debug for CallOptions<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CallOptions")
            .field("cancellation", &self.cancellation)
            .field("progress", &self.progress.is_some())
            .field("timeout", &self.timeout)
            .field("user_input", &self.user_input.is_some())
            .finish()
    }
}

impl<'a> CallOptions<'a> {
    /// No option: the server's call timeout, no cancellation, progress ignored, and the
    /// server's [`UserInput`](super::RemoteServer::with_user_input) only.
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
    /// [`call timeout`](super::RemoteServer::with_call_timeout): how long the call may go
    /// without news from the server (see there).
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// Who answers the server's questions to the user during this call (an elicitation
    /// form, as an input request or on the task's `input_required` status; see the
    /// [module docs](super#user-input)), when the server has no
    /// [`UserInput`](super::RemoteServer::with_user_input) of its own. A
    /// [`Remote`](super::Remote) group passes on its calling tool's `UserInput`.
    #[must_use]
    pub fn with_user_input(mut self, user_input: UserInput) -> Self {
        self.user_input = Some(user_input);
        self
    }
}
