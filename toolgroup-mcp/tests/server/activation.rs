//! A first use's activation reaches the model whatever the client shows of a result: the
//! group's tools and instructions are in the result's last text block (for clients that show
//! text) and under `activated_group` in its structured content (for clients that show only
//! the structured content when there is one: Claude Code, Codex, pydantic-ai), for every
//! shape of output, once; the structured content validates against the output schema the
//! server lists, which admits the key for every tool.

use std::sync::Arc;

use rmcp::model::CallToolResult;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};
use toolgroup::Session;
use toolgroup::prelude::*;
use toolgroup_mcp::{McpServer, MemoryStore, Mode};

use super::long_instructions::Long;
use crate::support::{Client, call, connect, names, serve_loopback, stateless, text};

const INSTRUCTIONS: &str = "Count twice, answer once.";

/// An object whose schema is closed (`additionalProperties: false`).
#[derive(Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Closed {
    /// How many.
    pub count: u32,
}

/// An object whose schema is open.
#[derive(Serialize, JsonSchema)]
pub struct Open {
    /// A label.
    pub label: String,
}

/// A closed object.
#[tool(read_only)]
pub fn closed_count() -> Closed {
    Closed { count: 3 }
}

/// An open object.
#[tool(read_only)]
pub fn open_label() -> Open {
    Open {
        label: "x".to_owned(),
    }
}

/// A list: not an object, so wrapped as `{"result": [...]}`.
#[tool(read_only)]
pub fn listing() -> Vec<String> {
    vec!["a".to_owned(), "b".to_owned()]
}

/// Plain text: no output schema, no structured content.
#[tool(read_only)]
pub fn plain() -> String {
    "plain words".to_owned()
}

/// An image.
#[tool(read_only)]
pub fn picture() -> Image {
    Image::new(vec![0x89, b'P', b'N', b'G'], "image/png")
}

/// Fails when asked to.
#[tool]
pub fn failing(
    /// Whether to fail.
    fail: bool,
) -> Result<Closed, String> {
    if fail {
        Err("it failed, as asked".to_owned())
    } else {
        Ok(Closed { count: 1 })
    }
}

#[tool_group(
    name = "shapes",
    description = "Tools of every output shape.",
    instructions = "Count twice, answer once.",
    tools = [closed_count, open_label, listing, plain, picture, failing]
)]
pub struct Shapes;

/// Write a note.
#[tool]
pub fn jot(
    /// The note.
    text: String,
) -> String {
    text
}

#[tool_group(name = "desk", description = "Notes.", tools = [jot])]
pub struct Desk;

#[toolkit]
pub struct Kit {
    #[basic]
    desk: Desk,
    shapes: Shapes,
    long: Long,
}

pub(crate) fn toolkit() -> Toolkit<Kit> {
    Toolkit::new(Kit {
        desk: Desk,
        shapes: Shapes,
        long: Long,
    })
}

/// The default server: mask mode, first-use activation, default hints.
fn server() -> McpServer<Kit> {
    McpServer::new(toolkit(), Mode::Mask)
}

/// Each listed output schema, by tool name.
pub(crate) async fn output_schemas(client: &Client) -> Vec<(String, Option<Value>)> {
    client
        .list_all_tools()
        .await
        .expect("tools/list")
        .into_iter()
        .map(|t| {
            let schema = t.output_schema.map(|s| Value::Object(s.as_ref().clone()));
            (t.name.into_owned(), schema)
        })
        .collect()
}

/// How many times the instructions reach a model that shows `result`'s structured content
/// when it has one, else its text; and one that shows only its text.
fn deliveries(result: &CallResult) -> (usize, usize) {
    let text = text(result);
    let in_text = text.matches(INSTRUCTIONS).count();
    let structured_view = match &result.structured_content {
        Some(value) => value.to_string().matches(INSTRUCTIONS).count(),
        None => in_text,
    };
    (structured_view, in_text)
}

type CallResult = CallToolResult;

#[tokio::test]
async fn every_output_shape_carries_the_activation_once_where_each_client_looks() {
    let cases: [(&str, Value); 5] = [
        ("closed_count", json!({})),
        ("open_label", json!({})),
        ("listing", json!({})),
        ("plain", json!({})),
        ("picture", json!({})),
    ];
    for (tool, arguments) in cases {
        let (client, _) = connect(&server(), Session::new()).await;
        let schemas = output_schemas(&client).await;
        let schema = schemas
            .iter()
            .find(|(name, _)| name == tool)
            .and_then(|(_, s)| s.clone());
        let first = call(&client, tool, arguments.clone()).await.unwrap();
        assert_eq!(first.is_error, Some(false), "{tool}: {}", text(&first));
        assert_eq!(deliveries(&first), (1, 1), "{tool}: {first:?}");
        if let Some(structured) = &first.structured_content {
            let schema = schema.unwrap_or_else(|| panic!("{tool}: structured without a schema"));
            assert_eq!(structured["activated_group"]["group"], "shapes", "{tool}");
            assert_eq!(
                structured["activated_group"]["instructions"], INSTRUCTIONS,
                "{tool}"
            );
            let validator = jsonschema::validator_for(&schema).expect("a valid schema");
            let errors: Vec<String> = validator
                .iter_errors(structured)
                .map(|e| e.to_string())
                .collect();
            assert!(errors.is_empty(), "{tool}: {errors:?} in {structured}");
        }
        // Once: the group is active now.
        let again = call(&client, tool, arguments).await.unwrap();
        assert_eq!(deliveries(&again), (0, 0), "{tool}: {again:?}");
        if let Some(structured) = &again.structured_content {
            assert!(structured.get("activated_group").is_none(), "{tool}");
        }
        client.cancel().await.unwrap();
    }
}

#[tokio::test]
async fn every_listed_output_schema_admits_the_activation() {
    let (client, _) = connect(&server(), Session::new()).await;
    let schemas = output_schemas(&client).await;
    let with_schema: Vec<&str> = schemas
        .iter()
        .filter(|(_, s)| s.is_some())
        .map(|(n, _)| n.as_str())
        .collect();
    assert_eq!(
        with_schema,
        ["closed_count", "open_label", "listing", "failing"]
    );
    for (name, schema) in &schemas {
        let Some(schema) = schema else { continue };
        assert_eq!(
            schema["properties"]["activated_group"],
            json!({"type": "object"}),
            "{name}: {schema}"
        );
        // Optional: a result without an activation validates too.
        let required = schema["required"].as_array().cloned().unwrap_or_default();
        assert!(!required.contains(&json!("activated_group")), "{name}");
    }
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn an_error_result_activates_nothing_and_the_next_success_delivers_once() {
    let (client, _) = connect(&server(), Session::new()).await;
    let failed = call(&client, "failing", json!({"fail": true}))
        .await
        .unwrap();
    assert_eq!(failed.is_error, Some(true));
    assert_eq!(deliveries(&failed), (0, 0), "{failed:?}");
    let bad = call(&client, "failing", json!({"fail": "yes"}))
        .await
        .unwrap();
    assert_eq!(bad.is_error, Some(true));
    assert_eq!(deliveries(&bad), (0, 0), "{bad:?}");
    let ok = call(&client, "failing", json!({"fail": false}))
        .await
        .unwrap();
    assert_eq!(ok.is_error, Some(false), "{}", text(&ok));
    assert_eq!(deliveries(&ok), (1, 1), "{ok:?}");
    let failed = call(&client, "failing", json!({"fail": true}))
        .await
        .unwrap();
    assert_eq!(deliveries(&failed), (0, 0), "{failed:?}");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn twenty_kilobytes_of_instructions_are_delivered_whole_once() {
    let long = <Kit as toolgroup::Registry>::GROUPS
        .iter()
        .find(|g| g.name == "long")
        .and_then(|g| g.instructions)
        .unwrap();
    assert!(long.len() > 20_000);
    let (client, _) = connect(&server(), Session::new()).await;
    let first = call(&client, "long_read", json!({"page": 1}))
        .await
        .unwrap();
    assert_eq!(first.is_error, Some(false));
    assert_eq!(text(&first).matches(long).count(), 1);
    let again = call(&client, "long_read", json!({"page": 2}))
        .await
        .unwrap();
    assert_eq!(text(&again).matches(long).count(), 0);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn concurrent_first_uses_of_one_connection_deliver_once() {
    let (client, _) = connect(&server(), Session::new()).await;
    let client = Arc::new(client);
    let calls = (0..8).map(|_| {
        let client = client.clone();
        tokio::spawn(async move { call(&client, "listing", json!({})).await.unwrap() })
    });
    let mut delivered = 0;
    for handle in calls {
        let result = handle.await.unwrap();
        assert_eq!(result.is_error, Some(false));
        delivered += deliveries(&result).0;
    }
    assert_eq!(delivered, 1);
}

#[tokio::test]
async fn concurrent_first_uses_under_one_key_deliver_once() {
    let store = Arc::new(MemoryStore::new());
    let url = serve_loopback(
        server()
            .with_store(store.clone())
            .with_key(crate::http::user_key)
            .http_service(stateless()),
    )
    .await;
    let calls = (0..8u64).map(|i| {
        let url = url.clone();
        tokio::spawn(async move {
            let body = crate::http::call_body(i + 1, "listing", json!({}));
            let (_, text) =
                crate::http::post(&reqwest::Client::new(), &url, Some("carol"), &body).await;
            serde_json::from_str::<Value>(&text).unwrap()["result"].clone()
        })
    });
    let mut delivered = 0;
    for handle in calls {
        let result = handle.await.unwrap();
        assert_eq!(result["isError"], false, "{result}");
        delivered += result["structuredContent"]
            .to_string()
            .matches(INSTRUCTIONS)
            .count();
    }
    assert_eq!(delivered, 1);
}

#[tokio::test]
async fn reset_tools_is_listed_only_where_the_model_needs_it() {
    let listed = |server: McpServer<Kit>| async move {
        let (client, _) = connect(&server, Session::new()).await;
        let names = names(&client).await;
        client.cancel().await.unwrap();
        names.iter().any(|n| n == "reset_tools")
    };
    // Mask mode with first-use activation: every tool is callable, no switch to show.
    assert!(!listed(server()).await);
    assert!(!listed(server().with_first_use_activation(true)).await);
    assert!(listed(server().with_first_use_activation(false)).await);
    assert!(listed(server().with_reset_tools_listed(true)).await);
    // List mode grows its list with it.
    assert!(listed(McpServer::new(toolkit(), Mode::List)).await);
    // Unlisted, it still answers a client that calls it.
    let (client, _) = connect(&server(), Session::new()).await;
    let r = call(&client, "reset_tools", json!({"shapes": true}))
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(false), "{}", text(&r));
    assert!(text(&r).contains(INSTRUCTIONS), "{}", text(&r));
    client.cancel().await.unwrap();
}

/// An output whose field takes the reserved name.
#[derive(Serialize, JsonSchema)]
pub struct Clashing {
    /// The user's own field of that name.
    pub activated_group: String,
}

/// Returns the clashing output.
#[tool]
pub fn clash() -> Clashing {
    Clashing {
        activated_group: "mine".to_owned(),
    }
}

#[tool_group(name = "clashing", description = "A clash.", tools = [clash])]
pub struct ClashGroup;

#[toolkit]
pub struct ClashKit {
    clashing: ClashGroup,
}

#[test]
#[should_panic(expected = "the output of the tool `clash` has a field named `activated_group`")]
fn an_output_field_named_like_the_activation_is_refused_when_the_server_is_built() {
    let _ = McpServer::new(
        Toolkit::new(ClashKit {
            clashing: ClashGroup,
        }),
        Mode::Mask,
    );
}

/// The memory store's single-use tokens: of 64 concurrent uses exactly one is the first, and
/// a record lasts its time to live.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_memory_store_uses_a_token_once() {
    use toolgroup_mcp::GroupStore;
    let store = Arc::new(MemoryStore::new());
    let ttl = std::time::Duration::from_secs(60);
    let uses = (0..64).map(|_| {
        let store = store.clone();
        tokio::spawn(async move { store.consume("token", ttl).await.unwrap() })
    });
    let mut firsts = 0;
    for use_ in uses {
        firsts += usize::from(use_.await.unwrap());
    }
    assert_eq!(firsts, 1);
    // Many tokens: each used once, the expired ones forgotten.
    let short = std::time::Duration::from_millis(1);
    for i in 0..300 {
        assert!(store.consume(&format!("t{i}"), short).await.unwrap());
    }
    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    assert!(store.consume("t0", short).await.unwrap());
    assert!(!store.consume("token", ttl).await.unwrap());
}
