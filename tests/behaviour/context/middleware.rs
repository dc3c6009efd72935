//! Middleware: tower layers written by hand, tower's own layers, and the shipped ones.

use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};

use serde_json::json;
use toolgroup::middleware::{
    AuditLayer, AuditRecord, BoxError, IdempotentCacheLayer, MaxResultSizeLayer, ToolRequest,
    ToolResponse,
};
use toolgroup::prelude::*;
use toolgroup::{BoxFuture, args::ArgumentsBuf};

use super::*;

/// A layer written with tower's `service_fn`-style closures: records its name on the way in
/// and out, and can rewrite arguments, short-circuit, rewrite results or panic.
#[derive(Clone)]
struct Trace {
    name: &'static str,
    log: Arc<Mutex<Vec<String>>>,
}

impl<S> tower::Layer<S> for Trace {
    type Service = TraceService<S>;
    fn layer(&self, inner: S) -> TraceService<S> {
        TraceService {
            inner,
            layer: self.clone(),
        }
    }
}

#[derive(Clone)]
struct TraceService<S> {
    inner: S,
    layer: Trace,
}

impl<S> tower::Service<ToolRequest> for TraceService<S>
where
    S: tower::Service<ToolRequest, Response = ToolResponse, Error = BoxError> + Send + 'static,
    S::Future: Send + 'static,
{
    type Response = ToolResponse;
    type Error = BoxError;
    type Future = BoxFuture<'static, Result<ToolResponse, BoxError>>;

    fn poll_ready(
        &mut self,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Result<(), BoxError>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut request: ToolRequest) -> Self::Future {
        let Trace { name, log } = self.layer.clone();
        log.lock()
            .unwrap()
            .push(format!("{name} in: {}", request.tool));
        match (name, request.tool) {
            ("rewrite_args", "my_orders") => {
                request.arguments = ArgumentsBuf::from(json!({"limit": 42}));
                request.extensions.insert(UserId(99));
            }
            ("short_circuit", "wipe") => {
                return Box::pin(async {
                    Ok(ToolResponse::new(CallResult::error(
                        "wipe is disabled here",
                    )))
                });
            }
            ("panics", "count") => panic!("layer bug"),
            _ => {}
        }
        let future = self.inner.call(request);
        Box::pin(async move {
            let mut response = future.await?;
            log.lock().unwrap().push(format!("{name} out"));
            if name == "rewrite_result" && !response.result.is_error {
                response.result = CallResult::text(format!("[{}]", response.result.text_joined()));
            }
            Ok(response)
        })
    }
}

fn trace(name: &'static str, log: &Arc<Mutex<Vec<String>>>) -> Trace {
    Trace {
        name,
        log: Arc::clone(log),
    }
}

#[tokio::test]
async fn layers_run_in_order_and_can_rewrite_short_circuit_and_panic() {
    let _serial = SERIAL.lock().await;
    let log = Arc::new(Mutex::new(Vec::new()));
    let kit = store()
        .layer(trace("rewrite_result", &log))
        .layer(trace("short_circuit", &log))
        .layer(trace("rewrite_args", &log))
        .layer(trace("panics", &log));
    let mut s = kit.session();

    // Last added is outermost; the rewritten arguments and the added extension reach the
    // tool; the result is rewritten on the way out.
    let r = kit
        .call_with(&mut s, "my_orders", r#"{"limit": 1}"#, &as_user(1))
        .await;
    assert_eq!(r.text_joined(), "[42 orders of user 99]");
    assert_eq!(
        *log.lock().unwrap(),
        [
            "panics in: my_orders",
            "rewrite_args in: my_orders",
            "short_circuit in: my_orders",
            "rewrite_result in: my_orders",
            "rewrite_result out",
            "short_circuit out",
            "rewrite_args out",
            "panics out",
        ]
    );

    // A layer answers by itself: inner layers and the tool do not run.
    log.lock().unwrap().clear();
    let before = RAN.load(Ordering::SeqCst);
    let r = kit.call(&mut s, "wipe", r#"{"what": "x"}"#).await;
    assert_eq!(
        (r.text_joined().as_str(), r.is_error),
        ("wipe is disabled here", true)
    );
    assert_eq!(RAN.load(Ordering::SeqCst), before);
    assert!(
        !log.lock()
            .unwrap()
            .iter()
            .any(|l| l.starts_with("rewrite_result"))
    );

    // A panicking layer is contained like a panicking tool.
    let r = kit.call(&mut s, "count", r#"{"to": 1}"#).await;
    assert!(r.is_error);
    assert_eq!(
        r.text_joined(),
        "`count` failed: an internal error in the application's middleware; the session is unchanged"
    );

    // `reset_tools` passes through the layers, and its new state still applies.
    log.lock().unwrap().clear();
    let r = kit.call(&mut s, "reset_tools", r#"{"shop": true}"#).await;
    assert!(!r.is_error, "{}", r.text_joined());
    assert!(s.is_active(StoreGroup::Shop));
    assert_eq!(log.lock().unwrap()[0], "panics in: reset_tools");
    // Unknown and inactive tools are answered before any layer.
    log.lock().unwrap().clear();
    let r = kit.call(&mut s, "nope", "{}").await;
    assert!(r.is_error);
    assert!(log.lock().unwrap().is_empty());
}

/// Refuses every `reset_tools` on the way out (the tool ran, the layer turned it into an error).
#[derive(Clone)]
struct RefuseResets;

impl<S> tower::Layer<S> for RefuseResets {
    type Service = tower::util::MapResponse<S, fn(ToolResponse) -> ToolResponse>;
    fn layer(&self, inner: S) -> Self::Service {
        tower::util::MapResponse::new(inner, |r: ToolResponse| {
            r.map_result(|r| {
                if r.text_joined().contains("Active groups") {
                    CallResult::error("resets are frozen")
                } else {
                    r
                }
            })
        })
    }
}

#[tokio::test]
async fn a_reset_turned_into_an_error_by_a_layer_changes_nothing() {
    let _serial = SERIAL.lock().await;
    let kit = store().layer(RefuseResets);
    let mut s = kit.session();
    let r = kit.call(&mut s, "reset_tools", r#"{"shop": true}"#).await;
    assert_eq!(
        (r.text_joined().as_str(), r.is_error),
        ("resets are frozen", true)
    );
    assert_eq!(s, kit.session());
}

#[tokio::test]
async fn towers_own_layers_work_as_they_are() {
    let _serial = SERIAL.lock().await;
    // A timeout from tower: the error becomes an error result; the tool's future is dropped.
    let kit = store().layer(tower::timeout::TimeoutLayer::new(Duration::from_millis(30)));
    let mut s = kit.session();
    let stopped = STOPPED.load(Ordering::SeqCst);
    let r = kit.call(&mut s, "forever", "{}").await;
    assert!(r.is_error);
    assert_eq!(
        r.text_joined(),
        "`forever` failed: request timed out; the session is unchanged"
    );
    assert_eq!(STOPPED.load(Ordering::SeqCst), stopped + 1);

    // A concurrency limit of one plus load shedding: of two concurrent calls in one batch,
    // the second is refused while the first holds the only slot.
    let kit = store()
        .layer(tower::limit::ConcurrencyLimitLayer::new(1))
        .layer(tower::load_shed::LoadShedLayer::new());
    let calls = [
        ToolCall::new("count", r#"{"to": 3}"#),
        ToolCall::new("count", r#"{"to": 3}"#),
    ];
    let results = kit.call_batch(&mut s, &calls).await;
    assert_eq!(results[0].text_joined(), "counted to 3");
    assert!(results[1].is_error);
    assert_eq!(
        results[1].text_joined(),
        "`count` failed: service overloaded; the session is unchanged"
    );
    // Once the slot is free, calls go through again.
    let r = kit.call(&mut s, "count", r#"{"to": 1}"#).await;
    assert_eq!(r.text_joined(), "counted to 1");
}

#[tokio::test]
async fn shipped_layers_audit_cap_and_cache() {
    let _serial = SERIAL.lock().await;
    let records: Arc<Mutex<Vec<AuditRecord>>> = Arc::default();
    let sink = Arc::clone(&records);
    let cache = IdempotentCacheLayer::new(10, Duration::from_secs(60))
        .scope(|request| request.extensions.get::<UserId>().map(|u| u.0.to_string()));
    let kit = store()
        .layer(MaxResultSizeLayer::new(12))
        .layer(cache.clone())
        .layer(AuditLayer::new(move |r: &AuditRecord| {
            sink.lock().unwrap().push(r.clone())
        }));
    let mut s = kit.session();

    let before = RAN.load(Ordering::SeqCst);
    let user1 = as_user(1).with_call_id("c1");
    let r = kit
        .call_with(&mut s, "my_orders", r#"{"limit": 2}"#, &user1)
        .await;
    // Capped at 12 bytes of text, with a note.
    assert_eq!(
        r.text_joined(),
        "2 orders of \n[the result was cut: 12 of 18 bytes of text shown]"
    );
    // Same arguments (other spacing and order): served from the cache, the tool does not run.
    let again = kit
        .call_with(&mut s, "my_orders", r#"{ "limit":2 }"#, &user1)
        .await;
    assert_eq!(again, r);
    assert_eq!(RAN.load(Ordering::SeqCst), before + 1);
    assert_eq!(cache.len(), 1);
    // Another user: another scope, the tool runs.
    let other = kit
        .call_with(&mut s, "my_orders", r#"{"limit": 2}"#, &as_user(2))
        .await;
    assert_eq!(RAN.load(Ordering::SeqCst), before + 2);
    assert!(other.text_joined().starts_with("2 orders of"));
    // Not idempotent: never cached.
    kit.call(&mut s, "wipe", r#"{"what": "a"}"#).await;
    kit.call(&mut s, "wipe", r#"{"what": "a"}"#).await;
    assert_eq!(RAN.load(Ordering::SeqCst), before + 4);
    assert_eq!(cache.len(), 2);
    // Errors are not cached (the missing extension).
    let r = kit.call(&mut s, "my_orders", r#"{"limit": 2}"#).await;
    assert!(r.is_error);
    assert_eq!(cache.len(), 2);

    let records = records.lock().unwrap();
    assert_eq!(records.len(), 6);
    assert_eq!(records[0].tool, "my_orders");
    assert_eq!(records[0].group, Some("orders"));
    assert_eq!(records[0].call_id.as_deref(), Some("c1"));
    assert!(!records[0].is_error);
    assert!(records[5].is_error);
}
