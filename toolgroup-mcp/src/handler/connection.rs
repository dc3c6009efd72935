//! What one connection of the server keeps between its requests.

use toolgroup_core::Registry;
use toolgroup_core::lifecycle::ManagedSession;

/// What one connection (stdio, an HTTP protocol session) keeps between its requests.
pub(super) struct Connection<R: Registry> {
    /// The connection's active set (mask and list modes), read by every call, with the
    /// toolkit's lifecycle state beside it.
    pub(super) local: std::sync::Mutex<ManagedSession<R>>,
    /// Held by a running `reset_tools`, so concurrent resets of one connection apply one at
    /// a time (each sees the set the previous one left).
    pub(super) reset_gate: tokio::sync::Mutex<()>,
    /// The connection's own identity, random, made when a task first needs an owner.
    pub(super) id: std::sync::OnceLock<String>,
    /// The level the client set with `logging/setLevel`.
    pub(super) log_level: crate::logging::ClientLogLevel,
}

impl<R: Registry> Connection<R> {
    /// Take over the state `before` held: the same session's, before it was hibernated.
    #[cfg(feature = "http")]
    pub(super) fn take_over(&self, before: &Connection<R>) {
        let state = before
            .local
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone();
        *self
            .local
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = state;
        if let Some(id) = before.id.get() {
            let _ = self.id.set(id.clone());
        }
        self.log_level.copy_from(&before.log_level);
    }
}

impl<R: Registry> crate::logging::HasLogLevel for Connection<R> {
    fn log_level(&self) -> &crate::logging::ClientLogLevel {
        &self.log_level
    }
}
