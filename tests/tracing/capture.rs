//! A subscriber that keeps the name and the fields of every span, and a runner that makes
//! calls under it.

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::{Arc, Mutex};

use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

/// One span: its name (the `tracing` metadata's) and every field recorded on it, as text.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub name: String,
    pub fields: BTreeMap<String, String>,
}

impl Recorded {
    /// The field's value, if it was recorded.
    pub fn get(&self, field: &str) -> Option<&str> {
        self.fields.get(field).map(String::as_str)
    }

    /// The names of the recorded fields.
    pub fn keys(&self) -> Vec<&str> {
        self.fields.keys().map(String::as_str).collect()
    }
}

/// Records the fields of every span it sees.
#[derive(Clone, Default)]
struct Capture {
    spans: Arc<Mutex<Vec<Recorded>>>,
}

struct Fields<'a>(&'a mut BTreeMap<String, String>);

impl Visit for Fields<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }
    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.to_owned());
    }
}

impl Subscriber for Capture {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, attrs: &Attributes<'_>) -> Id {
        let mut fields = BTreeMap::new();
        attrs.record(&mut Fields(&mut fields));
        let mut spans = self.spans.lock().unwrap();
        spans.push(Recorded {
            name: attrs.metadata().name().to_owned(),
            fields,
        });
        Id::from_u64(spans.len() as u64)
    }
    fn record(&self, span: &Id, values: &Record<'_>) {
        let mut spans = self.spans.lock().unwrap();
        let recorded = &mut spans[span.into_u64() as usize - 1];
        values.record(&mut Fields(&mut recorded.fields));
    }
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, _: &Event<'_>) {}
    fn enter(&self, _: &Id) {}
    fn exit(&self, _: &Id) {}
}

/// Runs `calls` on a current-thread runtime with the time driver, under a subscriber that
/// wants every span; the spans they made, in the order they were made.
pub fn spans<F: Future<Output = ()>>(calls: impl FnOnce() -> F) -> Vec<Recorded> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap();
    spans_on(&rt, calls)
}

/// [`spans`] on the runtime `rt`.
pub fn spans_on<F: Future<Output = ()>>(
    rt: &tokio::runtime::Runtime,
    calls: impl FnOnce() -> F,
) -> Vec<Recorded> {
    let capture = Capture::default();
    tracing::subscriber::with_default(capture.clone(), || rt.block_on(calls()));
    capture.spans.lock().unwrap().clone()
}

/// The one span `calls` made.
pub fn one_span<F: Future<Output = ()>>(calls: impl FnOnce() -> F) -> Recorded {
    let mut spans = spans(calls);
    assert_eq!(spans.len(), 1, "{spans:#?}");
    spans.remove(0)
}
