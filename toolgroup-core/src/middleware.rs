//! Middleware: tower layers around every tool call.
//!
//! A tool call is a [`tower_service::Service`]`<`[`ToolRequest`]`>` answering a
//! [`CallResult`]; [`Toolkit::layer`](crate::Toolkit::layer) wraps it in any
//! [`tower_layer::Layer`]. So the ecosystem's layers work as they are: tower's
//! `ConcurrencyLimitLayer`, `TimeoutLayer`, `LoadShedLayer`, `RateLimitLayer` (behind a
//! `BufferLayer`, since a rate limiter cannot be cloned), and your own.
//!
//! # Order
//!
//! For each call that names a known, available tool (`reset_tools` included): the
//! [`Policy`](crate::Policy) first (a refusal runs no layer), then the layers, **the last one
//! added outermost** (as with axum's `Router::layer`; use `tower::ServiceBuilder` to list
//! them top-down), then the tool with its own timeout. Unknown tools and tools of inactive
//! groups are answered before any of this.
//!
//! # What a layer can do
//!
//! Read or rewrite the request (`arguments`, `extensions`), short-circuit with its own
//! [`CallResult`] (the tool does not run), observe or rewrite the result, time the call. An
//! error from a layer (tower's `Elapsed`, `Overloaded`...) ends the call as an error result
//! naming the tool and the error; a panic in a layer is contained like a panic in a tool. A
//! `reset_tools` call's new state is applied to the session only if the innermost service
//! ran it and the call's result is not an error.
//!
//! # Shipped layers
//!
//! [`AuditLayer`] (one record per call), [`MaxResultSize`] (caps what reaches the model) and
//! [`IdempotentCache`] (reuses results of tools marked `idempotent`).

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use serde_json::Value;
use tower_layer::Layer;
use tower_service::Service;

use crate::args::ArgumentsBuf;
use crate::futures::BoxFuture;
use crate::result::{CallResult, Content};

pub use crate::toolkit::layers::{BoxError, ToolRequest, ToolService};

/// The response future of the shipped layers.
pub type ToolFuture = BoxFuture<'static, Result<CallResult, BoxError>>;

/// What a shipped layer does around the service it wraps: given the request and a way to
/// call the inner service, the response.
pub trait Around: Clone + Send + Sync + 'static {
    /// Answer `request`, calling `next` to run the inner service (or not, to short-circuit).
    fn around(
        &self,
        request: ToolRequest,
        next: &mut dyn FnMut(ToolRequest) -> ToolFuture,
    ) -> ToolFuture;
}

/// The service of a shipped layer ([`AuditLayer`], [`MaxResultSize`], [`IdempotentCache`]):
/// the inner service plus what the layer does around it.
#[derive(Clone)]
pub struct Wrapped<S, A> {
    inner: S,
    around: A,
}

impl<S, A> fmt::Debug for Wrapped<S, A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Wrapped").finish_non_exhaustive()
    }
}

impl<S, A> Service<ToolRequest> for Wrapped<S, A>
where
    S: Service<ToolRequest, Response = CallResult>,
    S::Error: Into<BoxError>,
    S::Future: Send + 'static,
    A: Around,
{
    type Response = CallResult;
    type Error = BoxError;
    type Future = ToolFuture;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), BoxError>> {
        self.inner.poll_ready(cx).map_err(Into::into)
    }

    fn call(&mut self, request: ToolRequest) -> ToolFuture {
        let inner = &mut self.inner;
        self.around.around(request, &mut |request| {
            let future = inner.call(request);
            Box::pin(async move { future.await.map_err(Into::into) })
        })
    }
}

/// Implements `Layer` for a shipped layer: it wraps any service in [`Wrapped`].
macro_rules! wrapping_layer {
    ($layer:ty) => {
        impl<S> Layer<S> for $layer {
            type Service = Wrapped<S, $layer>;
            fn layer(&self, inner: S) -> Wrapped<S, $layer> {
                Wrapped {
                    inner,
                    around: self.clone(),
                }
            }
        }
    };
}

/// What [`AuditLayer`] records of one call.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct AuditRecord {
    /// The tool called.
    pub tool: &'static str,
    /// Its group (`None` for `reset_tools`).
    pub group: Option<&'static str>,
    /// The provider's call id.
    pub call_id: Option<String>,
    /// Whether the result was an error (including an error from an inner layer).
    pub is_error: bool,
    /// How long the inner layers and the tool took.
    pub duration: Duration,
}

/// Calls a sink with one [`AuditRecord`] per call, after the call (the arguments and the
/// result are not recorded: they may carry personal data; write your own layer to keep them).
///
/// ```
/// use std::sync::{Arc, Mutex};
/// use toolgroup::middleware::{AuditLayer, AuditRecord};
///
/// let log: Arc<Mutex<Vec<AuditRecord>>> = Arc::default();
/// let sink = log.clone();
/// let layer = AuditLayer::new(move |record: &AuditRecord| sink.lock().unwrap().push(record.clone()));
/// # let _ = layer;
/// ```
#[derive(Clone)]
pub struct AuditLayer {
    sink: Arc<dyn Fn(&AuditRecord) + Send + Sync>,
}

impl AuditLayer {
    /// Audit into `sink`.
    pub fn new(sink: impl Fn(&AuditRecord) + Send + Sync + 'static) -> Self {
        AuditLayer {
            sink: Arc::new(sink),
        }
    }
}

impl fmt::Debug for AuditLayer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("AuditLayer")
    }
}

wrapping_layer!(AuditLayer);

impl Around for AuditLayer {
    fn around(
        &self,
        request: ToolRequest,
        next: &mut dyn FnMut(ToolRequest) -> ToolFuture,
    ) -> ToolFuture {
        let mut record = AuditRecord {
            tool: request.tool,
            group: request.group,
            call_id: request.call_id.clone(),
            is_error: false,
            duration: Duration::ZERO,
        };
        let sink = self.sink.clone();
        let started = Instant::now();
        let future = next(request);
        Box::pin(async move {
            let result = future.await;
            record.duration = started.elapsed();
            record.is_error = result.as_ref().map_or(true, |r| r.is_error);
            sink(&record);
            result
        })
    }
}

/// Caps the text a result brings into the model's context: text beyond `max_bytes` (summed
/// over the text blocks) is cut at a character boundary and a note says how much was cut;
/// structured content larger than the cap is dropped (its text is in the blocks). Protects the
/// context window from a tool that returns a whole database.
#[derive(Debug, Clone, Copy)]
pub struct MaxResultSize {
    max_bytes: usize,
}

impl MaxResultSize {
    /// At most `max_bytes` of text per result.
    pub fn new(max_bytes: usize) -> Self {
        MaxResultSize { max_bytes }
    }

    /// Cut `result` down to the cap.
    pub fn apply(&self, mut result: CallResult) -> CallResult {
        let total: usize = result
            .content
            .iter()
            .filter_map(Content::as_text)
            .map(str::len)
            .sum();
        if total <= self.max_bytes {
            return result;
        }
        let mut budget = self.max_bytes;
        let mut kept = Vec::with_capacity(result.content.len() + 1);
        for block in result.content {
            match block.as_text() {
                Some(text) if text.len() <= budget => {
                    budget -= text.len();
                    kept.push(block);
                }
                Some(text) => {
                    let mut cut = budget;
                    while !text.is_char_boundary(cut) {
                        cut -= 1;
                    }
                    if cut > 0 {
                        kept.push(Content::text(&text[..cut]));
                    }
                    budget = 0;
                }
                None => kept.push(block),
            }
        }
        kept.push(Content::text(format!(
            "[the result was cut: {} of {total} bytes of text shown]",
            self.max_bytes
        )));
        result.content = kept;
        if result
            .structured_content
            .as_ref()
            .is_some_and(|v| v.to_string().len() > self.max_bytes)
        {
            result.structured_content = None;
        }
        result
    }
}

wrapping_layer!(MaxResultSize);

impl Around for MaxResultSize {
    fn around(
        &self,
        request: ToolRequest,
        next: &mut dyn FnMut(ToolRequest) -> ToolFuture,
    ) -> ToolFuture {
        let future = next(request);
        let cap = *self;
        Box::pin(async move { future.await.map(|r| cap.apply(r)) })
    }
}

type Scope = Arc<dyn Fn(&ToolRequest) -> Option<String> + Send + Sync>;

/// Reuses the successful results of tools whose annotations say `idempotent`, for
/// `ttl`, keyed by tool, arguments (compared as JSON, so whitespace and key order do not
/// matter) and scope. Other tools and error results are never cached.
///
/// The cache is shared by every session of the toolkit. When results depend on who asks,
/// give a [`scope`](Self::scope) (for example the user id from the call's extensions), or
/// one user's result will be served to another.
#[derive(Clone)]
pub struct IdempotentCache {
    state: Arc<Mutex<CacheState>>,
    ttl: Duration,
    capacity: usize,
    scope: Option<Scope>,
}

#[derive(Default)]
struct CacheState {
    entries: HashMap<CacheKey, (Instant, CallResult)>,
}

#[derive(Clone, PartialEq, Eq, Hash)]
struct CacheKey {
    tool: &'static str,
    scope: Option<String>,
    arguments: String,
}

impl IdempotentCache {
    /// At most `capacity` results, each kept for `ttl`.
    pub fn new(capacity: usize, ttl: Duration) -> Self {
        IdempotentCache {
            state: Arc::default(),
            ttl,
            capacity,
            scope: None,
        }
    }

    /// Keep results apart by `scope(request)` (`None`: do not cache this call).
    pub fn scope(
        mut self,
        scope: impl Fn(&ToolRequest) -> Option<String> + Send + Sync + 'static,
    ) -> Self {
        self.scope = Some(Arc::new(scope));
        self
    }

    /// How many results are cached now.
    pub fn len(&self) -> usize {
        self.lock().entries.len()
    }

    /// Whether nothing is cached.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, CacheState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn key(&self, request: &ToolRequest) -> Option<CacheKey> {
        if request.annotations.idempotent != Some(true) {
            return None;
        }
        let scope = match &self.scope {
            Some(scope) => Some(scope(request)?),
            None => None,
        };
        // Arguments compared as JSON values: invalid JSON is not cached (the tool refuses it).
        let arguments = match &request.arguments {
            ArgumentsBuf::Text(text) if text.trim().is_empty() => "{}".to_owned(),
            ArgumentsBuf::Text(text) => serde_json::from_str::<Value>(text).ok()?.to_string(),
            ArgumentsBuf::Value(value) => value.to_string(),
        };
        Some(CacheKey {
            tool: request.tool,
            scope,
            arguments,
        })
    }
}

impl fmt::Debug for IdempotentCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("IdempotentCache")
            .field("ttl", &self.ttl)
            .field("capacity", &self.capacity)
            .field("scoped", &self.scope.is_some())
            .finish_non_exhaustive()
    }
}

wrapping_layer!(IdempotentCache);

impl Around for IdempotentCache {
    fn around(
        &self,
        request: ToolRequest,
        next: &mut dyn FnMut(ToolRequest) -> ToolFuture,
    ) -> ToolFuture {
        let key = self.key(&request);
        if let Some(key) = &key {
            let mut state = self.lock();
            match state.entries.get(key) {
                Some((at, result)) if at.elapsed() < self.ttl => {
                    let hit = result.clone();
                    return Box::pin(std::future::ready(Ok(hit)));
                }
                Some(_) => {
                    state.entries.remove(key);
                }
                None => {}
            }
        }
        let future = next(request);
        let cache = self.clone();
        Box::pin(async move {
            let result = future.await?;
            if let Some(key) = key
                && !result.is_error
                && cache.capacity > 0
            {
                let mut state = cache.lock();
                if state.entries.len() >= cache.capacity {
                    // Make room: drop expired entries, else the oldest one.
                    let ttl = cache.ttl;
                    state.entries.retain(|_, (at, _)| at.elapsed() < ttl);
                    if state.entries.len() >= cache.capacity
                        && let Some(oldest) = state
                            .entries
                            .iter()
                            .min_by_key(|(_, (at, _))| *at)
                            .map(|(k, _)| k.clone())
                    {
                        state.entries.remove(&oldest);
                    }
                }
                state.entries.insert(key, (Instant::now(), result.clone()));
            }
            Ok(result)
        })
    }
}
