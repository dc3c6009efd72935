//! Stdio child processes: this crate's `interop_server` example killed and respawned, the
//! facade's `mcp_server` example, and a server on the official Python SDK.

use std::time::Duration;

use serde_json::json;
use toolgroup_core::Content;
use toolgroup_mcp::client::{CallOptions, RemoteServer, RemoteTools, Stderr};

use super::support::{example, kill, python, python_script, with_pid_file};
use super::*;

#[cfg(unix)]
#[tokio::test]
async fn own_example_over_stdio_killed_then_respawned() {
    let exe = interop_server();
    let dir = std::env::temp_dir().join(format!("toolgroup-client-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pid_file = dir.join("own.pid");
    let remote = RemoteTools::connect(
        with_pid_file(&pid_file, &exe, &["mask", "stdio", "waiting"])
            .with_label("own-stdio")
            .with_stderr(Stderr::Discard)
            .with_groups_extension(false),
    )
    .await
    .unwrap();
    // Every tool but `reset_tools`, which mask mode leaves out under first-use activation.
    assert_eq!(names(&remote).len(), 7);
    let r = remote.call("count", &json!({"n": 2})).await;
    assert_eq!(ok_text(&r), "counted to 2");

    let first = std::fs::read_to_string(&pid_file).unwrap();
    kill(&pid_file);
    // The child is gone: this call fails (or, if the exit was already seen, reconnects).
    let r = remote.call("count", &json!({"n": 1})).await;
    if r.is_error {
        let message = r.text_joined();
        assert!(message.contains("`own-stdio`"), "{message}");
        let r = remote.call("count", &json!({"n": 1})).await;
        assert_eq!(ok_text(&r), "counted to 1");
    }
    let second = std::fs::read_to_string(&pid_file).unwrap();
    assert_ne!(first, second, "a new child was spawned");
    std::fs::remove_dir_all(&dir).ok();
}

/// The project's own MCP server example (`examples/mcp_server.rs`, the facade's `mcp`
/// feature) over stdio: its `bar_chart` answers with a real PNG image.
#[tokio::test]
async fn project_mcp_server_example_over_stdio() {
    let exe = example(&["-p", "toolgroup", "--features", "mcp"], "mcp_server");
    let remote = RemoteTools::connect(
        RemoteServer::stdio(
            &exe,
            [
                "--transport",
                "stdio",
                "--mode",
                "selected",
                "--groups",
                "charts",
            ],
        )
        .with_label("mcp_server"),
    )
    .await
    .unwrap();
    assert_eq!(names(&remote), ["note_write", "bar_chart"]);
    let r = remote
        .call("bar_chart", &json!({"values": [1, 2.5, 4]}))
        .await;
    ok_text(&r);
    let Content::Image {
        data, mime_type, ..
    } = &r.content[0]
    else {
        panic!("not an image: {r:?}")
    };
    assert_eq!(mime_type, "image/png");
    assert_eq!(&data[..4], b"\x89PNG");
    // The tool's own error, and arguments refused before sending.
    let r = remote.call("bar_chart", &json!({"values": []})).await;
    assert!(
        err_text(&r).contains("give at least one value"),
        "{}",
        r.text_joined()
    );
    let r = remote.call("bar_chart", &json!({"values": "1,2"})).await;
    assert_eq!(
        err_text(&r),
        "`bar_chart` was not run: invalid argument `values`: expected an array, got a string"
    );
}

#[tokio::test]
async fn python_sdk_server() {
    let Some(python) = python() else { return };
    let remote = RemoteTools::connect(
        RemoteServer::stdio(&python, [python_script()])
            .with_label("python")
            .with_stderr(Stderr::Discard)
            .with_call_timeout(Duration::from_secs(10)),
    )
    .await
    .unwrap();
    assert_eq!(
        names(&remote),
        [
            "add", "fail", "nap", "progress", "picture", "grow", "crash", "ask"
        ]
    );
    let tools = remote.tools();
    let add = tools.iter().find(|t| t.name == "add").unwrap();
    assert_eq!(add.description.as_deref(), Some("Add two integers."));

    let r = remote.call("add", &json!({"a": 2, "b": 3})).await;
    assert_eq!(ok_text(&r), "5");
    assert_eq!(r.structured_content, Some(json!({"result": 5})));

    let r = remote.call("fail", &json!({"reason": "testing"})).await;
    assert!(
        err_text(&r).contains("failed on purpose: testing"),
        "{}",
        r.text_joined()
    );

    let r = remote.call("add", &json!({"a": 2})).await;
    assert_eq!(
        err_text(&r),
        "`add` was not run: invalid argument `b`: missing required property"
    );
    let r = remote.call("add", &json!({"a": 2, "b": "3"})).await;
    assert!(
        err_text(&r).contains("`b`: expected an integer, got a string"),
        "{}",
        r.text_joined()
    );

    let r = remote.call("picture", &json!({})).await;
    ok_text(&r);
    assert_eq!(
        r.content[0],
        Content::image(b"\x89PNG".to_vec(), "image/png")
    );

    let (r, seen) = with_progress(&remote, "progress", json!({"steps": 3})).await;
    assert_eq!(ok_text(&r), "3 steps");
    assert_eq!(seen, steps(3));

    let r = remote
        .call_with(
            "nap",
            &json!({"seconds": 30}),
            CallOptions::new().with_timeout(Duration::from_millis(200)),
        )
        .await;
    assert!(
        err_text(&r).contains("timed out after 200 ms"),
        "{}",
        r.text_joined()
    );

    // list_changed from a server nobody here wrote.
    assert_eq!(ok_text(&remote.call("grow", &json!({})).await), "grown");
    next_list(&remote, 0).await;
    assert!(names(&remote).contains(&"extra".to_owned()));
    assert_eq!(
        ok_text(&remote.call("extra", &json!({"text": "hi"})).await),
        "extra: hi"
    );
    let version = remote.version();

    // Killed mid-call: an error result, then a new process on the next call (whose list
    // lacks `extra` again: a new version).
    let r = remote.call("crash", &json!({})).await;
    let message = err_text(&r);
    assert!(
        message.contains("connection to the MCP server `python` was lost"),
        "{message}"
    );
    assert!(message.contains("may or may not have run"), "{message}");
    let r = remote.call("add", &json!({"a": 1, "b": 1})).await;
    assert_eq!(ok_text(&r), "2");
    assert_eq!(remote.version(), version + 1);
    assert!(!names(&remote).contains(&"extra".to_owned()));
    // The old name is refused locally now.
    let r = remote.call("extra", &json!({"text": "hi"})).await;
    assert!(
        err_text(&r).contains("does not list it"),
        "{}",
        r.text_joined()
    );
}
