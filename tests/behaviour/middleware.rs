//! The shipped middleware never stands in for a call that changes something, and says what it
//! did: the cache and `reset_tools`, the cache and tools with effects, the size cap's note.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::json;
use toolgroup::CallOutcome;
use toolgroup::context::CancellationToken;
use toolgroup::middleware::{
    AuditLayer, AuditRecord, IdempotentCacheLayer, MaxResultSizeLayer, ToolResponse,
};
use toolgroup::policy::{Decision, PolicyRequest};
use toolgroup::prelude::*;

/// Look a word up.
#[tool(read_only, idempotent)]
fn lookup(
    /// The word.
    word: String,
) -> String {
    LOOKED_UP
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(word.clone());
    format!("{word}: a word")
}

/// Set a preference (a second call with the same value changes nothing more).
#[tool(idempotent)]
fn set_theme(
    /// The theme.
    theme: String,
) -> String {
    THEMES_SET
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(theme.clone());
    format!("theme set to {theme}")
}

/// Say something long.
#[tool]
fn accents(
    /// How many.
    n: usize,
) -> String {
    "é".repeat(n)
}

/// Wait a long time.
#[tool]
async fn wait() -> String {
    tokio::time::sleep(Duration::from_secs(60)).await;
    "done".to_owned()
}

/// Every word `lookup` ran for. Tests run concurrently and several call `lookup`, so a test
/// counts only the runs for a word no other test uses.
static LOOKED_UP: Mutex<Vec<String>> = Mutex::new(Vec::new());

fn runs_for(log: &Mutex<Vec<String>>, word: &str) -> usize {
    log.lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .filter(|w| *w == word)
        .count()
}
/// Every theme `set_theme` ran for, counted the same way as [`LOOKED_UP`].
static THEMES_SET: Mutex<Vec<String>> = Mutex::new(Vec::new());

#[tool_group(name = "words", description = "Words.", tools = [lookup, accents, wait])]
struct Words;

#[tool_group(name = "web", description = "The web.", tools = [set_theme])]
struct Web;

/// List the files.
#[tool(read_only)]
fn file_list() -> Vec<String> {
    Vec::new()
}

#[tool_group(name = "files", description = "Files.", tools = [file_list])]
struct Files;

#[toolkit]
struct Kit {
    #[basic]
    words: Words,
    web: Web,
    files: Files,
}

fn cached() -> Toolkit<Kit> {
    Toolkit::new(Kit {
        words: Words,
        web: Web,
        files: Files,
    })
    .layer(IdempotentCacheLayer::new(100, Duration::from_secs(60)))
}

#[tokio::test]
async fn a_cached_toolkit_applies_every_reset_tools_call() {
    let kit = cached();
    let mut s1 = kit.session();
    let on = r#"{"web": true, "files": false}"#;
    let r = kit.call(&mut s1, "reset_tools", on).await;
    assert!(!r.is_error, "{}", r.text_joined());
    assert!(s1.is_active(KitGroup::Web));

    // A new session sends the same call: it is applied to that session, not answered from
    // the first one's result.
    let mut s2 = kit.session();
    let r = kit.call(&mut s2, "reset_tools", on).await;
    assert!(!r.is_error, "{}", r.text_joined());
    assert!(s2.is_active(KitGroup::Web));
    let r = kit
        .call(
            &mut s2,
            "set_theme",
            json!({"theme": "dark"}).to_string().as_str(),
        )
        .await;
    assert_eq!(r.text_joined(), "theme set to dark");

    // Within one session: web on, files on, web on again ends with web on.
    let mut s3 = kit.session();
    for call in [on, r#"{"web": false, "files": true}"#, on] {
        let r = kit.call(&mut s3, "reset_tools", call).await;
        assert!(!r.is_error, "{}", r.text_joined());
    }
    assert!(s3.is_active(KitGroup::Web));
    assert!(!s3.is_active(KitGroup::Files));
}

#[tokio::test]
async fn only_read_only_idempotent_tools_are_cached() {
    let kit = cached();
    let mut s = kit.session();
    kit.call(&mut s, "reset_tools", r#"{"web": true, "files": false}"#)
        .await;

    for _ in 0..3 {
        let r = kit.call(&mut s, "lookup", r#"{"word": "ocelot"}"#).await;
        assert_eq!(r.text_joined(), "ocelot: a word");
    }
    assert_eq!(runs_for(&LOOKED_UP, "ocelot"), 1, "read-only: cached");

    // Idempotent but not read-only: each call has its effect, for whichever session asks.
    let mut other = kit.session();
    kit.call(
        &mut other,
        "reset_tools",
        r#"{"web": true, "files": false}"#,
    )
    .await;
    for session in [&mut s, &mut other] {
        let r = kit
            .call(session, "set_theme", r#"{"theme": "sepia"}"#)
            .await;
        assert_eq!(r.text_joined(), "theme set to sepia");
    }
    assert_eq!(
        runs_for(&THEMES_SET, "sepia"),
        2,
        "not read-only: never cached"
    );
}

#[tokio::test]
async fn the_size_cap_counts_the_bytes_it_kept() {
    // 500 two-byte characters; a cap of 1 byte keeps none of them (a character boundary).
    let kit = Toolkit::new(Kit {
        words: Words,
        web: Web,
        files: Files,
    })
    .layer(MaxResultSizeLayer::new(1));
    let mut s = kit.session();
    let r = kit.call(&mut s, "accents", r#"{"n": 500}"#).await;
    assert_eq!(
        r.text_joined(),
        "[the result was cut: 0 of 1000 bytes of text shown]"
    );
    // A cap that falls inside a character keeps the characters before it.
    let kit = Toolkit::new(Kit {
        words: Words,
        web: Web,
        files: Files,
    })
    .layer(MaxResultSizeLayer::new(5));
    let r = kit.call(&mut s, "accents", r#"{"n": 500}"#).await;
    assert_eq!(
        r.text_joined(),
        "éé\n[the result was cut: 4 of 1000 bytes of text shown]"
    );
}

fn audited(log: &Arc<Mutex<Vec<AuditRecord>>>) -> Toolkit<Kit> {
    let sink = Arc::clone(log);
    Toolkit::new(Kit {
        words: Words,
        web: Web,
        files: Files,
    })
    .with_policy(|request: &PolicyRequest<'_>| match request.tool {
        "set_theme" => Decision::deny("themes are fixed"),
        _ => Decision::Allow,
    })
    // The toolkit's own audit: it records every call, whatever the layers.
    .with_audit(move |r: &AuditRecord| sink.lock().unwrap().push(r.clone()))
    .layer(MaxResultSizeLayer::new(1000))
}

#[tokio::test]
async fn the_audit_records_every_call_the_toolkit_answers() {
    let log: Arc<Mutex<Vec<AuditRecord>>> = Arc::default();
    let kit = audited(&log);
    let mut s = kit.session();

    kit.call(&mut s, "lookup", r#"{"word": "cat"}"#).await;
    kit.call(&mut s, "set_theme", r#"{"theme": "dark"}"#).await; // inactive
    kit.call(&mut s, "no_such<tool>", "{}").await; // unknown
    kit.call(&mut s, "reset_tools", r#"{"web": 1}"#).await; // refused
    kit.call(&mut s, "reset_tools", r#"{"web": true, "files": false}"#)
        .await;
    kit.call(&mut s, "set_theme", r#"{"theme": "dark"}"#).await; // denied
    kit.call(&mut s, "lookup", r#"{"word": 3}"#).await; // invalid arguments
    // Cancelled by its token.
    let token = CancellationToken::new();
    let cx = CallContext::new()
        .with_call_id("c7")
        .with_cancellation(token.clone());
    let call = kit.call_with(&mut s, "wait", "{}", &cx);
    let cancel = async {
        tokio::time::sleep(Duration::from_millis(10)).await;
        token.cancel();
    };
    let (r, ()) = tokio::join!(call, cancel);
    assert!(r.is_error);
    // Cancelled by dropping the call's future.
    let dropped =
        tokio::time::timeout(Duration::from_millis(10), kit.call(&mut s, "wait", "{}")).await;
    assert!(dropped.is_err());

    let log = log.lock().unwrap();
    let seen: Vec<(&str, Option<&str>, CallOutcome, bool)> = log
        .iter()
        .map(|r| (r.tool.as_str(), r.group, r.outcome, r.is_error))
        .collect();
    assert_eq!(
        seen,
        [
            ("lookup", Some("words"), CallOutcome::Ok, false),
            ("set_theme", Some("web"), CallOutcome::InactiveGroup, true),
            ("no_such<tool>", None, CallOutcome::UnknownTool, true),
            ("reset_tools", None, CallOutcome::Refused, true),
            ("reset_tools", None, CallOutcome::Ok, false),
            ("set_theme", Some("web"), CallOutcome::Denied, true),
            ("lookup", Some("words"), CallOutcome::InvalidArguments, true),
            ("wait", Some("words"), CallOutcome::Cancelled, true),
            ("wait", Some("words"), CallOutcome::Cancelled, true),
        ]
    );
    assert_eq!(log[7].call_id.as_deref(), Some("c7"));
    assert_eq!(CallOutcome::InactiveGroup.to_string(), "inactive_group");
}

#[tokio::test]
async fn a_panicking_audit_sink_changes_no_result() {
    let kit = Toolkit::new(Kit {
        words: Words,
        web: Web,
        files: Files,
    })
    .with_audit(|_: &AuditRecord| panic!("the log is full"));
    let mut s = kit.session();
    let r = kit.call(&mut s, "lookup", r#"{"word": "cat"}"#).await;
    assert_eq!(r.text_joined(), "cat: a word");
    assert!(!r.is_error);
}

#[tokio::test]
async fn an_audit_nested_in_a_tower_stack_records_the_calls_that_reach_it() {
    let log: Arc<Mutex<Vec<AuditRecord>>> = Arc::default();
    let sink = Arc::clone(&log);
    let stack = tower::ServiceBuilder::new()
        .layer(AuditLayer::new(move |r: &AuditRecord| {
            sink.lock().unwrap().push(r.clone())
        }))
        .layer(MaxResultSizeLayer::new(1000));
    let kit = Toolkit::new(Kit {
        words: Words,
        web: Web,
        files: Files,
    })
    .layer(stack);
    let mut s = kit.session();
    kit.call(&mut s, "lookup", r#"{"word": "cat"}"#).await;
    kit.call(&mut s, "lookup", r#"{"word": 3}"#).await;
    // Refused before the layers: a nested audit never sees it.
    kit.call(&mut s, "set_theme", r#"{"theme": "dark"}"#).await;
    let log = log.lock().unwrap();
    let seen: Vec<(&str, CallOutcome)> = log.iter().map(|r| (r.tool.as_str(), r.outcome)).collect();
    assert_eq!(
        seen,
        [
            ("lookup", CallOutcome::Ok),
            // The outcome travels in the result: a nested audit tells bad arguments too.
            ("lookup", CallOutcome::InvalidArguments)
        ]
    );
}

#[tokio::test]
async fn the_audit_tells_a_layer_s_answer_from_the_tool_s() {
    let log: Arc<Mutex<Vec<AuditRecord>>> = Arc::default();
    let sink = Arc::clone(&log);
    let kit = Toolkit::new(Kit {
        words: Words,
        web: Web,
        files: Files,
    })
    // Turns every `accents` answer into an error after the tool ran.
    .layer(tower::util::MapResponseLayer::new(|r: ToolResponse| {
        r.map_result(|r| {
            if r.text_joined().starts_with('é') {
                CallResult::error("held back by a layer")
            } else {
                r
            }
        })
    }))
    .layer(IdempotentCacheLayer::new(10, Duration::from_secs(60)))
    .layer(AuditLayer::new(move |r: &AuditRecord| {
        sink.lock().unwrap().push(r.clone())
    }));
    let mut s = kit.session();
    kit.call(&mut s, "accents", r#"{"n": 1}"#).await;
    // The second lookup is a cache hit: the tool does not run, the call still ends `ok`.
    kit.call(&mut s, "lookup", r#"{"word": "dog"}"#).await;
    kit.call(&mut s, "lookup", r#"{"word": "dog"}"#).await;
    let log = log.lock().unwrap();
    let seen: Vec<(&str, CallOutcome, bool)> = log
        .iter()
        .map(|r| (r.tool.as_str(), r.outcome, r.is_error))
        .collect();
    assert_eq!(
        seen,
        [
            ("accents", CallOutcome::ToolError, true),
            ("lookup", CallOutcome::Ok, false),
            ("lookup", CallOutcome::Ok, false),
        ]
    );
}
