//! Record a run's calls, replay them offline (no tool runs), and stop at the first call that
//! differs from the recording.

use std::cell::Cell;
use std::error::Error as _;
use std::path::PathBuf;

use serde_json::{Value, json};
use toolgroup::CallOutcome;
use toolgroup::prelude::*;
use toolgroup::provider::Provider;
use toolgroup::testing::{DivergenceKind, Recorder, Replayer, Script, ScriptedModel, Transcript};

thread_local! {
    /// How many times `tally` ran on this thread. Per thread, not per process: tests run in
    /// parallel, each `#[tokio::test]` on a current-thread runtime of its own, and a synchronous
    /// tool runs inline on the caller's thread, so another test's calls never count here.
    static RUNS: Cell<usize> = const { Cell::new(0) };
}

/// Add to the tally.
#[tool]
fn tally(
    /// How much to add.
    step: u32,
) -> usize {
    RUNS.set(RUNS.get() + 1);
    step as usize * 10
}

/// Fail, always.
#[tool]
fn fail() -> Result<String, String> {
    Err("this tool always fails".to_owned())
}

#[tool_group(name = "counting", description = "Counting.", tools = [tally, fail])]
struct Counting;

#[toolkit]
struct Kit {
    counting: Counting,
}

fn toolkit() -> Toolkit<Kit> {
    Toolkit::new(Kit { counting: Counting })
}

fn script() -> Script {
    Script::new()
        .call("reset_tools", json!({"counting": true}))
        .call("tally", json!({"step": 1}))
        // Parallel calls finish in any order; the recording keeps the call order.
        .calls([
            ("tally", json!({"step": 2})),
            ("fail", json!({})),
            ("tally", json!({"step": 3})),
        ])
        .call("tally", "{\"step\": ")
        .text("Done.")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("toolgroup-kit-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

async fn play(kit: &Toolkit<Kit>, script: Script) -> Transcript {
    let mut session = kit.session();
    ScriptedModel::new(script, Provider::OpenAiChat)
        .play(kit, &mut session)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_recorded_run_replays_offline() {
    let dir = scratch("replay");
    let path = dir.join("run.jsonl");
    let recorder = Recorder::create(&path).unwrap();
    let recorded = play(&toolkit().layer(recorder.clone()), script()).await;
    recorder.finish().unwrap();

    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let calls: Vec<(&Value, &Value)> = lines.iter().map(|l| (&l["tool"], &l["outcome"])).collect();
    assert_eq!(
        calls,
        [
            (&json!("reset_tools"), &json!("ok")),
            (&json!("tally"), &json!("ok")),
            (&json!("tally"), &json!("ok")),
            (&json!("fail"), &json!("tool_error")),
            (&json!("tally"), &json!("ok")),
            (&json!("tally"), &json!("invalid_arguments")),
        ]
    );
    assert_eq!(
        lines[2],
        json!({"tool": "tally", "arguments": {"step": 2}, "outcome": "ok",
            "result": {"content": [{"type": "text", "text": "20"}], "structuredContent": 20, "isError": false}})
    );
    assert_eq!(lines[5]["arguments_text"], "{\"step\": ");

    let runs = RUNS.get();
    let replayer = Replayer::open(&path).unwrap();
    let kit = toolkit().layer(replayer.clone());
    let mut session = kit.session();
    let replayed = ScriptedModel::new(script(), Provider::OpenAiChat)
        .play(&kit, &mut session)
        .await
        .unwrap();
    replayer.finish().unwrap();
    assert_eq!(RUNS.get(), runs, "no tool ran during the replay");
    assert_eq!(replayed.messages, recorded.messages);
    assert_eq!(session.active_names().collect::<Vec<_>>(), ["counting"]);
    assert_eq!(replayer.remaining(), 0);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A recording of `script()`, made in a directory of its own (`name`: tests run in parallel).
async fn recording(name: &str) -> String {
    let dir = scratch(name);
    let path = dir.join("run.jsonl");
    let recorder = Recorder::create(&path).unwrap();
    play(&toolkit().layer(recorder.clone()), script()).await;
    recorder.finish().unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    text
}

#[tokio::test]
async fn the_first_divergent_call_ends_the_replay() {
    let recorded = recording("divergent").await;
    let replayer = Replayer::from_jsonl(&recorded).unwrap();
    let kit = toolkit().layer(replayer.clone());
    let changed = Script::new()
        .call("reset_tools", json!({"counting": true}))
        .call("tally", json!({"step": 5}))
        .call("tally", json!({"step": 2}));
    let run = play(&kit, changed).await;
    let expected = "the replay diverged at call 2: the recording (line 2) has `tally` with {\"step\":1}, and the run called `tally` with {\"step\":5}";
    assert_eq!(run.turns[0].outcomes(), [CallOutcome::Ok]);
    for turn in &run.turns[1..] {
        assert_eq!(turn.outcomes(), [CallOutcome::LayerError]);
        assert_eq!(
            turn.results[0].text_joined(),
            format!("`tally` failed: {expected}; the session is unchanged")
        );
    }
    let divergence = replayer.finish().unwrap_err();
    assert_eq!(divergence.to_string(), expected);
    assert_eq!(divergence.call, 2);

    // Another tool at the same place.
    let replayer = Replayer::from_jsonl(&recorded).unwrap();
    let kit = toolkit().layer(replayer.clone());
    play(
        &kit,
        Script::new()
            .call("reset_tools", json!({"counting": true}))
            .call("fail", json!({})),
    )
    .await;
    assert!(matches!(
        replayer.finish().unwrap_err().kind,
        DivergenceKind::Differs { line: 2, .. }
    ));
}

#[tokio::test]
async fn a_run_shorter_or_longer_than_the_recording_is_reported() {
    let recorded = recording("length").await;
    let replayer = Replayer::from_jsonl(&recorded).unwrap();
    let kit = toolkit().layer(replayer.clone());
    play(
        &kit,
        Script::new().call("reset_tools", json!({"counting": true})),
    )
    .await;
    assert_eq!(replayer.remaining(), 5);
    assert_eq!(
        replayer.finish().unwrap_err().to_string(),
        "the run stopped after 1 calls, and the recording has 5 more, from `tally` (line 2)"
    );

    let replayer = Replayer::from_jsonl(&recorded).unwrap();
    let kit = toolkit().layer(replayer.clone());
    let longer = script().call("tally", json!({"step": 9}));
    let run = play(&kit, longer).await;
    assert_eq!(
        run.turns.last().unwrap().outcomes(),
        [CallOutcome::LayerError]
    );
    assert_eq!(
        replayer.finish().unwrap_err().to_string(),
        "the replay diverged at call 7: the recording has 6 calls, and the run made another: `tally` with {\"step\":9}"
    );
}

#[test]
fn bad_recordings_name_the_line_and_never_echo_it() {
    let huge = "x".repeat(1 << 20);
    let good = r#"{"tool": "tally", "arguments": {"step": 1}, "result": {"content": []}}"#;
    let cases = [
        (
            format!("{good}\n\nnot json {huge}"),
            "recording line 3: not JSON (expected ident at line 1 column 2)",
        ),
        (
            format!("[\"{huge}\"]"),
            "recording line 1: not a JSON object (a recorded call is {\"tool\": ..., \"arguments\": ..., \"result\": ...})",
        ),
        (
            format!("{{\"tool\": 1, \"x\": \"{huge}\"}}"),
            "recording line 1: missing \"tool\" (a string)",
        ),
        (
            format!("{{\"tool\": \"tally\", \"result\": {{\"content\": []}}, \"x\": \"{huge}\"}}"),
            "recording line 1: expected one of \"arguments\" (a JSON value) and \"arguments_text\" (a string)",
        ),
        (
            format!(
                "{{\"tool\": \"tally\", \"arguments\": {{}}, \"result\": {{\"content\": \"{huge}\"}}}}"
            ),
            "recording line 1: \"result\" is not a tool result ({\"content\": [...], \"isError\": ...})",
        ),
        (
            "{\"tool\": \"tally\", \"arguments\": {}}".to_owned(),
            "recording line 1: expected one of \"result\" (a tool result) and \"layer_error\" (a string)",
        ),
    ];
    for (text, message) in cases {
        let error = Replayer::from_jsonl(&text).unwrap_err();
        assert_eq!(error.to_string(), message);
    }
    let dir = scratch("unreadable");
    let error = Replayer::open(&dir).unwrap_err();
    assert_eq!(error.line, None);
    assert!(
        error
            .to_string()
            .starts_with(&format!("cannot read the recording {}: ", dir.display())),
        "{error}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_recording_error_has_the_io_or_json_error_behind_it_as_source() {
    let dir = scratch("missing");
    let error = Replayer::open(dir.join("missing.jsonl")).unwrap_err();
    let io = error
        .source()
        .and_then(|e| e.downcast_ref::<std::io::Error>())
        .expect("the I/O error");
    assert_eq!(io.kind(), std::io::ErrorKind::NotFound);
    let _ = std::fs::remove_dir_all(&dir);

    let error = Replayer::from_jsonl("not json").unwrap_err();
    let json = error
        .source()
        .and_then(|e| e.downcast_ref::<serde_json::Error>())
        .expect("the JSON error");
    assert!(json.is_syntax(), "{json}");

    // The decoder's error for a result that is no tool result: kept as the source, while the
    // message stays short.
    let line = r#"{"tool": "tally", "arguments": {}, "result": {"content": "text"}}"#;
    let error = Replayer::from_jsonl(line).unwrap_err();
    let json = error
        .source()
        .and_then(|e| e.downcast_ref::<serde_json::Error>())
        .expect("the decoder's error");
    assert!(json.is_data(), "{json}");

    let error = Replayer::from_jsonl(r#"{"tool": 1}"#).unwrap_err();
    assert!(error.source().is_none());
}
