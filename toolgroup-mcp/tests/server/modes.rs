//! Every mode through rmcp's own client, over an in-process byte stream (what stdio carries).

use crate::support;

// The `mcp_server` example's toolkit (the quickstart's groups and `charts`), and a reader of
// the PNG images its `bar_chart` tool draws.
#[allow(dead_code)]
#[path = "../../../examples/support/agent.rs"]
mod agent;
#[path = "../../../examples/support/charts.rs"]
mod charts;
#[path = "../../../tests/common/png.rs"]
mod png;

use std::sync::atomic::Ordering;
use std::time::Duration;

use rmcp::model::{
    ClientRequest, ErrorCode, PaginatedRequestParams, ProtocolVersion, Request, ServerResult,
};
use rmcp::service::PeerRequestOptions;
use rmcp::{ClientLifecycleMode, ServiceExt};
use serde_json::json;
use support::{Agent, call, connect, connect_with, names, rpc_error, text};
use toolgroup::Session;
use toolgroup_mcp::{GROUP_META_KEY, McpServer, Mode};

fn server(mode: Mode) -> McpServer<Agent> {
    McpServer::new(support::toolkit(), mode)
        // These tests are about refusing calls of inactive groups (`first_use.rs` tests the
        // default, activation on first use).
        .with_first_use_activation(false)
}

#[tokio::test]
async fn selected_mode_lists_the_chosen_groups_without_reset_tools() {
    let server = server(Mode::Selected).with_instructions("A test server.");
    let groups = "web_search, scraping".parse::<Session<_>>().unwrap();
    let (client, _) = connect(&server, groups).await;
    assert_eq!(
        names(&client).await,
        [
            "note_write",
            "slow_stats",
            "whoami",
            "web_search",
            "page_fetch"
        ]
    );
    let info = client.peer_info().expect("server info");
    assert_eq!(
        info.instructions.as_deref(),
        Some(
            "A test server.\n\n<group name=\"web_search\">\nCite your sources.\n</group>\n<group name=\"scraping\">\nOnly fetch pages found by a search.\n</group>"
        )
    );

    let r = call(&client, "web_search", json!({"query": "rust"}))
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(false));
    assert_eq!(
        r.structured_content,
        Some(json!({"result": ["hit for rust"]}))
    );

    // A group that was not chosen: its tools are unknown here, with a hint.
    let (code, message) = rpc_error(
        call(&client, "slow", json!({"seconds": 1}))
            .await
            .unwrap_err(),
    );
    assert_eq!(code, ErrorCode::INVALID_PARAMS);
    assert!(
        message.contains("unknown tool `slow`. It belongs to the group `waiting`, which this connection did not select."),
        "{message}"
    );
    // reset_tools is hidden in this mode.
    let (code, message) = rpc_error(call(&client, "reset_tools", json!({})).await.unwrap_err());
    assert_eq!(code, ErrorCode::INVALID_PARAMS);
    assert!(
        message.starts_with("unknown tool `reset_tools`."),
        "{message}"
    );
    // A typo gets a did-you-mean.
    let (_, message) = rpc_error(call(&client, "web_serch", json!({})).await.unwrap_err());
    assert!(message.contains("Did you mean `web_search`?"), "{message}");
    client.cancel().await.unwrap();
}

#[test]
fn unknown_group_names_are_all_reported() {
    let e = "web_serch,scraping,scrapin"
        .parse::<Session<Agent>>()
        .unwrap_err();
    assert_eq!(e.unknown.len(), 2);
    let text = e.to_string();
    assert!(
        text.contains("unknown group `web_serch` (did you mean `web_search`?)"),
        "{text}"
    );
    assert!(
        text.contains("unknown group `scrapin` (did you mean `scraping`?)"),
        "{text}"
    );
    assert_eq!(e.suggestion("web_serch"), Some("web_search"));
    assert_eq!(e.known, ["web_search", "scraping", "waiting"]);
    assert!(
        " ".parse::<Session<Agent>>()
            .unwrap()
            .active()
            .next()
            .is_none()
    );
}

#[test]
fn modes_are_named_by_the_delivery_words() {
    for mode in Mode::ALL {
        assert_eq!(mode.name().parse::<Mode>(), Ok(mode));
    }
    assert_eq!(Mode::Mask.to_string(), "mask");
    let e = "lsit".parse::<Mode>().unwrap_err();
    assert_eq!(
        e.to_string(),
        "unknown mode `lsit` (did you mean `list`?); the modes are `selected`, `mask`, `list`"
    );
    // The names of earlier versions are refused, not silently mapped.
    assert!("gated".parse::<Mode>().is_err());
}

#[tokio::test]
async fn a_server_configured_after_cloning_is_a_copy_of_its_own() {
    let server = server(Mode::Selected).with_instructions("first");
    // Handlers and clones share the configuration; configuring a clone copies it on write
    // instead of panicking, and leaves the original as it was.
    let _handler = server.handler();
    let second = server.clone().with_instructions("second");
    for (server, expected) in [(&server, "first"), (&second, "second")] {
        let (client, _) = connect(server, Session::new()).await;
        let info = client.peer_info().expect("server info");
        assert_eq!(info.instructions.as_deref(), Some(expected));
    }
}

#[tokio::test]
async fn mask_mode_lists_every_tool_and_refuses_inactive_calls() {
    let server = server(Mode::Mask);
    let (client, counting) = connect(&server, Session::new()).await;
    let tools = client.list_all_tools().await.unwrap();
    let listed: Vec<_> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(
        listed,
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
    // Mapping: schema, annotations and the group in `_meta`.
    let search = &tools[4];
    assert_eq!(search.description.as_deref(), Some("Search the web."));
    assert_eq!(search.input_schema["required"], json!(["query"]));
    let hints = search.annotations.as_ref().unwrap();
    assert_eq!(
        (hints.read_only_hint, hints.open_world_hint),
        (Some(true), Some(true))
    );
    assert_eq!(hints.destructive_hint, None);
    assert_eq!(
        search.meta.as_ref().unwrap().0[GROUP_META_KEY],
        "web_search"
    );
    // reset_tools has no group (its hints: `hints.rs`).
    assert!(
        tools[0]
            .meta
            .as_ref()
            .is_none_or(|meta| meta.0.get(GROUP_META_KEY).is_none())
    );
    assert_eq!(
        search.output_schema.as_ref().unwrap()["properties"]["result"]["type"],
        "array"
    );

    let r = call(&client, "web_search", json!({"query": "x"}))
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(true));
    assert!(
        text(&r).contains("belongs to the group `web_search`, which is not active"),
        "{}",
        text(&r)
    );

    let r = call(
        &client,
        "reset_tools",
        json!({"web_search": true, "scraping": false, "waiting": false}),
    )
    .await
    .unwrap();
    assert_eq!(r.is_error, Some(false), "{}", text(&r));
    assert!(text(&r).contains("Cite your sources."));
    let r = call(&client, "web_search", json!({"query": "x"}))
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(false));
    // The list does not move, and no notification is sent.
    assert_eq!(names(&client).await.len(), 8);
    assert_eq!(counting.list_changed.load(Ordering::SeqCst), 0);

    // A refused reset changes nothing.
    let r = call(&client, "reset_tools", json!({"web_serch": true}))
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(true));
    assert!(
        text(&r).contains("did you mean `web_search`?"),
        "{}",
        text(&r)
    );
    let r = call(&client, "web_search", json!({"query": "x"}))
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(false));

    // Bad arguments are an error result; an unknown tool is -32602 with a did-you-mean.
    let r = call(&client, "web_search", json!({"query": 5}))
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(true));
    let (code, message) = rpc_error(call(&client, "reset_tool", json!({})).await.unwrap_err());
    assert_eq!(code, ErrorCode::INVALID_PARAMS);
    assert!(message.contains("Did you mean `reset_tools`?"), "{message}");
    client.cancel().await.unwrap();
}

/// The `mcp_server` example's `bar_chart` answers an rmcp client with one `image` block: a
/// base64 PNG of the bars asked for.
#[tokio::test]
async fn the_example_chart_tool_answers_with_an_image_block() {
    let server = McpServer::new(charts::toolkit(), Mode::Mask).with_first_use_activation(false);
    let (client, _) = connect(&server, Session::new()).await;
    let r = call(&client, "bar_chart", json!({"values": [1]}))
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(true), "the charts group is off");
    let r = call(
        &client,
        "reset_tools",
        json!({"web_search": false, "scraping": false, "charts": true}),
    )
    .await
    .unwrap();
    assert_eq!(r.is_error, Some(false), "{}", text(&r));
    let r = call(&client, "bar_chart", json!({"values": [3, 5, 2, 8]}))
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(false), "{:?}", r.content);
    assert_eq!(r.structured_content, None);
    let [block] = &r.content[..] else {
        panic!("one block: {:?}", r.content)
    };
    let image = block.as_image().expect("an image block");
    assert_eq!(image.mime_type, "image/png");
    let png = png::read(&png::base64(&image.data));
    assert_eq!(png.chunks, ["IHDR", "PLTE", "IDAT", "IEND"]);
    assert_eq!((png.width, png.height), (60, 80));
    let bars: Vec<usize> = (0..4).map(|i| png.column_run(4 + i * 14 + 5, 1)).collect();
    assert_eq!(bars, [27, 44, 18, 71]);
    let r = call(&client, "bar_chart", json!({"values": [-1]}))
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(true));
    assert_eq!(
        text(&r),
        "value -1 (index 0) cannot be drawn: bars are finite and not negative"
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn invalid_cursor_and_unknown_method_are_protocol_errors() {
    let server = server(Mode::Mask);
    let (client, _) = connect(&server, Session::new()).await;
    let e = client
        .list_tools(Some(
            PaginatedRequestParams::default().with_cursor(Some("nope".into())),
        ))
        .await
        .unwrap_err();
    let (code, message) = rpc_error(e);
    assert_eq!(code, ErrorCode::INVALID_PARAMS);
    assert!(message.contains("invalid cursor `nope`"), "{message}");

    let e = client
        .send_request(ClientRequest::ListPromptsRequest(
            rmcp::model::RequestOptionalParam::with_param(PaginatedRequestParams::default()),
        ))
        .await;
    // This server has no prompts: method not found, and the connection goes on.
    match e {
        Err(e) => assert_eq!(rpc_error(e).0, ErrorCode::METHOD_NOT_FOUND),
        Ok(other) => assert!(
            !matches!(other, ServerResult::ListPromptsResult(_)),
            "{other:?}"
        ),
    }
    assert_eq!(names(&client).await.len(), 8);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn list_mode_follows_the_session_and_notifies() {
    let server = server(Mode::List);
    let (client, counting) = connect(&server, Session::new()).await;
    assert_eq!(
        names(&client).await,
        ["reset_tools", "note_write", "slow_stats", "whoami"]
    );
    let r = call(&client, "page_fetch", json!({"url": "https://a"}))
        .await
        .unwrap();
    assert_eq!(
        r.is_error,
        Some(true),
        "inactive calls are refused even if a client never re-lists"
    );

    let r = call(
        &client,
        "reset_tools",
        json!({"web_search": true, "scraping": true, "waiting": false}),
    )
    .await
    .unwrap();
    assert_eq!(r.is_error, Some(false));
    tokio::time::timeout(Duration::from_secs(10), counting.changed.notified())
        .await
        .expect("notifications/tools/list_changed");
    assert_eq!(
        names(&client).await,
        [
            "reset_tools",
            "note_write",
            "slow_stats",
            "whoami",
            "web_search",
            "page_fetch"
        ]
    );
    // A reset that changes nothing sends nothing.
    let r = call(
        &client,
        "reset_tools",
        json!({"web_search": true, "scraping": true, "waiting": false}),
    )
    .await
    .unwrap();
    assert_eq!(r.is_error, Some(false));
    let r = call(&client, "page_fetch", json!({"url": "https://a"}))
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(false));
    assert_eq!(counting.list_changed.load(Ordering::SeqCst), 1);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn list_mode_serves_2026_clients_as_mask() {
    let server = server(Mode::List);
    let (client, _) = connect_with(
        &server,
        Session::new(),
        ClientLifecycleMode::Discover {
            preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        },
    )
    .await;
    let listed = client.list_all_tools_with_cache_hint().await.unwrap();
    assert_eq!(listed.items.len(), 8, "every tool: the mask list");
    let r = call(&client, "web_search", json!({"query": "x"}))
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(true));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_cancelled_call_stops_the_tool() {
    let server = server(Mode::Mask);
    let mut groups = Session::new();
    groups.activate(support::AgentGroup::Waiting);
    let (client, _) = connect(&server, groups).await;
    let _counted = support::SLOW_COUNTED.lock().await;
    let dropped = support::SLOW_DROPPED.load(Ordering::SeqCst);
    let started = support::SLOW_STARTED.load(Ordering::SeqCst);
    let mut params = support::args(json!({"seconds": 60}));
    params.name = "slow".into();
    let handle = client
        .send_cancellable_request(
            ClientRequest::CallToolRequest(Request::new(params)),
            PeerRequestOptions::no_options(),
        )
        .await
        .unwrap();
    for _ in 0..500 {
        if support::SLOW_STARTED.load(Ordering::SeqCst) > started {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    handle.cancel(Some("test".into())).await.unwrap();
    for _ in 0..500 {
        if support::SLOW_DROPPED.load(Ordering::SeqCst) > dropped {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(
        support::SLOW_DROPPED.load(Ordering::SeqCst) > dropped,
        "the tool was dropped"
    );
    // The connection goes on.
    let r = call(&client, "note_write", json!({"text": "after"}))
        .await
        .unwrap();
    assert_eq!(text(&r), "noted: after");
    client.cancel().await.unwrap();
}

/// Raw lines over the byte stream: malformed JSON-RPC and an oversized message do not take
/// the server down.
#[tokio::test]
async fn malformed_and_oversized_lines() {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    let server = server(Mode::Mask);
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    let handler = server.handler();
    let serving = tokio::spawn(async move {
        if let Ok(running) = handler.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let (read, mut write) = tokio::io::split(client_io);
    let mut lines = BufReader::new(read).lines();
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "raw", "version": "0"}}});
    write
        .write_all(format!("{init}\n").as_bytes())
        .await
        .unwrap();
    let line = lines.next_line().await.unwrap().unwrap();
    assert!(line.contains("\"id\":1"), "{line}");
    write
        .write_all(b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n")
        .await
        .unwrap();
    // Not JSON, then not JSON-RPC, then an unknown method.
    write.write_all(b"{not json\n").await.unwrap();
    write.write_all(b"{\"hello\":\"world\"}\n").await.unwrap();
    write
        .write_all(b"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/explode\"}\n")
        .await
        .unwrap();
    let call = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": {"name": "note_write", "arguments": {"text": "still here"}}});
    write
        .write_all(format!("{call}\n").as_bytes())
        .await
        .unwrap();
    let mut answers = Vec::new();
    while let Ok(Ok(Some(line))) =
        tokio::time::timeout(Duration::from_secs(10), lines.next_line()).await
    {
        let done = line.contains("\"id\":3");
        answers.push(line);
        if done {
            break;
        }
    }
    let last = answers.last().expect("answers");
    assert!(last.contains("noted: still here"), "{answers:?}");
    let explode = answers.iter().find(|l| l.contains("\"id\":2"));
    if let Some(explode) = explode {
        assert!(explode.contains("-32601"), "{explode}");
    }

    // An oversized message (over rmcp's 16 MiB line limit) is dropped, unanswered, and the
    // connection goes on.
    let huge = format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{{\"name\":\"note_write\",\"arguments\":{{\"text\":\"{}\"}}}}}}\n",
        "x".repeat(17 << 20)
    );
    write.write_all(huge.as_bytes()).await.unwrap();
    let call = json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call",
        "params": {"name": "note_write", "arguments": {"text": "after"}}});
    write
        .write_all(format!("{call}\n").as_bytes())
        .await
        .unwrap();
    let line = tokio::time::timeout(Duration::from_secs(30), lines.next_line())
        .await
        .expect("an answer")
        .unwrap()
        .unwrap();
    assert!(
        line.contains("\"id\":5") && line.contains("noted: after"),
        "{}",
        &line[..line.len().min(300)]
    );
    drop((write, lines));
    let _ = tokio::time::timeout(Duration::from_secs(10), serving).await;
    // Another connection to the same server works.
    let (client, _) = connect(&server, Session::new()).await;
    assert_eq!(names(&client).await.len(), 8);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn progress_reports_become_notifications() {
    let server = server(Mode::Mask);
    let mut groups = Session::new();
    groups.activate(support::AgentGroup::Waiting);
    let (client, counting) = connect(&server, groups).await;
    let mut params = support::args(json!({"n": 3}));
    params.name = "count".into();
    params.meta = Some(rmcp::model::RequestMetaObject::with_progress_token(
        rmcp::model::ProgressToken(rmcp::model::NumberOrString::String("p1".into())),
    ));
    let r = client.call_tool(params).await.unwrap();
    assert_eq!(text(&r), "counted to 3");
    // Sent before the result, in order.
    let progress = counting.progress.lock().unwrap().clone();
    assert_eq!(
        progress,
        [
            (1.0, Some(3.0), Some("step 1".to_owned())),
            (2.0, Some(3.0), Some("step 2".to_owned())),
            (3.0, Some(3.0), Some("step 3".to_owned())),
        ]
    );
    client.cancel().await.unwrap();
}
