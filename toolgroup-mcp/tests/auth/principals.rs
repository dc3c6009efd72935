//! Principals kept apart: protocol sessions, stateless active groups, and many clients at
//! once.

use serde_json::{Value, json};
use toolgroup_mcp::Mode;

use crate::idp::{Idp, call_body, post, serve, serve_toolkit};

fn stateless() -> rmcp::transport::StreamableHttpServerConfig {
    rmcp::transport::StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
        .with_json_response(true)
}

fn result(text: &str) -> Value {
    let v: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"));
    v["result"].clone()
}

async fn initialize(url: &str, token: &str) -> reqwest::Response {
    reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("authorization", format!("Bearer {token}"))
        .body(
            json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                "protocolVersion": "2025-06-18", "capabilities": {},
                "clientInfo": {"name": "t", "version": "1"}}})
            .to_string(),
        )
        .send()
        .await
        .unwrap()
}

async fn in_session(url: &str, token: &str, session: &str, body: &Value) -> reqwest::Response {
    reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("authorization", format!("Bearer {token}"))
        .header("mcp-session-id", session)
        .header("mcp-protocol-version", "2025-06-18")
        .body(body.to_string())
        .send()
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_session_is_its_openers_alone() {
    let Some(idp) = Idp::start() else { return };
    let config = rmcp::transport::StreamableHttpServerConfig::default().with_json_response(true);
    let url = serve(&idp, Mode::Mask, config, |v| v, |a| a).await;
    let alice = idp.token(&url, "alice", "");
    let bob = idp.token(&url, "bob", "");
    let opened = initialize(&url, &alice).await;
    assert_eq!(opened.status(), 200);
    let session = opened.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    assert!(
        in_session(&url, &alice, &session, &initialized)
            .await
            .status()
            .is_success()
    );
    // Bob's token with Alice's session id: as if the session did not exist.
    let stolen = in_session(&url, &bob, &session, &call_body("whoami", json!({}))).await;
    assert_eq!(stolen.status(), 404);
    assert!(!stolen.text().await.unwrap().contains("alice"));
    // Alice's session still works for her.
    let own = in_session(&url, &alice, &session, &call_body("whoami", json!({}))).await;
    assert_eq!(own.status(), 200);
    assert!(own.text().await.unwrap().contains("alice"));
}

#[tokio::test(flavor = "multi_thread")]
async fn stateless_active_groups_are_each_principals() {
    let Some(idp) = Idp::start() else { return };
    let url = serve(&idp, Mode::List, stateless(), |v| v, |a| a).await;
    let scopes = "web:read web:fetch";
    let alice = idp.token(&url, "alice", scopes);
    let bob = idp.token(&url, "bob", scopes);
    // 100 clients at once, half Alice's and half Bob's: Alice switches `web_search` on and
    // Bob `scraping`, each many times; each list shows its principal's group alone.
    let mut tasks = Vec::new();
    for i in 0..100 {
        let (token, group) = if i % 2 == 0 {
            (alice.clone(), "web_search")
        } else {
            (bob.clone(), "scraping")
        };
        let url = url.clone();
        tasks.push(tokio::spawn(async move {
            let reset = post(
                &url,
                Some(&token),
                &call_body("reset_tools", json!({group: true})),
            )
            .await;
            assert_eq!(reset.status(), 200);
            let listed = post(
                &url,
                Some(&token),
                &json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
            )
            .await;
            let tools = result(&listed.text().await.unwrap());
            let names: Vec<String> = tools["tools"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t["name"].as_str().unwrap().to_owned())
                .collect();
            (group, names)
        }));
    }
    for task in tasks {
        let (group, names) = task.await.unwrap();
        let (own, other) = if group == "web_search" {
            ("web_search", "page_fetch")
        } else {
            ("page_fetch", "web_search")
        };
        assert!(names.iter().any(|n| n == own), "{group}: {names:?}");
        assert!(!names.iter().any(|n| n == other), "{group}: {names:?}");
    }
}

/// Under lifecycle rules, a stateless principal's state is its own: Alice's calls switch off
/// Alice's groups, never Bob's.
#[tokio::test]
async fn stateless_lifecycle_states_are_each_principals() {
    let Some(idp) = Idp::start() else { return };
    let rules = |toolkit: toolgroup::Toolkit<crate::idp::Agent>| {
        toolkit
            .with_lifecycle(toolgroup::lifecycle::Lifecycle::new().max_active(1))
            .unwrap()
    };
    let url = serve_toolkit(&idp, Mode::Mask, stateless(), |v| v, |a| a, rules).await;
    let scopes = "web:read web:fetch";
    let alice = idp.token(&url, "alice", scopes);
    let bob = idp.token(&url, "bob", scopes);
    let call = |token: String, name: &'static str, arguments: Value| {
        let url = url.clone();
        async move {
            let r = post(&url, Some(&token), &call_body(name, arguments)).await;
            assert_eq!(r.status(), 200);
            let r = result(&r.text().await.unwrap());
            assert_eq!(r["isError"], false, "{r}");
            r["content"].to_string()
        }
    };
    call(bob.clone(), "web_search", json!({"query": "b"})).await;
    call(alice.clone(), "web_search", json!({"query": "a"})).await;
    // Alice's second group evicts Alice's first.
    let text = call(alice.clone(), "page_fetch", json!({"url": "https://a"})).await;
    assert!(text.contains("`web_search` (least recently used"), "{text}");
    // Bob's `web_search` is still on: his call activates nothing and is told of nothing.
    let text = call(bob, "web_search", json!({"query": "b2"})).await;
    assert!(!text.contains("Switched off"), "{text}");
    assert!(!text.contains("activated"), "{text}");
}

fn names(text: &str) -> Vec<String> {
    result(text)["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn each_principal_lists_and_calls_what_its_scopes_cover() {
    let Some(idp) = Idp::start() else { return };
    let url = serve(&idp, Mode::Mask, stateless(), |v| v, |a| a).await;
    let reader = idp.token(&url, "alice", "web:read");
    let nobody = idp.token(&url, "bob", "");
    let listed = post(
        &url,
        Some(&reader),
        &json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
    )
    .await;
    assert_eq!(
        names(&listed.text().await.unwrap()),
        ["reset_tools", "note_write", "whoami", "web_search"]
    );
    let listed = post(
        &url,
        Some(&nobody),
        &json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
    )
    .await;
    // No group to switch: no `reset_tools` either.
    assert_eq!(
        names(&listed.text().await.unwrap()),
        ["note_write", "whoami"]
    );
    // reset_tools offers the entitled groups alone.
    let listed = post(
        &url,
        Some(&reader),
        &json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
    )
    .await;
    let tools = result(&listed.text().await.unwrap());
    let properties = &tools["tools"][0]["inputSchema"]["properties"];
    assert!(
        properties.get("web_search").is_some() && properties.get("scraping").is_none(),
        "{properties}"
    );
    // A call without the scope: an error result naming it (the default), the tool not run.
    let denied = post(
        &url,
        Some(&reader),
        &call_body("page_fetch", json!({"url": "https://a"})),
    )
    .await;
    assert_eq!(denied.status(), 200);
    let text = denied.text().await.unwrap();
    assert!(
        text.contains("web:fetch") && !text.contains("page https://a"),
        "{text}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn insufficient_scope_mode_answers_403_with_the_required_scopes() {
    let Some(idp) = Idp::start() else { return };
    let url = serve(
        &idp,
        Mode::Mask,
        stateless(),
        |v| v,
        |a| a.with_insufficient_scope_status(true),
    )
    .await;
    let metadata = format!(
        "{}/.well-known/oauth-protected-resource/mcp",
        url.trim_end_matches("/mcp")
    );
    let reader = idp.token(&url, "alice", "web:read");
    let denied = post(
        &url,
        Some(&reader),
        &call_body("page_fetch", json!({"url": "https://a"})),
    )
    .await;
    assert_eq!(denied.status(), 403);
    assert_eq!(
        crate::idp::challenge(&denied),
        format!(
            "Bearer error=\"insufficient_scope\", scope=\"web:fetch\", resource_metadata=\"{metadata}\""
        )
    );
    // A call the token covers runs.
    let allowed = post(
        &url,
        Some(&reader),
        &call_body("web_search", json!({"query": "q"})),
    )
    .await;
    assert_eq!(allowed.status(), 200);
    assert!(allowed.text().await.unwrap().contains("hit for q"));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_principal_sees_and_reads_only_the_skills_of_its_groups() {
    let Some(idp) = Idp::start() else { return };
    let url = serve(&idp, Mode::List, stateless(), |v| v, |a| a).await;
    let fetcher = idp.token(&url, "alice", "web:fetch");
    let reader = idp.token(&url, "bob", "web:read");
    let list = json!({"jsonrpc": "2.0", "id": 3, "method": "resources/list"});
    let read = json!({"jsonrpc": "2.0", "id": 4, "method": "resources/read",
        "params": {"uri": "skill://release-checklist/SKILL.md"}});

    let listed = post(&url, Some(&fetcher), &list)
        .await
        .text()
        .await
        .unwrap();
    assert!(
        listed.contains("skill://release-checklist/SKILL.md"),
        "{listed}"
    );
    let body = post(&url, Some(&fetcher), &read)
        .await
        .text()
        .await
        .unwrap();
    assert!(result(&body)["contents"].is_array(), "{body}");

    // Without `web:fetch`, the skill is neither listed nor readable, and the refusal does
    // not confirm that it exists.
    let listed = post(&url, Some(&reader), &list).await.text().await.unwrap();
    assert!(!listed.contains("release-checklist"), "{listed}");
    let body = post(&url, Some(&reader), &read).await.text().await.unwrap();
    let answer: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(answer["error"]["code"], -32602, "{body}");
    assert!(
        answer["error"]["message"]
            .as_str()
            .unwrap()
            .contains("unknown skill"),
        "{body}"
    );
    let load = post(
        &url,
        Some(&reader),
        &call_body("Skill", json!({"skill": "release-checklist"})),
    )
    .await;
    let body = load.text().await.unwrap();
    assert!(!body.contains("changelog"), "{body}");
}
