//! The shipped middleware never stands in for a call that changes something, and says what it
//! did: the cache and `reset_tools`, the cache and tools with effects, the size cap's note.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use serde_json::json;
use toolgroup::middleware::{IdempotentCacheLayer, MaxResultSizeLayer};
use toolgroup::prelude::*;

/// Look a word up.
#[tool(read_only, idempotent)]
fn lookup(
    /// The word.
    word: String,
) -> String {
    LOOKUPS.fetch_add(1, Ordering::SeqCst);
    format!("{word}: a word")
}

/// Set a preference (a second call with the same value changes nothing more).
#[tool(idempotent)]
fn set_theme(
    /// The theme.
    theme: String,
) -> String {
    SETS.fetch_add(1, Ordering::SeqCst);
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

static LOOKUPS: AtomicUsize = AtomicUsize::new(0);
static SETS: AtomicUsize = AtomicUsize::new(0);

#[tool_group(name = "words", description = "Words.", tools = [lookup, accents])]
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

    let before = LOOKUPS.load(Ordering::SeqCst);
    for _ in 0..3 {
        let r = kit.call(&mut s, "lookup", r#"{"word": "cat"}"#).await;
        assert_eq!(r.text_joined(), "cat: a word");
    }
    assert_eq!(
        LOOKUPS.load(Ordering::SeqCst) - before,
        1,
        "read-only: cached"
    );

    // Idempotent but not read-only: each call has its effect, for whichever session asks.
    let before = SETS.load(Ordering::SeqCst);
    let mut other = kit.session();
    kit.call(
        &mut other,
        "reset_tools",
        r#"{"web": true, "files": false}"#,
    )
    .await;
    for session in [&mut s, &mut other] {
        let r = kit.call(session, "set_theme", r#"{"theme": "dark"}"#).await;
        assert_eq!(r.text_joined(), "theme set to dark");
    }
    assert_eq!(
        SETS.load(Ordering::SeqCst) - before,
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
