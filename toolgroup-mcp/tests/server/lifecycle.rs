//! Lifecycle rules over MCP, on a connection's own active set: each `tools/call` is a use,
//! the cap and idle rules switch groups off, the result tells the model, and list mode sends
//! `list_changed` so the client lists the smaller set.

use crate::support;

use std::sync::atomic::Ordering;
use std::time::Duration;

use serde_json::json;
use support::{Agent, call, connect, names, text};
use toolgroup::Session;
use toolgroup::lifecycle::Lifecycle;
use toolgroup_mcp::{McpServer, Mode};

fn server(rules: Lifecycle<Agent>, mode: Mode) -> McpServer<Agent> {
    let toolkit = support::toolkit().with_lifecycle(rules).unwrap();
    McpServer::new(toolkit, mode).with_first_use_activation(true)
}

#[tokio::test]
async fn the_cap_evicts_on_a_connection_and_the_result_and_the_list_tell() {
    let (client, counting) = connect(
        &server(Lifecycle::new().max_active(1), Mode::List),
        Session::new(),
    )
    .await;
    let r = call(&client, "web_search", json!({"query": "q"}))
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(false), "{}", text(&r));
    assert!(!text(&r).contains("Switched off"), "{}", text(&r));
    let r = call(&client, "page_fetch", json!({"url": "https://a"}))
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(false), "{}", text(&r));
    assert!(
        text(&r).contains("`web_search` (least recently used; at most 1 groups stay active)"),
        "{}",
        text(&r)
    );
    tokio::time::timeout(Duration::from_secs(10), async {
        while counting.list_changed.load(Ordering::SeqCst) < 2 {
            counting.changed.notified().await;
        }
    })
    .await
    .expect("list_changed for each change");
    let listed = names(&client).await;
    assert!(listed.contains(&"page_fetch".to_owned()), "{listed:?}");
    assert!(!listed.contains(&"web_search".to_owned()), "{listed:?}");
    // Calling it again brings it back (first use), evicting the other.
    let r = call(&client, "web_search", json!({"query": "again"}))
        .await
        .unwrap();
    assert!(
        text(&r).contains("Cite your sources."),
        "delivered again: {}",
        text(&r)
    );
    assert!(text(&r).contains("`scraping`"), "{}", text(&r));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn idle_groups_go_after_the_calls_that_leave_them_unused() {
    let (client, counting) = connect(
        &server(Lifecycle::new().idle_requests(2), Mode::List),
        Session::new(),
    )
    .await;
    call(&client, "web_search", json!({"query": "q"}))
        .await
        .unwrap();
    let r = call(&client, "page_fetch", json!({"url": "https://a"}))
        .await
        .unwrap();
    assert!(!text(&r).contains("Switched off"), "{}", text(&r));
    let r = call(&client, "page_fetch", json!({"url": "https://b"}))
        .await
        .unwrap();
    assert!(
        text(&r).contains("`web_search` (unused by the last 2 tool call(s))"),
        "{}",
        text(&r)
    );
    // Two activations, then the switch-off: three list changes.
    tokio::time::timeout(Duration::from_secs(10), async {
        while counting.list_changed.load(Ordering::SeqCst) < 3 {
            counting.changed.notified().await;
        }
    })
    .await
    .expect("list_changed for the switch-off");
    assert!(!names(&client).await.contains(&"web_search".to_owned()));
    // A basic tool's call is a call too, and uses no switchable group.
    call(&client, "note_write", json!({"text": "n"}))
        .await
        .unwrap();
    let r = call(&client, "note_write", json!({"text": "m"}))
        .await
        .unwrap();
    assert!(text(&r).contains("`scraping`"), "{}", text(&r));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn reset_tools_over_the_cap_is_refused_over_mcp() {
    let toolkit = support::toolkit()
        .with_lifecycle(Lifecycle::new().max_active(1))
        .unwrap();
    let server = McpServer::new(toolkit, Mode::List);
    let (client, _) = connect(&server, Session::new()).await;
    let r = call(
        &client,
        "reset_tools",
        json!({"web_search": true, "scraping": true}),
    )
    .await
    .unwrap();
    assert_eq!(r.is_error, Some(true), "{}", text(&r));
    assert!(text(&r).contains("at most 1 may be active"), "{}", text(&r));
    assert!(!names(&client).await.contains(&"web_search".to_owned()));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_group_idle_for_its_duration_goes_before_the_next_call() {
    let (client, counting) = connect(
        &server(
            Lifecycle::new().idle_for(Duration::from_millis(300)),
            Mode::List,
        ),
        // Active from the start: counted as used from the first call on, not from 1970.
        Session::restore(["scraping"]).unwrap(),
    )
    .await;
    let r = call(&client, "web_search", json!({"query": "q"}))
        .await
        .unwrap();
    assert!(!text(&r).contains("Switched off"), "{}", text(&r));
    tokio::time::sleep(Duration::from_millis(400)).await;
    let r = call(&client, "note_write", json!({"text": "n"}))
        .await
        .unwrap();
    assert!(
        text(&r).contains("`web_search` (unused for 1 s)"),
        "{}",
        text(&r)
    );
    assert!(text(&r).contains("`scraping`"), "{}", text(&r));
    tokio::time::timeout(Duration::from_secs(10), async {
        while counting.list_changed.load(Ordering::SeqCst) < 2 {
            counting.changed.notified().await;
        }
    })
    .await
    .expect("list_changed for the expiry");
    let listed = names(&client).await;
    assert!(!listed.contains(&"web_search".to_owned()), "{listed:?}");
    assert!(!listed.contains(&"page_fetch".to_owned()), "{listed:?}");
    client.cancel().await.unwrap();
}

/// Output schemas admit the switch-offs only under rules: a toolkit without them lists no
/// byte of the key.
#[tokio::test]
async fn output_schemas_admit_the_switch_offs_under_rules_only() {
    let plain = McpServer::new(crate::activation::toolkit(), Mode::Mask);
    let (client, _) = connect(&plain, Session::new()).await;
    for (tool, schema) in crate::activation::output_schemas(&client).await {
        if let Some(schema) = schema {
            assert!(!schema.to_string().contains("deactivated_groups"), "{tool}");
        }
    }
    client.cancel().await.unwrap();
    let toolkit = crate::activation::toolkit()
        .with_lifecycle(Lifecycle::new().idle_requests(1))
        .unwrap();
    let (client, _) = connect(&McpServer::new(toolkit, Mode::Mask), Session::new()).await;
    let schemas = crate::activation::output_schemas(&client).await;
    assert!(schemas.iter().any(|(_, s)| s.is_some()));
    for (tool, schema) in schemas {
        if let Some(schema) = schema {
            assert_eq!(
                schema["properties"]["deactivated_groups"],
                json!({"type": "object"}),
                "{tool}"
            );
        }
    }
    client.cancel().await.unwrap();
}

/// Clients that show their model only a result's structured content (Claude Code, Codex's
/// function tools) read the switch-offs there, in every output shape, valid against the
/// listed schema.
#[tokio::test]
async fn the_structured_content_tells_the_switch_offs_in_every_output_shape() {
    for tool in ["closed_count", "open_label", "listing", "failing"] {
        let toolkit = crate::activation::toolkit()
            .with_lifecycle(Lifecycle::new().idle_requests(1))
            .unwrap();
        let (client, _) = connect(&McpServer::new(toolkit, Mode::Mask), Session::new()).await;
        let schemas = crate::activation::output_schemas(&client).await;
        let schema = schemas
            .into_iter()
            .find(|(name, _)| name == tool)
            .and_then(|(_, s)| s)
            .unwrap_or_else(|| panic!("{tool} lists an output schema"));
        call(&client, "long_read", json!({"page": 1}))
            .await
            .unwrap();
        let arguments = match tool {
            "failing" => json!({"fail": false}),
            _ => json!({}),
        };
        let r = call(&client, tool, arguments).await.unwrap();
        assert_eq!(r.is_error, Some(false), "{tool}: {}", text(&r));
        assert!(
            text(&r).contains("`long` (unused by the last 1 tool call(s))"),
            "{tool}"
        );
        let structured = r.structured_content.clone().expect("structured content");
        let how_back =
            "Their tools are not listed now; calling one of them switches its group back on.";
        assert_eq!(
            structured["deactivated_groups"],
            json!({"groups": [{"group": "long", "reason": "idle_requests", "requests": 1}],
                   "how_back": how_back}),
            "{tool}: {structured}"
        );
        let validator = jsonschema::validator_for(&schema).expect("a valid schema");
        let errors: Vec<String> = validator
            .iter_errors(&structured)
            .map(|e| e.to_string())
            .collect();
        assert!(errors.is_empty(), "{tool}: {errors:?} in {structured}");
        client.cancel().await.unwrap();
    }
}

/// An output whose field takes the name reserved under rules.
#[derive(serde::Serialize, schemars::JsonSchema)]
pub struct Clashing {
    /// The user's own field of that name.
    pub deactivated_groups: Vec<String>,
}

/// Returns the clashing output.
#[toolgroup::tool]
pub fn clash() -> Clashing {
    Clashing {
        deactivated_groups: Vec::new(),
    }
}

#[toolgroup::tool_group(name = "clashing", description = "A clash.", tools = [clash])]
pub struct ClashGroup;

#[toolgroup::toolkit]
pub struct ClashKit {
    clashing: ClashGroup,
}

fn clash_kit() -> toolgroup::Toolkit<ClashKit> {
    toolgroup::Toolkit::new(ClashKit {
        clashing: ClashGroup,
    })
}

#[test]
fn the_switch_offs_key_is_free_without_rules() {
    let _ = McpServer::new(clash_kit(), Mode::Mask);
}

#[test]
#[should_panic(expected = "the output of the tool `clash` has a field named `deactivated_groups`")]
fn an_output_field_named_like_the_switch_offs_is_refused_under_rules() {
    let toolkit = clash_kit()
        .with_lifecycle(Lifecycle::new().max_active(1))
        .unwrap();
    let _ = McpServer::new(toolkit, Mode::Mask);
}
