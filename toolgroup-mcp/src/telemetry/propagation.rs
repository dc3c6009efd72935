//! Trace context across MCP (the `otel` feature): W3C Trace Context and Baggage in a
//! request's `params._meta` (`traceparent`, `tracestate`, `baggage`, unprefixed, as SEP-414
//! and the OpenTelemetry MCP conventions say), extracted into the server span's parent and
//! injected from the client span.
//!
//! The W3C propagators are used whatever global propagator the application installed: the
//! MCP conventions name these keys, and a peer written in another language expects them.

use std::sync::LazyLock;

use opentelemetry::Context;
use opentelemetry::propagation::{
    Extractor, Injector, TextMapCompositePropagator, TextMapPropagator,
};
use opentelemetry::trace::TraceContextExt as _;
use opentelemetry_sdk::propagation::{BaggagePropagator, TraceContextPropagator};
use rmcp::model::MetaObject;
use tracing::Span;
use tracing_opentelemetry::OpenTelemetrySpanExt as _;

/// The keys read and written.
const KEYS: [&str; 3] = ["traceparent", "tracestate", "baggage"];

/// The longest value read for each key: a version-00 `traceparent` is 55 characters (a later
/// version may append fields), W3C Trace Context bounds `tracestate` at 32 members of at most
/// 256 characters each and W3C Baggage a header at 8,192 bytes. A longer value is ignored, so
/// a client cannot make the server parse a large string per request.
fn limit(key: &str) -> usize {
    match key {
        "traceparent" => 512,
        "tracestate" => 8_192,
        _ => 8_192,
    }
}

static PROPAGATOR: LazyLock<TextMapCompositePropagator> = LazyLock::new(|| {
    TextMapCompositePropagator::new(vec![
        Box::new(TraceContextPropagator::new()),
        Box::new(BaggagePropagator::new()),
    ])
});

/// The request's `_meta`, read as a carrier: string values of the three keys only, each
/// within its limit.
struct MetaExtractor<'a>(&'a MetaObject);

impl Extractor for MetaExtractor<'_> {
    fn get(&self, key: &str) -> Option<&str> {
        let key = KEYS.iter().find(|k| k.eq_ignore_ascii_case(key))?;
        self.0
            .get(*key)
            .and_then(serde_json::Value::as_str)
            .filter(|value| value.len() <= limit(key))
    }

    fn keys(&self) -> Vec<&str> {
        KEYS.iter()
            .copied()
            .filter(|key| self.get(key).is_some())
            .collect()
    }
}

// Only the client writes a trace context.
#[cfg_attr(not(feature = "client"), allow(dead_code))]
struct MetaInjector<'a>(&'a mut MetaObject);

impl Injector for MetaInjector<'_> {
    fn set(&mut self, key: &str, value: String) {
        self.0
            .insert(key.to_owned(), serde_json::Value::String(value));
    }
}

/// Makes the trace context in `meta`, when there is a valid one, the parent of `span`
/// (which otherwise stays a root). A malformed, unsupported, all-zero or oversized value is
/// no parent.
pub(crate) fn adopt_remote_parent(span: &Span, meta: &MetaObject) {
    if span.is_disabled() || meta.get("traceparent").is_none() {
        return;
    }
    // From an empty context: `extract` starts from the current one, the span this request's
    // task runs in, which a malformed value would then make the parent.
    let parent = PROPAGATOR.extract_with_context(&Context::new(), &MetaExtractor(meta));
    if parent.span().span_context().is_valid() {
        // Only fails without a `tracing-opentelemetry` layer, where there is no trace to join.
        let _ = span.set_parent(parent);
    }
}

/// Writes `span`'s trace context (and the current baggage) into `meta` for the peer.
#[cfg_attr(not(feature = "client"), allow(dead_code))]
pub(crate) fn inject(span: &Span, meta: &mut MetaObject) {
    if span.is_disabled() {
        return;
    }
    let context = span.context();
    if context.span().span_context().is_valid() {
        PROPAGATOR.inject_context(&context, &mut MetaInjector(meta));
    }
}
