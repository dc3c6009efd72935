//! The policy hook: allow or deny each call before it runs.
//!
//! Groups are a context-budget device, not a security boundary: the model can activate any
//! group it is shown. A [`Policy`] is evaluated before every call that names a known,
//! available tool, `reset_tools` included, and can refuse it with a reason the model reads.

use crate::args::Arguments;

/// What a policy sees of a call.
#[derive(Debug, Clone, Copy)]
pub struct PolicyRequest<'a> {
    /// The tool called (`reset_tools` for the meta tool).
    pub tool: &'a str,
    /// The tool's group (`None` for `reset_tools`).
    pub group: Option<&'static str>,
    /// The arguments, as given (not yet validated).
    pub arguments: Arguments<'a>,
    /// The provider's call id, if any.
    pub call_id: Option<&'a str>,
}

/// A policy's verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// Run the call.
    Allow,
    /// Refuse the call; the reason is shown to the model.
    Deny(String),
}

/// Decides whether a call may run. Implemented for closures
/// `Fn(&PolicyRequest<'_>) -> Decision`.
pub trait Policy: Send + Sync + 'static {
    /// Allow or deny `request`.
    fn check(&self, request: &PolicyRequest<'_>) -> Decision;
}

impl<F> Policy for F
where
    F: Fn(&PolicyRequest<'_>) -> Decision + Send + Sync + 'static,
{
    fn check(&self, request: &PolicyRequest<'_>) -> Decision {
        self(request)
    }
}
