//! One conversation of a rig agent with a toolkit: its session, its per-call data, and the
//! hook and tool context that bring them into a rig run.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

use rig_agent::agent::{Agent, AgentRunner};
use rig_agent::core::message::Message;
use rig_agent::core::tool::ToolContext;
use toolgroup::lifecycle::ManagedSession;
use toolgroup::registry::Registry;
use toolgroup::{CallContext, Session};

use crate::hook::GroupsHook;
use crate::state::Shared;

/// One conversation: the active groups of a [`Session`] and the per-call data its calls
/// carry, brought into each rig run of that conversation.
///
/// Make one per conversation with [`RigToolkit::conversation`](crate::RigToolkit::conversation)
/// (the toolkit and the agent are shared) and start each run with [`prompt`](Self::prompt) or
/// [`attach`](Self::attach). Clones share the session: a `reset_tools` call in one run is seen
/// by the next run of the same conversation, never by another conversation.
pub struct Conversation<R: Registry> {
    pub(crate) shared: Arc<Shared<R>>,
}

impl<R: Registry> Clone for Conversation<R> {
    fn clone(&self) -> Self {
        Conversation {
            shared: Arc::clone(&self.shared),
        }
    }
}

impl<R: Registry> std::fmt::Debug for Conversation<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Conversation")
            .field("shared", &self.shared)
            .finish()
    }
}

impl<R: Registry + 'static> Conversation<R> {
    /// Give every call of this conversation `context` (its per-call data reaches
    /// `Extension<T>` parameters and the policy; its progress observer and cancellation
    /// token apply to each call). Call it before cloning the conversation: clones made
    /// earlier keep the old context (and from then on, their own session).
    #[must_use]
    pub fn with_call_context(self, context: CallContext) -> Self {
        Conversation {
            shared: Arc::new(Shared {
                toolkit: Arc::clone(&self.shared.toolkit),
                listing: Arc::clone(&self.shared.listing),
                session: Mutex::new(self.shared.managed()),
                context: Some(context),
                called: AtomicBool::new(
                    self.shared
                        .called
                        .load(std::sync::atomic::Ordering::Acquire),
                ),
            }),
        }
    }

    /// The active groups now (a copy: sessions are `Copy`).
    pub fn session(&self) -> Session<R> {
        self.shared.session()
    }

    /// Set the active groups, as the application (the model's own switch is `reset_tools`).
    /// The next model call of a run of this conversation sees them.
    pub fn set_session(&self, session: Session<R>) {
        self.shared.set_session(session);
    }

    /// The active groups with their lifecycle state (a copy), to store the conversation
    /// under a toolkit with [lifecycle rules](toolgroup::lifecycle): each model call after
    /// the conversation's first ends a turn.
    pub fn managed_session(&self) -> ManagedSession<R> {
        self.shared.managed()
    }

    /// Restore the active groups with their lifecycle state.
    pub fn set_managed_session(&self, session: ManagedSession<R>) {
        self.shared.set_managed(session);
    }

    /// The tool names rig advertises on this conversation's next model call, in order.
    pub fn advertised_tools(&self) -> Vec<String> {
        self.shared.advertised()
    }

    /// The hook that narrows each model call's tools to the session's and answers the calls
    /// rig cannot dispatch (see [`GroupsHook`]). [`attach`](Self::attach) adds it.
    pub fn hook(&self) -> GroupsHook<R> {
        GroupsHook {
            shared: Arc::clone(&self.shared),
        }
    }

    /// `context` (rig's per-run tool context) carrying this conversation, so that the
    /// toolkit's rig tools find its session. [`attach`](Self::attach) uses an empty one.
    pub fn tool_context(&self, context: ToolContext) -> ToolContext {
        context.with_scope(Arc::clone(&self.shared) as Arc<dyn std::any::Any + Send + Sync>)
    }

    /// Bring this conversation into `runner`: its hook and a tool context carrying it. It
    /// replaces any tool context set on `runner` before; use
    /// [`attach_with`](Self::attach_with) to keep values of your own.
    pub fn attach<O>(&self, runner: AgentRunner<O>) -> AgentRunner<O> {
        self.attach_with(runner, ToolContext::new())
    }

    /// [`attach`](Self::attach) with rig's per-run tool context `context`: its values reach
    /// rig tools as usual, and toolgroup tools as the extension
    /// [`RigContext`](crate::RigContext).
    pub fn attach_with<O>(&self, runner: AgentRunner<O>, context: ToolContext) -> AgentRunner<O> {
        runner
            .add_hook(self.hook())
            .tool_context(self.tool_context(context))
    }

    /// Start a run of `agent` on `prompt` in this conversation: `agent.prompt(prompt)`,
    /// attached. Await it, or configure it further (history, `max_turns`...) first.
    pub fn prompt(&self, agent: &Agent, prompt: impl Into<Message>) -> AgentRunner {
        self.attach(agent.prompt(prompt))
    }
}
