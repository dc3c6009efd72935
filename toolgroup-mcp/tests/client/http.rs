//! This crate's own server, in process over Streamable HTTP: listing, calls, errors and
//! validation, timeouts, cancellation and progress, `list_changed`, a killed server, and
//! connection errors.

use std::sync::atomic::Ordering;
use std::time::Duration;

use serde_json::json;
use toolgroup_mcp::Mode;
use toolgroup_mcp::client::{
    CallOptions, CancellationToken, RemoteError, RemoteServer, RemoteTools,
};

use super::*;

#[tokio::test]
async fn own_server_over_http_list_call_errors_and_validation() {
    let server = Killable::start(own_server(Mode::Mask), "127.0.0.1:0");
    let remote = connect(&server).await;
    assert_eq!(
        names(&remote),
        [
            "reset_tools",
            "note_write",
            "slow_stats",
            "whoami",
            "web_search",
            "page_fetch",
            "slow",
            "count"
        ]
    );
    assert_eq!(remote.version(), 0);
    let tools = remote.tools();
    let search = tools.iter().find(|t| t.name == "web_search").unwrap();
    assert_eq!(search.annotations.read_only, Some(true));
    assert_eq!(search.annotations.open_world, Some(true));
    assert_eq!(search.description.as_deref(), Some("Search the web."));
    assert_eq!(search.input_schema["required"], json!(["query"]));
    assert!(search.output_schema.is_some());

    // A call, with arguments as a value and as text.
    let r = remote.call("note_write", &json!({"text": "hi"})).await;
    assert_eq!(ok_text(&r), "noted: hi");
    let r = remote.call("note_write", r#"{"text": "there"}"#).await;
    assert_eq!(ok_text(&r), "noted: there");

    // A remote isError: the group is off on the server.
    let r = remote.call("web_search", &json!({"query": "q"})).await;
    assert!(err_text(&r).contains("reset_tools"), "{}", r.text_joined());

    // Switch every group on (reset_tools is a remote tool like any other), then a tool's own
    // error and a structured result.
    let r = remote
        .call(
            "reset_tools",
            &json!({"web_search": true, "scraping": true, "waiting": true}),
        )
        .await;
    ok_text(&r);
    let r = remote
        .call("page_fetch", &json!({"url": "http://plain"}))
        .await;
    assert!(err_text(&r).contains("non-https"), "{}", r.text_joined());
    let r = remote.call("web_search", &json!({"query": "q"})).await;
    ok_text(&r);
    assert_eq!(r.structured_content, Some(json!({"result": ["hit for q"]})));

    // Arguments refused before sending, by path, without echoing values.
    let r = remote.call("note_write", &json!({})).await;
    assert_eq!(
        err_text(&r),
        "`note_write` was not run: invalid argument `text`: missing required property"
    );
    let r = remote
        .call("note_write", &json!({"text": {"secret": "s3cr3t"}}))
        .await;
    let message = err_text(&r);
    assert!(
        message.contains("`text`: expected a string, got an object"),
        "{message}"
    );
    assert!(!message.contains("s3cr3t"));
    let r = remote.call("note_write", "[1, 2]").await;
    assert!(
        err_text(&r).contains("must be a JSON object"),
        "{}",
        r.text_joined()
    );
    let r = remote.call("note_write", "{\"text\": ").await;
    assert!(
        err_text(&r).contains("not valid JSON"),
        "{}",
        r.text_joined()
    );
    let r = remote.call("count", &json!({"n": "five"})).await;
    assert!(
        err_text(&r).contains("`n`: expected an integer, got a string"),
        "{}",
        r.text_joined()
    );

    // A tool the server does not list.
    let r = remote.call("note_wirte", &json!({"text": "x"})).await;
    let message = err_text(&r);
    assert!(message.contains("Did you mean `note_write`?"), "{message}");
    assert!(remote.is_connected().await);
}

#[tokio::test]
async fn timeouts_cancellation_and_progress() {
    let server = Killable::start(own_server(Mode::Mask), "127.0.0.1:0");
    let remote = RemoteTools::connect(
        RemoteServer::http(server.url())
            .with_call_timeout(Duration::from_secs(1))
            .with_groups_extension(false),
    )
    .await
    .unwrap();
    ok_text(
        &remote
            .call(
                "reset_tools",
                &json!({"web_search": false, "scraping": false, "waiting": true}),
            )
            .await,
    );

    // The server's call timeout: an error result, and the tool is cancelled on the server
    // (this test's server runs in this process: its counter of dropped calls moves).
    let dropped = support::SLOW_DROPPED.load(Ordering::SeqCst);
    let r = remote.call("slow", &json!({"seconds": 30})).await;
    let message = err_text(&r);
    assert!(message.contains("timed out after 1 s"), "{message}");
    assert!(message.contains("You may retry"), "{message}");
    slow_dropped_after(dropped).await;

    // The application's cancellation token, cancelled once the tool runs: the tool is
    // cancelled on the server too.
    let token = CancellationToken::new();
    let cancel = token.clone();
    let started = support::SLOW_STARTED.load(Ordering::SeqCst);
    let dropped = support::SLOW_DROPPED.load(Ordering::SeqCst);
    tokio::spawn(async move {
        slow_started_after(started).await;
        cancel.cancel();
    });
    let r = remote
        .call_with(
            "slow",
            &json!({"seconds": 30}),
            CallOptions::new()
                .with_cancellation(token)
                .with_timeout(Duration::from_secs(120)),
        )
        .await;
    assert!(
        err_text(&r).contains("cancelled by the application"),
        "{}",
        r.text_joined()
    );
    slow_dropped_after(dropped).await;

    // A call whose future is dropped (the caller stopped waiting) is cancelled as well.
    let started = support::SLOW_STARTED.load(Ordering::SeqCst);
    let dropped = support::SLOW_DROPPED.load(Ordering::SeqCst);
    let args = json!({"seconds": 30});
    tokio::select! {
        r = remote.call("slow", &args) => panic!("slow finished: {r:?}"),
        () = slow_started_after(started) => {}
    }
    slow_dropped_after(dropped).await;

    // Progress, forwarded in order before the result.
    let (r, seen) = with_progress(&remote, "count", json!({"n": 4})).await;
    assert_eq!(ok_text(&r), "counted to 4");
    assert_eq!(seen, steps(4));
    // The connection survived all of this.
    assert_eq!(
        ok_text(&remote.call("note_write", &json!({"text": "x"})).await),
        "noted: x"
    );
}

#[tokio::test]
async fn list_changed_refreshes_the_tools() {
    let server = Killable::start(own_server(Mode::List), "127.0.0.1:0");
    let remote = connect(&server).await;
    assert_eq!(
        names(&remote),
        ["reset_tools", "note_write", "slow_stats", "whoami"]
    );
    let r = remote
        .call(
            "reset_tools",
            &json!({"web_search": true, "scraping": false, "waiting": false}),
        )
        .await;
    ok_text(&r);
    next_list(&remote, 0).await;
    assert_eq!(remote.version(), 1);
    assert_eq!(
        names(&remote),
        [
            "reset_tools",
            "note_write",
            "slow_stats",
            "whoami",
            "web_search"
        ]
    );
    let r = remote.call("web_search", &json!({"query": "rust"})).await;
    ok_text(&r);
}

#[tokio::test]
async fn http_server_killed_mid_session_then_back() {
    let mut server = Killable::start(own_server(Mode::Mask), "127.0.0.1:0");
    let url = server.url();
    let addr = server.addr;
    let remote = RemoteTools::connect(
        RemoteServer::http(url)
            .with_label("own")
            .with_backoff(Duration::from_millis(50), Duration::from_millis(200))
            .with_connect_timeout(Duration::from_secs(5)),
    )
    .await
    .unwrap();
    ok_text(&remote.call("note_write", &json!({"text": "1"})).await);

    server.kill();
    let r = remote.call("note_write", &json!({"text": "2"})).await;
    let message = err_text(&r);
    assert!(message.contains("the MCP server `own`"), "{message}");
    assert!(
        message.contains("retry") || message.contains("Retry"),
        "{message}"
    );
    // While it is down, calls keep answering error results (reconnection fails, then waits).
    let r = remote.call("note_write", &json!({"text": "3"})).await;
    let message = err_text(&r);
    assert!(message.contains("reconnect"), "{message}");

    // Back on the same address: a later call reconnects (after the backoff) and works.
    let _server = Killable::start(own_server(Mode::Mask), &addr.to_string());
    let recovered = tokio::time::timeout(PATIENCE, async {
        loop {
            let r = remote.call("note_write", &json!({"text": "4"})).await;
            if !r.is_error {
                return r;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await
    .expect("the client reconnected");
    assert_eq!(recovered.text_joined(), "noted: 4");
    assert!(remote.is_connected().await);
    // Same server, same tools: the version did not move.
    assert_eq!(remote.version(), 0);
}

#[tokio::test]
async fn connect_errors_are_clear() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    drop(listener);
    let err = RemoteTools::connect(
        RemoteServer::http(format!("http://{addr}/mcp")).with_label("nowhere"),
    )
    .await
    .unwrap_err();
    assert!(matches!(err, RemoteError::Handshake { .. }), "{err:?}");
    assert!(
        err.to_string().contains("`nowhere` could not be reached"),
        "{err}"
    );

    let err = RemoteTools::connect(RemoteServer::stdio(
        "/nonexistent/toolgroup-test-server",
        ["x"],
    ))
    .await
    .unwrap_err();
    assert!(matches!(err, RemoteError::Spawn { .. }), "{err:?}");
    // The operating system's error is kept, matchable by its kind.
    let source = std::error::Error::source(&err).expect("a source");
    let io = source
        .downcast_ref::<std::io::Error>()
        .expect("an io::Error");
    assert_eq!(io.kind(), std::io::ErrorKind::NotFound);
}
