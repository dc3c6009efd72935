//! How a call ended: the tag of every result the toolkit answers with.

/// How a call ended: [`CallResult::outcome`](crate::CallResult::outcome),
/// [`AuditRecord::outcome`](crate::middleware::AuditRecord::outcome) and the `toolgroup.outcome`
/// field of the `execute_tool` tracing span (and its `error.type`, on failure) say it with the
/// same words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum CallOutcome {
    /// The tool ran and answered (`reset_tools`: the new state was applied).
    #[default]
    Ok,
    /// The tool ran and answered with an error result.
    ToolError,
    /// The arguments did not parse; the tool did not run.
    InvalidArguments,
    /// A `reset_tools` call was refused; nothing changed.
    Refused,
    /// The policy denied the call.
    Denied,
    /// No tool has that name.
    UnknownTool,
    /// The tool's group is not active in the session.
    InactiveGroup,
    /// The principal lacks a scope the tool requires, or a `reset_tools` call named a group
    /// they may not use (see [`Toolkit::entitled`](crate::Toolkit::entitled)); nothing ran or
    /// changed.
    InsufficientScope,
    /// The call was cancelled: its token, or its future dropped before it finished.
    Cancelled,
    /// The tool ran out of time.
    Timeout,
    /// The tool has a timeout but no Tokio timer runs.
    NoTimer,
    /// The tool, the policy or a layer panicked.
    Panic,
    /// A layer ended the call with an error.
    LayerError,
}

impl CallOutcome {
    /// The outcome's name: `ok`, `tool_error`, `invalid_arguments`, `refused`, `denied`,
    /// `unknown_tool`, `inactive_group`, `insufficient_scope`, `cancelled`, `timeout`, `no_timer`, `panic`,
    /// `layer_error`.
    pub const fn as_str(self) -> &'static str {
        match self {
            CallOutcome::Ok => "ok",
            CallOutcome::ToolError => "tool_error",
            CallOutcome::InvalidArguments => "invalid_arguments",
            CallOutcome::Refused => "refused",
            CallOutcome::Denied => "denied",
            CallOutcome::UnknownTool => "unknown_tool",
            CallOutcome::InactiveGroup => "inactive_group",
            CallOutcome::InsufficientScope => "insufficient_scope",
            CallOutcome::Cancelled => "cancelled",
            CallOutcome::Timeout => "timeout",
            CallOutcome::NoTimer => "no_timer",
            CallOutcome::Panic => "panic",
            CallOutcome::LayerError => "layer_error",
        }
    }
}

impl std::fmt::Display for CallOutcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
