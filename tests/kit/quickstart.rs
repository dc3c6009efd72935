//! The main job: the quickstart's transcript and its `--script` mode, line by line, each
//! played again through the test kit's scripted model in the providers' shapes.

#[allow(dead_code)]
#[path = "../../examples/support/agent.rs"]
mod agent;
#[allow(dead_code)]
#[path = "../../examples/quickstart.rs"]
mod example;

use serde_json::{Value, json};
use toolgroup::CallOutcome;
use toolgroup::provider::Provider;
use toolgroup::provider::deferred::DeferredOptions;
use toolgroup::testing::{Delivery, Script, ScriptedModel, Transcript};

/// The quickstart's three turns, as a script.
fn scenario() -> Script {
    Script::from_jsonl(
        r#"
{"name": "reset_tools", "arguments": {"web_search": true, "scraping": true}}
{"name": "reset_tools", "arguments": {"web_serch": true}}
{"name": "web_search", "arguments": {"query": "rust tool groups"}}
"#,
    )
    .unwrap()
}

async fn play(script: Script, provider: Provider, delivery: Delivery) -> Transcript {
    let kit = agent::toolkit();
    let mut session = kit.session();
    ScriptedModel::new(script, provider)
        .delivery(delivery)
        .play(&kit, &mut session)
        .await
        .unwrap_or_else(|e| panic!("{provider}, {delivery:?}: {e}"))
}

/// The transcript's reference lines, through OpenAI Chat, Anthropic and Gemini, in each
/// delivery mode they take: the same tools offered, the same results, the same end state.
#[tokio::test]
async fn the_scenario_plays_through_each_provider() {
    let mut out = Vec::new();
    example::scenario(&mut out).await.unwrap();
    let reference = String::from_utf8(out).unwrap();
    let all = ["reset_tools", "note_write", "web_search", "page_fetch"];
    let cases = [
        (Provider::OpenAiChat, Delivery::List),
        (Provider::OpenAiChat, Delivery::Mask),
        (
            Provider::OpenAiChat,
            Delivery::Deferred(DeferredOptions::default()),
        ),
        (Provider::Anthropic, Delivery::List),
        (
            Provider::Anthropic,
            Delivery::Deferred(DeferredOptions::default()),
        ),
        (Provider::Gemini, Delivery::List),
        (Provider::Gemini, Delivery::Mask),
    ];
    for (provider, delivery) in cases {
        let run = play(scenario(), provider, delivery).await;
        let case = format!("{provider}, {delivery:?}");
        let offered: Vec<String> = run.turns.iter().map(|t| t.offered.join(", ")).collect();
        assert_eq!(
            offered,
            [
                "reset_tools, note_write",
                "reset_tools, note_write, web_search, page_fetch",
                "reset_tools, note_write, web_search, page_fetch",
            ],
            "{case}"
        );
        for (n, turn) in run.turns.iter().enumerate() {
            assert!(
                reference.contains(&format!("turn {}: {}", n + 1, turn.offered.join(", "))),
                "{case}"
            );
            let text = turn.results[0].text_joined();
            for line in text.lines() {
                assert!(
                    reference.contains(&format!("    {line}\n")),
                    "{case}: {line}"
                );
            }
            if delivery != Delivery::List {
                assert_eq!(turn.tools, all, "{case}: the tool array never changes");
            } else {
                assert_eq!(turn.tools, turn.offered, "{case}");
            }
        }
        let outcomes: Vec<CallOutcome> = run.turns.iter().flat_map(|t| t.outcomes()).collect();
        assert_eq!(
            outcomes,
            [CallOutcome::Ok, CallOutcome::Refused, CallOutcome::Ok],
            "{case}"
        );
        assert_eq!(run.turns[2].active, ["web_search", "scraping"], "{case}");
        assert!(reference.contains("activated_groups at the end: ['web_search', 'scraping']"));
    }
}

/// What goes back to each model is in its own shape: the refusal of turn 2 is an error the
/// model can read.
#[tokio::test]
async fn the_refusal_reaches_each_model_in_its_shape() {
    let refusal = "unknown group `web_serch`: did you mean `web_search`?";

    let chat = play(scenario(), Provider::OpenAiChat, Delivery::List).await;
    assert_eq!(chat.turns[1].calls[0].call_id.as_deref(), Some("call_2"));
    let message = &chat.messages[3];
    assert_eq!(
        (&message["role"], &message["tool_call_id"]),
        (&json!("tool"), &json!("call_2"))
    );
    let content = message["content"].as_str().unwrap();
    assert!(
        content.starts_with("Error: ") && content.contains(refusal),
        "{content}"
    );

    let anthropic = play(scenario(), Provider::Anthropic, Delivery::List).await;
    let block = &anthropic.messages[3]["content"][0];
    assert_eq!(anthropic.messages[3]["role"], "user");
    assert_eq!(
        (&block["type"], &block["tool_use_id"], &block["is_error"]),
        (&json!("tool_result"), &json!("toolu_02"), &json!(true))
    );
    assert!(block.to_string().contains(refusal));

    let gemini = play(scenario(), Provider::Gemini, Delivery::List).await;
    let part = &gemini.messages[3]["parts"][0]["functionResponse"];
    assert_eq!(part["name"], "reset_tools");
    assert!(
        part["response"]["error"]
            .as_str()
            .unwrap()
            .contains(refusal)
    );
    assert_eq!(
        gemini.turns[1].calls[0].call_id, None,
        "the scripted Gemini sends no ids"
    );
}

#[tokio::test]
async fn transcript_contains_the_reference_lines() {
    let mut out = Vec::new();
    example::scenario(&mut out).await.unwrap();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    for expected in [
        "turn 1: reset_tools, note_write",
        "turn 2: reset_tools, note_write, web_search, page_fetch",
        "turn 3: reset_tools, note_write, web_search, page_fetch",
        "activated_groups at the end: ['web_search', 'scraping']",
        "    - unknown group `web_serch`: did you mean `web_search`?",
    ] {
        assert!(lines.contains(&expected), "missing {expected:?} in\n{text}");
    }
}

async fn run(script: &str) -> Vec<Value> {
    let mut out = Vec::new();
    example::run_script(script.as_bytes(), &mut out)
        .await
        .unwrap();
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("every output line is JSON"))
        .collect()
}

#[tokio::test]
async fn script_mode_mixes_good_and_bad_calls() {
    let script = r#"
# comments and blank lines are skipped

{"name": "reset_tools", "arguments": {"web_search": true, "scraping": true}}
{"name": "reset_tools", "arguments": {"web_serch": true}}
{"name": "web_search", "arguments": "{\"query\": \"rust\""}
{"name": "reset_tools", "arguments": {"web_search": true}}
{"name": "page_fetch", "arguments": {"url": "https://example.org/"}}
{"name": "fetch_page", "arguments": {"url": "https://example.org/"}}
{"name": "web_search", "arguments": {"query": "rust"}}
this is not JSON
{"arguments": {}}
{"name": "note_write"}
"#;
    let out = run(script).await;
    let both = json!(["web_search", "scraping"]);
    let all = json!(["reset_tools", "note_write", "web_search", "page_fetch"]);
    let search_only = json!(["reset_tools", "note_write", "web_search"]);
    assert_eq!(out.len(), 10);

    assert_eq!(out[0]["tools"], json!(["reset_tools", "note_write"]));
    assert_eq!(
        (&out[0]["name"], &out[0]["is_error"], &out[0]["active"]),
        (&json!("reset_tools"), &json!(false), &both)
    );

    assert_eq!(out[1]["tools"], all);
    assert_eq!(out[1]["is_error"], json!(true));
    assert!(
        out[1]["text"]
            .as_str()
            .unwrap()
            .contains("unknown group `web_serch`: did you mean `web_search`?")
    );
    assert_eq!(out[1]["active"], both);

    assert_eq!(out[2]["is_error"], json!(true));
    assert!(out[2]["text"].as_str().unwrap().contains(
        "the arguments are not valid JSON (EOF while parsing an object at line 1 column 16)"
    ));
    assert_eq!(out[2]["active"], both);

    assert_eq!(out[3]["active"], json!(["web_search"]));
    assert_eq!(
        out[3]["text"],
        json!(
            "Active groups: web_search\nActivated: none\nDeactivated: scraping\nKept: web_search"
        )
    );

    assert_eq!(out[4]["tools"], search_only);
    assert_eq!(out[4]["is_error"], json!(true));
    assert!(out[4]["text"].as_str().unwrap().starts_with(
        "`page_fetch` was not run: it belongs to the group `scraping`, which is not active."
    ));

    assert_eq!(out[5]["is_error"], json!(true));
    assert_eq!(
        out[5]["text"],
        json!(
            "unknown tool `fetch_page`. The available tools are `reset_tools`, `note_write`, `web_search`."
        )
    );

    assert_eq!(out[6]["is_error"], json!(false));
    assert!(
        out[6]["text"]
            .as_str()
            .unwrap()
            .contains("https://example.org/")
    );

    assert_eq!(out[7]["line"], json!(11));
    assert!(
        out[7]["error"]
            .as_str()
            .unwrap()
            .starts_with("not a JSON object")
    );
    assert_eq!(
        out[8],
        json!({"line": 12, "error": "missing \"name\" (a string)"})
    );

    // A missing `arguments` is `{}`: note_write then lacks its `text`.
    assert_eq!(out[9]["is_error"], json!(true));
    assert_eq!(
        out[9]["text"],
        json!("`note_write` was not run: invalid arguments: missing field `text`")
    );
    assert_eq!(out[9]["active"], json!(["web_search"]));
}

/// The script mode, played again through the kit (OpenAI Chat, raw argument text included):
/// for every call the example answers, the kit offered the same tools and got the same
/// result and active groups; the lines the example reports as malformed are the lines the
/// kit's reader refuses.
#[tokio::test]
async fn the_kit_plays_scripts_as_the_example_does() {
    let script = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/quickstart.jsonl"
    ))
    .unwrap();
    let example = run(&script).await;
    let (answered, malformed): (Vec<&Value>, Vec<&Value>) =
        example.iter().partition(|o| o.get("line").is_none());
    let error = toolgroup::testing::Script::from_jsonl(&script).unwrap_err();
    assert_eq!(json!(error.line), malformed[0]["line"]);
    assert!(
        error.to_string().starts_with("script line 12: not JSON ("),
        "{error}"
    );

    let good: String = script
        .lines()
        .enumerate()
        .filter(|(i, _)| !malformed.iter().any(|m| m["line"] == json!(i + 1)))
        .map(|(_, l)| format!("{l}\n"))
        .collect();
    let kit = play(
        Script::from_jsonl(&good).unwrap(),
        Provider::OpenAiChat,
        Delivery::List,
    )
    .await;
    assert_eq!(kit.turns.len(), answered.len());
    for (turn, expected) in kit.turns.iter().zip(answered) {
        let result = &turn.results[0];
        assert_eq!(json!(turn.offered), expected["tools"]);
        assert_eq!(json!(turn.calls[0].tool), expected["name"]);
        assert_eq!(json!(result.is_error), expected["is_error"]);
        assert_eq!(json!(result.text_joined()), expected["text"]);
        assert_eq!(json!(turn.active), expected["active"]);
    }
}

#[tokio::test]
async fn the_sample_script_runs() {
    let script = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/quickstart.jsonl"
    ))
    .unwrap();
    let out = run(&script).await;
    assert_eq!(out.len(), 11);
    assert_eq!(out.last().unwrap()["line"], json!(12));
}
