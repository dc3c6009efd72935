//! The in-process MCP client (`mcp` and `testing`): a real rmcp client and server over an
//! in-memory pipe, in each server mode.

use serde_json::json;
use toolgroup::mcp::rmcp::model::CallToolRequestParams;
use toolgroup::mcp::rmcp::service::ClientLifecycleMode;
use toolgroup::mcp::testing::{connect, connect_with};
use toolgroup::mcp::{McpServer, Mode};

#[allow(dead_code)]
#[path = "../../examples/support/agent.rs"]
mod agent;

fn call(name: &str, arguments: serde_json::Value) -> CallToolRequestParams {
    let serde_json::Value::Object(map) = arguments else {
        panic!("arguments are an object")
    };
    CallToolRequestParams::new(name.to_owned()).with_arguments(map)
}

async fn names(
    client: &toolgroup::mcp::rmcp::service::RunningService<toolgroup::mcp::rmcp::RoleClient, ()>,
) -> Vec<String> {
    client
        .list_all_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.name.into_owned())
        .collect()
}

#[tokio::test]
async fn a_client_lists_and_calls_tools_in_each_mode() {
    for mode in Mode::ALL {
        let server = McpServer::new(agent::toolkit(), mode);
        let client = connect(&server).await.unwrap();
        let listed = names(&client).await;
        let expected: &[&str] = match mode {
            Mode::Selected => &["note_write"],
            // Every tool; `reset_tools` only without first-use activation (the default is on).
            Mode::Mask => &["note_write", "web_search", "page_fetch"],
            _ => &["reset_tools", "note_write"],
        };
        assert_eq!(listed, expected, "{mode}");
        let result = client
            .call_tool(call("note_write", json!({"text": "hello"})))
            .await
            .unwrap();
        assert_eq!(result.is_error, Some(false), "{mode}");
        assert_eq!(
            result.content[0].as_text().unwrap().text,
            "Noted (5 characters).",
            "{mode}"
        );
        client.cancel().await.unwrap();
    }
}

/// With the groups chosen at connect time, and through a `reset_tools` call in list mode.
#[tokio::test]
async fn groups_chosen_at_connect_time_or_by_reset_tools() {
    let server = McpServer::new(agent::toolkit(), Mode::Selected);
    let groups = "web_search".parse().unwrap();
    let client = connect_with(&server, groups, (), ClientLifecycleMode::Initialize)
        .await
        .unwrap();
    assert_eq!(names(&client).await, ["note_write", "web_search"]);
    let result = client
        .call_tool(call("web_search", json!({"query": "rust"})))
        .await
        .unwrap();
    assert!(result.structured_content.is_some());
    client.cancel().await.unwrap();

    let server = McpServer::new(agent::toolkit(), Mode::List);
    let client = connect(&server).await.unwrap();
    let result = client
        .call_tool(call("reset_tools", json!({"scraping": true})))
        .await
        .unwrap();
    assert_eq!(result.is_error, Some(false));
    assert_eq!(
        names(&client).await,
        ["reset_tools", "note_write", "page_fetch"]
    );
    client.cancel().await.unwrap();
}
