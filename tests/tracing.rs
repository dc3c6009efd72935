//! Every call emits a `tracing` span named `tool_call` with the tool, group, outcome and duration.
// Own binary: tracing caches callsite interest process-wide, racing other tests' calls.

mod common;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use common::*;
use toolgroup::prelude::*;
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

/// An event's message and the name of the span it was emitted in (`None` outside any).
type EventRecord = (String, Option<String>);

/// Records each event with the span it was emitted in.
#[derive(Clone, Default)]
struct Nesting {
    names: Arc<Mutex<Vec<String>>>,
    events: Arc<Mutex<Vec<EventRecord>>>,
}

thread_local! {
    static CURRENT: std::cell::RefCell<Vec<u64>> = const { std::cell::RefCell::new(Vec::new()) };
}

struct Message<'a>(&'a mut String);

impl Visit for Message<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        if field.name() == "message" {
            *self.0 = format!("{value:?}");
        }
    }
}

impl Subscriber for Nesting {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, attrs: &Attributes<'_>) -> Id {
        let mut names = self.names.lock().unwrap();
        names.push(attrs.metadata().name().to_owned());
        Id::from_u64(names.len() as u64)
    }
    fn record(&self, _: &Id, _: &Record<'_>) {}
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, event: &Event<'_>) {
        let mut message = String::new();
        event.record(&mut Message(&mut message));
        let span = CURRENT.with(|c| c.borrow().last().copied());
        let span = span.map(|id| self.names.lock().unwrap()[id as usize - 1].clone());
        self.events.lock().unwrap().push((message, span));
    }
    fn enter(&self, span: &Id) {
        CURRENT.with(|c| c.borrow_mut().push(span.into_u64()));
    }
    fn exit(&self, _: &Id) {
        CURRENT.with(|c| c.borrow_mut().pop());
    }
}

/// Emits an event when dropped.
struct Farewell;

impl Drop for Farewell {
    fn drop(&mut self) {
        tracing::info!("dropped");
    }
}

struct Waiting;

#[tool_group(name = "waiting", description = "Tools that wait.")]
impl Waiting {
    /// Say hello.
    #[tool]
    fn hello(&self) -> String {
        tracing::info!("hello ran");
        "hi".to_owned()
    }

    /// Wait until cancelled.
    #[tool]
    async fn wait_forever(&self) -> String {
        let _farewell = Farewell;
        tracing::info!("waiting");
        std::future::pending::<()>().await;
        unreachable!()
    }
}

#[toolkit]
struct Waits {
    #[basic]
    waiting: Waiting,
}

#[test]
fn a_tool_runs_and_is_dropped_inside_its_span() {
    let nesting = Nesting::default();
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    tracing::subscriber::with_default(nesting.clone(), || {
        rt.block_on(async {
            let kit = Toolkit::new(Waits { waiting: Waiting });
            let mut s = kit.session();
            kit.call(&mut s, "hello", "{}").await;
            // Cancelled by the application's token: the tool's future is dropped.
            let token = toolgroup::context::CancellationToken::new();
            let cx = toolgroup::CallContext::new().with_cancellation(token.clone());
            let call = kit.call_with(&mut s, "wait_forever", "{}", &cx);
            let cancel = async {
                tokio::task::yield_now().await;
                token.cancel();
            };
            let (r, ()) = tokio::join!(call, cancel);
            assert!(r.text_joined().contains("was cancelled"), "{r:?}");
            // Dropped by the caller, before it finished.
            let call = kit.call(&mut s, "wait_forever", "{}");
            let mut call = std::pin::pin!(call);
            let waker = std::task::Waker::noop();
            let poll = call
                .as_mut()
                .poll(&mut std::task::Context::from_waker(waker));
            assert!(poll.is_pending());
        })
    });
    let events = nesting.events.lock().unwrap();
    let span = Some("tool_call".to_owned());
    let expected = [
        ("hello ran", &span),
        ("waiting", &span),
        ("dropped", &span),
        ("waiting", &span),
        ("dropped", &span),
    ];
    let got: Vec<(&str, &Option<String>)> = events.iter().map(|(m, s)| (m.as_str(), s)).collect();
    assert_eq!(got, expected);
}
