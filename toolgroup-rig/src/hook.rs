//! The per-turn hook: rig advertises only the session's tools, and a call rig cannot dispatch
//! (a tool of an inactive group, an unknown name, arguments that are not JSON) is answered
//! with toolgroup's text instead of ending the run.

use std::sync::Arc;

use rig_agent::AgentHook;
use rig_agent::agent::{
    CompletionCallAction, CompletionCallEvent, HookContext, InvalidToolCallAction,
    InvalidToolCallContext, InvalidToolCallReason, RequestPatch,
};
use toolgroup::registry::Registry;

use crate::state::Shared;

/// The hook [`Conversation::attach`](crate::Conversation::attach) adds to a run.
///
/// - Before every model call it narrows the advertised tools to the session's (rig's
///   `RequestPatch::active_tools`): `reset_tools`, the basic tools and the active groups'
///   tools that rig holds, plus the agent's own rig tools named with
///   [`RigToolkit::with_rig_tools`](crate::RigToolkit::with_rig_tools).
/// - A call of a tool that was not advertised (an inactive group's, a misspelled name) is
///   answered with what `Toolkit::call` says about it - which group to activate, or the
///   names that exist with a did-you-mean - as rig's skipped tool result. rig then runs no
///   other call of that model turn (it answers them "not executed"), and the run goes on.
/// - A call with arguments that are not a JSON object, of a tool the session cannot call, is
///   answered with toolgroup's refusal; for a callable tool rig's own feedback names the
///   arguments.
///
/// Other invalid calls (a tool the run's `tool_choice` excludes) are left to rig.
pub struct GroupsHook<R: Registry> {
    pub(crate) shared: Arc<Shared<R>>,
}

impl<R: Registry> std::fmt::Debug for GroupsHook<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GroupsHook")
            .field("conversation", &self.shared)
            .finish()
    }
}

impl<R: Registry + 'static> AgentHook for GroupsHook<R> {
    fn name(&self) -> Option<String> {
        Some("toolgroup::GroupsHook".to_owned())
    }

    async fn on_completion_call(
        &self,
        _ctx: &HookContext,
        _event: CompletionCallEvent<'_>,
    ) -> CompletionCallAction {
        self.shared.next_model_call();
        CompletionCallAction::patch(RequestPatch::new().active_tools(self.shared.advertised()))
    }

    async fn on_invalid_tool_call(
        &self,
        _ctx: &HookContext,
        event: &InvalidToolCallContext,
    ) -> Option<InvalidToolCallAction> {
        let name = event.tool_name.as_str();
        let arguments = event.args.as_deref().unwrap_or("{}");
        match &event.reason {
            InvalidToolCallReason::UnknownTool => {
                let text = if self
                    .shared
                    .toolkit
                    .is_available(&self.shared.session(), name)
                {
                    // The active set changed (through the application) after rig sent the
                    // list; the next turn's list has the tool.
                    format!(
                        "`{}` was not in this turn's tool list, but its group is active now: call it again",
                        toolgroup::__private::echo(name, 64)
                    )
                } else {
                    // Not run: the toolkit refuses it (inactive group, unknown name) after
                    // asking the policy, as in toolgroup's own loop.
                    let toolkit = Arc::clone(&self.shared.toolkit);
                    self.shared
                        .call::<()>(&toolkit, name, arguments.into(), None)
                        .await
                        .text_joined()
                };
                Some(InvalidToolCallAction::skip(text))
            }
            // A tool the session cannot call: toolgroup's refusal (nothing runs). rig answers
            // malformed arguments with a tool result carrying this feedback (`Retry` there
            // is no retry of the model turn). A callable tool's malformed arguments keep
            // rig's own feedback, so that no tool runs inside the hook.
            InvalidToolCallReason::MalformedArguments { .. }
                if !self
                    .shared
                    .toolkit
                    .is_available(&self.shared.session(), name) =>
            {
                let toolkit = Arc::clone(&self.shared.toolkit);
                let result = self
                    .shared
                    .call::<()>(&toolkit, name, arguments.into(), None)
                    .await;
                Some(InvalidToolCallAction::retry(result.text_joined()))
            }
            _ => None,
        }
    }
}
