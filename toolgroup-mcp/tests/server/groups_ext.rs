//! The `io.modelcontextprotocol/groups` extension (progressive-disclosure-wg draft
//! @6de0195c) and the `io.modelcontextprotocol/grouping` id, through raw JSON-RPC over the
//! in-process byte stream, on both eras: the declarations, `groups/list`, `groups/get`, the
//! view of a client that declares the extension (basic tools only, every group's tools
//! callable, nothing kept), bad input, and the skills the groups carry.

use std::sync::Arc;

use crate::raw::{Raw, declaring, names_of};
use crate::skills_support;
use crate::support;

use serde_json::{Value, json};
use toolgroup_mcp::{GroupStore, McpServer, MemoryStore, Mode};

const LEGACY: [&str; 2] = ["2025-06-18", "2025-11-25"];

fn server(mode: Mode) -> McpServer<support::Agent> {
    McpServer::new(support::toolkit(), mode)
        // These tests are about refusing calls of inactive groups (`first_use.rs` tests the
        // default, activation on first use).
        .with_first_use_activation(false)
}

/// A connection of each era declaring `capabilities`: the two `initialize` revisions, then
/// 2026-07-28; with the capabilities each declared (`initialize` result or
/// `server/discover`'s).
async fn every_era<R: toolgroup::Registry>(
    server: &McpServer<R>,
    capabilities: Value,
) -> Vec<(String, Raw, Value)> {
    let mut out = Vec::new();
    for version in LEGACY {
        let (raw, init) = Raw::legacy(server.handler(), version, capabilities.clone()).await;
        out.push((version.to_owned(), raw, init["capabilities"].clone()));
    }
    let mut raw = Raw::modern(server.handler(), capabilities).await;
    let discovered = raw.result("server/discover", json!({})).await;
    out.push((
        "2026-07-28".to_owned(),
        raw,
        discovered["capabilities"].clone(),
    ));
    out
}

const BASIC: [&str; 3] = ["note_write", "slow_stats", "whoami"];
const EVERY_TOOL: [&str; 8] = [
    "reset_tools",
    "note_write",
    "slow_stats",
    "whoami",
    "web_search",
    "page_fetch",
    "slow",
    "count",
];

#[tokio::test]
async fn declared_in_mask_and_list_mode_on_both_eras() {
    for mode in Mode::ALL {
        for (era, _, capabilities) in every_era(&server(mode), json!({})).await {
            let extensions = &capabilities["extensions"];
            let groups = &extensions["io.modelcontextprotocol/groups"];
            if mode == Mode::Selected {
                assert!(groups.is_null(), "{mode} {era}: {capabilities}");
            } else {
                assert_eq!(groups, &json!({}), "{mode} {era}: {capabilities}");
            }
            assert_eq!(
                extensions["io.modelcontextprotocol/grouping"],
                json!({"listChanged": false}),
                "{mode} {era}: {capabilities}"
            );
        }
    }
    // Turned off: the IG id (the labels' extension) stays.
    let off = server(Mode::Mask).with_groups_extension(false);
    for (era, mut raw, capabilities) in every_era(&off, declaring()).await {
        assert!(
            capabilities["extensions"]["io.modelcontextprotocol/groups"].is_null(),
            "{era}: {capabilities}"
        );
        assert_eq!(raw.names().await, EVERY_TOOL, "{era}: the flat list");
        let (code, message) = raw.error("groups/get", json!({"name": "web-search"})).await;
        assert_eq!(
            (code, message.as_str()),
            (-32601, "method not found: `groups/get`"),
            "{era}"
        );
        let list = raw.result("groups/list", json!({})).await;
        assert_eq!(list["groups"].as_array().unwrap().len(), 3, "{era}");
    }
}

#[tokio::test]
async fn groups_list_names_each_switchable_group() {
    for mode in [Mode::Mask, Mode::List] {
        for (era, mut raw, _) in every_era(&server(mode), declaring()).await {
            let list = raw.result("groups/list", json!({})).await;
            let expected = json!([
                {"name": "web-search", "description": "Searching the web.",
                 "_meta": {"toolgroup/group": "web_search"}},
                {"name": "scraping", "description": "Fetching pages.",
                 "_meta": {"toolgroup/group": "scraping"}},
                {"name": "waiting", "description": "Waiting.",
                 "_meta": {"toolgroup/group": "waiting"}},
            ]);
            assert_eq!(list["groups"], expected, "{mode} {era}");
            if era == "2026-07-28" {
                assert_eq!(list["resultType"], "complete", "{list}");
                assert_eq!(list["cacheScope"], "public", "{list}");
                assert_eq!(list["ttlMs"], 300_000, "{list}");
            } else {
                assert!(list.get("resultType").is_none(), "{list}");
            }
            assert!(list.get("nextCursor").is_none(), "one page: {list}");
            let (code, message) = raw
                .error("groups/list", json!({"cursor": "next\u{7}"}))
                .await;
            assert_eq!(code, -32602, "{era}");
            assert_eq!(
                message,
                "invalid cursor `next\\u{7}`: this server lists every group in one page and gives no cursor"
            );
        }
    }
    // In selected mode (the IG id alone): the chosen groups, and no `groups/get`.
    let handler = server(Mode::Selected).handler_with("scraping".parse().unwrap());
    let (mut raw, _) = Raw::legacy(handler, "2025-11-25", declaring()).await;
    let list = raw.result("groups/list", json!({})).await;
    assert_eq!(
        list["groups"],
        json!([{"name": "scraping", "description": "Fetching pages.",
                "_meta": {"toolgroup/group": "scraping"}}])
    );
    assert_eq!(
        raw.names().await,
        ["note_write", "slow_stats", "whoami", "page_fetch"]
    );
    let (code, _) = raw.error("groups/get", json!({"name": "scraping"})).await;
    assert_eq!(code, -32601);
}

#[tokio::test]
async fn groups_get_gives_the_instructions_and_the_listed_definitions() {
    for (era, mut raw, _) in every_era(&server(Mode::Mask), json!({})).await {
        // A client that declares nothing sees the flat list: the reference definitions.
        let flat = raw.result("tools/list", json!({})).await;
        let definition = |name: &str| {
            flat["tools"]
                .as_array()
                .unwrap()
                .iter()
                .find(|t| t["name"] == name)
                .cloned()
                .unwrap()
        };
        let web = raw
            .result("groups/get", json!({"name": "web-search"}))
            .await;
        assert_eq!(web["instructions"], "Cite your sources.", "{era}: {web}");
        assert_eq!(
            web["contents"],
            json!({"tools": [definition("web_search")]}),
            "{era}"
        );
        assert_eq!(
            web["contents"]["tools"][0]["_meta"],
            json!({
                "toolgroup/group": "web_search",
                "io.modelcontextprotocol/groups": ["web-search"],
                "anthropic/searchHint": "web_search: Searching the web.",
            })
        );
        // No instructions: the group's tools alone.
        let waiting = raw.result("groups/get", json!({"name": "waiting"})).await;
        assert!(waiting.get("instructions").is_none(), "{waiting}");
        assert_eq!(
            waiting["contents"]["tools"],
            json!([definition("slow"), definition("count")])
        );
        if era == "2026-07-28" {
            assert_eq!(waiting["resultType"], "complete");
            assert_eq!(waiting["cacheScope"], "public");
        }
        // Twice: the same answer.
        let again = raw
            .result("groups/get", json!({"name": "web-search"}))
            .await;
        assert_eq!(again, web);
    }
}

#[tokio::test]
async fn a_declaring_client_lists_the_basic_tools_and_calls_every_group() {
    for mode in [Mode::Mask, Mode::List] {
        let server = server(mode);
        for (era, mut raw, _) in every_era(&server, declaring()).await {
            let list = raw.result("tools/list", json!({})).await;
            assert_eq!(names_of(&list), BASIC, "{mode} {era}");
            if era == "2026-07-28" {
                assert_eq!(list["cacheScope"], "private", "{mode} {era}: {list}");
            }
            for (tool, arguments, text) in [
                ("web_search", json!({"query": "q"}), "hit for q"),
                ("page_fetch", json!({"url": "https://a"}), "page https://a"),
                ("count", json!({"n": 2}), "counted to 2"),
            ] {
                let r = raw
                    .result("tools/call", json!({"name": tool, "arguments": arguments}))
                    .await;
                assert_eq!(r["isError"], false, "{mode} {era} {tool}: {r}");
                assert!(
                    r["content"][0]["text"].as_str().unwrap().contains(text),
                    "{mode} {era} {tool}: {r}"
                );
            }
            // Activation is the client's: `reset_tools` is no tool here.
            let (code, message) = raw
                .error(
                    "tools/call",
                    json!({"name": "reset_tools", "arguments": {"web_search": true}}),
                )
                .await;
            assert_eq!(code, -32602, "{mode} {era}");
            assert!(
                message.starts_with("unknown tool `reset_tools`. The tools are `note_write`, `slow_stats`, `whoami`; the groups' tools are in their `groups/get`: `web-search`, `scraping`, `waiting`."),
                "{message}"
            );
            let (_, message) = raw
                .error("tools/call", json!({"name": "web_serch", "arguments": {}}))
                .await;
            assert!(message.contains("Did you mean `web_search`?"), "{message}");
            // Bad arguments are still the tool's error result.
            let r = raw
                .result(
                    "tools/call",
                    json!({"name": "web_search", "arguments": {"query": 5}}),
                )
                .await;
            assert_eq!(r["isError"], true, "{r}");
        }
        // The same connection's state was never touched: a client that declares nothing
        // still has no group active.
        for (era, mut raw, _) in every_era(&server, json!({})).await {
            let list = raw.names().await;
            match mode {
                Mode::List if era != "2026-07-28" => {
                    assert_eq!(list, EVERY_TOOL[..4], "{era}")
                }
                _ => assert_eq!(list, EVERY_TOOL, "{mode} {era}"),
            }
            let r = raw
                .result(
                    "tools/call",
                    json!({"name": "web_search", "arguments": {"query": "q"}}),
                )
                .await;
            assert_eq!(r["isError"], true, "{mode} {era}: inactive: {r}");
        }
    }
}

/// A declaration the request makes in its own `_meta` counts, on any revision; one that is
/// not valid client capabilities declares nothing.
#[tokio::test]
async fn the_declaration_is_read_per_request() {
    let server = server(Mode::Mask);
    let groups = json!({"io.modelcontextprotocol/clientCapabilities": declaring()});
    let nothing = json!({"io.modelcontextprotocol/clientCapabilities": {}});
    let malformed = [
        json!({"io.modelcontextprotocol/clientCapabilities": "groups"}),
        json!({"io.modelcontextprotocol/clientCapabilities": {"extensions": ["io.modelcontextprotocol/groups"]}}),
        json!({"io.modelcontextprotocol/clientCapabilities": {"extensions": {"io.modelcontextprotocol/groups": true}}}),
    ];
    // Legacy: declared at `initialize` or not, the request's own `_meta` decides.
    for init in [json!({}), declaring()] {
        let (mut raw, _) = Raw::legacy(server.handler(), "2025-11-25", init.clone()).await;
        let list = |answer: Value| names_of(&answer["result"]);
        let plain = list(raw.request("tools/list", json!({})).await);
        let expected = if init == json!({}) {
            &EVERY_TOOL[..]
        } else {
            &BASIC[..]
        };
        assert_eq!(plain, expected, "{init}");
        let with = raw
            .request_with("tools/list", json!({}), Some(groups.clone()))
            .await;
        assert_eq!(list(with), BASIC, "{init}");
        let without = raw
            .request_with("tools/list", json!({}), Some(nothing.clone()))
            .await;
        assert_eq!(list(without), EVERY_TOOL, "{init}");
        for meta in &malformed {
            let answer = raw
                .request_with("tools/list", json!({}), Some(meta.clone()))
                .await;
            assert_eq!(list(answer), EVERY_TOOL, "{init} {meta}");
        }
    }
    // 2026-07-28: each request declares for itself.
    let mut raw = Raw::modern(server.handler(), json!({})).await;
    assert_eq!(raw.names().await, EVERY_TOOL);
    let with = raw
        .request_with("tools/list", json!({}), Some(groups))
        .await;
    assert_eq!(names_of(&with["result"]), BASIC);
    assert_eq!(raw.names().await, EVERY_TOOL, "nothing remembered");
}

#[tokio::test]
async fn groups_get_refuses_bad_input_and_changes_nothing() {
    let server = server(Mode::Mask);
    for (era, mut raw, _) in every_era(&server, json!({})).await {
        let not_found = if era == "2026-07-28" { -32602 } else { -32002 };
        let groups = "the groups are `web-search`, `scraping`, `waiting`";
        let long = "x".repeat(10 * 1024);
        let cases = [
            (
                json!({}),
                -32602,
                format!(
                    "invalid params: `groups/get` needs the group's `name`, a string; {groups}"
                ),
            ),
            (
                json!({"name": 7}),
                -32602,
                format!(
                    "invalid params: the `name` of `groups/get` is a string naming a group, not a number; {groups}"
                ),
            ),
            (
                json!({"name": ["web-search"]}),
                -32602,
                format!(
                    "invalid params: the `name` of `groups/get` is a string naming a group, not an array; {groups}"
                ),
            ),
            (
                json!({"name": long}),
                not_found,
                format!("group not found: `{}…`; {groups}", "x".repeat(64)),
            ),
            (
                json!({"name": "web\u{1b}[31m-search\n"}),
                not_found,
                format!("group not found: `web\\u{{1b}}[31m-search\\n`; {groups}"),
            ),
            (
                json!({"name": "web_search"}),
                not_found,
                format!("group not found: `web_search` (did you mean `web-search`?); {groups}"),
            ),
            (
                json!({"name": "scrapin"}),
                not_found,
                format!("group not found: `scrapin` (did you mean `scraping`?); {groups}"),
            ),
        ];
        for (params, code, message) in cases {
            let got = raw.error("groups/get", params.clone()).await;
            assert_eq!(got, (code, message.clone()), "{era} {params}");
        }
        let (code, message) = raw.error("groups/get", Value::Null).await;
        assert_eq!(code, -32602, "{era}: {message}");
        // Nothing changed: no group is active, the list is the same.
        assert_eq!(raw.names().await, EVERY_TOOL, "{era}");
        let r = raw
            .result(
                "tools/call",
                json!({"name": "web_search", "arguments": {"query": "q"}}),
            )
            .await;
        assert_eq!(r["isError"], true, "{era}: {r}");
    }
}

#[tokio::test]
async fn unknown_methods_are_named_escaped() {
    for (era, mut raw, _) in every_era(&server(Mode::Mask), json!({})).await {
        let (code, message) = raw.error("groups/\u{7}explode", json!({})).await;
        assert_eq!(
            (code, message.as_str()),
            (-32601, "method not found: `groups/\\u{7}explode`"),
            "{era}"
        );
    }
}

/// Over stateless HTTP, a declaring client's calls neither load nor save the active
/// groups of its key.
#[tokio::test]
async fn scoped_calls_keep_nothing_in_the_store() {
    let store = Arc::new(MemoryStore::new());
    let server = server(Mode::Mask)
        .with_store(store.clone())
        .with_key(crate::http::user_key);
    let url = support::serve_loopback(server.http_service(support::stateless())).await;
    let http = reqwest::Client::new();
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "0"},
        "io.modelcontextprotocol/clientCapabilities": declaring(),
    });
    for (id, (method, params)) in (1..).zip([
        (
            "tools/call",
            json!({"name": "web_search", "arguments": {"query": "q"}}),
        ),
        ("groups/get", json!({"name": "scraping"})),
        ("groups/get", json!({"name": 5})),
        ("tools/list", json!({})),
    ]) {
        let mut params = params;
        params["_meta"] = meta.clone();
        let body = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        let mut request = http.post(&url);
        if let Some(name) = params["name"].as_str().filter(|_| method == "tools/call") {
            request = request.header("mcp-name", name);
        }
        let response = request
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", "2026-07-28")
            .header("mcp-method", method)
            .header("x-user", "alice")
            .body(body.to_string())
            .send()
            .await
            .unwrap();
        let text = response.text().await.unwrap();
        let answer: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
        if method == "tools/call" {
            assert_eq!(answer["result"]["isError"], false, "{answer}");
        }
        if method == "tools/list" {
            assert_eq!(names_of(&answer["result"]), BASIC, "{answer}");
        }
    }
    assert_eq!(store.load("alice").await.unwrap(), None);
    assert_eq!(store.len(), 0);
}

#[tokio::test]
async fn a_groups_skills_are_its_resources_and_out_of_the_flat_catalog() {
    let server = McpServer::new(skills_support::toolkit(), Mode::Mask);
    for (era, mut raw, _) in every_era(&server, declaring()).await {
        assert_eq!(
            raw.names().await,
            ["Skill", "read_skill_file", "note_write"],
            "{era}"
        );
        let docs = raw.result("groups/get", json!({"name": "docs"})).await;
        assert_eq!(
            docs["instructions"],
            "Read the pdf-forms skill before filling a form."
        );
        let tools = names_of(&docs["contents"]);
        assert_eq!(tools, ["form_fill"], "{era}");
        let resources = docs["contents"]["resources"].as_array().unwrap();
        assert_eq!(resources.len(), 1, "{docs}");
        assert_eq!(resources[0]["uri"], "skill://pdf-forms/SKILL.md");
        assert_eq!(resources[0]["_meta"]["toolgroup/group"], "docs");
        // Top-level or scoped, not both: the group's skill is not in `resources/list`.
        let listed = raw.result("resources/list", json!({})).await;
        let uris: Vec<&str> = listed["resources"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["uri"].as_str().unwrap())
            .collect();
        assert_eq!(uris, ["skill://release-checklist/SKILL.md"], "{era}");
        // ...and still readable, as the group's tools are callable.
        let read = raw
            .result(
                "resources/read",
                json!({"uri": "skill://pdf-forms/SKILL.md"}),
            )
            .await;
        assert_eq!(read["contents"].as_array().unwrap().len(), 1);
        let r = raw
            .result(
                "tools/call",
                json!({"name": "form_fill", "arguments": {"field": "a", "value": "b"}}),
            )
            .await;
        assert_eq!(r["isError"], false, "{era}: {r}");
        let r = raw
            .result(
                "tools/call",
                json!({"name": "Skill", "arguments": {"skill": "pdf-forms"}}),
            )
            .await;
        assert_eq!(r["isError"], false, "{era}: {r}");
    }
    for (era, mut raw, _) in every_era(&server, json!({})).await {
        let listed = raw.result("resources/list", json!({})).await;
        assert_eq!(listed["resources"].as_array().unwrap().len(), 2, "{era}");
    }
}
