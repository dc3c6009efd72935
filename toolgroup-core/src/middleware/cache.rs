//! [`IdempotentCacheLayer`]: reuses the results of read-only tools marked `idempotent`.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::args::ArgumentsBuf;
use crate::result::CallResult;

use super::{Around, ToolFuture, ToolRequest, ToolResponse, layer_service};

type Scope = Arc<dyn Fn(&ToolRequest) -> Option<String> + Send + Sync>;

/// Reuses the successful results of tools whose annotations say both `read_only` and
/// `idempotent`, for `ttl`, keyed by tool, arguments (compared as JSON, so whitespace and key
/// order do not matter) and scope. Other tools and error results are never cached.
///
/// A cache hit stands in for a call, so only a call with no effect may be answered from the
/// cache: `idempotent` alone (MCP's `idempotentHint`, which speaks of tools that are *not*
/// read-only) says a second call adds nothing to the first one's effect, but a hit for
/// another session or user would skip that effect for them. A call that changes the session
/// ([`ToolRequest::changes_session`]: `reset_tools`) is never cached, whatever its hints.
///
/// The cache is shared by every session of the toolkit. When results depend on who asks,
/// give a [`scope`](Self::scope) (for example the user id from the call's extensions), or
/// one user's result will be served to another.
#[derive(Clone)]
pub struct IdempotentCacheLayer {
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

impl IdempotentCacheLayer {
    /// At most `capacity` results, each kept for `ttl`.
    pub fn new(capacity: usize, ttl: Duration) -> Self {
        IdempotentCacheLayer {
            state: Arc::default(),
            ttl,
            capacity,
            scope: None,
        }
    }

    /// Keep results apart by `scope(request)` (`None`: do not cache this call).
    #[must_use]
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
        let hints = request.annotations;
        if request.changes_session()
            || hints.read_only != Some(true)
            || hints.idempotent != Some(true)
        {
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

impl fmt::Debug for IdempotentCacheLayer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("IdempotentCacheLayer")
            .field("ttl", &self.ttl)
            .field("capacity", &self.capacity)
            .field("scoped", &self.scope.is_some())
            .finish_non_exhaustive()
    }
}

layer_service!(
    /// The service of [`IdempotentCacheLayer`]: the inner service behind the cache.
    IdempotentCache,
    IdempotentCacheLayer
);

impl Around for IdempotentCacheLayer {
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
                    let hit = ToolResponse::new(result.clone());
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
            let response = future.await?;
            if let Some(key) = key
                && !response.result.is_error
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
                state
                    .entries
                    .insert(key, (Instant::now(), response.result.clone()));
            }
            Ok(response)
        })
    }
}
