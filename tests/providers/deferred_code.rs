//! Code mode in the deferred delivery mode: `run_program` in every request of every strategy,
//! eager and allowed, listing every group, with the tool array unchanged across switches
//! made by the model and by its programs (goldens, which `tests/provider_sdk/check.py`
//! validates against the SDKs' request types); and the application's own tools refused when
//! their names are taken.

use toolgroup::code::{CodeMode, RUN_PROGRAM};
use toolgroup::provider::deferred::{Deferred, DeferredError, DeferredOptions, Strategy};

use super::deferred::{opening, reply, request_in};
use crate::support::*;

/// The model's moves: a program that switches to `web` and searches; a direct switch to
/// `data` (dropping `web`); a program that searches again without switching, refused with the
/// hint; a program that is not valid JavaScript. The arguments are the exact text the model
/// sends.
fn moves() -> Vec<(&'static str, &'static str)> {
    vec![
        (
            RUN_PROGRAM,
            r#"{"program":"await reset_tools({data: false, web: true});\nreturn await web.search({query: \"deferred tools\", limit: 1});"}"#,
        ),
        ("reset_tools", r#"{"data":true,"web":false}"#),
        (
            RUN_PROGRAM,
            r#"{"program":"return await web.search({query: \"again\"});"}"#,
        ),
        (RUN_PROGRAM, r#"{"program":"return ((;"}"#),
    ]
}

struct Played {
    requests: Vec<Value>,
    results: Vec<CallResult>,
    sessions: Vec<Session<Kit>>,
}

/// Every request of the conversation of [`moves`] with code mode in the deferred mode, the
/// last one after the last results; each move's result, and the session after it.
async fn play(provider: Provider, options: DeferredOptions) -> Played {
    let code = CodeMode::new(kit());
    let deferred = code.deferred(provider, options).expect("a deferred mode");
    let mut state = deferred.state();
    let mut session = code.toolkit().session();
    let mut conversation = vec![opening(provider)];
    let mut played = Played {
        requests: Vec::new(),
        results: Vec::new(),
        sessions: Vec::new(),
    };
    for (n, (name, args)) in moves().into_iter().enumerate() {
        let now = request_in(&deferred, &state, &conversation);
        let answer = reply(provider, n + 1, &now, name, args);
        played.requests.push(now);
        let turn = deferred.decode(&answer).expect("a known reply");
        match answer {
            Value::Array(items) => conversation.extend(items),
            one => conversation.push(one),
        }
        let results = code.call_batch(&mut session, &turn.calls).await;
        let messages = deferred
            .result_messages(&mut state, &session, &turn, turn.calls.iter().zip(&results))
            .expect("ids");
        conversation.extend(messages);
        played.results.extend(results);
        played.sessions.push(session);
    }
    played
        .requests
        .push(request_in(&deferred, &state, &conversation));
    played
}

/// The definitions of a request's `tools`, whatever the provider's envelope.
fn definitions(provider: Provider, tools: &Value) -> Vec<&Value> {
    let list = match provider {
        Provider::Gemini => &tools[0]["functionDeclarations"],
        _ => tools,
    };
    list.as_array().expect("a list").iter().collect()
}

/// `run_program`'s definition in a request's `tools` (OpenAI Chat nests it in `function`).
fn run_program(provider: Provider, tools: &Value) -> &Value {
    let found: Vec<&Value> = definitions(provider, tools)
        .into_iter()
        .filter(|t| t["name"] == RUN_PROGRAM || t["function"]["name"] == RUN_PROGRAM)
        .collect();
    assert_eq!(found.len(), 1, "run_program once in {tools}");
    match found[0].get("function") {
        Some(function) => function,
        None => found[0],
    }
}

#[tokio::test]
async fn run_program_is_in_every_request_of_every_strategy_and_the_array_never_changes() {
    for (name, provider, options) in [
        (
            "anthropic-code",
            Provider::Anthropic,
            DeferredOptions::default(),
        ),
        (
            "anthropic-references-code",
            Provider::Anthropic,
            DeferredOptions::default().without_beta(),
        ),
        (
            "openai-responses-code",
            Provider::OpenAiResponses,
            DeferredOptions::default(),
        ),
        (
            "openai-responses-namespaces-code",
            Provider::OpenAiResponses,
            DeferredOptions::default().namespaces(),
        ),
        (
            "openai-chat-code",
            Provider::OpenAiChat,
            DeferredOptions::default(),
        ),
        ("gemini-code", Provider::Gemini, DeferredOptions::default()),
    ] {
        let played = play(provider, options).await;
        let tools: Vec<&Value> = played.requests.iter().map(|r| &r["tools"]).collect();
        assert!(
            tools.windows(2).all(|w| w[0] == w[1]),
            "{name}: the tool array changed"
        );
        let program = run_program(provider, tools[0]);
        assert!(program.get("defer_loading").is_none(), "{name}: {program}");
        let description = program["description"].as_str().expect("a description");
        for group in [
            "namespace web",
            "search(args)",
            "namespace data",
            "tag(args), tree(args), numbers(args)",
            "function reset_tools",
        ] {
            assert!(description.contains(group), "{name}: {group} not declared");
        }
        // The tools' own definitions come with their group's activation, not in every
        // request.
        assert!(!description.contains("What to search for."), "{name}");
        // Where an allow-list is sent, every request's names run_program, whatever is active.
        for body in &played.requests {
            let choice = body.get("tool_choice").or_else(|| body.get("toolConfig"));
            if let Some(choice) = choice {
                assert!(
                    choice.to_string().contains(RUN_PROGRAM),
                    "{name}: {choice} does not allow run_program"
                );
            }
        }
        // The goldens hold text that follows the build's key order: a program's result as
        // JSON text, and `reset_tools`' declared properties. One set serves the default build
        // (and check.py); the other assertions here hold in both.
        if !preserve_order() {
            assert_golden(
                &format!("deferred/{name}"),
                &Value::Array(played.requests).to_string(),
            );
        }
    }
}

#[tokio::test]
async fn a_programs_switch_is_delivered_as_the_models_own_is() {
    let played = play(Provider::Anthropic, DeferredOptions::default()).await;
    let [searched, switched, refused, broken] = &played.results[..] else {
        panic!("four results: {:?}", played.results);
    };
    assert!(!searched.is_error, "{}", searched.text_joined());
    assert_eq!(
        searched.structured_content.as_ref().expect("structured")["result"],
        json!(["deferred tools #0 (0 domains)"])
    );
    let names = |s: &Session<Kit>| s.active_names().collect::<Vec<_>>();
    assert_eq!(names(&played.sessions[0]), ["web"]);
    assert!(!switched.is_error, "{}", switched.text_joined());
    assert_eq!(names(&played.sessions[1]), ["data"]);
    // The program's call of a tool of an inactive group is refused with the hint, and the
    // program's error carries it.
    assert!(refused.is_error);
    let text = refused.text_joined();
    assert!(
        text.contains("search") && text.contains("reset_tools"),
        "{text}"
    );
    assert_eq!(names(&played.sessions[2]), ["data"]);
    assert!(broken.is_error);
    assert!(
        broken.text_joined().contains("line 1"),
        "{}",
        broken.text_joined()
    );
    // The program's switch on was announced after its result, as a `reset_tools` call's is.
    let after_first = &played.requests[1]["messages"];
    let system = after_first
        .as_array()
        .expect("messages")
        .iter()
        .find(|m| m["role"] == "system")
        .expect("the change after the program");
    assert!(system.to_string().contains("tool_addition"), "{system}");
    assert!(
        system.to_string().contains("Cite your sources."),
        "{system}"
    );
}

#[tokio::test]
async fn in_the_list_strategy_run_program_follows_the_listed_tools() {
    let code = CodeMode::new(kit());
    let deferred = code
        .deferred(Provider::Mcp, DeferredOptions::default())
        .expect("the list strategy");
    assert_eq!(deferred.strategy(), Strategy::List);
    let mut state = deferred.state();
    let names = |tools: Value| -> Vec<String> {
        let listed = definitions(Provider::Mcp, &tools);
        listed.iter().map(|t| t["name"].to_string()).collect()
    };
    assert_eq!(
        names(deferred.tools_value(&state)),
        [r#""reset_tools""#, r#""ping""#, r#""run_program""#]
    );
    let mut session = code.toolkit().session();
    session.activate(KitGroup::Web);
    deferred.sync(&mut state, &session).expect("a change");
    assert_eq!(
        names(deferred.tools_value(&state)),
        [
            r#""reset_tools""#,
            r#""ping""#,
            r#""search""#,
            r#""run_program""#
        ]
    );
}

/// A toolkit with no basic tool, used without `reset_tools`.
#[toolkit]
struct Bare {
    web: Web,
}

#[test]
fn run_program_is_the_eager_tool_anthropic_needs() {
    let bare = Toolkit::new(Bare { web: Web }).with_reset_tools(false);
    assert_eq!(
        Deferred::new(&bare, Provider::Anthropic, DeferredOptions::default()).err(),
        Some(DeferredError::NoEagerTool)
    );
    let code = CodeMode::new(bare);
    let deferred = code
        .deferred(Provider::Anthropic, DeferredOptions::default())
        .expect("run_program stays eager");
    let tools = deferred.tools_value(&deferred.state());
    let eager: Vec<&str> = tools
        .as_array()
        .expect("a list")
        .iter()
        .filter(|t| t.get("defer_loading").is_none())
        .map(|t| t["name"].as_str().expect("a name"))
        .collect();
    assert_eq!(eager, [RUN_PROGRAM]);
}

#[test]
fn an_own_tool_with_a_taken_name_is_refused_and_named() {
    let toolkit = kit();
    let search = toolkit.definition("search").expect("search").clone();
    let error = Deferred::with_tools(
        &toolkit,
        Provider::OpenAiChat,
        DeferredOptions::default(),
        std::slice::from_ref(&search),
    )
    .expect_err("search is the toolkit's");
    assert_eq!(error, DeferredError::NameTaken { name: "search" });
    assert!(error.to_string().contains("`search`"), "{error}");
    let program = CodeMode::new(kit()).definition(&Session::all());
    let twice = [program.clone(), program];
    let error = Deferred::with_tools(
        &toolkit,
        Provider::Anthropic,
        DeferredOptions::default(),
        &twice,
    )
    .expect_err("two tools of one name");
    assert_eq!(error, DeferredError::NameTaken { name: RUN_PROGRAM });
}

#[tokio::test]
async fn bad_run_program_arguments_run_nothing_and_change_nothing() {
    let code = CodeMode::new(kit());
    let mut session = code.toolkit().session();
    let before = session;
    for arguments in [
        r#"{"program": 3}"#,
        r#"{"program": "await reset_tools({web: true});", "extra": 1}"#,
        r#"{"progr"#,
        "[]",
    ] {
        let calls = [ToolCall::new(RUN_PROGRAM, arguments)];
        let results = code.call_batch(&mut session, &calls).await;
        assert!(results[0].is_error, "{arguments}");
        let text = results[0].text_joined();
        assert!(text.contains("was not run"), "{text}");
        assert!(!text.contains("progr\""), "the input is not echoed: {text}");
        assert_eq!(session, before, "{arguments}");
    }
}

#[tokio::test]
async fn a_turn_of_calls_and_programs_keeps_its_order_and_sees_each_switch() {
    let code = CodeMode::new(kit());
    let mut session = code.toolkit().session();
    let calls = [
        ToolCall::new("search", r#"{"query":"before"}"#),
        ToolCall::new(
            RUN_PROGRAM,
            r#"{"program":"return reset_tools({web: true});"}"#,
        ),
        ToolCall::new("search", r#"{"query":"after","limit":1}"#),
        ToolCall::new("ping", "{}"),
    ];
    let results = code.call_batch(&mut session, &calls).await;
    assert_eq!(results.len(), 4);
    assert!(
        results[0].is_error,
        "web was off: {}",
        results[0].text_joined()
    );
    assert!(!results[1].is_error, "{}", results[1].text_joined());
    assert!(!results[2].is_error, "{}", results[2].text_joined());
    assert!(results[2].text_joined().contains("after #0"));
    assert_eq!(results[3].text_joined(), "pong");
}

/// Tools found at run time: `count` of them, none ever called here.
struct Many(std::sync::Arc<toolgroup::dynamic::ToolSet>);

impl toolgroup::dynamic::DynamicTools for Many {
    fn tools(&self) -> std::sync::Arc<toolgroup::dynamic::ToolSet> {
        self.0.clone()
    }

    fn call<'a>(
        &'a self,
        _tool: &'static ToolDefinition,
        _ctx: ToolContext<'a>,
        _arguments: toolgroup::args::Arguments<'a>,
    ) -> toolgroup::BoxFuture<'a, CallResult> {
        Box::pin(std::future::ready(CallResult::text("ran")))
    }
}

#[tool_group(name = "many", description = "Many tools.", dynamic)]
struct ManyGroup;

#[toolkit]
struct Crowded {
    many: toolgroup::dynamic::Dynamic<ManyGroup, Many>,
}

/// An own tool counts towards the provider's limit: a toolkit at OpenAI's 128 tools
/// (`reset_tools` and 127 found at run time) is delivered, and with `run_program` refused.
#[test]
fn run_program_counts_towards_the_providers_tool_limit() {
    let tools: Vec<_> = (0..127)
        .map(|n| {
            toolgroup::dynamic::DynamicTool::new(
                format!("tool_{n}"),
                "A tool.",
                json!({"type": "object", "properties": {}}),
            )
        })
        .collect();
    let source = Many(std::sync::Arc::new(toolgroup::dynamic::ToolSet::new(tools)));
    let crowded = Toolkit::new(Crowded {
        many: toolgroup::dynamic::Dynamic::new(source),
    });
    assert_eq!(crowded.all_definitions().count(), 128);
    assert!(Deferred::new(&crowded, Provider::OpenAiChat, DeferredOptions::default()).is_ok());
    let error = CodeMode::new(crowded)
        .deferred(Provider::OpenAiChat, DeferredOptions::default())
        .expect_err("129 tools");
    assert_eq!(
        error,
        DeferredError::TooManyTools {
            provider: Provider::OpenAiChat,
            tools: 129,
            max: 128,
        }
    );
    assert!(error.to_string().contains("129"), "{error}");
}
