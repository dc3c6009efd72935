//! The policy hook: allow or deny each call before it runs, possibly after awaiting a human's
//! approval or a remote check.
//!
//! Groups are a context-budget device, not a security boundary: the model can activate any
//! group it is shown. A [`Policy`] is evaluated before every call that names a known,
//! available tool, `reset_tools` included, and can refuse it with a reason the model reads.
//! A refused call runs nothing (no layer, no tool) and leaves the session unchanged.

use std::collections::HashSet;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use crate::futures::BoxFuture;

use crate::args::Arguments;
use crate::context::Extensions;
use crate::meta::ToolAnnotations;

/// What a policy sees of a call.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct PolicyRequest<'a> {
    /// The tool called (`reset_tools` for the meta tool).
    pub tool: &'static str,
    /// The tool's group (`None` for `reset_tools`).
    pub group: Option<&'static str>,
    /// The tool's hints (`destructive`, `read_only`...).
    pub annotations: ToolAnnotations,
    /// The arguments, as given (not yet validated).
    pub arguments: Arguments<'a>,
    /// The provider's call id, if any.
    pub call_id: Option<&'a str>,
    /// The call's per-call data (who the call is for), if the caller attached any.
    pub extensions: Option<&'a Extensions>,
}

impl<'a> PolicyRequest<'a> {
    /// A request, for testing a policy by hand.
    pub fn new(tool: &'static str, arguments: Arguments<'a>) -> Self {
        PolicyRequest {
            tool,
            group: None,
            annotations: ToolAnnotations::NONE,
            arguments,
            call_id: None,
            extensions: None,
        }
    }

    /// A value of per-call data of type `T`, if the call carries one.
    pub fn extension<T: Send + Sync + 'static>(&self) -> Option<&'a T> {
        self.extensions?.get::<T>()
    }
}

/// A policy's verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Decision {
    /// Run the call.
    Allow,
    /// Refuse the call; the reason is shown to the model.
    Deny(String),
}

impl Decision {
    /// Refuse, with a reason the model reads.
    pub fn deny(reason: impl Into<String>) -> Self {
        Decision::Deny(reason.into())
    }
}

/// Decides whether a call may run.
///
/// Implemented for closures `Fn(&PolicyRequest<'_>) -> Decision` (synchronous checks), and for
/// `Arc<P>` and `Box<dyn Policy>`, which ask the policy they hold. For a check that awaits,
/// implement the trait:
///
/// ```
/// use toolgroup::BoxFuture;
/// use toolgroup::policy::{Decision, Policy, PolicyRequest};
///
/// #[derive(Clone)]
/// struct Role(&'static str);
///
/// struct RemoteAuthz;
///
/// impl Policy for RemoteAuthz {
///     fn check<'a>(&'a self, request: &'a PolicyRequest<'a>) -> BoxFuture<'a, Decision> {
///         Box::pin(async move {
///             // e.g. ask an authorization service; here: admins may do anything.
///             match request.extension::<Role>() {
///                 Some(Role("admin")) => Decision::Allow,
///                 _ if request.annotations.read_only == Some(true) => Decision::Allow,
///                 _ => Decision::deny("only admins may change things"),
///             }
///         })
///     }
/// }
/// ```
pub trait Policy: Send + Sync + 'static {
    /// Allow or deny `request`. A panic here is contained: the call ends as an error result.
    fn check<'a>(&'a self, request: &'a PolicyRequest<'a>) -> BoxFuture<'a, Decision>;
}

impl<F> Policy for F
where
    F: Fn(&PolicyRequest<'_>) -> Decision + Send + Sync + 'static,
{
    fn check<'a>(&'a self, request: &'a PolicyRequest<'a>) -> BoxFuture<'a, Decision> {
        Box::pin(std::future::ready(self(request)))
    }
}

/// A shared policy: one policy for several toolkits, or for a toolkit and the code that
/// keeps its state (`Arc<MyPolicy>`, `Arc<dyn Policy>`).
impl<P: Policy + ?Sized> Policy for Arc<P> {
    fn check<'a>(&'a self, request: &'a PolicyRequest<'a>) -> BoxFuture<'a, Decision> {
        (**self).check(request)
    }
}

/// A policy chosen at run time. Only `dyn Policy`: a `Box<P>` for every policy `P` would
/// overlap the closures' impl above (a boxed closure is itself a closure, so already a
/// policy), and a concrete policy needs no box.
impl Policy for Box<dyn Policy> {
    fn check<'a>(&'a self, request: &'a PolicyRequest<'a>) -> BoxFuture<'a, Decision> {
        (**self).check(request)
    }
}

/// A [`Policy`] that asks another policy, the approver (a human in a UI, a chat message, a
/// ticket), before running tools marked `destructive` (and any tools named with
/// [`tool`](Self::tool)); every other call is allowed at once. Allowing or denying is one idea
/// with one trait: an approver is a [`Policy`] that is asked only about the calls that need
/// approval.
///
/// A refusal, or no answer within the [`timeout`](Self::timeout), reaches the model as an
/// error result with the reason; the tool does not run.
///
/// ```
/// use std::time::Duration;
/// use toolgroup::BoxFuture;
/// use toolgroup::policy::{Decision, Policy, PolicyRequest, RequireApproval};
///
/// /// Asks on the terminal (a real application would ask its user interface).
/// struct Ask;
///
/// impl Policy for Ask {
///     fn check<'a>(&'a self, request: &'a PolicyRequest<'a>) -> BoxFuture<'a, Decision> {
///         Box::pin(async move {
///             println!("allow `{}`? (assuming no)", request.tool);
///             Decision::deny("the user said no")
///         })
///     }
/// }
///
/// let policy = RequireApproval::new(Ask)
///     .tool("send_email")
///     .timeout(Duration::from_secs(120));
/// # let _ = policy;
/// ```
pub struct RequireApproval<A> {
    approver: A,
    tools: HashSet<String>,
    destructive: bool,
    timeout: Option<Duration>,
}

impl<A: Policy> RequireApproval<A> {
    /// Ask `approver` before every tool whose annotations say `destructive`.
    pub fn new(approver: A) -> Self {
        RequireApproval {
            approver,
            tools: HashSet::new(),
            destructive: true,
            timeout: None,
        }
    }

    /// Also ask before calling `tool`.
    #[must_use]
    pub fn tool(mut self, tool: impl Into<String>) -> Self {
        self.tools.insert(tool.into());
        self
    }

    /// Whether tools marked `destructive` need approval (default `true`).
    #[must_use]
    pub fn destructive(mut self, ask: bool) -> Self {
        self.destructive = ask;
        self
    }

    /// Refuse when no answer comes within `timeout` (needs a Tokio runtime with the time
    /// driver). Without one, the call waits as long as the approver does (or until the call
    /// is cancelled).
    #[must_use]
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// Whether `request` needs approval.
    pub fn needs_approval(&self, request: &PolicyRequest<'_>) -> bool {
        (self.destructive && request.annotations.destructive == Some(true))
            || self.tools.contains(request.tool)
    }
}

impl<A: Policy> Policy for RequireApproval<A> {
    fn check<'a>(&'a self, request: &'a PolicyRequest<'a>) -> BoxFuture<'a, Decision> {
        if !self.needs_approval(request) {
            return Box::pin(std::future::ready(Decision::Allow));
        }
        let answer = self.approver.check(request);
        match self.timeout {
            None => Box::pin(async move {
                match answer.await {
                    Decision::Deny(reason) => Decision::Deny(format!("not approved: {reason}")),
                    allow => allow,
                }
            }),
            Some(limit) => Box::pin(async move {
                match tokio::time::timeout(limit, answer).await {
                    Ok(Decision::Deny(reason)) => Decision::Deny(format!("not approved: {reason}")),
                    Ok(allow) => allow,
                    Err(_) => Decision::Deny(format!("not approved: no answer within {limit:?}")),
                }
            }),
        }
    }
}

impl<A> fmt::Debug for RequireApproval<A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RequireApproval")
            .field("tools", &self.tools)
            .field("destructive", &self.destructive)
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}
