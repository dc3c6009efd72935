//! Per-call context, async policies and approvals, middleware, progress and cancellation,
//! through the public API. This file holds the shop toolkit the three share, and the per-call
//! data, approvals and policies.

mod ask;
mod middleware;
mod progress;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::json;
use toolgroup::prelude::*;
use toolgroup::{
    BoxFuture, policy::Decision, policy::Policy, policy::PolicyRequest, policy::RequireApproval,
};

/// Who the call is for.
#[derive(Debug, Clone, PartialEq)]
struct UserId(u64);

/// The tenant of the call.
#[derive(Debug, Clone, PartialEq)]
struct Tenant(&'static str);

/// How many times the tool bodies ran.
static RAN: AtomicUsize = AtomicUsize::new(0);

/// The tests of these files count tool runs in shared counters, so they run one at a time.
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
            "`my_orders` was not run: it needs per-call data of type `behaviour::context::UserId`, and this call does not carry one (the application must attach it to the call)"
        );
    }
    // Without any context at all, too.
    let r = kit.call(&mut s, "my_orders", r#"{"limit": 1}"#).await;
    assert!(r.is_error && r.text_joined().contains("`behaviour::context::UserId`"));
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

impl Policy for Scripted {
    fn check<'a>(&'a self, request: &'a PolicyRequest<'a>) -> BoxFuture<'a, Decision> {
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
