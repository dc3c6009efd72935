//! Middleware: tower layers around every tool call.
//!
//! A tool call is a [`tower_service::Service`]`<`[`ToolRequest`]`>` answering a
//! [`ToolResponse`] (the [`CallResult`](crate::CallResult) and, for a call that changes the session, the new
//! state); [`Toolkit::layer`](crate::Toolkit::layer) wraps it in any
//! [`tower_layer::Layer`]. So the ecosystem's layers work as they are: tower's
//! `ConcurrencyLimitLayer`, `TimeoutLayer`, `LoadShedLayer`, `RateLimitLayer` (behind a
//! `BufferLayer`, since a rate limiter cannot be cloned), and your own.
//!
//! # Order
//!
//! For each call that names a known, available tool (`reset_tools` included): the
//! [`Policy`](crate::policy::Policy) first (a refusal runs no layer), then the layers, **the last one
//! added outermost** (as with axum's `Router::layer`; use `tower::ServiceBuilder` to list
//! them top-down), then the tool with its own timeout. Unknown tools and tools of inactive
//! groups are answered before any of this. The toolkit's own audit
//! ([`Toolkit::with_audit`](crate::Toolkit::with_audit)) is not in this order: it records
//! every call the toolkit answers, at its outermost point.
//!
//! | extension point | sees | how |
//! |---|---|---|
//! | [`Policy`](crate::policy::Policy) | every call of a known, available tool, before any layer | borrowed request, no allocation; allow or deny |
//! | layers ([`Toolkit::layer`](crate::Toolkit::layer)) | the calls the policy allowed | an owned [`ToolRequest`], positional, last added outermost |
//! | audit ([`Toolkit::with_audit`](crate::Toolkit::with_audit)) | every call the toolkit answers | one [`AuditRecord`] after the call |
//!
//! # What a layer can do
//!
//! Read or rewrite the request (`arguments`, `extensions`), short-circuit with its own
//! [`CallResult`](crate::CallResult) (`ToolResponse::new(result)`: the tool does not run), observe or rewrite the
//! result ([`ToolResponse::map_result`]), time the call. An
//! error from a layer (tower's `Elapsed`, `Overloaded`...) ends the call as an error result
//! naming the tool and the error; a panic in a layer is contained like a panic in a tool. A
//! `reset_tools` call's new state is applied to the session only if the innermost service
//! ran it and the call's result is not an error.
//!
//! # Shipped layers
//!
//! Each is a [`Layer`](tower_layer::Layer) named `FooLayer` whose service is `Foo<S>`, as in
//! tower: [`AuditLayer`] (one record per call that reaches it), [`MaxResultSizeLayer`] (caps what reaches
//! the model) and [`IdempotentCacheLayer`] (reuses results of tools marked both `read_only`
//! and `idempotent`, never of a call that changes the session).

mod cache;
mod cap;

use std::task::{Context, Poll};

use tower_service::Service;

use crate::futures::BoxFuture;

pub use self::cache::{IdempotentCache, IdempotentCacheLayer};
pub use self::cap::{MaxResultSize, MaxResultSizeLayer};
pub use crate::toolkit::audit::{Audit, AuditLayer, AuditRecord};
pub use crate::toolkit::layers::{BoxError, ToolRequest, ToolResponse, ToolService};

/// The response future of the shipped layers' services.
pub(crate) type ToolFuture = BoxFuture<'static, Result<ToolResponse, BoxError>>;

/// What a shipped layer does around the service it wraps: given the request and a way to
/// call the inner service, the response.
pub(crate) trait Around: Clone + Send + Sync + 'static {
    /// Answer `request`, calling `next` to run the inner service (or not, to short-circuit).
    fn around(
        &self,
        request: ToolRequest,
        next: &mut dyn FnMut(ToolRequest) -> ToolFuture,
    ) -> ToolFuture;
}

/// Declares a shipped layer's service type `$service<S>` (the inner service plus the layer)
/// and implements `Layer` for `$layer` and `Service` for the service through [`Around`].
macro_rules! layer_service {
    ($(#[$doc:meta])* $service:ident, $layer:ty) => {
        $(#[$doc])*
        #[derive(Clone)]
        pub struct $service<S> {
            inner: S,
            layer: $layer,
        }

        impl<S> tower_layer::Layer<S> for $layer {
            type Service = $service<S>;
            fn layer(&self, inner: S) -> $service<S> {
                $service {
                    inner,
                    layer: self.clone(),
                }
            }
        }

        impl<S> std::fmt::Debug for $service<S> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_struct(stringify!($service))
                    .field("layer", &self.layer)
                    .finish_non_exhaustive()
            }
        }

        impl<S> tower_service::Service<crate::middleware::ToolRequest> for $service<S>
        where
            S: tower_service::Service<
                    crate::middleware::ToolRequest,
                    Response = crate::middleware::ToolResponse,
                >,
            S::Error: Into<crate::middleware::BoxError>,
            S::Future: Send + 'static,
        {
            type Response = crate::middleware::ToolResponse;
            type Error = crate::middleware::BoxError;
            type Future = crate::middleware::ToolFuture;

            fn poll_ready(
                &mut self,
                cx: &mut std::task::Context<'_>,
            ) -> std::task::Poll<Result<(), crate::middleware::BoxError>> {
                crate::middleware::poll_inner(&mut self.inner, cx)
            }

            fn call(&mut self, request: crate::middleware::ToolRequest) -> Self::Future {
                crate::middleware::Around::around(&self.layer, request, &mut crate::middleware::calling(&mut self.inner))
            }
        }
    };
}
pub(crate) use layer_service;

pub(crate) fn poll_inner<S>(inner: &mut S, cx: &mut Context<'_>) -> Poll<Result<(), BoxError>>
where
    S: Service<ToolRequest, Response = ToolResponse>,
    S::Error: Into<BoxError>,
{
    inner.poll_ready(cx).map_err(Into::into)
}

/// `next` for [`Around::around`]: calls `inner`, its error boxed.
pub(crate) fn calling<S>(inner: &mut S) -> impl FnMut(ToolRequest) -> ToolFuture + '_
where
    S: Service<ToolRequest, Response = ToolResponse>,
    S::Error: Into<BoxError>,
    S::Future: Send + 'static,
{
    move |request| {
        let future = inner.call(request);
        Box::pin(async move { future.await.map_err(Into::into) })
    }
}
