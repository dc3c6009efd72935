//! A toolkit inside rig's agent loop, driven by rig's scripted completion model: what each
//! model call is offered follows the session, model mistakes come back as toolgroup's texts
//! and never end the run, and conversations sharing one agent stay apart.

#[path = "../../examples/support/agent.rs"]
#[allow(dead_code)]
mod quickstart;
mod support;

use rig_agent::AgentBuilder;
use rig_agent::core::test_utils::{MockCompletionModel, MockTurn};
use serde_json::json;
use support::{answers, call, offered};
use toolgroup::prelude::*;
use toolgroup_rig::{RigContext, RigToolkit};

use quickstart::{Agent, toolkit};

/// rig's scripted model playing `turns` then answering "done", and an agent holding the
/// toolkit's tools with room for every turn.
fn scripted<R: toolgroup::Registry + 'static>(
    rig: &RigToolkit<R>,
    turns: impl IntoIterator<Item = MockTurn>,
) -> (MockCompletionModel, rig_agent::Agent) {
    let model = MockCompletionModel::from_turns(turns.into_iter().chain([MockTurn::text("done")]));
    let agent = AgentBuilder::new(model.clone())
        .tool_server_handle(rig.tool_server().run())
        .default_max_turns(10)
        .build();
    (model, agent)
}

/// The model's call that switches both groups on.
fn activate_both(id: &str) -> MockTurn {
    call(
        id,
        "reset_tools",
        json!({"web_search": true, "scraping": true}),
    )
}

/// A run of `agent` in a new conversation of `rig`: the conversation and the tool results.
async fn run<R: toolgroup::Registry + 'static>(
    rig: &RigToolkit<R>,
    agent: &rig_agent::Agent,
) -> (toolgroup_rig::Conversation<R>, Vec<support::Answer>) {
    let conversation = rig.conversation();
    let response = conversation.prompt(agent, "go").await.unwrap();
    (conversation, answers(&response.messages))
}

fn rig_toolkit() -> RigToolkit<Agent> {
    RigToolkit::new(toolkit())
}

const BASIC: [&str; 2] = ["reset_tools", "note_write"];
const ALL: [&str; 4] = ["reset_tools", "note_write", "web_search", "page_fetch"];

#[tokio::test]
async fn the_tools_of_each_model_call_follow_the_session() {
    let rig = rig_toolkit();
    let (model, agent) = scripted(
        &rig,
        [
            activate_both("c1"),
            call(
                "c2",
                "reset_tools",
                json!({"web_search": false, "scraping": true}),
            ),
        ],
    );
    let (conversation, got) = run(&rig, &agent).await;
    assert_eq!(
        offered(&model),
        [
            BASIC.to_vec(),
            ALL.to_vec(),
            vec!["reset_tools", "note_write", "page_fetch"]
        ]
    );
    assert_eq!(got.len(), 2);
    assert!(got.iter().all(|a| !a.is_error), "{got:?}");
    assert_eq!(
        conversation.session().active_names().collect::<Vec<_>>(),
        ["scraping"]
    );
}

#[tokio::test]
async fn a_misspelled_group_is_refused_and_changes_nothing() {
    let rig = rig_toolkit();
    let (model, agent) = scripted(
        &rig,
        [
            activate_both("c1"),
            call("c2", "reset_tools", json!({"web_serch": true})),
            call("c3", "web_search", json!({"query": "rust"})),
        ],
    );
    let (conversation, got) = run(&rig, &agent).await;
    assert_eq!(
        offered(&model),
        [BASIC.to_vec(), ALL.to_vec(), ALL.to_vec(), ALL.to_vec()]
    );
    assert_eq!(got[1].name, "reset_tools");
    assert!(got[1].is_error);
    // The same text as toolgroup's own loop gives.
    let kit = toolkit();
    let mut session = kit.session();
    session.reset(quickstart::AgentReset {
        web_search: true,
        scraping: true,
    });
    let expected = kit
        .call(&mut session, "reset_tools", r#"{"web_serch": true}"#)
        .await;
    assert_eq!(got[1].text, expected.text_joined());
    assert!(
        got[1].text.contains("did you mean `web_search`"),
        "{}",
        got[1].text
    );
    assert!(!got[2].is_error);
    assert_eq!(
        conversation.session().active_names().collect::<Vec<_>>(),
        ["web_search", "scraping"]
    );
}

#[tokio::test]
async fn a_call_of_an_inactive_tool_gets_the_hint_and_the_run_goes_on() {
    let rig = rig_toolkit();
    let (model, agent) = scripted(
        &rig,
        [
            call("c1", "page_fetch", json!({"url": "https://example.org/"})),
            call("c2", "web_serch", json!({"query": "rust"})),
        ],
    );
    let (conversation, got) = run(&rig, &agent).await;
    let kit = toolkit();
    let mut session = kit.session();
    let inactive = kit
        .call(
            &mut session,
            "page_fetch",
            r#"{"url": "https://example.org/"}"#,
        )
        .await;
    assert!(inactive.is_error);
    assert_eq!(got[0].name, "page_fetch");
    assert_eq!(got[0].text, inactive.text_joined());
    assert!(got[0].text.contains("reset_tools"), "{}", got[0].text);
    let unknown = kit
        .call(&mut session, "web_serch", r#"{"query": "rust"}"#)
        .await;
    assert_eq!(got[1].text, unknown.text_joined());
    assert_eq!(
        offered(&model),
        [BASIC.to_vec(), BASIC.to_vec(), BASIC.to_vec()]
    );
    assert_eq!(conversation.session().active_names().count(), 0);
}

#[tokio::test]
async fn arguments_that_are_not_json_get_toolgroups_text_for_an_inactive_tool() {
    let rig = rig_toolkit();
    let (_, agent) = scripted(
        &rig,
        [MockTurn::tool_call("c1", "page_fetch", json!("{\"url\": "))],
    );
    let (_, got) = run(&rig, &agent).await;
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(got[0].text.contains("reset_tools"), "{}", got[0].text);
}

#[tokio::test]
async fn two_conversations_sharing_one_agent_stay_apart() {
    let rig = rig_toolkit();
    let (model, agent) = scripted(
        &rig,
        [
            call(
                "a1",
                "reset_tools",
                json!({"web_search": true, "scraping": false}),
            ),
            MockTurn::text("a done"),
            call("b1", "web_search", json!({"query": "rust"})),
            MockTurn::text("b done"),
        ],
    );
    let a = rig.conversation();
    let b = rig.conversation();
    a.prompt(&agent, "a").await.unwrap();
    let response = b.prompt(&agent, "b").await.unwrap();
    let got = answers(&response.messages);
    assert!(got[0].is_error, "{got:?}");
    assert!(got[0].text.contains("web_search"), "{}", got[0].text);
    assert_eq!(
        offered(&model),
        [
            BASIC.to_vec(),
            vec!["reset_tools", "note_write", "web_search"],
            BASIC.to_vec(),
            BASIC.to_vec()
        ]
    );
    assert_eq!(
        a.session().active_names().collect::<Vec<_>>(),
        ["web_search"]
    );
    assert_eq!(b.session().active_names().count(), 0);
    // The next run of `a` starts from its own state.
    assert_eq!(
        a.advertised_tools(),
        ["reset_tools", "note_write", "web_search"]
    );
}

// A second toolkit: a tool that panics, tools reading per-call data.

#[derive(Clone)]
struct User(String);

#[derive(Clone, serde::Serialize, serde::Deserialize)]
struct Tenant(String);

impl rig_agent::core::tool::ContextValue for Tenant {
    const KEY: &'static str = "tenant";
}

/// Always panics.
#[tool]
fn explode() -> String {
    panic!("the tool's own bug")
}

/// Says who asks.
#[tool]
fn whoami(Extension(user): Extension<User>) -> String {
    format!("you are {}", user.0)
}

/// Says which tenant rig's tool context names.
#[tool]
fn tenant(Extension(rig): Extension<RigContext>) -> Result<String, String> {
    match rig.0.get::<Tenant>() {
        Ok(Some(Tenant(name))) => Ok(format!("tenant {name}")),
        Ok(None) => Err("no tenant in rig's tool context".to_owned()),
        Err(e) => Err(e.to_string()),
    }
}

#[tool_group(name = "misc", description = "Odd tools.", tools = [explode, whoami, tenant])]
struct Misc;

#[toolkit]
struct Odd {
    #[basic]
    misc: Misc,
}

#[tokio::test]
async fn a_panicking_tool_is_an_error_result_and_the_run_goes_on() {
    let rig = RigToolkit::new(Toolkit::new(Odd { misc: Misc }));
    let (model, agent) = scripted(
        &rig,
        [
            call("c1", "explode", json!({})),
            call("c2", "explode", json!({})),
        ],
    );
    let (_, got) = run(&rig, &agent).await;
    assert_eq!(got.len(), 2);
    for answer in &got {
        assert!(answer.is_error);
        assert!(
            answer.text.contains("an internal error in the tool"),
            "{}",
            answer.text
        );
        assert!(
            !answer.text.contains("the tool's own bug"),
            "{}",
            answer.text
        );
    }
    // No switchable group: no `reset_tools`.
    assert_eq!(offered(&model)[0], ["explode", "whoami", "tenant"]);
}

#[tokio::test]
async fn per_call_data_reaches_extension_parameters() {
    let rig = RigToolkit::new(Toolkit::new(Odd { misc: Misc }));
    let (_, agent) = scripted(
        &rig,
        [
            call("c1", "whoami", json!({})),
            call("c2", "tenant", json!({})),
        ],
    );
    let conversation = rig
        .conversation()
        .with_call_context(CallContext::new().with_extension(User("ada".to_owned())));
    let mut values = rig_agent::core::tool::ToolContext::new();
    values.insert(Tenant("acme".to_owned())).unwrap();
    let response = conversation
        .attach_with(agent.prompt("go"), values)
        .await
        .unwrap();
    let got = answers(&response.messages);
    assert_eq!(got[0].text, "you are ada");
    assert_eq!(got[1].text, "tenant acme");

    // Without the conversation's data the tool says which type is missing.
    let (_, agent) = scripted(&rig, [call("c1", "whoami", json!({}))]);
    let (_, got) = run(&rig, &agent).await;
    assert!(got[0].is_error);
    assert!(got[0].text.contains("User"), "{}", got[0].text);
}

#[tokio::test]
async fn a_run_without_a_conversation_gets_an_error_result() {
    let rig = RigToolkit::new(Toolkit::new(Odd { misc: Misc }));
    let (_, agent) = scripted(&rig, [call("c1", "whoami", json!({}))]);
    let response = agent.prompt("go").await.unwrap();
    let got = answers(&response.messages);
    assert!(got[0].is_error);
    assert!(
        got[0].text.contains("Conversation::prompt"),
        "{}",
        got[0].text
    );
}

/// One model turn calling each of `calls`.
fn batch(calls: &[(&str, &str, serde_json::Value)]) -> MockTurn {
    use rig_agent::core::message::{AssistantContent, ToolCall, ToolFunction, ToolName};
    MockTurn::from_contents(calls.iter().map(|(id, name, arguments)| {
        AssistantContent::ToolCall(ToolCall::from_wire(
            *id,
            ToolFunction::new(ToolName::new(*name).unwrap(), arguments.clone()),
        ))
    }))
}

#[tokio::test]
async fn a_turn_calling_a_tool_it_was_not_offered_runs_none_of_its_calls() {
    // The documented difference from toolgroup's own batches: rig resolves the turn as a
    // whole, so `reset_tools` does not run either, and the model calls again.
    let rig = rig_toolkit();
    let (model, agent) = scripted(
        &rig,
        [
            batch(&[
                (
                    "c1",
                    "reset_tools",
                    json!({"web_search": true, "scraping": false}),
                ),
                ("c2", "web_search", json!({"query": "rust"})),
            ]),
            batch(&[(
                "c3",
                "reset_tools",
                json!({"web_search": true, "scraping": false}),
            )]),
            call("c4", "web_search", json!({"query": "rust"})),
        ],
    );
    let (conversation, got) = run(&rig, &agent).await;
    assert_eq!(got[0].name, "reset_tools");
    assert_eq!(
        got[0].text,
        rig_agent::core::transcript::TOOL_NOT_EXECUTED_DUE_TO_INVALID_PEER
    );
    assert_eq!(got[1].name, "web_search");
    assert!(got[1].is_error);
    assert!(got[1].text.contains("reset_tools"), "{}", got[1].text);
    assert!(!got[2].is_error && !got[3].is_error, "{got:?}");
    assert_eq!(
        offered(&model),
        [
            BASIC.to_vec(),
            BASIC.to_vec(),
            vec!["reset_tools", "note_write", "web_search"],
            vec!["reset_tools", "note_write", "web_search"],
        ]
    );
    assert_eq!(
        conversation.session().active_names().collect::<Vec<_>>(),
        ["web_search"]
    );
}

#[tokio::test]
async fn the_agents_own_rig_tools_stay_offered() {
    let rig = rig_toolkit().with_rig_tools(["think"]);
    let model = MockCompletionModel::from_turns([
        activate_both("c1"),
        call("c2", "think", json!({"thought": "hm"})),
        MockTurn::text("done"),
    ]);
    let agent = AgentBuilder::new(model.clone())
        .tool_server_handle(
            rig.tool_server()
                .tool(rig_agent::tool::builtin::ThinkTool)
                .run(),
        )
        .default_max_turns(10)
        .build();
    let (_, got) = run(&rig, &agent).await;
    assert!(!got[1].is_error, "{got:?}");
    assert_eq!(offered(&model)[0], ["reset_tools", "note_write", "think"]);
    assert_eq!(
        offered(&model)[1],
        [
            "reset_tools",
            "note_write",
            "web_search",
            "page_fetch",
            "think"
        ]
    );
}

/// A registered tool's name, description and parameters, as rig advertises it.
fn advertised(tool: &rig_agent::tool::RegisteredTool) -> (String, String, serde_json::Value) {
    match tool.descriptor() {
        rig_agent::core::effect::FamilyDescriptor::Tool {
            name,
            description,
            parameters,
            ..
        } => (name, description, parameters),
        other => panic!("not a tool: {other:?}"),
    }
}

#[test]
fn schemas_are_rendered_for_the_chosen_provider() {
    use toolgroup::provider::Provider;
    let kit = toolkit();
    let rig = RigToolkit::for_provider(toolkit(), Provider::OpenAiChat);
    for tool in rig.tools() {
        let (name, description, parameters) = advertised(&tool);
        let definition = kit.definition(&name).unwrap();
        let rendered = Provider::OpenAiChat.render_definition(definition);
        assert_eq!(parameters, rendered["function"]["parameters"]);
        assert_eq!(description, definition.description);
    }
    let canonical = RigToolkit::new(toolkit());
    let tools = canonical.tools();
    let names: Vec<String> = tools.iter().map(|t| advertised(t).0).collect();
    assert_eq!(names, ALL);
    for tool in &tools {
        let (name, _, parameters) = advertised(tool);
        assert_eq!(parameters, kit.definition(&name).unwrap().input_schema);
    }
}

#[tokio::test]
async fn each_model_call_after_tool_calls_ends_a_turn_for_the_lifecycle_rules() {
    use toolgroup::lifecycle::Lifecycle;
    let kit = toolkit()
        .with_lifecycle(Lifecycle::new().idle_turns(1))
        .unwrap();
    let rig = RigToolkit::new(kit);
    let fetch = |id: &str| call(id, "page_fetch", json!({"url": "https://example.com"}));
    let (model, agent) = scripted(&rig, [activate_both("c1"), fetch("c2"), fetch("c3")]);
    let (conversation, got) = run(&rig, &agent).await;
    // web_search, used by no call of the second turn, is gone from the third model call on.
    let scraping = vec!["reset_tools", "note_write", "page_fetch"];
    assert_eq!(
        offered(&model),
        [BASIC.to_vec(), ALL.to_vec(), scraping.clone(), scraping]
    );
    assert_eq!(got.len(), 3);
    assert!(!got[1].text.contains("switched off"), "{}", got[1].text);
    assert!(
        got[2].text.contains("`web_search` (unused for 1 turn(s))"),
        "the next result tells the model: {}",
        got[2].text
    );
    let state = conversation.managed_session();
    assert_eq!(state.turns(), 3);
    assert_eq!(
        state.session().active_names().collect::<Vec<_>>(),
        ["scraping"]
    );
}

/// Look something up, after a pause (a network call's await).
#[tool]
async fn look_up(
    /// What.
    what: String,
) -> String {
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    format!("found {what}")
}

/// Measure something, after a pause.
#[tool]
async fn measure(
    /// What.
    what: String,
) -> String {
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    format!("measured {what}")
}

#[tool_group(name = "lookup", description = "Looking up.", tools = [look_up])]
struct Lookup;

#[tool_group(name = "metrics", description = "Measuring.", tools = [measure])]
struct Metrics;

#[toolkit]
struct Slow {
    lookup: Lookup,
    metrics: Metrics,
}

/// With `tool_concurrency`, rig runs a turn's calls concurrently: each call's use is kept,
/// none overwrites another's (the state counts every call).
#[tokio::test]
async fn concurrent_calls_in_one_turn_each_keep_their_use() {
    use toolgroup::lifecycle::Lifecycle;
    let kit = Toolkit::new(Slow {
        lookup: Lookup,
        metrics: Metrics,
    })
    .with_lifecycle(Lifecycle::new().max_active(2))
    .unwrap();
    let rig = RigToolkit::new(kit);
    let (_, agent) = scripted(
        &rig,
        [
            call(
                "c1",
                "reset_tools",
                json!({"lookup": true, "metrics": true}),
            ),
            batch(&[
                ("c2", "look_up", json!({"what": "a"})),
                ("c3", "measure", json!({"what": "b"})),
            ]),
        ],
    );
    let conversation = rig.conversation();
    let response = conversation
        .prompt(&agent, "go")
        .tool_concurrency(2)
        .await
        .unwrap();
    let got = answers(&response.messages);
    assert_eq!(got.len(), 3, "{got:?}");
    assert!(got.iter().all(|a| !a.is_error), "{got:?}");
    let state = serde_json::to_value(conversation.managed_session()).unwrap();
    assert_eq!(state["requests"], 3, "{state}");
    assert_eq!(state["active"], json!(["lookup", "metrics"]), "{state}");
}
