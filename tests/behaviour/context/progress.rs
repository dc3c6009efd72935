//! Progress reports, cancellation, and the context of a batch.

use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use toolgroup::middleware::MaxResultSizeLayer;
use toolgroup::prelude::*;
use toolgroup::{context::CancellationToken, context::Progress};

use super::*;

#[tokio::test]
async fn progress_is_observed_in_order_and_the_result_is_unchanged() {
    let _serial = SERIAL.lock().await;
    let kit = store();
    let mut s = kit.session();
    let events: Arc<Mutex<Vec<String>>> = Arc::default();
    let seen = Arc::clone(&events);
    let cx = CallContext::new()
        .with_call_id("p1")
        .on_progress(move |event| {
            let line = match event.progress {
                Progress::Step {
                    done,
                    total,
                    message,
                } => format!(
                    "{} {:?} {done}/{total:?} {message:?}",
                    event.tool, event.call_id
                ),
                Progress::Partial(content) => format!("partial {:?}", content.as_text()),
                _ => "other".to_owned(),
            };
            seen.lock().unwrap().push(line);
        });
    let r = kit.call_with(&mut s, "count", r#"{"to": 2}"#, &cx).await;
    assert_eq!(r.text_joined(), "counted to 2");
    assert_eq!(
        *events.lock().unwrap(),
        [
            r#"count Some("p1") 1/Some(2.0) Some("step 1")"#,
            r#"partial Some("partial 1")"#,
            r#"count Some("p1") 2/Some(2.0) Some("step 2")"#,
            r#"partial Some("partial 2")"#,
        ]
    );
    // The same through layers.
    let layered = store().layer(MaxResultSizeLayer::new(1000));
    events.lock().unwrap().clear();
    let r = layered
        .call_with(&mut s, "count", r#"{"to": 1}"#, &cx)
        .await;
    assert_eq!(r.text_joined(), "counted to 1");
    assert_eq!(events.lock().unwrap().len(), 2);

    // A panicking observer is contained like a panicking tool.
    let cx = CallContext::new().on_progress(|_| panic!("observer bug"));
    let r = kit.call_with(&mut s, "count", r#"{"to": 1}"#, &cx).await;
    assert!(r.is_error);
    assert!(
        r.text_joined()
            .starts_with("`count` failed: an internal error in the tool")
    );
}

#[tokio::test]
async fn a_cancelled_call_stops_the_tool_and_changes_nothing() {
    let _serial = SERIAL.lock().await;
    let kit = store();
    let mut s = kit.session();
    s.activate(StoreGroup::Shop);
    let saved = s;
    let token = CancellationToken::new();
    let started = Arc::new(tokio::sync::Notify::new());
    let notify = Arc::clone(&started);
    let cx = CallContext::new()
        .with_cancellation(token.clone())
        .on_progress(move |_| notify.notify_one());
    let stopped = STOPPED.load(Ordering::SeqCst);
    let cancel = async {
        started.notified().await;
        token.cancel();
    };
    let (r, ()) = tokio::join!(kit.call_with(&mut s, "forever", "{}", &cx), cancel);
    assert!(r.is_error);
    assert_eq!(
        r.text_joined(),
        "`forever` was cancelled by the application before it finished; the session is unchanged"
    );
    assert_eq!(STOPPED.load(Ordering::SeqCst), stopped + 1);
    assert_eq!(s, saved);

    // A tool that checks the token itself stops early (here: already cancelled before the
    // call, so the call ends at once without running).
    let r = kit.call_with(&mut s, "count", r#"{"to": 3}"#, &cx).await;
    assert!(r.is_error);
    assert!(r.text_joined().contains("was cancelled"));
    // The message names what the model called, even when that is no tool.
    let r = kit.call_with(&mut s, "nope\n", "{}", &cx).await;
    assert_eq!(
        r.text_joined(),
        "`nope\\n` was cancelled by the application before it finished; the session is unchanged"
    );
}

#[tokio::test]
async fn dropping_a_call_cancels_an_async_tool() {
    let _serial = SERIAL.lock().await;
    let kit = store();
    let mut s = kit.session();
    let stopped = STOPPED.load(Ordering::SeqCst);
    let r =
        tokio::time::timeout(Duration::from_millis(20), kit.call(&mut s, "forever", "{}")).await;
    assert!(r.is_err());
    assert_eq!(STOPPED.load(Ordering::SeqCst), stopped + 1);
}

#[tokio::test]
async fn a_batch_carries_the_context_to_each_call_and_reset_stays_a_barrier() {
    let _serial = SERIAL.lock().await;
    let kit = store().with_policy(ByUser);
    let mut s = kit.session();
    let events: Arc<Mutex<Vec<String>>> = Arc::default();
    let seen = Arc::clone(&events);
    let cx = as_user(4)
        .with_extension(Tenant("acme"))
        .on_progress(move |e| {
            if let Progress::Step { .. } = e.progress {
                seen.lock()
                    .unwrap()
                    .push(e.call_id.unwrap_or("-").to_owned());
            }
        });
    let calls = [
        ToolCall::new("balance", "{}").with_call_id("a"),
        ToolCall::new("reset_tools", r#"{"shop": true}"#).with_call_id("b"),
        ToolCall::new("balance", "{}").with_call_id("c"),
        ToolCall::new("count", r#"{"to": 1}"#).with_call_id("d"),
        ToolCall::new("my_orders", r#"{"limit": 5}"#).with_call_id("e"),
    ];
    let results = kit.call_batch_with(&mut s, &calls, &cx).await;
    let texts: Vec<_> = results
        .iter()
        .map(|r| (r.is_error, r.text_joined()))
        .collect();
    assert!(texts[0].0 && texts[0].1.contains("not active"), "{texts:?}");
    assert!(!texts[1].0);
    assert_eq!(
        texts[2],
        (false, "acme has 10 EUR (user Some(4))".to_owned())
    );
    assert_eq!(texts[3], (false, "counted to 1".to_owned()));
    assert_eq!(texts[4], (false, "5 orders of user 4".to_owned()));
    assert_eq!(*events.lock().unwrap(), ["d"]);

    // The policy applies to every call of the batch.
    let denied = kit
        .call_batch_with(
            &mut s,
            &calls[2..3],
            &as_user(0).with_extension(Tenant("x")),
        )
        .await;
    assert!(
        denied[0]
            .text_joined()
            .contains("user 0 may not call tools")
    );
}
