//! A tool's events, those of its drop included, are emitted inside its call's span.

use std::sync::{Arc, Mutex};

use toolgroup::prelude::*;
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

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
    let span = Some("execute_tool".to_owned());
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
