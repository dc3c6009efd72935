//! The main job: the quickstart's transcript and its `--script` mode, line by line.

#[allow(dead_code)]
#[path = "../../examples/quickstart.rs"]
mod example;

use serde_json::{Value, json};

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
