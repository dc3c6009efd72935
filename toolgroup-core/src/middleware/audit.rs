//! [`AuditLayer`]: one record per call.

use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::{Around, ToolFuture, ToolRequest, layer_service};

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

layer_service!(
    /// The service of [`AuditLayer`]: the inner service, audited.
    Audit,
    AuditLayer
);

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
