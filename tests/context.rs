//! Per-call context, async policies and approvals, middleware, progress and cancellation,
//! through the public API.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::json;
use toolgroup::middleware::{
    AuditLayer, AuditRecord, BoxError, IdempotentCacheLayer, MaxResultSizeLayer, ToolRequest,
};
use toolgroup::prelude::*;
use toolgroup::{
    BoxFuture, args::ArgumentsBuf, context::CancellationToken, context::Progress, policy::Approver,
    policy::Decision, policy::Policy, policy::PolicyRequest, policy::RequireApproval,
};

/// Who the call is for.
#[derive(Debug, Clone, PartialEq)]
struct UserId(u64);

/// The tenant of the call.
#[derive(Debug, Clone, PartialEq)]
struct Tenant(&'static str);

/// How many times the tool bodies ran.
static RAN: AtomicUsize = AtomicUsize::new(0);

/// The tests of this file count tool runs in shared counters, so they run one at a time.
static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// Show the caller's orders.
#[tool(read_only, idempotent)]
fn my_orders(
    Extension(user): Extension<UserId>,
    /// How many.
    limit: u8,
) -> String {
    RAN.fetch_add(1, Ordering::SeqCst);
    format!("{limit} orders of user {}", user.0)
}

/// Delete everything.
#[tool(destructive)]
fn wipe(
    /// What to wipe.
    what: String,
) -> String {
    RAN.fetch_add(1, Ordering::SeqCst);
    format!("wiped {what}")
}

/// Count slowly, reporting progress and checking for cancellation.
#[tool]
async fn count(
    /// Where to stop.
    to: u32,
    ctx: ToolContext<'_>,
) -> String {
    for i in 1..=to {
        if ctx.is_cancelled() {
            return format!("stopped at {i}");
        }
        ctx.report(
            f64::from(i),
            Some(f64::from(to)),
            Some(&format!("step {i}")),
        );
        ctx.partial(Content::text(format!("partial {i}")));
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    format!("counted to {to}")
}

/// Work until cancelled; record that it stopped.
#[tool]
async fn forever(ctx: ToolContext<'_>) -> String {
    struct Stopped;
    impl Drop for Stopped {
        fn drop(&mut self) {
            STOPPED.fetch_add(1, Ordering::SeqCst);
        }
    }
    let _guard = Stopped;
    ctx.report(0.0, None, Some("started"));
    std::future::pending::<()>().await;
    unreachable!()
}

static STOPPED: AtomicUsize = AtomicUsize::new(0);

/// A shop's tools; state lives in the group (compile-time typed, like axum's `State`).
struct Shop {
    currency: &'static str,
}

#[tool_group(name = "shop", description = "Shopping.", instructions = "Be nice.")]
impl Shop {
    /// The tenant's balance.
    #[tool]
    fn balance(&self, tenant: Extension<Tenant>, ctx: ToolContext<'_>) -> String {
        format!(
            "{} has 10 {} (user {:?})",
            tenant.0.0,
            self.currency,
            ctx.extension::<UserId>().map(|u| u.0)
        )
    }
}

#[tool_group(name = "orders", description = "Orders.", tools = [my_orders, wipe, count, forever])]
struct Orders;

#[toolkit]
struct Store {
    #[basic]
    orders: Orders,
    shop: Shop,
}

fn store() -> Toolkit<Store> {
    Toolkit::new(Store {
        orders: Orders,
        shop: Shop { currency: "EUR" },
    })
}

fn as_user(id: u64) -> CallContext {
    CallContext::new().with_extension(UserId(id))
}

#[tokio::test]
async fn per_call_data_reaches_free_and_method_tools() {
    let _serial = SERIAL.lock().await;
    let kit = store();
    let mut s = kit.session();
    s.activate(StoreGroup::Shop);
    let r = kit
        .call_with(&mut s, "my_orders", r#"{"limit": 3}"#, &as_user(7))
        .await;
    assert_eq!(
        (r.text_joined().as_str(), r.is_error),
        ("3 orders of user 7", false)
    );

    let cx = as_user(9).with_extension(Tenant("acme"));
    let r = kit.call_with(&mut s, "balance", "{}", &cx).await;
    assert_eq!(r.text_joined(), "acme has 10 EUR (user Some(9))");

    // Per-call data is not part of any schema.
    let schema = &kit.definition("my_orders").unwrap().input_schema;
    assert_eq!(schema["properties"].as_object().unwrap().len(), 1);
    let schema = &kit.definition("balance").unwrap().input_schema;
    assert!(
        schema.get("properties").is_none_or(|p| p == &json!({})),
        "{schema}"
    );
}

#[tokio::test]
async fn a_missing_value_is_an_error_naming_its_type() {
    let _serial = SERIAL.lock().await;
    let kit = store();
    let mut s = kit.session();
    let before = RAN.load(Ordering::SeqCst);
    for cx in [
        CallContext::new(),
        CallContext::new().with_extension(Tenant("x")),
    ] {
        let r = kit
            .call_with(&mut s, "my_orders", r#"{"limit": 1}"#, &cx)
            .await;
        assert!(r.is_error);
        assert_eq!(
            r.text_joined(),
            "`my_orders` was not run: it needs per-call data of type `context::UserId`, and this call does not carry one (the application must attach it to the call)"
        );
    }
    // Without any context at all, too.
    let r = kit.call(&mut s, "my_orders", r#"{"limit": 1}"#).await;
    assert!(r.is_error && r.text_joined().contains("`context::UserId`"));
    assert_eq!(RAN.load(Ordering::SeqCst), before);
}

/// The questions an approver was asked: tool and user.
type Asked = Arc<Mutex<Vec<(String, Option<u64>)>>>;

/// Answers from a script, counting the questions, optionally after a delay.
struct Scripted {
    answer: Decision,
    delay: Duration,
    asked: Asked,
}

impl Approver for Scripted {
    fn approve<'a>(&'a self, request: &'a PolicyRequest<'a>) -> BoxFuture<'a, Decision> {
        Box::pin(async move {
            self.asked.lock().unwrap().push((
                request.tool.to_owned(),
                request.extension::<UserId>().map(|u| u.0),
            ));
            tokio::time::sleep(self.delay).await;
            self.answer.clone()
        })
    }
}

fn approving(answer: Decision, delay: Duration) -> (Toolkit<Store>, Asked) {
    let asked = Arc::default();
    let approver = Scripted {
        answer,
        delay,
        asked: Arc::clone(&asked),
    };
    let policy = RequireApproval::new(approver)
        .tool("my_orders")
        .timeout(Duration::from_millis(100));
    (store().with_policy(policy), asked)
}

#[tokio::test]
async fn approval_allowed_denied_and_timed_out() {
    let _serial = SERIAL.lock().await;
    // Allowed: the tool runs, the approver saw who asked.
    let (kit, asked) = approving(Decision::Allow, Duration::ZERO);
    let mut s = kit.session();
    let r = kit
        .call_with(&mut s, "wipe", r#"{"what": "logs"}"#, &as_user(1))
        .await;
    assert_eq!(
        (r.text_joined().as_str(), r.is_error),
        ("wiped logs", false)
    );
    assert_eq!(*asked.lock().unwrap(), [("wipe".to_owned(), Some(1))]);
    // A tool that is neither destructive nor listed is not asked about.
    let r = kit.call(&mut s, "count", r#"{"to": 1}"#).await;
    assert!(!r.is_error);
    assert_eq!(asked.lock().unwrap().len(), 1);

    // Denied: nothing runs, the model reads why.
    let (kit, _) = approving(Decision::deny("the user said no"), Duration::ZERO);
    let before = RAN.load(Ordering::SeqCst);
    let r = kit.call(&mut s, "wipe", r#"{"what": "db"}"#).await;
    assert!(r.is_error);
    assert_eq!(
        r.text_joined(),
        "`wipe` was not run: denied by policy: not approved: the user said no"
    );
    // A listed tool that is not destructive.
    let r = kit
        .call_with(&mut s, "my_orders", r#"{"limit": 1}"#, &as_user(1))
        .await;
    assert!(r.is_error && r.text_joined().contains("not approved"));
    assert_eq!(RAN.load(Ordering::SeqCst), before);

    // Timed out: nothing runs.
    let (kit, asked) = approving(Decision::Allow, Duration::from_secs(5));
    let r = kit.call(&mut s, "wipe", r#"{"what": "db"}"#).await;
    assert!(r.is_error);
    assert_eq!(
        r.text_joined(),
        "`wipe` was not run: denied by policy: not approved: no answer within 100ms"
    );
    assert_eq!(asked.lock().unwrap().len(), 1);
    assert_eq!(RAN.load(Ordering::SeqCst), before);
}

/// An async policy that reads per-call data and panics on request.
struct ByUser;

impl Policy for ByUser {
    fn check<'a>(&'a self, request: &'a PolicyRequest<'a>) -> BoxFuture<'a, Decision> {
        Box::pin(async move {
            tokio::task::yield_now().await;
            match request.extension::<UserId>() {
                Some(UserId(666)) => panic!("policy bug"),
                Some(UserId(0)) => Decision::deny("user 0 may not call tools"),
                _ => Decision::Allow,
            }
        })
    }
}

#[tokio::test]
async fn an_async_policy_sees_per_call_data_and_its_panics_are_contained() {
    let _serial = SERIAL.lock().await;
    let kit = store().with_policy(ByUser);
    let mut s = kit.session();
    let r = kit
        .call_with(&mut s, "reset_tools", r#"{"shop": true}"#, &as_user(0))
        .await;
    assert_eq!(
        r.text_joined(),
        "`reset_tools` was not run: denied by policy: user 0 may not call tools"
    );
    assert_eq!(s, kit.session());
    let r = kit
        .call_with(&mut s, "reset_tools", r#"{"shop": true}"#, &as_user(666))
        .await;
    assert!(r.is_error);
    assert_eq!(
        r.text_joined(),
        "`reset_tools` failed: an internal error in the application's policy; the session is unchanged"
    );
    assert_eq!(s, kit.session());
    let r = kit
        .call_with(&mut s, "reset_tools", r#"{"shop": true}"#, &as_user(5))
        .await;
    assert!(!r.is_error);
    assert!(s.is_active(StoreGroup::Shop));
}

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
    S: tower::Service<ToolRequest, Response = CallResult, Error = BoxError> + Send + 'static,
    S::Future: Send + 'static,
{
    type Response = CallResult;
    type Error = BoxError;
    type Future = BoxFuture<'static, Result<CallResult, BoxError>>;

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
                return Box::pin(async { Ok(CallResult::error("wipe is disabled here")) });
            }
            ("panics", "count") => panic!("layer bug"),
            _ => {}
        }
        let future = self.inner.call(request);
        Box::pin(async move {
            let mut result = future.await?;
            log.lock().unwrap().push(format!("{name} out"));
            if name == "rewrite_result" && !result.is_error {
                result = CallResult::text(format!("[{}]", result.text_joined()));
            }
            Ok(result)
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
    type Service = tower::util::MapResponse<S, fn(CallResult) -> CallResult>;
    fn layer(&self, inner: S) -> Self::Service {
        tower::util::MapResponse::new(inner, |r: CallResult| {
            if r.text_joined().contains("Active groups") {
                CallResult::error("resets are frozen")
            } else {
                r
            }
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
    let user1 = as_user(1).with_id("c1");
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

#[tokio::test]
async fn progress_is_observed_in_order_and_the_result_is_unchanged() {
    let _serial = SERIAL.lock().await;
    let kit = store();
    let mut s = kit.session();
    let events: Arc<Mutex<Vec<String>>> = Arc::default();
    let seen = Arc::clone(&events);
    let cx = CallContext::new().with_id("p1").on_progress(move |event| {
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
        ToolCall::new("balance", "{}").with_id("a"),
        ToolCall::new("reset_tools", r#"{"shop": true}"#).with_id("b"),
        ToolCall::new("balance", "{}").with_id("c"),
        ToolCall::new("count", r#"{"to": 1}"#).with_id("d"),
        ToolCall::new("my_orders", r#"{"limit": 5}"#).with_id("e"),
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
