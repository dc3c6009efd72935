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
