//! First-use activation: a call of a tool of an inactive group activates the group and runs,
//! in every delivery mode, with the group's tools and instructions in the result once.

use toolgroup::CallOutcome;
use toolgroup::policy::{Decision, PolicyRequest};
use toolgroup::provider::deferred::{Deferred, DeferredOptions};
use toolgroup::provider::transcript;

use crate::support::*;

fn first_use_kit() -> Toolkit<Kit> {
    kit().with_first_use_activation(true)
}

#[tokio::test]
async fn off_by_default_the_call_is_refused_and_nothing_changes() {
    let kit = kit();
    assert!(!kit.first_use_activation());
    let mut session = kit.session();
    let result = kit.call(&mut session, "search", r#"{"query": "x"}"#).await;
    assert_eq!(result.outcome(), CallOutcome::InactiveGroup);
    assert_eq!(session.active_names().count(), 0);
    let resolved = kit.resolve(&session, "search").unwrap();
    assert!(!resolved.activates() && !resolved.changes_session());
}

#[tokio::test]
async fn the_call_activates_its_group_runs_and_says_so_once() {
    let kit = first_use_kit();
    let mut session = kit.session();
    let resolved = kit.resolve(&session, "search").unwrap();
    assert!(resolved.activates() && resolved.changes_session());

    let result = kit
        .call(&mut session, "search", r#"{"query": "x", "limit": 1}"#)
        .await;
    assert_eq!(
        result.outcome(),
        CallOutcome::Ok,
        "{}",
        result.text_joined()
    );
    assert_eq!(session.active_names().collect::<Vec<_>>(), ["web"]);
    let text = result.text_joined();
    assert!(text.contains("x #0"), "the tool's own answer: {text}");
    assert!(
        text.contains(
            "This call activated the group `web`; the other groups are unchanged.\n<group name=\"web\">\nTools: search.\nCite your sources.\n</group>"
        ),
        "{text}"
    );
    // An array is no object to add a key to: the structured content is the tool's own.
    assert_eq!(result.structured_content, Some(json!(["x #0 (0 domains)"])));

    // Once: the group is active now.
    let again = kit
        .call(&mut session, "search", r#"{"query": "y", "limit": 1}"#)
        .await;
    assert!(
        !again.text_joined().contains("activated"),
        "{}",
        again.text_joined()
    );
    assert!(!kit.resolve(&session, "search").unwrap().activates());
}

#[tokio::test]
async fn an_object_result_carries_the_activation_in_its_structured_content() {
    let kit = first_use_kit();
    let mut session = kit.session();
    let result = kit
        .call(&mut session, "numbers", r#"{"small": 2, "offset": 3}"#)
        .await;
    assert!(!result.is_error, "{}", result.text_joined());
    let structured = result.structured_content.unwrap();
    assert_eq!(structured["count"], json!(2));
    assert_eq!(
        structured["activated_group"],
        json!({"group": "data", "tools": ["tag", "tree", "numbers"]})
    );
    assert_eq!(session.active_names().collect::<Vec<_>>(), ["data"]);
}

#[tokio::test]
async fn bad_input_an_error_result_and_a_denial_activate_nothing() {
    let kit = first_use_kit();
    let mut session = kit.session();
    for (tool, args, outcome) in [
        ("search", r#"{"query": 3}"#, CallOutcome::InvalidArguments),
        ("search", "not json", CallOutcome::InvalidArguments),
        (
            "numbers",
            r#"{"small": 0, "offset": 1}"#,
            CallOutcome::ToolError,
        ),
    ] {
        let result = kit.call(&mut session, tool, args).await;
        assert_eq!(result.outcome(), outcome, "{tool} {args}");
        assert!(!result.text_joined().contains("activated"), "{tool} {args}");
        assert_eq!(session.active_names().count(), 0, "{tool} {args}");
    }

    let no_web = |request: &PolicyRequest<'_>| {
        if request.group == Some("web") {
            Decision::Deny("the web is off limits".into())
        } else {
            Decision::Allow
        }
    };
    let guarded = first_use_kit().with_policy(no_web);
    let mut session = guarded.session();
    let denied = guarded
        .call(&mut session, "search", r#"{"query": "x"}"#)
        .await;
    assert_eq!(denied.outcome(), CallOutcome::Denied);
    assert_eq!(session.active_names().count(), 0);
    let allowed = guarded.call(&mut session, "ping", "{}").await;
    assert!(!allowed.is_error);
}

#[tokio::test]
async fn one_call_may_choose_otherwise() {
    let off = kit();
    let mut session = off.session();
    let on = CallContext::new().with_first_use_activation(true);
    let result = off
        .call_with(&mut session, "search", r#"{"query": "x"}"#, &on)
        .await;
    assert!(!result.is_error, "{}", result.text_joined());
    assert_eq!(session.active_names().collect::<Vec<_>>(), ["web"]);

    let kit = first_use_kit();
    let mut session = kit.session();
    let refuse = CallContext::new().with_first_use_activation(false);
    let result = kit
        .call_with(&mut session, "search", r#"{"query": "x"}"#, &refuse)
        .await;
    assert_eq!(result.outcome(), CallOutcome::InactiveGroup);
    assert_eq!(session.active_names().count(), 0);
}

#[tokio::test]
async fn in_a_batch_each_activation_is_a_barrier() {
    let kit = first_use_kit();
    let mut session = kit.session();
    let calls = [
        ToolCall::new("search", r#"{"query": "x", "limit": 1}"#).with_call_id("a"),
        ToolCall::new("numbers", r#"{"small": 1, "offset": 0}"#).with_call_id("b"),
        ToolCall::new("search", r#"{"query": "y", "limit": 1}"#).with_call_id("c"),
    ];
    let results = kit.call_batch(&mut session, &calls).await;
    assert!(results.iter().all(|r| !r.is_error));
    assert!(
        results[0]
            .text_joined()
            .contains("activated the group `web`")
    );
    assert!(
        results[1]
            .text_joined()
            .contains("activated the group `data`")
    );
    assert!(!results[2].text_joined().contains("activated"));
    assert_eq!(session.active_names().collect::<Vec<_>>(), ["web", "data"]);
}

#[tokio::test]
async fn the_list_and_mask_modes_show_the_activated_group_next_turn() {
    let kit = first_use_kit();
    // Anthropic has no allow-list: its mask mode is the list of every tool.
    for provider in [
        Provider::OpenAiChat,
        Provider::OpenAiResponses,
        Provider::Gemini,
    ] {
        let rendered = Rendered::new(&kit, provider);
        let mut session = kit.session();
        let before_list = rendered.tools_json(&session);
        let before_mask = rendered.allowed_tools_json(&session, AllowMode::Auto);
        assert!(!before_list.contains("\"search\""), "{provider}");
        kit.call(&mut session, "search", r#"{"query": "x"}"#).await;
        // List mode: the next request's tools hold the group's tools.
        assert!(
            rendered.tools_json(&session).contains("\"search\""),
            "{provider}"
        );
        // Mask mode: the allow-list lets the model call them.
        let after_mask = rendered.allowed_tools_json(&session, AllowMode::Auto);
        assert_ne!(before_mask, after_mask, "{provider}");
        assert!(after_mask.unwrap().contains("search"), "{provider}");
    }
}

#[tokio::test]
async fn the_deferred_mode_announces_the_activated_group_and_a_transcript_replays_it() {
    let kit = first_use_kit();
    for provider in [Provider::Anthropic, Provider::OpenAiResponses] {
        let deferred = Deferred::new(&kit, provider, DeferredOptions::default()).expect("deferred");
        let mut state = deferred.state();
        let mut session = kit.session();
        assert!(deferred.sync(&mut state, &session).is_none(), "{provider}");
        let result = kit.call(&mut session, "search", r#"{"query": "x"}"#).await;
        assert!(!result.is_error);
        let change = deferred
            .sync(&mut state, &session)
            .expect("the activation is a change");
        assert_eq!(change.activated, ["web"], "{provider}");
    }

    // A transcript with a direct call that activated `web` replays to the same session.
    let conversation = [
        json!({"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "search", "input": {"query": "x"}}]}),
        json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "is_error": false}]}),
        json!({"role": "assistant", "content": [{"type": "tool_use", "id": "t2", "name": "numbers", "input": {"small": 0, "offset": 0}}]}),
        json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t2", "is_error": true}]}),
    ];
    let replayed = transcript::replay(&kit, Provider::Anthropic, &conversation).expect("replayed");
    assert_eq!(
        replayed.session().active_names().collect::<Vec<_>>(),
        ["web"]
    );
    // Without first-use activation the same transcript activated nothing.
    let replayed = transcript::replay(&crate::support::kit(), Provider::Anthropic, &conversation)
        .expect("replayed");
    assert_eq!(replayed.session().active_names().count(), 0);
}

#[test]
fn reset_tools_requires_every_group_except_over_mcp() {
    let kit = kit();
    let reset = |provider: Provider| -> Value {
        serde_json::from_str(
            Rendered::new(&kit, provider)
                .get("reset_tools")
                .unwrap()
                .json
                .get(),
        )
        .unwrap()
    };
    let required = |schema: &Value| -> BTreeSet<String> {
        schema["required"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_owned())
            .collect()
    };
    let both: BTreeSet<String> = ["web", "data"].map(str::to_owned).into();
    let chat = reset(Provider::OpenAiChat);
    assert_eq!(required(&chat["function"]["parameters"]), both);
    assert_eq!(chat["function"]["strict"], json!(true));
    let anthropic = reset(Provider::Anthropic);
    assert_eq!(required(&anthropic["input_schema"]), both);
    assert_eq!(
        anthropic["description"],
        json!(toolgroup::meta::RESET_TOOLS_DESCRIPTION)
    );
    assert!(toolgroup::meta::RESET_TOOLS_DESCRIPTION.contains("Give every group's final state"));
    // MCP: no strict mode, and clients that check `required` themselves would answer an
    // incomplete call with their own text; the description says what the toolkit does.
    let mcp = reset(Provider::Mcp);
    assert!(mcp["inputSchema"].get("required").is_none(), "{mcp}");
    assert_eq!(mcp["inputSchema"]["additionalProperties"], json!(false));
    assert_eq!(
        mcp["description"],
        json!(toolgroup::meta::RESET_TOOLS_DESCRIPTION_MCP)
    );
    assert!(
        toolgroup::meta::RESET_TOOLS_DESCRIPTION_MCP.contains("a group left out becomes inactive")
    );
}

/// One answer to "does this call change the session?": the resolution's, under the call's
/// first-use choice, is what a layer reads on the request.
#[tokio::test]
async fn a_layer_and_the_resolution_agree_that_a_first_use_changes_the_session() {
    use std::sync::{Arc, Mutex};
    use toolgroup::middleware::ToolRequest;

    let seen: Arc<Mutex<Vec<(String, bool)>>> = Arc::default();
    let record = seen.clone();
    let kit = first_use_kit().layer(tower::layer::layer_fn(move |inner| {
        let record = record.clone();
        tower::util::MapRequest::new(inner, move |request: ToolRequest| {
            record
                .lock()
                .unwrap()
                .push((request.tool.to_owned(), request.changes_session()));
            request
        })
    }));
    let mut session = kit.session();
    let resolved = kit.resolve(&session, "search").unwrap();
    assert!(resolved.changes_session());
    assert!(!resolved.with_first_use_activation(false).changes_session());
    let first = kit.call(&mut session, "search", r#"{"query": "x"}"#).await;
    assert!(!first.is_error, "{}", first.text_joined());
    let again = kit.call(&mut session, "search", r#"{"query": "y"}"#).await;
    assert!(!again.is_error);
    assert!(!kit.resolve(&session, "search").unwrap().changes_session());
    assert_eq!(
        *seen.lock().unwrap(),
        [("search".to_owned(), true), ("search".to_owned(), false)]
    );
}

/// Two first uses of one group in one batch: the first activates the group and carries its
/// instructions, the second runs in the active group and carries nothing.
#[tokio::test]
async fn two_first_uses_in_one_batch_deliver_once() {
    let kit = first_use_kit();
    let mut session = kit.session();
    let calls = [
        ToolCall::new("search", r#"{"query": "a"}"#).with_call_id("c1"),
        ToolCall::new("search", r#"{"query": "b"}"#).with_call_id("c2"),
    ];
    let results = kit.call_batch(&mut session, &calls).await;
    let delivered: Vec<bool> = results
        .iter()
        .map(|r| r.text_joined().contains("Cite your sources."))
        .collect();
    assert_eq!(delivered, [true, false]);
    assert!(results[0].activation().is_some() && results[1].activation().is_none());
    assert_eq!(session.active_names().collect::<Vec<_>>(), ["web"]);
}

/// A first use the principal is not entitled to: refused, nothing activated, nothing
/// delivered.
#[tokio::test]
async fn a_first_use_refused_for_scopes_activates_and_delivers_nothing() {
    let kit = first_use_kit().with_required_scopes(KitGroup::Web, "web:read".parse().unwrap());
    let view = kit.entitled(&"other".parse().unwrap());
    let mut session = view.session();
    let result = view.call(&mut session, "search", r#"{"query": "x"}"#).await;
    assert_eq!(result.outcome(), CallOutcome::InsufficientScope);
    assert!(result.activation().is_none());
    assert!(!result.text_joined().contains("Cite your sources."));
    assert_eq!(session.active_names().count(), 0);
}
