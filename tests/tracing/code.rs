//! Code mode's spans: a run is an `execute_tool` span for `run_program`, and each call its
//! program makes is an `execute_tool` span of the tool inside it.

use std::sync::{Arc, Mutex};

use toolgroup::code::CodeMode;
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

/// A span's name and the name of the span it was made in.
type MadeIn = (String, Option<String>);

/// Each span's `otel.name` and the `otel.name` of the span it was made in.
#[derive(Clone, Default)]
struct Parents {
    names: Arc<Mutex<Vec<String>>>,
    made_in: Arc<Mutex<Vec<MadeIn>>>,
    current: Arc<Mutex<Vec<u64>>>,
}

struct OtelName<'a>(&'a mut String);

impl Visit for OtelName<'_> {
    fn record_debug(&mut self, _: &Field, _: &dyn std::fmt::Debug) {}
    fn record_str(&mut self, field: &Field, value: &str) {
        if field.name() == "otel.name" {
            *self.0 = value.to_owned();
        }
    }
}

impl Subscriber for Parents {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, attrs: &Attributes<'_>) -> Id {
        let mut name = attrs.metadata().name().to_owned();
        attrs.record(&mut OtelName(&mut name));
        let parent = self.current.lock().unwrap().last().copied();
        let mut names = self.names.lock().unwrap();
        let parent = parent.map(|id| names[id as usize - 1].clone());
        names.push(name.clone());
        self.made_in.lock().unwrap().push((name, parent));
        Id::from_u64(names.len() as u64)
    }
    fn record(&self, span: &Id, values: &Record<'_>) {
        let mut names = self.names.lock().unwrap();
        let slot = &mut names[span.into_u64() as usize - 1];
        let mut name = slot.clone();
        values.record(&mut OtelName(&mut name));
        *slot = name;
    }
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, _: &Event<'_>) {}
    fn enter(&self, span: &Id) {
        self.current.lock().unwrap().push(span.into_u64());
    }
    fn exit(&self, _: &Id) {
        self.current.lock().unwrap().pop();
    }
}

#[test]
fn a_programs_calls_are_spans_inside_the_runs_span() {
    let parents = Parents::default();
    let code = CodeMode::new(crate::common::quickstart::toolkit());
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    tracing::subscriber::with_default(parents.clone(), || {
        rt.block_on(async {
            let mut session = code.toolkit().session();
            let r = code
                .run(
                    &mut session,
                    "await Promise.all([notes.note_write({ text: 'a' }), notes.note_write({ text: 'b' })]); return 1;",
                )
                .await;
            assert!(!r.is_error, "{}", r.text_joined());
        });
    });
    let made_in = parents.made_in.lock().unwrap().clone();
    let calls: Vec<_> = made_in
        .iter()
        .filter(|(_, parent)| parent.as_deref() == Some("execute_tool run_program"))
        .collect();
    assert_eq!(calls.len(), 2, "{made_in:?}");
    assert!(
        made_in
            .iter()
            .any(|(name, parent)| name == "execute_tool run_program" && parent.is_none()),
        "{made_in:?}"
    );
}
