//! Each way a call fails is one `error.type` value (the outcome's name) with an error status.

use std::time::Duration;

use toolgroup::Scopes;
use toolgroup::context::CancellationToken;
use toolgroup::middleware::{BoxError, ToolRequest, ToolResponse};
use toolgroup::policy::{Decision, PolicyRequest};
use toolgroup::prelude::*;

use crate::capture::{Recorded, one_span, spans_on};

/// Fails.
#[tool]
fn fails() -> Result<String, String> {
    Err("no luck".to_owned())
}

/// Panics.
#[tool]
fn breaks() -> String {
    panic!("a bug")
}

/// Takes its time.
#[tool(timeout = "20ms")]
async fn slow() -> String {
    tokio::time::sleep(Duration::from_secs(60)).await;
    "late".to_owned()
}

/// Waits until cancelled.
#[tool]
async fn wait() -> String {
    std::future::pending::<()>().await;
    unreachable!()
}

/// Refused by the policy.
#[tool]
fn forbidden() -> String {
    "ran".to_owned()
}

/// Needs a scope.
#[tool(scopes = ["admin"])]
fn purge() -> String {
    "purged".to_owned()
}

/// A tool of a switchable group.
#[tool]
fn extra(
    /// A number.
    n: u32,
) -> u32 {
    n
}

#[tool_group(
    name = "core",
    description = "Core tools.",
    tools = [fails, breaks, slow, wait, forbidden]
)]
struct Core;

#[tool_group(name = "more", description = "More tools.", tools = [extra])]
struct More;

#[toolkit]
struct Kit {
    #[basic]
    core: Core,
    more: More,
}

fn kit() -> Toolkit<Kit> {
    Toolkit::new(Kit {
        core: Core,
        more: More,
    })
}

fn policy(request: &PolicyRequest<'_>) -> Decision {
    match request.tool {
        "forbidden" => Decision::deny("not today"),
        _ => Decision::Allow,
    }
}

/// Asserts that `span` is a failed call of `tool` that ended with `outcome`.
fn assert_failed(span: &Recorded, tool: &str, outcome: &str) {
    assert_eq!(span.name, "execute_tool");
    assert_eq!(span.get("gen_ai.tool.name"), Some(tool), "{span:?}");
    assert_eq!(span.get("toolgroup.outcome"), Some(outcome), "{span:?}");
    assert_eq!(span.get("error.type"), Some(outcome), "{span:?}");
    assert_eq!(span.get("otel.status_code"), Some("error"), "{span:?}");
    assert!(span.get("toolgroup.duration_us").is_some(), "{span:?}");
}

/// The one span of a call of `tool` on `kit`.
fn call(kit: Toolkit<Kit>, tool: &'static str, arguments: &'static str) -> Recorded {
    one_span(|| async move {
        let mut s = kit.session();
        kit.call(&mut s, tool, arguments).await;
    })
}

#[test]
fn an_ok_call_has_no_error_type_and_no_status() {
    let span = call(kit(), "reset_tools", r#"{"more": true}"#);
    assert_eq!(span.get("toolgroup.outcome"), Some("ok"));
    assert_eq!(span.get("error.type"), None);
    assert_eq!(span.get("otel.status_code"), None);
}

#[test]
fn the_tools_own_error() {
    assert_failed(&call(kit(), "fails", "{}"), "fails", "tool_error");
}

#[test]
fn invalid_arguments() {
    let span = call(kit(), "breaks", "[1]");
    assert_failed(&span, "breaks", "invalid_arguments");
}

#[test]
fn an_unknown_tool() {
    assert_failed(&call(kit(), "fial", "{}"), "fial", "unknown_tool");
}

#[test]
fn an_inactive_group() {
    let span = call(kit(), "extra", r#"{"n": 1}"#);
    assert_failed(&span, "extra", "inactive_group");
    assert_eq!(span.get("toolgroup.group"), Some("more"));
}

#[test]
fn denied_by_the_policy() {
    let span = call(kit().with_policy(policy), "forbidden", "{}");
    assert_failed(&span, "forbidden", "denied");
}

#[test]
fn a_timeout() {
    assert_failed(&call(kit(), "slow", "{}"), "slow", "timeout");
}

#[test]
fn a_panic() {
    assert_failed(&call(kit(), "breaks", "{}"), "breaks", "panic");
}

#[test]
fn a_refused_reset() {
    let span = call(kit(), "reset_tools", r#"{"mroe": true}"#);
    assert_failed(&span, "reset_tools", "refused");
}

#[test]
fn a_call_cancelled_by_its_token() {
    let span = one_span(|| async {
        let kit = kit();
        let mut s = kit.session();
        let token = CancellationToken::new();
        let cx = CallContext::new().with_cancellation(token.clone());
        let cancel = async {
            tokio::time::sleep(Duration::from_millis(5)).await;
            token.cancel();
        };
        tokio::join!(kit.call_with(&mut s, "wait", "{}", &cx), cancel);
    });
    assert_failed(&span, "wait", "cancelled");
}

#[test]
fn a_call_whose_future_is_dropped_is_cancelled() {
    let span = one_span(|| async {
        let kit = kit();
        let mut s = kit.session();
        let mut call = std::pin::pin!(kit.call(&mut s, "wait", "{}"));
        let waker = std::task::Waker::noop();
        let poll = call
            .as_mut()
            .poll(&mut std::task::Context::from_waker(waker));
        assert!(poll.is_pending());
    });
    assert_failed(&span, "wait", "cancelled");
}

#[tool_group(name = "admin", description = "Administration.", tools = [purge])]
struct Admin;

#[toolkit]
struct AdminKit {
    #[basic]
    admin: Admin,
}

#[test]
fn an_insufficient_scope() {
    let span = one_span(|| async {
        let kit = Toolkit::new(AdminKit { admin: Admin });
        let user = kit.entitled(&Scopes::parse("read").unwrap());
        let mut s = user.session();
        let result = user.call(&mut s, "purge", "{}").await;
        assert!(result.is_error);
    });
    assert_failed(&span, "purge", "insufficient_scope");
    // Not a tool of this principal's view: no span name of its own.
    assert_eq!(span.get("otel.name"), Some("execute_tool"));
}

#[test]
fn no_timer() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let spans = spans_on(&rt, || async {
        let kit = kit();
        let mut s = kit.session();
        kit.call(&mut s, "slow", "{}").await;
    });
    assert_failed(&spans[0], "slow", "no_timer");
}

#[test]
fn a_layer_error() {
    let failing = tower::layer::layer_fn(|_inner| {
        tower::service_fn(|_: ToolRequest| async {
            Err::<ToolResponse, BoxError>("the service is down".into())
        })
    });
    let span = call(kit().layer(failing), "fails", "{}");
    assert_failed(&span, "fails", "layer_error");
}
