//! Selecting groups per HTTP request, stateless and on every revision: the path below the
//! endpoint (`/mcp/web_search`), the `X-MCP-Toolsets` header and the `groups` parameter, in
//! every mode, over real HTTP on loopback (rmcp's client and raw POSTs); unknown names and
//! disagreeing forms get `400`.

use crate::support;

use std::sync::Arc;

use crate::http::client;
use rmcp::transport::StreamableHttpServerConfig;
use serde_json::{Value, json};
use support::{call, names, rpc_error, serve_loopback, stateless, text};
use toolgroup_mcp::{GroupStore, McpServer, MemoryStore, Mode};

const WEB_SEARCH: [&str; 4] = ["note_write", "slow_stats", "whoami", "web_search"];

/// One raw stateless POST of `tools/list` (2025-06-18) to `url` with `headers`: the status
/// and the body.
async fn list(url: &str, headers: &[(&str, &str)]) -> (u16, Value) {
    let mut request = reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-06-18")
        .body(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}).to_string());
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let body = response.text().await.unwrap();
    (
        status,
        serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body}")),
    )
}

fn listed(body: &Value) -> Vec<&str> {
    body["result"]["tools"]
        .as_array()
        .unwrap_or_else(|| panic!("no tools: {body}"))
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect()
}

#[tokio::test]
async fn each_form_selects_the_groups_in_every_mode() {
    for mode in Mode::ALL {
        let server = McpServer::new(support::toolkit(), mode);
        for (stateless_config, config) in [
            (false, StreamableHttpServerConfig::default()),
            (true, stateless()),
        ] {
            let url = serve_loopback(server.http_service(config)).await;
            for (url, headers) in [
                (format!("{url}/web_search"), &[][..]),
                (url.clone(), &[("x-mcp-toolsets", "web_search")][..]),
                (format!("{url}?groups=web_search"), &[][..]),
            ] {
                let c = client(&url, headers).await;
                assert_eq!(names(&c).await, WEB_SEARCH, "{mode} {url} {headers:?}");
                let info = c.peer_info().unwrap();
                assert!(
                    info.instructions
                        .as_deref()
                        .is_some_and(|i| i.contains("Cite your sources.")),
                    "{mode} {url}: {info:?}"
                );
                // Served in selected mode: no list changes, no groups extension.
                let tools = info.capabilities.tools.clone().unwrap_or_default();
                assert_eq!(tools.list_changed, None, "{mode} {url}");
                assert!(
                    !info
                        .capabilities
                        .extensions
                        .clone()
                        .unwrap_or_default()
                        .contains_key("io.modelcontextprotocol/groups"),
                    "{mode} {url}"
                );
                let r = call(&c, "web_search", json!({"query": "q"})).await.unwrap();
                assert_eq!(r.is_error, Some(false), "{mode} {url}: {}", text(&r));
                // A group that was not selected: an unknown tool.
                let (code, message) = rpc_error(
                    call(&c, "page_fetch", json!({"url": "https://a"}))
                        .await
                        .unwrap_err(),
                );
                assert_eq!(code, rmcp::model::ErrorCode::INVALID_PARAMS);
                assert!(
                    message.contains("which this connection did not select"),
                    "{message}"
                );
                c.cancel().await.unwrap();
            }
            if !stateless_config {
                continue;
            }
            // Two groups, in the path and in the header.
            let (status, body) = list(&format!("{url}/web_search,scraping/"), &[]).await;
            assert_eq!(status, 200, "{body}");
            assert_eq!(
                listed(&body),
                [&WEB_SEARCH[..], &["page_fetch"][..]].concat()
            );
            let (_, body) = list(&url, &[("x-mcp-toolsets", "scraping, web_search")]).await;
            assert_eq!(
                listed(&body),
                [&WEB_SEARCH[..], &["page_fetch"][..]].concat()
            );
            // The same groups in two forms are one selection.
            let (status, body) = list(
                &format!("{url}/web_search?groups=web_search"),
                &[("x-mcp-toolsets", "web_search")],
            )
            .await;
            assert_eq!((status, listed(&body)), (200, WEB_SEARCH.to_vec()));
        }
    }
}

#[tokio::test]
async fn without_a_selection_each_mode_is_as_before() {
    // Mask mode lists every tool but `reset_tools` (first-use activation is on).
    for (mode, expected) in [(Mode::Selected, 3), (Mode::Mask, 7), (Mode::List, 4)] {
        let server = McpServer::new(support::toolkit(), mode);
        let url = serve_loopback(server.http_service(stateless())).await;
        for url in [url.clone(), format!("{url}/")] {
            let (status, body) = list(&url, &[]).await;
            assert_eq!(status, 200, "{body}");
            assert_eq!(listed(&body).len(), expected, "{mode} {url}: {body}");
        }
    }
}

#[tokio::test]
async fn unknown_names_get_400_with_the_real_names() {
    let server = McpServer::new(support::toolkit(), Mode::Mask);
    let url = serve_loopback(server.http_service(stateless())).await;
    for (url, headers) in [
        (format!("{url}/web_serch,nope"), &[][..]),
        (url.clone(), &[("x-mcp-toolsets", "web_serch, nope")][..]),
        (format!("{url}?groups=web_serch,nope"), &[][..]),
    ] {
        let (status, body) = list(&url, headers).await;
        assert_eq!(status, 400, "{url} {headers:?}: {body}");
        assert_eq!(body["error"], "unknown_groups");
        assert_eq!(
            body["unknown"],
            json!([{"name": "web_serch", "did_you_mean": "web_search"},
                   {"name": "nope", "did_you_mean": null}])
        );
        assert_eq!(body["groups"], json!(["web_search", "scraping", "waiting"]));
    }
    // Control characters and long names come back escaped and cut.
    let (status, body) = list(&format!("{url}/a%1B%5B31m{}", "b".repeat(100)), &[]).await;
    assert_eq!(status, 400);
    let name = body["unknown"][0]["name"].as_str().unwrap();
    assert_eq!(name, format!("a\\u{{1b}}[31m{}…", "b".repeat(58)));
    assert!(
        !body["message"].as_str().unwrap().contains('\u{1b}'),
        "{body}"
    );
    // The basic tools are no group to select.
    let (status, body) = list(&url, &[("x-mcp-toolsets", "notes")]).await;
    assert_eq!(status, 400, "{body}");
}

#[tokio::test]
async fn forms_that_disagree_get_400() {
    let server = McpServer::new(support::toolkit(), Mode::List);
    let url = serve_loopback(server.http_service(stateless())).await;
    let (status, body) = list(
        &format!("{url}/web_search"),
        &[("x-mcp-toolsets", "scraping")],
    )
    .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(
        body,
        json!({"error": "conflicting_groups",
               "message": "the path selects `web_search` but the `X-MCP-Toolsets` header selects `scraping`: a request selects its groups once (or the same groups in each form it uses)"})
    );
    let (status, body) = list(&format!("{url}/waiting?groups="), &[]).await;
    assert_eq!(status, 400, "{body}");
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .ends_with("the `groups` parameter selects no group: a request selects its groups once (or the same groups in each form it uses)"),
        "{body}"
    );
}

/// A request that selects its groups keeps no state: the store of a keyed server is not
/// read nor written.
#[tokio::test]
async fn a_selection_keeps_nothing() {
    let store = Arc::new(MemoryStore::new());
    let server = McpServer::new(support::toolkit(), Mode::Mask)
        .with_store(store.clone())
        .with_key(crate::http::user_key);
    let url = serve_loopback(server.http_service(stateless())).await;
    let c = client(&format!("{url}/scraping"), &[("x-user", "alice")]).await;
    let r = call(&c, "page_fetch", json!({"url": "https://a"}))
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(false), "{}", text(&r));
    let e = call(&c, "reset_tools", json!({"web_search": true}))
        .await
        .unwrap_err();
    assert_eq!(rpc_error(e).0, rmcp::model::ErrorCode::INVALID_PARAMS);
    c.cancel().await.unwrap();
    assert_eq!(store.len(), 0);
    assert_eq!(store.load("alice").await.unwrap(), None);
}
