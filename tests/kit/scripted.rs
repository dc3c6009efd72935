//! The scripted model's own behaviour: scripts it refuses, shapes it cannot carry.

use std::error::Error as _;

use toolgroup::prelude::*;
use toolgroup::provider::Provider;
use toolgroup::provider::deferred::{DeferredError, DeferredOptions};
use toolgroup::testing::{Delivery, PlayError, Script, ScriptedModel};

/// Search the web.
#[tool]
fn web_search(
    /// What to search for.
    query: String,
) -> String {
    query
}

#[tool_group(name = "web", description = "Searching the web.", tools = [web_search])]
struct Web;

/// No basic group: with `reset_tools` hidden, Anthropic's deferred mode has no tool to keep
/// loaded.
#[toolkit]
struct OnlySwitchable {
    web: Web,
}

#[tokio::test]
async fn a_mode_that_cannot_deliver_the_toolkit_is_the_errors_source() {
    let toolkit = Toolkit::new(OnlySwitchable { web: Web }).with_reset_tools(false);
    let mut session = toolkit.session();
    let error = ScriptedModel::new(Script::new().text("Hello."), Provider::Anthropic)
        .delivery(Delivery::Deferred(DeferredOptions::default()))
        .play(&toolkit, &mut session)
        .await
        .unwrap_err();
    assert!(
        matches!(error, PlayError::Deferred(DeferredError::NoEagerTool)),
        "{error:?}"
    );
    let source = error.source().expect("the deferred mode's error");
    assert_eq!(
        source.downcast_ref::<DeferredError>(),
        Some(&DeferredError::NoEagerTool)
    );
}

#[tokio::test]
async fn a_provider_without_an_allow_list_has_no_source() {
    let toolkit = Toolkit::new(OnlySwitchable { web: Web });
    let mut session = toolkit.session();
    let error = ScriptedModel::new(Script::new().text("Hello."), Provider::Anthropic)
        .delivery(Delivery::Mask)
        .play(&toolkit, &mut session)
        .await
        .unwrap_err();
    assert!(
        matches!(error, PlayError::NoAllowList(Provider::Anthropic)),
        "{error:?}"
    );
    assert!(error.source().is_none());
}

#[test]
fn a_script_line_that_is_not_json_has_the_parsers_error_as_source() {
    let error = Script::from_jsonl("{\"text\": \"Hi.\"}\nnot json").unwrap_err();
    assert_eq!(
        error.to_string(),
        "script line 2: not JSON (expected ident at line 1 column 2)"
    );
    let source = error.source().expect("the JSON error");
    let json = source
        .downcast_ref::<serde_json::Error>()
        .expect("a serde_json::Error");
    assert_eq!((json.line(), json.column()), (1, 2));

    // A line that is JSON but no turn has no error behind it.
    let error = Script::from_jsonl("{\"text\": 1}").unwrap_err();
    assert_eq!(
        error.to_string(),
        "script line 1: \"text\" must be a string"
    );
    assert!(error.source().is_none());
}

/// Fetch a page.
#[tool]
fn page_fetch(
    /// The page.
    url: String,
) -> String {
    url
}

#[tool_group(name = "pages", description = "Fetching pages.", tools = [page_fetch])]
struct Pages;

#[toolkit]
struct TwoGroups {
    web: Web,
    pages: Pages,
}

#[tokio::test]
async fn a_managed_play_ends_each_turn_for_the_lifecycle_rules() {
    use toolgroup::lifecycle::Lifecycle;
    let toolkit = Toolkit::new(TwoGroups {
        web: Web,
        pages: Pages,
    })
    .with_first_use_activation(true)
    .with_lifecycle(Lifecycle::new().idle_turns(1))
    .unwrap();
    let script = Script::new()
        .call("web_search", serde_json::json!({"query": "rust"}))
        .call("page_fetch", serde_json::json!({"url": "a"}))
        .call("page_fetch", serde_json::json!({"url": "b"}));
    for delivery in [
        Delivery::List,
        Delivery::Deferred(DeferredOptions::default()),
    ] {
        let mut session = toolkit.managed_session();
        let transcript = ScriptedModel::new(script.clone(), Provider::Anthropic)
            .delivery(delivery)
            .play_managed(&toolkit, &mut session)
            .await
            .unwrap();
        assert_eq!(session.turns(), 3);
        let active: Vec<&[&str]> = transcript.turns.iter().map(|t| &t.active[..]).collect();
        assert_eq!(active[0], ["web"]);
        // The second turn leaves web unused: switched off when it ends, told with the third
        // turn's result.
        assert_eq!(active[1], ["pages"]);
        let third = &transcript.turns[2].results[0];
        assert_eq!(third.deactivations()[0].group, "web");
        assert!(third.text_joined().contains("`web` (unused for 1 turn(s))"));
    }
}

/// Look a word up.
#[tool]
fn define(
    /// The word.
    word: String,
) -> String {
    word
}

/// Fail always.
#[tool]
fn flaky() -> Result<String, String> {
    Err("down".to_owned())
}

#[tool_group(name = "words", description = "Dictionary.", tools = [define, flaky])]
struct Words;

#[toolkit]
struct ThreeGroups {
    web: Web,
    pages: Pages,
    words: Words,
}

#[tokio::test]
async fn a_transcript_replays_to_the_same_managed_session() {
    use serde_json::json;
    use toolgroup::lifecycle::Lifecycle;
    use toolgroup::provider::transcript::replay_managed;
    let script = Script::new()
        .calls([
            ("web_search", json!({"query": "a"})),
            ("page_fetch", json!({"url": "a"})),
        ])
        .call("define", json!({"word": "a"}))
        .call("flaky", json!({}))
        .calls([
            ("page_fetch", json!({"url": "b"})),
            ("define", json!({"word": "b"})),
        ])
        .call("web_search", json!({"query": "b"}))
        .call("define", json!({"word": 3}))
        .call(
            "reset_tools",
            json!({"web": true, "pages": true, "words": true}),
        )
        .call("page_fetch", json!({"url": "c"}))
        .text("done");
    let rules = [
        Lifecycle::new().max_active(2),
        Lifecycle::new().idle_turns(1),
        Lifecycle::new().idle_requests(2),
        Lifecycle::new().max_active(2).idle_turns(2),
    ];
    for rule in rules {
        let toolkit = Toolkit::new(ThreeGroups {
            web: Web,
            pages: Pages,
            words: Words,
        })
        .with_first_use_activation(true)
        .with_lifecycle(rule.clone())
        .unwrap();
        for provider in [
            Provider::Anthropic,
            Provider::OpenAiResponses,
            Provider::OpenAiChat,
            Provider::Gemini,
        ] {
            let mut live = toolkit.managed_session();
            let transcript = ScriptedModel::new(script.clone(), provider)
                .play_managed(&toolkit, &mut live)
                .await
                .unwrap();
            let evictions: usize = transcript
                .turns
                .iter()
                .flat_map(|t| &t.results)
                .map(|r| r.deactivations().len())
                .sum();
            assert!(evictions > 0, "{rule:?}: the script must evict");
            let mut replayed = replay_managed(&toolkit, provider, &transcript.messages).unwrap();
            // The live play ended its last turn too (a text turn ends one as well).
            while replayed.turns() < live.turns() {
                toolkit.end_turn(&mut replayed);
            }
            assert_eq!(replayed.session(), live.session(), "{provider} {rule:?}");
            assert_eq!(
                replayed.by_recency(),
                live.by_recency(),
                "{provider} {rule:?}"
            );
            assert_eq!(replayed.turns(), live.turns(), "{provider} {rule:?}");
        }
    }
}
