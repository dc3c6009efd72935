//! A method of a capability the server does not declare answers `-32601` (method not found),
//! as an unknown method does. A toolkit without skills declares neither `resources` nor the
//! skills extension, so `resources/*`, `skills/list` and `skills/get` are not found; a
//! toolkit with skills declares both and answers them. Over Streamable HTTP (raw requests on
//! loopback) and over the stdio byte stream (rmcp's client), in mask and selected mode.

use crate::skills_support;
use crate::support;

use rmcp::model::{
    ErrorCode, GetSkillRequestParams, PaginatedRequestParams, ReadResourceRequestParams,
};
use serde_json::{Value, json};
use support::{connect, rpc_error, serve_loopback, stateless};
use toolgroup::{Registry, Session, Toolkit};
use toolgroup_mcp::{McpServer, Mode};

/// The methods of `resources` and of the skills extension, with params that a server with
/// the capability could answer.
fn methods() -> Vec<(&'static str, Value)> {
    vec![
        ("resources/list", json!({})),
        ("resources/templates/list", json!({})),
        (
            "resources/read",
            json!({"uri": "skill://release-checklist/SKILL.md"}),
        ),
        ("skills/list", json!({})),
        (
            "skills/get",
            json!({"uri": "skill://release-checklist/SKILL.md"}),
        ),
    ]
}

async fn spawn<R: Registry>(toolkit: Toolkit<R>, mode: Mode) -> String {
    let server: McpServer<R> = McpServer::new(toolkit, mode);
    let url = serve_loopback(server.http_service(stateless())).await;
    match mode {
        Mode::Selected => format!("{url}?groups="),
        _ => url,
    }
}

/// One JSON-RPC request over a stateless POST: the HTTP status and the answer.
async fn rpc(url: &str, id: u64, method: &str, params: &Value) -> (u16, Value) {
    let body = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
    let response = reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-06-18")
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let text = response.text().await.unwrap();
    let answer = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{method}: {e}: {text}"));
    (status, answer)
}

#[tokio::test]
async fn without_skills_the_resources_and_skills_methods_are_not_found_over_http() {
    for mode in [Mode::Mask, Mode::Selected] {
        let url = spawn(support::toolkit(), mode).await;
        // The reference: a method this server has under no toolkit.
        let (_, unknown) = rpc(&url, 1, "tools/explode", &json!({})).await;
        assert_eq!(unknown["error"]["code"], -32601, "{unknown}");
        assert_eq!(
            unknown["error"]["message"], "method not found: `tools/explode`",
            "{unknown}"
        );
        for (id, (method, params)) in (2..).zip(methods()) {
            let (status, answer) = rpc(&url, id, method, &params).await;
            assert_eq!(status, 200, "{mode:?} {method}: {answer}");
            assert_eq!(answer["id"], id, "{mode:?} {method}: {answer}");
            assert!(
                answer.get("result").is_none(),
                "{mode:?} {method}: {answer}"
            );
            assert_eq!(
                (&answer["error"]["code"], &answer["error"]["message"]),
                (&json!(-32601), &json!(method)),
                "{mode:?} {method}: {answer}"
            );
        }
    }
}

#[tokio::test]
async fn with_skills_the_resources_and_skills_methods_are_answered_over_http() {
    for mode in [Mode::Mask, Mode::Selected] {
        let url = spawn(skills_support::toolkit(), mode).await;
        for (id, (method, params)) in (1..).zip(methods()) {
            let (status, answer) = rpc(&url, id, method, &params).await;
            assert_eq!(status, 200, "{mode:?} {method}: {answer}");
            assert!(answer.get("error").is_none(), "{mode:?} {method}: {answer}");
            let result = &answer["result"];
            match method {
                "resources/list" => assert!(
                    result["resources"]
                        .as_array()
                        .is_some_and(|r| !r.is_empty()),
                    "{answer}"
                ),
                // Skill files have fixed URIs: no templates, an empty list.
                "resources/templates/list" => {
                    assert_eq!(result["resourceTemplates"], json!([]), "{answer}");
                }
                "resources/read" => assert_eq!(
                    result["contents"][0]["uri"], "skill://release-checklist/SKILL.md",
                    "{answer}"
                ),
                "skills/list" => assert_eq!(
                    result["skills"].as_array().map(Vec::len),
                    Some(2),
                    "{answer}"
                ),
                "skills/get" => assert_eq!(
                    result["skill"]["uri"], "skill://release-checklist/SKILL.md",
                    "{answer}"
                ),
                _ => unreachable!(),
            }
        }
        // A URI that is no skill file is still the extension's `-32602`, not `-32601`.
        let (_, answer) = rpc(
            &url,
            9,
            "resources/read",
            &json!({"uri": "test://static-text"}),
        )
        .await;
        assert_eq!(answer["error"]["code"], -32602, "{answer}");
    }
}

#[tokio::test]
async fn without_skills_the_methods_are_not_found_over_stdio_too() {
    let uri = "skill://release-checklist/SKILL.md";
    let plain = McpServer::new(support::toolkit(), Mode::Mask);
    let (client, _) = connect(&plain, Session::new()).await;
    let refusals = [
        (
            "resources/list",
            client.list_resources(None).await.map(drop),
        ),
        (
            "resources/templates/list",
            client.list_resource_templates(None).await.map(drop),
        ),
        (
            "resources/read",
            client
                .read_resource(ReadResourceRequestParams::new(uri))
                .await
                .map(drop),
        ),
        ("skills/list", client.list_skills(None).await.map(drop)),
        (
            "skills/get",
            client
                .get_skill(GetSkillRequestParams::new(uri))
                .await
                .map(drop),
        ),
    ];
    for (method, outcome) in refusals {
        let (code, message) = rpc_error(outcome.expect_err(method));
        assert_eq!(code, ErrorCode::METHOD_NOT_FOUND, "{method}: {message}");
        assert_eq!(message, method);
    }

    let with_skills = McpServer::new(skills_support::toolkit(), Mode::Mask);
    let (client, _) = connect(&with_skills, Session::new()).await;
    let page = Some(PaginatedRequestParams::default());
    assert!(
        !client
            .list_resources(page.clone())
            .await
            .unwrap()
            .resources
            .is_empty()
    );
    client.list_resource_templates(page.clone()).await.unwrap();
    client
        .read_resource(ReadResourceRequestParams::new(uri))
        .await
        .unwrap();
    assert_eq!(client.list_skills(page).await.unwrap().skills.len(), 2);
    client
        .get_skill(GetSkillRequestParams::new(uri))
        .await
        .unwrap();
}
