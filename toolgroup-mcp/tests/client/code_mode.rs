//! Code mode over MCP (`McpServer::with_code_mode`): `run_program` listed with the
//! declarations of what the client is shown, and its programs' calls made on the client's
//! active set, kept where that set lives. In the `client` binary, the one CI builds with
//! every feature and runs with the Python SDK's venv (`MCP_VENV`).

use std::sync::Arc;

use serde_json::json;
use toolgroup::Session;
use toolgroup::code::Limits;
use toolgroup_mcp::{GroupStore, McpServer, MemoryStore, Mode};

use crate::support::{self, call, connect, names, post_as, serve_loopback, stateless, user_key};

fn server(mode: Mode) -> McpServer<support::Agent> {
    McpServer::new(support::toolkit(), mode)
        .with_first_use_activation(true)
        .with_code_mode(Limits::new())
}

#[tokio::test]
async fn the_python_sdk_runs_a_program() {
    crate::python::run_script(server(Mode::Mask), "code_mode.py").await;
}

#[tokio::test]
async fn a_program_on_a_connection_keeps_what_its_calls_switch_on() {
    let (client, _) = connect(&server(Mode::List), Session::new()).await;
    let listed = names(&client).await;
    assert!(listed.contains(&"run_program".to_owned()), "{listed:?}");
    let program = "return (await web_search.web_search({ query: 'q' })).length > 0;";
    let r = call(&client, "run_program", json!({"program": program}))
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(false), "{}", support::text(&r));
    let structured = r.structured_content.clone().unwrap();
    assert_eq!(structured["result"], json!(true), "{structured}");
    // First use from the program: the group is the connection's now, and listed.
    assert!(names(&client).await.contains(&"web_search".to_owned()));
    let tools = client.list_all_tools().await.unwrap();
    let run = tools.iter().find(|t| t.name == "run_program").unwrap();
    let description = run.description.as_deref().unwrap_or_default();
    assert!(
        description.contains("declare namespace web_search {"),
        "{description}"
    );
    assert!(
        !description.contains("declare namespace scraping {"),
        "{description}"
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_stateless_clients_program_saves_its_activation_under_its_key() {
    let store = Arc::new(MemoryStore::new());
    let url = serve_loopback(
        server(Mode::Mask)
            .with_store(store.clone())
            .with_key(user_key)
            .http_service(stateless()),
    )
    .await;
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "run_program", "arguments": {"program": "await scraping.page_fetch({ url: 'https://a' }); return 1;"}}});
    let v = post_as(&url, "ann", &body).await;
    assert_eq!(v["result"]["isError"], false, "{v}");
    assert_eq!(v["result"]["structuredContent"]["result"], 1, "{v}");
    assert_eq!(
        store.load("ann").await.unwrap(),
        Some(vec!["scraping".to_owned()])
    );
    // Bad arguments change nothing and say what is expected.
    let bad = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "run_program", "arguments": {"code": "return 1;"}}});
    let v = post_as(&url, "ann", &bad).await;
    assert_eq!(v["result"]["isError"], true, "{v}");
    assert!(v.to_string().contains("{\\\"program\\\""), "{v}");
}
