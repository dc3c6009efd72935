//! The audit log: one record for every call the toolkit answers, refusals and cancellations
//! included ([`Toolkit::with_audit`](crate::Toolkit::with_audit)). It is the toolkit's, not a
//! layer's, because a layer sees only the calls that reach it: a call the policy denies, an
//! unknown tool, a tool of an inactive group and a call dropped while it runs never do.
//! [`AuditLayer`] is the positional variant, an ordinary layer.

use std::fmt;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use tower_layer::Layer;
use tower_service::Service;

use crate::futures::{BoxFuture, catch_panic};
use crate::result::{CallOutcome, CallResult};

use super::layers::{BoxError, ToolRequest, ToolResponse};

/// What [`Toolkit::with_audit`](crate::Toolkit::with_audit) (or an [`AuditLayer`]) records of
/// one call.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct AuditRecord {
    /// The tool called: its name, or for an unknown tool the name the model sent (escaped
    /// and capped, as in the error the model reads).
    pub tool: String,
    /// Its group (`None` for `reset_tools` and unknown tools).
    pub group: Option<&'static str>,
    /// The provider's call id.
    pub call_id: Option<String>,
    /// How the call ended ([`CallResult::outcome`]).
    pub outcome: CallOutcome,
    /// Whether the model read an error result (every outcome but `Ok`).
    pub is_error: bool,
    /// How long the call took, from the toolkit's first look at it.
    pub duration: Duration,
}

type Sink = Arc<dyn Fn(&AuditRecord) + Send + Sync>;

/// A layer that calls a sink with one [`AuditRecord`] for each call that reaches it, after
/// the call. It is an ordinary, positional layer: it records what passes through it, where it
/// stands among the layers. To record every call the toolkit answers (calls the policy
/// denies, unknown tools, tools of inactive groups and cancelled calls included), give the
/// sink to [`Toolkit::with_audit`](crate::Toolkit::with_audit) instead.
///
/// The arguments and the result are not recorded: they may carry personal data; write your
/// own layer to keep them. A panic in the sink is caught and logged; the call's result stands.
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
    sink: Sink,
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

/// The toolkit's audit sink, called once per call.
#[derive(Clone, Default)]
pub(crate) struct Auditors(Option<Sink>);

impl Auditors {
    pub(crate) fn set(&mut self, sink: impl Fn(&AuditRecord) + Send + Sync + 'static) {
        self.0 = Some(Arc::new(sink));
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_none()
    }

    pub(crate) fn record(&self, record: &AuditRecord) {
        if let Some(sink) = &self.0 {
            record_into(sink, record);
        }
    }
}

fn record_into(sink: &Sink, record: &AuditRecord) {
    if let Err(panic) = catch_panic(|| sink(record)) {
        tracing::error!(tool = %record.tool, panic, "an audit sink panicked");
    }
}

/// Records the call as cancelled if it is dropped before [`finish`](Self::finish).
pub(crate) struct Pending<'a> {
    auditors: &'a Auditors,
    record: Option<AuditRecord>,
    started: Instant,
}

impl<'a> Pending<'a> {
    pub(crate) fn new(
        auditors: &'a Auditors,
        tool: String,
        group: Option<&'static str>,
        call_id: Option<&str>,
    ) -> Self {
        Pending {
            auditors,
            record: Some(AuditRecord {
                tool,
                group,
                call_id: call_id.map(str::to_owned),
                outcome: CallOutcome::Cancelled,
                is_error: true,
                duration: Duration::ZERO,
            }),
            started: Instant::now(),
        }
    }

    pub(crate) fn finish(mut self, result: &CallResult) {
        if let Some(mut record) = self.record.take() {
            record.outcome = result.outcome();
            record.is_error = result.is_error;
            record.duration = self.started.elapsed();
            self.auditors.record(&record);
        }
    }
}

impl Drop for Pending<'_> {
    fn drop(&mut self) {
        if let Some(mut record) = self.record.take() {
            record.duration = self.started.elapsed();
            self.auditors.record(&record);
        }
    }
}

/// The service of an [`AuditLayer`]: it records the calls that reach it.
#[derive(Clone)]
pub struct Audit<S> {
    inner: S,
    sink: Sink,
}

impl<S> fmt::Debug for Audit<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Audit").finish_non_exhaustive()
    }
}

impl<S> Layer<S> for AuditLayer {
    type Service = Audit<S>;

    fn layer(&self, inner: S) -> Audit<S> {
        Audit {
            inner,
            sink: self.sink.clone(),
        }
    }
}

impl<S> Service<ToolRequest> for Audit<S>
where
    S: Service<ToolRequest, Response = ToolResponse>,
    S::Error: Into<BoxError>,
    S::Future: Send + 'static,
{
    type Response = ToolResponse;
    type Error = BoxError;
    type Future = BoxFuture<'static, Result<ToolResponse, BoxError>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), BoxError>> {
        self.inner.poll_ready(cx).map_err(Into::into)
    }

    fn call(&mut self, request: ToolRequest) -> Self::Future {
        let mut record = AuditRecord {
            tool: request.tool.to_owned(),
            group: request.group,
            call_id: request.call_id.clone(),
            outcome: CallOutcome::Cancelled,
            is_error: true,
            duration: Duration::ZERO,
        };
        let sink = self.sink.clone();
        let started = Instant::now();
        let future = self.inner.call(request);
        Box::pin(async move {
            let result = future.await.map_err(Into::into);
            record.duration = started.elapsed();
            (record.outcome, record.is_error) = match &result {
                Ok(r) => (r.result.outcome(), r.result.is_error),
                Err(_) => (CallOutcome::LayerError, true),
            };
            record_into(&sink, &record);
            result
        })
    }
}
