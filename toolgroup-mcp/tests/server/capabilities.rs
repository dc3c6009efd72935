//! What the server declares, it answers: for each mode and each era (`initialize` at
//! 2025-06-18 and 2025-11-25, `server/discover` at 2026-07-28), every capability and
//! extension the server advertises is probed with its method, which must not answer `-32601`
//! (method not found). `tools.listChanged` is advertised only where the list can change: list
//! mode, up to 2025-11-25 (a 2026-07-28 request is served in mask mode, and would need
//! `subscriptions/listen` to hear of a change).

use crate::raw::Raw;
use crate::skills_support;

use serde_json::{Value, json};
use toolgroup_mcp::{McpServer, Mode};

/// The request that exercises each capability a server of these tests may declare.
fn probe(capability: &str) -> (&'static str, Value) {
    match capability {
        "logging" => ("logging/setLevel", json!({"level": "info"})),
        "tools" => ("tools/list", json!({})),
        "resources" => ("resources/list", json!({})),
        "prompts" => ("prompts/list", json!({})),
        "completions" => (
            "completion/complete",
            json!({"ref": {"type": "ref/prompt", "name": "x"},
                   "argument": {"name": "a", "value": ""}}),
        ),
        "io.modelcontextprotocol/skills" => ("skills/list", json!({})),
        "io.modelcontextprotocol/groups" => ("groups/get", json!({"name": "docs"})),
        "io.modelcontextprotocol/grouping" => ("groups/list", json!({})),
        other => panic!("the capability `{other}` has no probe here: add one"),
    }
}

#[tokio::test]
async fn every_advertised_capability_is_answered() {
    for mode in Mode::ALL {
        let server = McpServer::new(skills_support::toolkit(), mode);
        let mut eras = Vec::new();
        for version in ["2025-06-18", "2025-11-25"] {
            let (raw, init) = Raw::legacy(server.handler(), version, json!({})).await;
            eras.push((version, raw, init["capabilities"].clone()));
        }
        let mut raw = Raw::modern(server.handler(), json!({})).await;
        let discovered = raw.result("server/discover", json!({})).await;
        eras.push(("2026-07-28", raw, discovered["capabilities"].clone()));

        for (era, mut raw, capabilities) in eras {
            let mut probed = Vec::new();
            for (key, settings) in capabilities.as_object().unwrap() {
                let names: Vec<&str> = if key == "extensions" {
                    settings
                        .as_object()
                        .unwrap()
                        .keys()
                        .map(String::as_str)
                        .collect()
                } else {
                    vec![key.as_str()]
                };
                for name in names {
                    let (method, params) = probe(name);
                    let answer = raw.request(method, params).await;
                    assert_ne!(
                        answer["error"]["code"], -32601,
                        "{mode} {era}: `{name}` is advertised, `{method}` is not found: {answer}"
                    );
                    probed.push(name.to_owned());
                }
                // A capability's own methods, where it declares any.
                if key == "resources" && settings["subscribe"] == true {
                    panic!("{mode} {era}: resources.subscribe has no probe here");
                }
            }
            assert!(
                probed.contains(&"tools".to_owned()),
                "{mode} {era}: {capabilities}"
            );
            let list_changed = capabilities["tools"]["listChanged"] == true;
            assert_eq!(
                list_changed,
                mode == Mode::List && era != "2026-07-28",
                "{mode} {era}: {capabilities}"
            );
            if era == "2026-07-28" {
                // Nothing is advertised to listen for, and nothing is listened to.
                for key in ["tools", "prompts", "resources"] {
                    assert_ne!(
                        capabilities[key]["listChanged"], true,
                        "{mode} {era}: {capabilities}"
                    );
                }
                assert_ne!(capabilities["resources"]["subscribe"], true);
                let (code, _) = raw
                    .error(
                        "subscriptions/listen",
                        json!({"notifications": {"toolsListChanged": true}}),
                    )
                    .await;
                assert_eq!(code, -32601, "{mode}: not advertised, not offered");
            }
        }
    }
}

/// A client that asks `initialize` for 2026-07-28 (which has no `initialize`) gets the newest
/// revision that has one, and is served for that revision: list mode, with its list changes.
#[tokio::test]
async fn initialize_serves_the_negotiated_revision() {
    let server = McpServer::new(crate::support::toolkit(), Mode::List);
    let (mut raw, init) = Raw::legacy(server.handler(), "2026-07-28", json!({})).await;
    assert_eq!(init["protocolVersion"], "2025-11-25", "{init}");
    assert_eq!(init["capabilities"]["tools"]["listChanged"], true, "{init}");
    assert_eq!(
        raw.names().await,
        ["reset_tools", "note_write", "slow_stats", "whoami"]
    );
    let r = raw
        .result(
            "tools/call",
            json!({"name": "reset_tools", "arguments": {"web_search": true, "scraping": false, "waiting": false}}),
        )
        .await;
    assert_eq!(r["isError"], false, "{r}");
    assert_eq!(raw.names().await.len(), 5);
}
