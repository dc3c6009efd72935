//! Calling tools: every model mistake is an error result that changes nothing.

use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use toolgroup::prelude::*;
use toolgroup::{CallContext, ToolGroup, policy::Decision, policy::PolicyRequest};

use crate::common::*;

/// Panic on purpose.
#[tool]
fn explode(
    /// Why.
    reason: String,
) -> String {
    panic!("boom: {reason}")
}

/// Panic on purpose, after yielding once (an `async` tool without options).
#[tool]
async fn explode_later(
    /// Why.
    reason: String,
) -> String {
    tokio::task::yield_now().await;
    panic!("boom later: {reason}")
}

/// Sleep for a while.
#[tool(timeout = "50ms")]
async fn nap(
    /// How long, in milliseconds.
    ms: u64,
) -> String {
    tokio::time::sleep(Duration::from_millis(ms)).await;
    "rested".to_owned()
}

/// Sleep without a timeout of its own.
#[tool]
async fn long_nap(
    /// How long, in milliseconds.
    ms: u64,
) -> String {
    tokio::time::sleep(Duration::from_millis(ms)).await;
    "rested".to_owned()
}

/// How many times `tick` ran (only `a_call_does_nothing_until_polled` calls it).
static TICKS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Count one tick.
#[tool]
fn tick() -> String {
    TICKS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    "tick".to_owned()
}

/// Echo the call id and the session-independent input.
#[tool]
fn echo(ctx: &ToolContext<'_>, value: u64) -> String {
    format!("{}:{value}", ctx.call_id().unwrap_or("-"))
}

/// A number whose parsing panics on 13: a hand-written `Deserialize` with a bug.
#[derive(schemars::JsonSchema)]
struct Unlucky(u64);

impl<'de> serde::Deserialize<'de> for Unlucky {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let n = u64::deserialize(d)?;
        assert!(n != 13, "unlucky number");
        Ok(Unlucky(n))
    }
}

/// A result whose serialisation panics: a hand-written `Serialize` with a bug.
struct Unserialisable;

impl serde::Serialize for Unserialisable {
    fn serialize<S: serde::Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
        panic!("cannot serialise")
    }
}

/// Echo a number (its parsing panics on 13).
#[tool]
fn unlucky(
    /// The number.
    value: Unlucky,
) -> String {
    value.0.to_string()
}

/// Return a value whose serialisation panics.
#[tool]
fn unserialisable() -> Unserialisable {
    Unserialisable
}

#[tool_group(name = "risky", description = "Tools that misbehave.", tools = [explode, explode_later, nap, long_nap, echo, tick, unlucky, unserialisable])]
struct Risky;

#[toolkit]
struct Lab {
    #[basic]
    notes: Notes,
    web_search: WebSearch,
    risky: Risky,
}

fn lab() -> Toolkit<Lab> {
    Toolkit::new(Lab {
        notes: Notes,
        web_search: WebSearch,
        risky: Risky,
    })
}

fn active_lab() -> (Toolkit<Lab>, Session<Lab>) {
    let kit = lab();
    let mut s = kit.session();
    s.activate(LabGroup::Risky);
    (kit, s)
}

/// What the model reads when a tool panics and the toolkit hides the details (the default).
fn hidden_panic(tool: &str) -> String {
    format!(
        "`{tool}` failed: an internal error in the tool (a bug, not something your arguments can fix); the session is unchanged"
    )
}

/// `r` is an error result whose text is exactly `expected`.
#[track_caller]
fn assert_error(r: &CallResult, expected: &str) {
    assert!(r.is_error, "not an error: {}", r.text_joined());
    assert_eq!(r.text_joined(), expected);
}

#[tokio::test]
async fn a_call_does_nothing_until_polled() {
    use std::sync::atomic::Ordering;
    fn assert_send<T: Send>(_: &T) {}
    let (kit, mut s) = active_lab();
    // A plain-`fn` tool runs in the future's first poll, not when the future is made.
    let call = kit.call(&mut s, "tick", "{}");
    assert_send(&call);
    drop(call);
    assert_eq!(TICKS.load(Ordering::SeqCst), 0);
    let before = s;
    drop(kit.call(
        &mut s,
        "reset_tools",
        r#"{"web_search": true, "risky": false}"#,
    ));
    assert_eq!(s, before, "an unpolled reset_tools changed the session");
    let r = kit.call(&mut s, "tick", "{}").await;
    assert!(!r.is_error, "{r:?}");
    assert_eq!(TICKS.load(Ordering::SeqCst), 1);
    // An `async` tool without options goes through the same future.
    let r = kit.call(&mut s, "long_nap", r#"{"ms": 1}"#).await;
    assert_eq!((r.is_error, r.text_joined().as_str()), (false, "rested"));
}

#[test]
#[should_panic(expected = "polled after it finished")]
fn a_finished_call_polled_again_panics_instead_of_running_twice() {
    use std::future::Future;
    use std::task::{Context, Poll, Waker};
    let (kit, mut s) = active_lab();
    let mut call = std::pin::pin!(kit.call(&mut s, "echo", r#"{"value": 1}"#));
    let mut task = Context::from_waker(Waker::noop());
    assert!(matches!(call.as_mut().poll(&mut task), Poll::Ready(r) if !r.is_error));
    let _ = call.as_mut().poll(&mut task);
}

#[tokio::test]
async fn unknown_tool_lists_exposed_tools_with_a_suggestion() {
    let kit = toolkit();
    let mut s = kit.session();
    s.activate(AgentGroup::WebSearch);
    let before = s;
    let r = kit.call(&mut s, "web_serch", "{}").await;
    assert!(r.is_error);
    assert_eq!(
        r.text_joined(),
        "unknown tool `web_serch`. Did you mean `web_search`? The available tools are `reset_tools`, `note_write`, `web_search`."
    );
    let r = kit.call(&mut s, "page_fetc", "{}").await;
    assert!(
        r.text_joined().contains(
            "Did you mean `page_fetch`? It is in the group `scraping`, which is not active"
        ),
        "{}",
        r.text_joined()
    );
    let r = kit.call(&mut s, "frobnicate", "{}").await;
    assert_eq!(
        r.text_joined(),
        "unknown tool `frobnicate`. The available tools are `reset_tools`, `note_write`, `web_search`."
    );
    assert_eq!(s, before);
}

#[tokio::test]
async fn inactive_group_tool_is_not_run() {
    let kit = toolkit();
    let mut s = kit.session();
    let r = kit.call(&mut s, "db_insert", r#"{"row": "x"}"#).await;
    assert!(r.is_error);
    assert_eq!(
        r.text_joined(),
        "`db_insert` was not run: it belongs to the group `database`, which is not active. Call `reset_tools` with `database` set to true (and every group you want to keep active) first"
    );
    assert!(kit.registry().database.rows.lock().unwrap().is_empty());
    assert_eq!(s.active().count(), 0);
}

#[tokio::test]
async fn argument_errors() {
    let kit = toolkit();
    let mut s = kit.session();
    let cases = [
        (
            "{\"text\": ",
            "`note_write` was not run: the arguments are not valid JSON (EOF while parsing a value at line 1 column 9); send one JSON object matching the tool's parameters",
        ),
        (
            "{\"text\": 5}",
            "`note_write` was not run: invalid argument `text`: expected a string, got an integer",
        ),
        (
            "{}",
            "`note_write` was not run: invalid arguments: missing field `text`",
        ),
        (
            "{\"text\": \"a\", \"txet\": \"b\"}",
            "`note_write` was not run: invalid argument `txet`: unknown field `txet`, expected `text`",
        ),
        (
            "[\"a\"]",
            "`note_write` was not run: the arguments must be a JSON object matching the tool's parameters, got an array",
        ),
    ];
    for (input, expected) in cases {
        let r = kit.call(&mut s, "note_write", input).await;
        assert!(r.is_error, "{input}");
        assert_eq!(r.text_joined(), expected, "{input}");
    }
    let r = kit
        .call(&mut s, "note_write", &json!({"text": ["secret-value"]}))
        .await;
    assert_eq!(
        r.text_joined(),
        "`note_write` was not run: invalid argument `text`: expected a string, got an array"
    );
    let r = kit.call(&mut s, "note_write", &json!({"text": "ok"})).await;
    assert_eq!(
        (r.is_error, r.text_joined().as_str()),
        (false, "Noted (2 characters).")
    );
}

#[tokio::test]
async fn the_tools_own_error_is_its_display() {
    let kit = toolkit();
    let mut s = kit.session();
    s.activate(AgentGroup::Scraping);
    let r = kit
        .call(&mut s, "page_fetch", r#"{"url": "ftp://x"}"#)
        .await;
    assert!(r.is_error);
    assert_eq!(r.text_joined(), "only http and https URLs can be fetched");
}

#[tokio::test]
async fn a_panic_is_caught_and_the_toolkit_keeps_working() {
    let (kit, mut s) = active_lab();
    let r = kit.call(&mut s, "explode", r#"{"reason": "test"}"#).await;
    // The panic's message may carry internals: by default the model does not see it.
    assert_error(&r, &hidden_panic("explode"));
    assert!(s.is_active(LabGroup::Risky));
    let r = kit.call(&mut s, "echo", r#"{"value": 3}"#).await;
    assert_eq!(r.text_joined(), "-:3");

    // During development, the toolkit can show it.
    let kit = lab().with_panic_details(true);
    let r = kit.call(&mut s, "explode", r#"{"reason": "test"}"#).await;
    assert_eq!(
        r.text_joined(),
        "`explode` failed: the tool panicked (boom: test); the session is unchanged"
    );
}

#[tokio::test]
async fn a_panic_while_parsing_the_arguments_or_converting_the_result_is_caught() {
    // Both run inside the tool's unwind guard: on the fast path (no options) and on the
    // full path (a policy puts the call there).
    let policed = lab().with_policy(|_: &PolicyRequest<'_>| Decision::Allow);
    for (kit, path) in [(lab(), "fast"), (policed, "full")] {
        let mut s = kit.session();
        s.activate(LabGroup::Risky);
        let r = kit.call(&mut s, "unlucky", r#"{"value": 13}"#).await;
        assert!(r.is_error, "{path}");
        assert_eq!(r.text_joined(), hidden_panic("unlucky"), "{path}");
        let r = kit.call(&mut s, "unserialisable", "{}").await;
        assert!(r.is_error, "{path}");
        assert_eq!(r.text_joined(), hidden_panic("unserialisable"), "{path}");
        // Nothing is left half-done: the same tool works for other input, the session as it was.
        let r = kit.call(&mut s, "unlucky", r#"{"value": 12}"#).await;
        assert_eq!(
            (r.is_error, r.text_joined().as_str()),
            (false, "12"),
            "{path}"
        );
        assert!(s.is_active(LabGroup::Risky), "{path}");
    }
}

#[tokio::test]
async fn an_async_tools_bad_arguments_and_panic_are_error_results_without_options() {
    // No policy, layer or timeout: the call runs in the unboxed `async` continuation.
    let (kit, mut s) = active_lab();
    let r = kit.call(&mut s, "long_nap", r#"{"ms": "soon"}"#).await;
    assert_error(
        &r,
        "`long_nap` was not run: invalid argument `ms`: expected a non-negative integer, got a string",
    );
    let r = kit
        .call(&mut s, "explode_later", r#"{"reason": "test"}"#)
        .await;
    assert_error(&r, &hidden_panic("explode_later"));
    // The toolkit and the session keep working.
    let r = kit.call(&mut s, "long_nap", r#"{"ms": 1}"#).await;
    assert_eq!((r.is_error, r.text_joined().as_str()), (false, "rested"));
    assert!(s.is_active(LabGroup::Risky));
}

#[tokio::test]
async fn a_timeout_cancels_the_call() {
    let (kit, mut s) = active_lab();
    let r = kit.call(&mut s, "nap", r#"{"ms": 5000}"#).await;
    assert!(r.is_error);
    assert_eq!(
        r.text_joined(),
        "`nap` timed out after 50ms and was cancelled"
    );
    let r = kit.call(&mut s, "nap", r#"{"ms": 1}"#).await;
    assert_eq!((r.is_error, r.text_joined().as_str()), (false, "rested"));

    let kit = lab().with_default_timeout(Duration::from_millis(20));
    let r = kit.call(&mut s, "long_nap", r#"{"ms": 5000}"#).await;
    assert_eq!(
        r.text_joined(),
        "`long_nap` timed out after 20ms and was cancelled"
    );
}

#[tokio::test]
async fn the_policy_runs_before_every_call_including_reset_tools() {
    let kit = lab().with_policy(|req: &PolicyRequest<'_>| match (req.tool, req.group) {
        ("reset_tools", _) if matches!(req.arguments, toolgroup::args::Arguments::Text(t) if t.contains("risky")) => {
            Decision::Deny("risky tools need approval".to_owned())
        }
        (_, Some("risky")) if req.call_id == Some("blocked") => Decision::Deny("call blocked".to_owned()),
        _ => Decision::Allow,
    });
    let mut s = kit.session();
    let r = kit
        .call(
            &mut s,
            "reset_tools",
            r#"{"risky": true, "web_search": false}"#,
        )
        .await;
    assert!(r.is_error);
    assert_eq!(
        r.text_joined(),
        "`reset_tools` was not run: denied by policy: risky tools need approval"
    );
    assert_eq!(s.active().count(), 0);
    s.activate(LabGroup::Risky);
    let r = kit
        .call_with(
            &mut s,
            "echo",
            r#"{"value": 1}"#,
            &CallContext::new().with_call_id("blocked"),
        )
        .await;
    assert_eq!(
        r.text_joined(),
        "`echo` was not run: denied by policy: call blocked"
    );
    let r = kit
        .call_with(
            &mut s,
            "echo",
            r#"{"value": 1}"#,
            &CallContext::new().with_call_id("fine"),
        )
        .await;
    assert_eq!(r.text_joined(), "fine:1");
}

#[tokio::test]
async fn batch_calls_before_a_reset_see_the_old_state_and_after_it_the_new() {
    let kit = toolkit();
    let mut s = kit.session();
    let calls = [
        ToolCall::new("web_search", r#"{"query": "a"}"#).with_call_id("1"),
        ToolCall::new("reset_tools", json!({"web_search": true})).with_call_id("2"),
        ToolCall::new("web_search", r#"{"query": "b"}"#).with_call_id("3"),
        ToolCall::new("note_write", json!({"text": "c"})).with_call_id("4"),
        ToolCall::new("reset_tools", json!({"database": true})).with_call_id("5"),
        ToolCall::new("web_search", r#"{"query": "d"}"#).with_call_id("6"),
    ];
    let results = kit.call_batch(&mut s, &calls).await;
    let errors: Vec<bool> = results.iter().map(|r| r.is_error).collect();
    assert_eq!(errors, [true, false, false, false, false, true]);
    assert!(results[0].text_joined().contains("not active"));
    assert_eq!(
        results[2].structured_content.as_ref().unwrap()[0]["title"],
        "b - the official site"
    );
    assert_eq!(results[3].text_joined(), "Noted (1 characters).");
    assert_eq!(s.active_names().collect::<Vec<_>>(), ["database"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn batch_calls_run_concurrently_in_call_order() {
    let (kit, mut s) = active_lab();
    // Three naps of 30 ms each under a 50 ms timeout: sequentially the results would still
    // be fine, so check order and that each ran, not timing (machines are noisy).
    let calls: Vec<ToolCall> = (0..3)
        .map(|i| ToolCall::new("echo", json!({"value": i})).with_call_id(format!("c{i}")))
        .collect();
    let results = kit.call_batch(&mut s, &calls).await;
    let texts: Vec<String> = results.iter().map(|r| r.text_joined()).collect();
    assert_eq!(texts, ["c0:0", "c1:1", "c2:2"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thousand_sessions_share_one_toolkit() {
    let kit = Arc::new(toolkit());
    let mut handles = Vec::new();
    for i in 0..1000u32 {
        let kit = Arc::clone(&kit);
        handles.push(tokio::spawn(async move {
            let mut s = kit.session();
            let group = ["web_search", "scraping", "database"][i as usize % 3];
            let r = kit
                .call(&mut s, "reset_tools", &json!({ group: true }))
                .await;
            assert!(!r.is_error);
            tokio::task::yield_now().await;
            assert_eq!(s.active_names().collect::<Vec<_>>(), [group]);
            let text = format!("session {i}");
            let r = kit
                .call(&mut s, "note_write", &json!({ "text": text }))
                .await;
            let expected = format!("Noted ({} characters).", text.chars().count());
            assert_eq!(r.text_joined(), expected);
            if group == "database" {
                let r = kit
                    .call(&mut s, "db_insert", &json!({"row": format!("row {i}")}))
                    .await;
                assert!(!r.is_error);
            }
            let exposed: Vec<_> = kit.definitions(&s).map(|d| d.name).collect();
            assert_eq!(exposed.len(), if group == "database" { 4 } else { 3 });
            s
        }));
    }
    let mut counts = [0; 3];
    for h in handles {
        let s = h.await.unwrap();
        for (i, g) in AgentGroup::ALL.iter().enumerate() {
            if s.is_active(*g) {
                counts[i] += 1;
            }
        }
    }
    assert_eq!(counts, [334, 333, 333]);
    assert_eq!(kit.registry().database.rows.lock().unwrap().len(), 333);
    assert_eq!(<Database as ToolGroup>::TOOL_INFOS.len(), 2);
}

mod property {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn arbitrary_names_and_bytes_never_panic_the_caller(
            name in prop_oneof![Just("note_write".to_owned()), Just("echo".to_owned()), Just("reset_tools".to_owned()), Just("nap".to_owned()), ".{0,12}"],
            bytes in prop::collection::vec(any::<u8>(), 0..64),
            prefix in prop_oneof![Just(String::new()), Just("{\"value\": ".to_owned()), Just("{\"text\": ".to_owned())],
        ) {
            let (kit, mut s) = active_lab();
            let rt = tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap();
            let text = format!("{prefix}{}", String::from_utf8_lossy(&bytes));
            let before = s;
            let r = rt.block_on(kit.call(&mut s, &name, text.as_str()));
            if name != "reset_tools" {
                prop_assert_eq!(s, before);
            }
            if r.is_error {
                prop_assert!(!r.text_joined().is_empty());
            }
        }
    }
}

#[test]
fn a_timeout_without_a_timer_is_an_error_result_not_a_panic() {
    let (kit, mut s) = active_lab();
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let r = rt.block_on(kit.call(&mut s, "nap", r#"{"ms": 1}"#));
    assert!(r.is_error);
    assert_eq!(
        r.text_joined(),
        "`nap` was not run: it has a timeout, and timeouts need a Tokio runtime with the time driver enabled"
    );
}

#[test]
fn the_toolkit_is_send_and_sync_and_sessions_are_small() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Toolkit<Lab>>();
    assert_send_sync::<Session<Lab>>();
    assert_eq!(std::mem::size_of::<Session<Lab>>(), 8);
}

/// The call future and the result are moved on every call: their sizes are part of the design
/// (see `toolkit/call.rs`). A change that grows them must show here, not only in a benchmark.
#[test]
fn a_call_future_and_its_result_stay_small() {
    let kit = lab();
    let mut s = kit.session();
    // The largest `async` tool of `Lab` runs unboxed in the call future; everything else on
    // the full path is boxed, so this holds for any call of this toolkit.
    let call = kit.call(&mut s, "explode_later", "{}");
    let size = std::mem::size_of_val(&call);
    drop(call);
    assert!(size <= 696, "the call future grew to {size} bytes");
    // `preserve_order` makes serde_json's map, in the structured content, an `IndexMap`.
    // One pointer more than the content, the structured content and the flags: a first use's
    // activation, boxed, which renderers put in the structured content of every shape.
    let result = if cfg!(feature = "preserve_order") {
        112
    } else {
        72
    };
    assert_eq!(std::mem::size_of::<toolgroup::CallResult>(), result);
}
