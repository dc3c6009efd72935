//! Every call emits a `tracing` span named `tool_call` with the tool, group, outcome and duration.
// Own binary: tracing caches callsite interest process-wide, racing other tests' calls.

mod common;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use common::*;
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

/// A span's name and its recorded fields.
type SpanRecord = (String, BTreeMap<String, String>);

/// Records the fields of every span it sees.
#[derive(Clone, Default)]
struct Capture {
    spans: Arc<Mutex<Vec<SpanRecord>>>,
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
        spans.push((attrs.metadata().name().to_owned(), fields));
        Id::from_u64(spans.len() as u64)
    }
    fn record(&self, span: &Id, values: &Record<'_>) {
        let mut spans = self.spans.lock().unwrap();
        let (_, fields) = &mut spans[span.into_u64() as usize - 1];
        values.record(&mut Fields(fields));
    }
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, _: &Event<'_>) {}
    fn enter(&self, _: &Id) {}
    fn exit(&self, _: &Id) {}
}

#[test]
fn every_call_has_a_span_with_its_outcome() {
    let capture = Capture::default();
    // The time driver: `page_fetch` has a timeout.
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap();
    tracing::subscriber::with_default(capture.clone(), || {
        rt.block_on(async {
            let kit = toolkit();
            let mut s = kit.session();
            kit.call(&mut s, "note_write", r#"{"text": "a"}"#).await;
            kit.call(&mut s, "note_write", r#"{"text": 1}"#).await;
            kit.call(&mut s, "db_count", "{}").await;
            kit.call(&mut s, "nope", "{}").await;
            kit.call(&mut s, "reset_tools", r#"{"scraping": true}"#)
                .await;
            kit.call(&mut s, "reset_tools", r#"{"scrapping": true}"#)
                .await;
            kit.call(&mut s, "page_fetch", r#"{"url": "ftp://x"}"#)
                .await;
        })
    });
    let spans = capture.spans.lock().unwrap();
    let summary: Vec<(String, Option<String>, Option<String>)> = spans
        .iter()
        .map(|(name, f)| {
            assert_eq!(name, "tool_call");
            (
                f["tool"].clone(),
                f.get("group").cloned(),
                f.get("outcome").cloned(),
            )
        })
        .collect();
    let s = |v: &str| Some(v.to_owned());
    assert_eq!(
        summary,
        [
            ("note_write".to_owned(), s("notes"), s("ok")),
            ("note_write".to_owned(), s("notes"), s("invalid_arguments")),
            ("db_count".to_owned(), s("database"), s("inactive_group")),
            ("nope".to_owned(), None, s("unknown_tool")),
            ("reset_tools".to_owned(), None, s("ok")),
            ("reset_tools".to_owned(), None, s("refused")),
            ("page_fetch".to_owned(), s("scraping"), s("tool_error")),
        ]
    );
    for (_, fields) in spans.iter().filter(|(_, f)| f["tool"] != "reset_tools") {
        assert!(fields["duration_us"].parse::<u64>().is_ok(), "{fields:?}");
    }
}
