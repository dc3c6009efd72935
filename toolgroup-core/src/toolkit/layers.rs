//! The tower boundary: a call as a [`ToolRequest`] to a [`ToolService`], the layers around
//! it, and the innermost service, which hands the request back to the toolkit to run.

use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};

use tower_service::Service;

use crate::args::{Arguments, ArgumentsBuf};
use crate::context::{CancellationToken, Extensions, Observers};
use crate::futures::BoxFuture;
use crate::meta::ToolAnnotations;
use crate::registry::Registry;
use crate::result::{CallOutcome, CallResult};
use crate::session::Session;

use super::messages;
use super::run::{Parts, Target, contained};
use super::{Core, Toolkit};

/// The error type of tool services: any error, boxed (what tower's own layers produce).
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// One tool call, as layers see it: owned, so it can cross tasks (`Buffer`) and be kept.
#[non_exhaustive]
pub struct ToolRequest {
    /// The tool called (`reset_tools` for the meta tool).
    pub tool: &'static str,
    /// The tool's group (`None` for `reset_tools`).
    pub group: Option<&'static str>,
    /// The tool's hints.
    pub annotations: ToolAnnotations,
    /// The provider's call id, if any.
    pub call_id: Option<String>,
    /// The arguments; a layer may rewrite them before the tool parses them.
    pub arguments: ArgumentsBuf,
    /// The per-call data; a layer may add values (an authenticated principal) for the tool.
    pub extensions: Extensions,
    pub(crate) inner: Inner,
}

/// What the innermost service needs, and what layers must not touch.
pub(crate) struct Inner {
    run: Arc<dyn Run>,
    target: Target,
    observers: Option<Observers>,
    cancel: Option<CancellationToken>,
    /// For the builtins that read it: the session's state before the call.
    state: Option<Box<[u64]>>,
    panic_details: bool,
    /// Whether the call changes the session: its resolution's answer
    /// ([`Resolved::changes_session`](crate::Resolved::changes_session)), first use included.
    changes: bool,
}

/// The type-erased toolkit, as the innermost service runs it.
trait Run: Send + Sync + 'static {
    fn run(self: Arc<Self>, request: ToolRequest) -> BoxFuture<'static, ToolResponse>;
}

/// What a tool service answers: the call's result and, for a call that
/// [changes the session](ToolRequest::changes_session), the new state the toolkit's innermost
/// service left. Layers map the [`result`](Self::result) and pass the response on, as
/// `http::Response` carries its extensions through middleware.
///
/// A layer that answers a call itself builds a response with [`ToolResponse::new`], which
/// carries no state: the session is then unchanged, whatever the result says. Only the
/// innermost service can hand back a new state, and the toolkit applies it only if the result
/// that reaches it is not an error.
#[derive(Debug)]
#[non_exhaustive]
pub struct ToolResponse {
    /// The result for the model; a layer may rewrite it.
    pub result: CallResult,
    /// The session's state after the call, when the innermost service ran one that changes it.
    state: Option<Box<[u64]>>,
}

impl ToolResponse {
    /// A response of `result` that changes no session (what a layer answering a call itself
    /// returns).
    pub fn new(result: CallResult) -> Self {
        ToolResponse {
            result,
            state: None,
        }
    }

    /// The response with its result rewritten by `f` (any new state kept).
    #[must_use]
    pub fn map_result(mut self, f: impl FnOnce(CallResult) -> CallResult) -> Self {
        self.result = f(self.result);
        self
    }

    /// The result, dropping any new state.
    pub fn into_result(self) -> CallResult {
        self.result
    }
}

impl From<CallResult> for ToolResponse {
    fn from(result: CallResult) -> Self {
        ToolResponse::new(result)
    }
}

impl ToolRequest {
    /// Whether the call changes the session's state (`reset_tools`, `Skill`, a tool whose call
    /// activates its inactive group on first use), the answer of the call's
    /// [`Resolved::changes_session`](crate::Resolved::changes_session), under the first-use
    /// choice the call runs with. Its effect is applied only if the toolkit runs it: a layer
    /// must never answer such a call itself, from a cache or otherwise, or the model reads an
    /// answer for a change that did not happen.
    pub fn changes_session(&self) -> bool {
        self.inner.changes
    }
}

impl fmt::Debug for ToolRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolRequest")
            .field("tool", &self.tool)
            .field("group", &self.group)
            .field("call_id", &self.call_id)
            .field("arguments", &self.arguments)
            .field("extensions", &self.extensions)
            .finish_non_exhaustive()
    }
}

/// The tool-call service every layer wraps: cloneable and type-erased, so layers of any type
/// stack on it. Its error type is [`BoxError`], which tower's layers can convert into.
pub struct ToolService {
    inner: Box<dyn ErasedService>,
}

trait ErasedService: Send + 'static {
    fn clone_box(&self) -> Box<dyn ErasedService>;
    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), BoxError>>;
    fn call(&mut self, request: ToolRequest) -> BoxFuture<'static, Result<ToolResponse, BoxError>>;
}

impl<S> ErasedService for S
where
    S: Service<ToolRequest, Response = ToolResponse> + Clone + Send + 'static,
    S::Error: Into<BoxError>,
    S::Future: Send + 'static,
{
    fn clone_box(&self) -> Box<dyn ErasedService> {
        Box::new(self.clone())
    }
    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), BoxError>> {
        Service::poll_ready(self, cx).map_err(Into::into)
    }
    fn call(&mut self, request: ToolRequest) -> BoxFuture<'static, Result<ToolResponse, BoxError>> {
        let future = Service::call(self, request);
        Box::pin(async move { future.await.map_err(Into::into) })
    }
}

impl ToolService {
    /// Erase a service's type.
    pub fn new<S>(service: S) -> Self
    where
        S: Service<ToolRequest, Response = ToolResponse> + Clone + Send + 'static,
        S::Error: Into<BoxError>,
        S::Future: Send + 'static,
    {
        ToolService {
            inner: Box::new(service),
        }
    }

    /// The innermost service: runs the tool (or `reset_tools`) the request names.
    pub(crate) fn innermost() -> Self {
        ToolService::new(RunTool)
    }
}

impl Clone for ToolService {
    fn clone(&self) -> Self {
        ToolService {
            inner: self.inner.clone_box(),
        }
    }
}

impl fmt::Debug for ToolService {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ToolService")
    }
}

impl Service<ToolRequest> for ToolService {
    type Response = ToolResponse;
    type Error = BoxError;
    type Future = BoxFuture<'static, Result<ToolResponse, BoxError>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), BoxError>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: ToolRequest) -> Self::Future {
        self.inner.call(request)
    }
}

/// Runs the request's tool.
#[derive(Clone, Copy)]
struct RunTool;

impl Service<ToolRequest> for RunTool {
    type Response = ToolResponse;
    type Error = BoxError;
    type Future = BoxFuture<'static, Result<ToolResponse, BoxError>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), BoxError>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: ToolRequest) -> Self::Future {
        let run = request.inner.run.clone();
        let future = run.run(request);
        Box::pin(async move { Ok(future.await) })
    }
}

impl<R: Registry> Run for Core<R> {
    fn run(self: Arc<Self>, request: ToolRequest) -> BoxFuture<'static, ToolResponse> {
        Box::pin(async move {
            let ToolRequest {
                tool,
                group,
                annotations,
                call_id,
                arguments,
                extensions,
                inner,
            } = request;
            let mut state = R::EMPTY;
            if inner.target.reads_session() {
                let Some(old) = &inner.state else {
                    return messages::layer_error(tool, &"the request lost its session state")
                        .into();
                };
                state.as_mut().copy_from_slice(old);
            }
            // The context names what runs, whatever a layer did to the request's `tool`.
            let runs = self.name_of(inner.target);
            let parts = Parts {
                target: inner.target,
                tool: runs,
                group,
                annotations,
                call_id: call_id.as_deref(),
                extensions: Some(&extensions),
                observers: inner.observers.as_ref(),
                cancel: inner.cancel.as_ref(),
            };
            let result = self
                .run_target(
                    &parts,
                    arguments.as_arguments(),
                    &mut state,
                    inner.panic_details,
                )
                .await;
            // Accepted: the builtins say `Ok` of a call whose state they changed.
            let state = (inner.target.changes_session() && result.outcome() == CallOutcome::Ok)
                .then(|| state.as_ref().into());
            ToolResponse { result, state }
        })
    }
}

impl<R: Registry> Toolkit<R> {
    /// A resolved call, allowed by the policy, through the layers. A new state is applied to
    /// `session` only if the innermost service handed one back and the result that comes out
    /// of the layers is not an error.
    pub(super) async fn through_layers(
        &self,
        pipeline: &Mutex<ToolService>,
        session: &mut Session<R>,
        parts: Parts<'_>,
        arguments: Arguments<'_>,
        changes: bool,
    ) -> CallResult {
        let tool = parts.tool;
        let request = ToolRequest {
            tool,
            group: parts.group,
            annotations: parts.annotations,
            call_id: parts.call_id.map(str::to_owned),
            arguments: arguments.to_buf(),
            extensions: parts.extensions.cloned().unwrap_or_default(),
            inner: Inner {
                run: self.core.clone(),
                target: parts.target,
                observers: parts.observers.cloned(),
                cancel: parts.cancel.cloned(),
                // The session's state travels with the builtins that read it.
                state: parts
                    .target
                    .reads_session()
                    .then(|| session.bits().as_ref().into()),
                panic_details: self.panic_details,
                changes,
            },
        };
        let mut service = pipeline
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        let outcome = contained(move || {
            Box::pin(async move {
                std::future::poll_fn(|task| Service::poll_ready(&mut service, task)).await?;
                Service::call(&mut service, request).await
            })
        })
        .await;
        match outcome {
            Ok(Ok(ToolResponse { result, state })) => {
                if let Some(bits) = state
                    && parts.target.changes_session()
                    && !result.is_error
                {
                    let mut next = R::EMPTY;
                    next.as_mut().copy_from_slice(&bits);
                    session.apply(next);
                }
                result
            }
            Ok(Err(error)) => messages::layer_error(tool, &error),
            Err(panic) => messages::panicked_around(tool, "middleware", &panic, self.panic_details),
        }
    }
}
