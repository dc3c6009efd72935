//! Remote groups (feature `client`): a toolkit with a local group and groups whose tools come
//! from real MCP servers — this project's `mcp_server` example over stdio, and a server on
//! the official Python SDK (`tests/mcp_interop/remote_server.py`, run with the venv that
//! `.ci/run` creates; that test is skipped without `MCP_VENV`).

use crate::support;

use std::time::Duration;

use serde_json::json;
use support::{example, kill, python, python_script, with_pid_file};
use toolgroup::dynamic::Dynamic;
use toolgroup::prelude::*;
use toolgroup::provider::{Provider, Rendered};
use toolgroup_mcp::client::{Remote, RemoteServer, RemoteTools, Stderr};
use toolgroup_mcp::{McpServer, Mode};

/// Bounds the waits for something that happens on its own (a notification, a process
/// restart); never a timing assertion.
const PATIENCE: Duration = Duration::from_secs(20);

/// Remember something.
#[tool]
fn remember(
    /// What to remember.
    text: String,
) -> String {
    format!("remembered: {text}")
}

/// A local tool whose name the project's server also has: the local one keeps it.
#[tool]
fn note_write(
    /// The note.
    text: String,
) -> String {
    format!("local note: {text}")
}

/// Add two numbers locally (the Python server has an `add` too).
#[tool]
fn add(
    /// First.
    a: i64,
    /// Second.
    b: i64,
) -> i64 {
    a + b
}

#[tool_group(name = "local", description = "Local tools.", tools = [remember, note_write, add])]
struct Local;

#[tool_group(
    name = "charts",
    description = "Draw charts (the project's MCP server).",
    instructions = "Give the values in order.",
    dynamic
)]
struct Charts;

#[tool_group(
    name = "python",
    description = "Tools of a Python MCP server.",
    dynamic
)]
struct Python;

#[toolkit]
struct Kit {
    #[basic]
    local: Local,
    charts: Dynamic<Charts, Remote>,
    python: Dynamic<Python, Remote>,
}

/// The project's MCP server example over stdio, selecting its `charts` group (tools
/// `note_write` and `bar_chart`), its process id written to `pid_file`.
async fn project_server(pid_file: &std::path::Path) -> RemoteTools {
    let exe = example(&["-p", "toolgroup", "--features", "mcp"], "mcp_server");
    RemoteTools::connect(
        with_pid_file(
            pid_file,
            &exe,
            &[
                "--transport",
                "stdio",
                "--mode",
                "selected",
                "--groups",
                "charts",
            ],
        )
        .with_label("project")
        .with_stderr(Stderr::Discard)
        .with_backoff(Duration::from_millis(50), Duration::from_millis(200)),
    )
    .await
    .expect("the project's MCP server starts")
}

fn names(kit: &Toolkit<Kit>, session: &Session<Kit>) -> Vec<&'static str> {
    kit.definitions(session).map(|d| d.name).collect()
}

async fn ok(
    kit: &Toolkit<Kit>,
    session: &mut Session<Kit>,
    name: &str,
    args: serde_json::Value,
) -> CallResult {
    let result = kit.call(session, name, &args).await;
    assert!(!result.is_error, "{name}: {}", result.text_joined());
    result
}

/// A scratch directory for pid files.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("toolgroup-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The Python server, its process id written to `pid_file`.
async fn python_server(python: &std::path::Path, pid_file: &std::path::Path) -> RemoteTools {
    let script = python_script();
    RemoteTools::connect(
        with_pid_file(pid_file, python, &[script.to_str().unwrap()])
            .with_label("python")
            .with_stderr(Stderr::Discard)
            .with_call_timeout(Duration::from_secs(10))
            .with_backoff(Duration::from_millis(50), Duration::from_millis(200)),
    )
    .await
    .expect("the Python server starts")
}

#[tokio::test]
async fn a_local_group_and_the_project_server_as_a_group() {
    let dir = scratch("remote-groups");
    let pid_file = dir.join("project.pid");
    let kit = Toolkit::new(Kit {
        local: Local,
        charts: Dynamic::new(Remote::new(project_server(&pid_file).await)),
        // A second connection to the same kind of server, exposed under a prefix.
        python: Dynamic::new(
            Remote::new(project_server(&dir.join("second.pid")).await).with_prefix("py_"),
        ),
    });
    let mut session = kit.session();

    // Only active groups' tools are listed.
    assert_eq!(
        names(&kit, &session),
        ["reset_tools", "remember", "note_write", "add"]
    );
    // The local `note_write` keeps its name; the server's is hidden, with the reason.
    let hidden = kit.hidden_tools();
    assert_eq!(hidden.len(), 1, "{hidden:?}");
    assert_eq!((hidden[0].group, hidden[0].name), ("charts", "note_write"));
    assert!(hidden[0].reason.contains("`local`"), "{}", hidden[0].reason);

    // Switching with reset_tools, the remote group's instructions included.
    let answer = ok(
        &kit,
        &mut session,
        "reset_tools",
        json!({"charts": true, "python": false}),
    )
    .await;
    assert!(answer.text_joined().contains("Give the values in order."));
    assert_eq!(
        names(&kit, &session),
        ["reset_tools", "remember", "note_write", "add", "bar_chart"]
    );

    // A remote call: a real PNG.
    let chart = ok(
        &kit,
        &mut session,
        "bar_chart",
        json!({"values": [1, 3, 2]}),
    )
    .await;
    let Content::Image {
        data, mime_type, ..
    } = &chart.content[0]
    else {
        panic!("not an image: {chart:?}")
    };
    assert_eq!(
        (mime_type.as_str(), &data[..4]),
        ("image/png", &b"\x89PNG"[..])
    );
    // A remote error, and arguments refused before sending.
    let empty = kit
        .call(&mut session, "bar_chart", &json!({"values": []}))
        .await;
    assert!(empty.is_error);
    assert!(
        empty.text_joined().contains("give at least one value"),
        "{}",
        empty.text_joined()
    );
    let wrong = kit
        .call(&mut session, "bar_chart", &json!({"values": "1,2"}))
        .await;
    assert!(wrong.is_error);
    assert!(
        wrong.text_joined().contains("expected an array"),
        "{}",
        wrong.text_joined()
    );
    // An inactive remote group's tool is not run.
    let inactive = kit
        .call(&mut session, "py_bar_chart", &json!({"values": [1]}))
        .await;
    assert!(inactive.is_error);
    assert!(
        inactive.text_joined().contains("the group `python`"),
        "{}",
        inactive.text_joined()
    );

    // The second group, prefixed.
    ok(
        &kit,
        &mut session,
        "reset_tools",
        json!({"charts": true, "python": true}),
    )
    .await;
    assert_eq!(
        names(&kit, &session),
        [
            "reset_tools",
            "remember",
            "note_write",
            "add",
            "bar_chart",
            "py_note_write",
            "py_bar_chart"
        ]
    );
    ok(&kit, &mut session, "py_bar_chart", json!({"values": [5]})).await;

    // The server is killed mid-session: an error result, the rest keeps working, then the
    // group recovers (a new child).
    kill(&pid_file);
    let mut failed = false;
    let mut recovered = false;
    let deadline = tokio::time::Instant::now() + PATIENCE;
    while tokio::time::Instant::now() < deadline {
        let r = kit
            .call(&mut session, "bar_chart", &json!({"values": [2]}))
            .await;
        if r.is_error {
            failed = true;
            assert!(r.text_joined().contains("`project`"), "{}", r.text_joined());
            let local = ok(&kit, &mut session, "remember", json!({"text": "x"})).await;
            assert_eq!(local.text_joined(), "remembered: x");
            ok(&kit, &mut session, "py_bar_chart", json!({"values": [1]})).await;
            tokio::time::sleep(Duration::from_millis(100)).await;
        } else {
            recovered = true;
            break;
        }
    }
    assert!(
        recovered,
        "the group did not recover after the server was killed"
    );
    // The first call after the kill either failed or already reconnected; either way the
    // next call runs on a new child.
    let _ = failed;

    // This toolkit served over MCP fronts the remote servers: an MCP client (ours, over
    // loopback HTTP) lists the remote tools beside the local ones and calls through two hops.
    // Refusing calls of inactive groups: the front's session must switch `python` on first.
    let server = McpServer::new(kit, Mode::Mask).with_first_use_activation(false);
    let rendered = Rendered::new(server.toolkit(), Provider::Mcp);
    let all = rendered.all_tools_value();
    assert!(
        all.as_array()
            .unwrap()
            .iter()
            .any(|t| t["name"] == "py_bar_chart"),
        "{all}"
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let config = rmcp::transport::StreamableHttpServerConfig::default();
    let serving = tokio::spawn(async move { server.serve_http(listener, "/mcp", config).await });
    // Without the groups extension, the fronting server lists every tool and `reset_tools`.
    let front = RemoteTools::connect(
        RemoteServer::http(url)
            .with_label("front")
            .with_groups_extension(false),
    )
    .await
    .expect("the fronting server answers");
    let listed: Vec<String> = front.tools().iter().map(|t| t.name.clone()).collect();
    for name in ["reset_tools", "remember", "bar_chart", "py_bar_chart"] {
        assert!(listed.iter().any(|n| n == name), "{name} not in {listed:?}");
    }
    // Mask: the fronting server's own session must switch `python` on first.
    let refused = front.call("py_bar_chart", &json!({"values": [2, 4]})).await;
    assert!(refused.is_error, "{}", refused.text_joined());
    let on = front
        .call("reset_tools", &json!({"charts": true, "python": true}))
        .await;
    assert!(!on.is_error, "{}", on.text_joined());
    let chart = front.call("py_bar_chart", &json!({"values": [2, 4]})).await;
    assert!(!chart.is_error, "{}", chart.text_joined());
    assert!(
        matches!(&chart.content[0], Content::Image { mime_type, .. } if mime_type == "image/png"),
        "{chart:?}"
    );
    drop(front);
    serving.abort();
    std::fs::remove_dir_all(&dir).ok();
}

#[tokio::test]
async fn two_remote_groups_one_on_the_python_sdk() {
    let Some(python) = python() else { return };
    let dir = scratch("remote-python");
    let python_pid = dir.join("python.pid");
    let kit = Toolkit::new(Kit {
        local: Local,
        charts: Dynamic::new(Remote::new(project_server(&dir.join("project.pid")).await)),
        python: Dynamic::new(Remote::new(python_server(&python, &python_pid).await)),
    });
    let mut session = kit.session();
    // Python's `add` clashes with the local `add`: the local one keeps the name.
    assert!(
        kit.hidden_tools()
            .iter()
            .any(|h| h.group == "python" && h.name == "add"),
        "{:?}",
        kit.hidden_tools()
    );
    ok(
        &kit,
        &mut session,
        "reset_tools",
        json!({"charts": false, "python": true}),
    )
    .await;
    let listed = names(&kit, &session);
    assert!(
        listed.contains(&"fail") && listed.contains(&"grow"),
        "{listed:?}"
    );
    assert!(!listed.contains(&"bar_chart"), "{listed:?}");
    assert_eq!(
        ok(&kit, &mut session, "add", json!({"a": 2, "b": 3}))
            .await
            .text_joined(),
        "5"
    );

    // A remote error.
    let failed = kit
        .call(&mut session, "fail", &json!({"reason": "testing"}))
        .await;
    assert!(failed.is_error);
    assert!(
        failed.text_joined().contains("failed on purpose: testing"),
        "{}",
        failed.text_joined()
    );

    // list_changed: `grow` adds `extra` on the server, which tells the client.
    assert!(!names(&kit, &session).contains(&"extra"));
    ok(&kit, &mut session, "grow", json!({})).await;
    let deadline = tokio::time::Instant::now() + PATIENCE;
    while !names(&kit, &session).contains(&"extra") {
        assert!(
            tokio::time::Instant::now() < deadline,
            "`extra` never appeared"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let extra = ok(&kit, &mut session, "extra", json!({"text": "hi"})).await;
    assert!(
        extra.text_joined().contains("extra: hi"),
        "{}",
        extra.text_joined()
    );

    // The server dies in the middle of a call: an error result, then recovery.
    let crashed = kit.call(&mut session, "crash", &json!({})).await;
    assert!(crashed.is_error, "{}", crashed.text_joined());
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        let r = kit
            .call(&mut session, "fail", &json!({"reason": "again"}))
            .await;
        if r.text_joined().contains("failed on purpose: again") {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "no recovery: {}",
            r.text_joined()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let _ = kill; // the Python server exits on its own in this test
    std::fs::remove_dir_all(&dir).ok();
}
