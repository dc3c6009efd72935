//! The deferred delivery mode: a stable tool array, the providers' change messages (goldens,
//! which `tests/provider_sdk/check.py` validates against the SDKs' request types), the
//! fallbacks, decoding, refusals, and rebuilding the state from a transcript.

use toolgroup::provider::deferred::{
    ANTHROPIC_TOOL_CHANGES_BETA, Deferred, DeferredDecodeError, DeferredError, DeferredOptions,
    DeferredState, Strategy,
};
use toolgroup::provider::transcript::{self, TranscriptError};

use crate::responses::responses_namespace;
use crate::support::*;

/// The model's moves: switch to `web`, search, switch to `data` (dropping `web`), refuse a
/// misspelled switch, switch `web` back on beside `data`. The arguments are the exact text
/// the model sends, so that the replayed calls are the same bytes whatever the build's key
/// order.
fn moves() -> Vec<(&'static str, &'static str)> {
    vec![
        ("reset_tools", r#"{"data":false,"web":true}"#),
        ("search", r#"{"query":"deferred tools"}"#),
        ("reset_tools", r#"{"data":true,"web":false}"#),
        ("reset_tools", r#"{"wbe":true}"#),
        ("reset_tools", r#"{"data":true,"web":true}"#),
    ]
}

/// The model's reply to `request`: one call of `name` with the argument text `args`, in the
/// provider's shape (a Responses call of an appended or namespaced tool with its namespace).
pub(super) fn reply(
    provider: Provider,
    n: usize,
    request: &Value,
    name: &str,
    args: &str,
) -> Value {
    let parsed: Value = serde_json::from_str(args).expect("valid arguments");
    match provider {
        Provider::Anthropic => json!({"role": "assistant", "content": [
            {"type": "tool_use", "id": format!("toolu_{n}"), "name": name, "input": parsed}]}),
        Provider::OpenAiResponses => {
            let mut call = json!({"type": "function_call", "call_id": format!("call_{n}"), "name": name, "arguments": args});
            if let Some(namespace) = responses_namespace(request, name) {
                call["namespace"] = Value::String(namespace);
            }
            json!([call])
        }
        Provider::Gemini => json!({"role": "model", "parts": [
            {"functionCall": {"id": format!("call_{n}"), "name": name, "args": parsed}}]}),
        _ => json!({"role": "assistant", "content": null, "tool_calls": [
            {"id": format!("call_{n}"), "type": "function", "function": {"name": name, "arguments": args}}]}),
    }
}

pub(super) fn request(
    provider: Provider,
    tools: Value,
    choice: Option<&str>,
    conversation: &[Value],
    headers: &[&str],
) -> Value {
    let mut body = match provider {
        Provider::Anthropic => {
            json!({"model": "claude-opus-4-5", "max_tokens": 1024, "tools": tools, "messages": conversation})
        }
        Provider::OpenAiResponses => {
            json!({"model": "gpt-5.4", "tools": tools, "input": conversation})
        }
        Provider::Gemini => json!({"tools": tools, "contents": conversation}),
        _ => json!({"model": "gpt-5.4", "tools": tools, "messages": conversation}),
    };
    if let Some(choice) = choice {
        let field = if provider == Provider::Gemini {
            "toolConfig"
        } else {
            "tool_choice"
        };
        body[field] = serde_json::from_str(choice).expect("valid JSON");
    }
    if !headers.is_empty() {
        body["_headers"] = json!({"anthropic-beta": headers.join(",")});
    }
    body
}

/// The user's first message.
pub(super) fn opening(provider: Provider) -> Value {
    match provider {
        Provider::OpenAiResponses => {
            json!({"type": "message", "role": "user", "content": "Find the docs."})
        }
        Provider::Gemini => json!({"role": "user", "parts": [{"text": "Find the docs."}]}),
        _ => json!({"role": "user", "content": "Find the docs."}),
    }
}

/// The request of a conversation whose deferred state is `state`.
pub(super) fn request_in<R: Registry>(
    deferred: &Deferred<R>,
    state: &DeferredState<R>,
    conversation: &[Value],
) -> Value {
    request(
        deferred.provider(),
        deferred.tools_value(state),
        deferred.tool_choice_json(state),
        conversation,
        deferred.beta_headers(),
    )
}

/// Every request of the conversation of [`moves`] in the deferred mode, the last one after
/// the last results; and the conversation itself.
async fn play(
    provider: Provider,
    options: DeferredOptions,
) -> (Vec<Value>, Vec<Value>, Session<Kit>) {
    let kit = kit();
    let deferred = Deferred::new(&kit, provider, options).expect("a deferred mode");
    let mut state = deferred.state();
    let mut session = kit.session();
    let mut conversation = vec![opening(provider)];
    let mut requests = Vec::new();
    let request_now =
        |state: &_, conversation: &[Value]| request_in(&deferred, state, conversation);
    for (n, (name, args)) in moves().into_iter().enumerate() {
        let request = request_now(&state, &conversation);
        let answer = reply(provider, n + 1, &request, name, args);
        requests.push(request);
        let turn = deferred.decode(&answer).expect("a known reply");
        match answer {
            Value::Array(items) => conversation.extend(items),
            one => conversation.push(one),
        }
        let results = kit.call_batch(&mut session, &turn.calls).await;
        let messages = deferred
            .result_messages(&mut state, &session, &turn, turn.calls.iter().zip(&results))
            .expect("ids");
        conversation.extend(messages);
    }
    requests.push(request_now(&state, &conversation));
    (requests, conversation, session)
}

#[tokio::test]
async fn the_requests_of_each_strategy_are_goldens() {
    for (name, provider, options) in [
        ("anthropic", Provider::Anthropic, DeferredOptions::default()),
        (
            "anthropic-references",
            Provider::Anthropic,
            DeferredOptions::default().without_beta(),
        ),
        (
            "openai-responses",
            Provider::OpenAiResponses,
            DeferredOptions::default(),
        ),
        (
            "openai-responses-namespaces",
            Provider::OpenAiResponses,
            DeferredOptions::default().namespaces(),
        ),
        (
            "openai-chat",
            Provider::OpenAiChat,
            DeferredOptions::default(),
        ),
        ("gemini", Provider::Gemini, DeferredOptions::default()),
    ] {
        let (requests, _, _) = play(provider, options).await;
        let tools: Vec<&Value> = requests.iter().map(|r| &r["tools"]).collect();
        assert!(
            tools.windows(2).all(|w| w[0] == w[1]),
            "{name}: the tool array changed"
        );
        assert_golden(
            &format!("deferred/{name}"),
            &Value::Array(requests).to_string(),
        );
    }
}

#[tokio::test]
async fn anthropic_defers_every_switchable_tool_and_announces_each_change() {
    let (requests, conversation, _) = play(Provider::Anthropic, DeferredOptions::default()).await;
    let deferred: Vec<(&str, bool)> = requests[0]["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .map(|t| {
            (
                t["name"].as_str().expect("a name"),
                t["defer_loading"] == true,
            )
        })
        .collect();
    assert_eq!(
        deferred,
        [
            ("reset_tools", false),
            ("ping", false),
            ("search", true),
            ("tag", true),
            ("tree", true),
            ("numbers", true)
        ]
    );
    assert_eq!(
        requests[0]["_headers"]["anthropic-beta"],
        ANTHROPIC_TOOL_CHANGES_BETA
    );
    let systems: Vec<Vec<String>> = conversation
        .iter()
        .filter(|m| m["role"] == "system")
        .map(|m| {
            m["content"]
                .as_array()
                .expect("blocks")
                .iter()
                .map(|b| match b["type"].as_str() {
                    Some("text") => "text".to_owned(),
                    Some(kind) => format!("{kind} {}", b["tool"]["name"].as_str().expect("a name")),
                    None => panic!("a block without type"),
                })
                .collect()
        })
        .collect();
    // Three accepted switches (the misspelled one changes nothing): removals first.
    assert_eq!(
        systems,
        [
            vec!["tool_addition search", "text"],
            vec![
                "tool_removal search",
                "tool_addition tag",
                "tool_addition tree",
                "tool_addition numbers",
                "text"
            ],
            vec!["tool_addition search", "text"],
        ]
    );
    // Each system message follows the user message carrying the turn's tool results.
    for (i, _) in conversation
        .iter()
        .enumerate()
        .filter(|(_, m)| m["role"] == "system")
    {
        assert_eq!(conversation[i - 1]["content"][0]["type"], "tool_result");
    }
}

#[tokio::test]
async fn without_the_beta_tool_references_load_each_group_once() {
    let (_, conversation, _) = play(
        Provider::Anthropic,
        DeferredOptions::default().without_beta(),
    )
    .await;
    assert!(conversation.iter().all(|m| m["role"] != "system"));
    let references: Vec<Vec<&str>> = conversation
        .iter()
        .filter_map(|m| m["content"].as_array())
        .flatten()
        .filter(|b| b["type"] == "tool_result")
        .map(|b| {
            b["content"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|c| c["type"] == "tool_reference")
                .map(|c| c["tool_name"].as_str().expect("a name"))
                .collect()
        })
        .collect();
    assert_eq!(
        references,
        [
            vec!["search"],
            vec![],
            vec!["tag", "tree", "numbers"],
            vec![],
            vec![]
        ]
    );
}

#[tokio::test]
async fn responses_appends_each_group_once_and_allows_the_active_tools() {
    let (requests, conversation, _) =
        play(Provider::OpenAiResponses, DeferredOptions::default()).await;
    assert_eq!(
        names_in(Provider::OpenAiResponses, &requests[0]["tools"]),
        ["reset_tools", "ping"]
    );
    let appended: Vec<Vec<String>> = conversation
        .iter()
        .filter(|i| i["type"] == "additional_tools")
        .map(|i| names_in(Provider::OpenAiResponses, &i["tools"]))
        .collect();
    assert_eq!(appended, [vec!["search"], vec!["tag", "tree", "numbers"]]);
    let allowed = |r: &Value| -> Vec<String> {
        r["tool_choice"]["tools"]
            .as_array()
            .expect("an allow-list")
            .iter()
            .map(|t| t["name"].as_str().expect("a name").to_owned())
            .collect()
    };
    assert_eq!(allowed(&requests[0]), ["reset_tools", "ping"]);
    assert_eq!(
        allowed(&requests[3]),
        ["reset_tools", "ping", "tag", "tree", "numbers"]
    );
    assert_eq!(
        allowed(&requests[5]),
        ["reset_tools", "ping", "search", "tag", "tree", "numbers"]
    );
}

/// Each Responses call as replayed: (name, namespace of the `function_call`, namespace of its
/// `function_call_output`).
fn replayed_namespaces(conversation: &[Value]) -> Vec<(String, Option<&str>, Option<&str>)> {
    conversation
        .iter()
        .filter(|i| i["type"] == "function_call")
        .map(|call| {
            let output = conversation
                .iter()
                .find(|i| i["type"] == "function_call_output" && i["call_id"] == call["call_id"])
                .expect("every call has its output");
            (
                call["name"].as_str().expect("a name").to_owned(),
                call["namespace"].as_str(),
                output["namespace"].as_str(),
            )
        })
        .collect()
}

#[tokio::test]
async fn responses_calls_of_appended_or_namespaced_tools_replay_their_namespace() {
    let (_, conversation, _) = play(Provider::OpenAiResponses, DeferredOptions::default()).await;
    let search = Some("search");
    assert_eq!(
        replayed_namespaces(&conversation),
        [
            ("reset_tools".to_owned(), None, None),
            ("search".to_owned(), search, search),
            ("reset_tools".to_owned(), None, None),
            ("reset_tools".to_owned(), None, None),
            ("reset_tools".to_owned(), None, None),
        ]
    );
    let (_, conversation, _) = play(
        Provider::OpenAiResponses,
        DeferredOptions::default().namespaces(),
    )
    .await;
    assert_eq!(
        replayed_namespaces(&conversation)[1],
        ("search".to_owned(), Some("web"), Some("web"))
    );
}

#[test]
fn the_fallbacks_are_the_mask_and_the_list_modes() {
    let kit = kit();
    let mut session = kit.session();
    session.activate(KitGroup::Web);
    for provider in [
        Provider::OpenAiChat,
        Provider::Gemini,
        Provider::GeminiLegacy,
        Provider::Mcp,
    ] {
        let deferred = Deferred::new(&kit, provider, DeferredOptions::default()).expect("deferred");
        let rendered = Rendered::new(&kit, provider);
        let mut state = deferred.state();
        let change = deferred.sync(&mut state, &session).expect("a change");
        assert!(
            change.messages.is_empty() && change.references.is_empty(),
            "{provider}"
        );
        assert_eq!(change.activated, ["web"]);
        assert_eq!(deferred.beta_headers(), &[] as &[&str]);
        if provider == Provider::Mcp {
            assert_eq!(deferred.strategy(), Strategy::List);
            assert_eq!(deferred.tools_json(&state), rendered.tools_json(&session));
            assert_eq!(deferred.tool_choice_json(&state), None);
        } else {
            assert_eq!(deferred.strategy(), Strategy::Mask);
            assert_eq!(deferred.tools_json(&state), rendered.all_tools_json());
            assert_eq!(
                deferred.tool_choice_json(&state).map(str::to_owned),
                rendered.allowed_tools_json(&session, AllowMode::Auto)
            );
        }
        assert!(
            deferred.sync(&mut state, &session).is_none(),
            "{provider}: no change twice"
        );
    }
}

#[tokio::test]
async fn a_deferred_tool_of_an_inactive_group_is_refused() {
    let kit = kit();
    let deferred =
        Deferred::new(&kit, Provider::Anthropic, DeferredOptions::default()).expect("deferred");
    let mut session = kit.session();
    let turn = deferred
        .decode(&reply(
            Provider::Anthropic,
            1,
            &Value::Null,
            "search",
            r#"{"query":"x"}"#,
        ))
        .expect("a reply");
    let results = kit.call_batch(&mut session, &turn.calls).await;
    assert!(results[0].is_error);
    assert!(
        results[0].text_joined().contains("reset_tools"),
        "{}",
        results[0].text_joined()
    );
    assert_eq!(session.active_names().count(), 0);
}

#[test]
fn unknown_items_are_errors_naming_them() {
    let kit = kit();
    for (provider, payload, path) in [
        (
            Provider::Anthropic,
            json!({"content": [{"type": "text", "text": "hi"}, {"type": "tool_\u{1b}[31mbogus"}]}),
            "content[1].type",
        ),
        (
            Provider::OpenAiResponses,
            json!({"output": [{"type": "telepathy_call"}]}),
            "output[0].type",
        ),
    ] {
        let deferred = Deferred::new(&kit, provider, DeferredOptions::default()).expect("deferred");
        let error = deferred.decode(&payload).expect_err("an unknown type");
        let DeferredDecodeError::UnknownItem { path: at, .. } = &error else {
            panic!("{provider}: {error:?}");
        };
        assert_eq!(at, path);
        let text = error.to_string();
        assert!(!text.contains('\u{1b}'), "{text}");
        assert!(
            text.contains("bogus") || text.contains("telepathy_call"),
            "{text}"
        );
    }
    let deferred = Deferred::new(&kit, Provider::OpenAiResponses, DeferredOptions::default())
        .expect("deferred");
    let error = deferred
        .decode(&json!({"output": [{"type": "function_call", "name": 3}]}))
        .expect_err("a bad call");
    assert!(matches!(error, DeferredDecodeError::Shape(_)), "{error:?}");
}

#[tokio::test]
async fn namespaces_are_kept_and_replayed() {
    let kit = kit();
    let deferred = Deferred::new(
        &kit,
        Provider::OpenAiResponses,
        DeferredOptions::default().namespaces(),
    )
    .expect("deferred");
    let mut state = deferred.state();
    let mut session = kit.session();
    session.activate(KitGroup::Web);
    let output = json!({"output": [
        {"type": "tool_search_call", "id": "ts_1", "execution": "server", "arguments": {}, "status": "completed"},
        {"type": "tool_search_output", "tools": []},
        {"type": "function_call", "call_id": "call_1", "name": "search", "namespace": "web", "arguments": "{\"query\":\"x\"}"},
    ]});
    let turn = deferred.decode(&output).expect("a reply");
    assert_eq!(turn.namespaces, [Some("web".to_owned())]);
    assert_eq!(turn.searches.len(), 1);
    assert_eq!(turn.searches[0].execution, "server");
    let results = kit.call_batch(&mut session, &turn.calls).await;
    let messages = deferred
        .result_messages(&mut state, &session, &turn, turn.calls.iter().zip(&results))
        .expect("ids");
    assert_eq!(messages[0]["namespace"], "web");
    assert_golden(
        "deferred/openai-responses-namespace-output",
        &Value::Array(messages).to_string(),
    );
}

/// A toolkit with no basic tool, used without `reset_tools`: no tool can stay eager.
#[toolkit]
struct NoEager {
    web: Web,
}

#[test]
fn a_toolkit_without_an_eager_tool_is_refused_for_anthropic() {
    let bare = Toolkit::new(NoEager { web: Web }).with_reset_tools(false);
    let error = Deferred::new(&bare, Provider::Anthropic, DeferredOptions::default())
        .expect_err("no eager tool");
    assert_eq!(error, DeferredError::NoEagerTool);
    assert!(
        error
            .to_string()
            .contains("at least one tool that is not deferred")
    );
    assert!(Deferred::new(&bare, Provider::OpenAiResponses, DeferredOptions::default()).is_ok());
}

#[tokio::test]
async fn the_transcript_rebuilds_the_state() {
    for provider in [
        Provider::Anthropic,
        Provider::OpenAiResponses,
        Provider::OpenAiChat,
        Provider::Gemini,
    ] {
        let (_, conversation, session) = play(provider, DeferredOptions::default()).await;
        let kit = kit();
        let replayed = transcript::replay(&kit, provider, &conversation).expect("a transcript");
        assert_eq!(replayed.session(), session, "{provider}");
        assert_eq!(
            replayed.resets(),
            3,
            "{provider}: the refused call does not count"
        );
        assert_eq!(
            replayed.loaded().active_names().collect::<Vec<_>>(),
            ["web", "data"]
        );
        replayed.check(&session).expect("the same state");
        let mismatch = replayed.check(&kit.session()).expect_err("a stale store");
        assert_eq!(mismatch.only_in_transcript, ["web", "data"]);
        assert!(
            mismatch
                .to_string()
                .contains("active only in the transcript: web, data")
        );
        // A resumed conversation renders what the live one would.
        let deferred = Deferred::new(&kit, provider, DeferredOptions::default()).expect("deferred");
        let resumed = deferred.resume(&replayed);
        assert_eq!(resumed.active(), &session);
        let mut live = deferred.state();
        deferred.sync(&mut live, &session);
        assert_eq!(
            deferred.tool_choice_json(&resumed),
            deferred.tool_choice_json(&live),
            "{provider}"
        );
    }
    let kit = kit();
    assert_eq!(
        transcript::replay(&kit, Provider::Mcp, &[]).expect_err("no conversation"),
        TranscriptError::NotAConversation(Provider::Mcp)
    );
    let renamed = [
        json!({"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "reset_tools", "input": {"webb": true}}]}),
        json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "is_error": false}]}),
    ];
    let error =
        transcript::replay(&kit, Provider::Anthropic, &renamed).expect_err("a renamed group");
    assert!(
        matches!(error, TranscriptError::Refused { call: 0, .. }),
        "{error:?}"
    );
    assert!(
        error.to_string().contains("unknown group `webb`"),
        "{error}"
    );
}
