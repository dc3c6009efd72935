//! The hints in each tool's `_meta` (`ClientHints`): `anthropic/alwaysLoad` on the builtins
//! and the basic tools (off by default), `anthropic/searchHint` and the membership label on
//! the switchable groups' tools (on by default), each switchable, in every mode; and a
//! toolkit whose group names clash under the drafts' rule, which labels nothing and declares
//! no groups extension.

use crate::skills_support;
use crate::support;

use rmcp::model::Tool;
use serde_json::{Map, Value, json};
use support::{Agent, connect};
use toolgroup::Session;
use toolgroup_mcp::{ClientHints, GroupNameProblem, McpServer, Mode};

/// Every listed tool's `_meta` (`{}` for none), by name, in listing order.
fn metas(tools: &[Tool]) -> Vec<(String, Value)> {
    tools
        .iter()
        .map(|t| {
            let meta = t
                .meta
                .as_ref()
                .map_or(Value::Object(Map::new()), |m| Value::Object(m.0.clone()));
            (t.name.to_string(), meta)
        })
        .collect()
}

fn always() -> Value {
    json!({"anthropic/alwaysLoad": true})
}

fn basic(group: &str) -> Value {
    json!({"toolgroup/group": group, "anthropic/alwaysLoad": true})
}

fn switchable(group: &str, label: &str, description: &str) -> Value {
    json!({
        "toolgroup/group": group,
        "io.modelcontextprotocol/groups": [label],
        "anthropic/searchHint": format!("{group}: {description}"),
    })
}

/// The mask list of the test toolkit with every hint on.
fn expected_mask() -> Vec<(String, Value)> {
    [
        ("reset_tools", always()),
        ("note_write", basic("notes")),
        ("slow_stats", basic("probe")),
        ("whoami", basic("probe")),
        (
            "web_search",
            switchable("web_search", "web-search", "Searching the web."),
        ),
        (
            "page_fetch",
            switchable("scraping", "scraping", "Fetching pages."),
        ),
        ("slow", switchable("waiting", "waiting", "Waiting.")),
        ("count", switchable("waiting", "waiting", "Waiting.")),
    ]
    .into_iter()
    .map(|(n, m)| (n.to_owned(), m))
    .collect()
}

/// [`expected_mask`] without `anthropic/alwaysLoad` (`{}` where it was alone).
fn without_always_load(list: Vec<(String, Value)>) -> Vec<(String, Value)> {
    list.into_iter()
        .map(|(name, mut meta)| {
            meta.as_object_mut().unwrap().remove("anthropic/alwaysLoad");
            (name, meta)
        })
        .collect()
}

#[tokio::test]
async fn search_hints_and_labels_are_on_by_default_in_every_mode_always_load_is_off() {
    assert_eq!(
        ClientHints::default(),
        ClientHints::none().search_hint(true).membership(true)
    );
    let expected = without_always_load(expected_mask());
    for mode in Mode::ALL {
        let server = McpServer::new(support::toolkit(), mode).with_reset_tools_listed(true);
        assert!(server.group_name_problems().is_empty());
        // The definitions a server returns without a connection are the listed ones.
        assert_eq!(metas(server.tools()), expected, "{mode}");
        let (client, _) = connect(&server, Session::<Agent>::all()).await;
        let listed = metas(&client.list_all_tools().await.unwrap());
        // Each mode lists its own tools, each with the same `_meta` as in mask mode.
        let want: Vec<_> = expected
            .iter()
            .filter(|(name, _)| listed.iter().any(|(n, _)| n == name))
            .cloned()
            .collect();
        assert_eq!(listed, want, "{mode}");
        let min = if mode == Mode::Selected { 7 } else { 8 };
        assert!(listed.len() >= min, "{mode}: {listed:?}");
        client.cancel().await.unwrap();
    }
}

#[tokio::test]
async fn always_load_marks_the_builtins_and_the_basic_tools_in_every_mode() {
    let expected = expected_mask();
    for mode in Mode::ALL {
        let server = McpServer::new(support::toolkit(), mode)
            .with_client_hints(ClientHints::default().always_load(true))
            .with_reset_tools_listed(true);
        assert_eq!(metas(server.tools()), expected, "{mode}");
        let (client, _) = connect(&server, Session::<Agent>::all()).await;
        let listed = metas(&client.list_all_tools().await.unwrap());
        let want: Vec<_> = expected
            .iter()
            .filter(|(name, _)| listed.iter().any(|(n, _)| n == name))
            .cloned()
            .collect();
        assert_eq!(listed, want, "{mode}");
        client.cancel().await.unwrap();
    }
}

#[tokio::test]
async fn each_hint_turns_off_alone() {
    let cases = [
        (ClientHints::none(), &[][..]),
        (
            ClientHints::none().always_load(true),
            &["anthropic/alwaysLoad"][..],
        ),
        (
            ClientHints::none().search_hint(true),
            &["anthropic/searchHint"][..],
        ),
        (
            ClientHints::none().membership(true),
            &["io.modelcontextprotocol/groups"][..],
        ),
        (
            ClientHints::default().membership(false),
            &["anthropic/searchHint"][..],
        ),
    ];
    for (hints, kept) in cases {
        let server = McpServer::new(support::toolkit(), Mode::Mask)
            .with_client_hints(hints)
            .with_reset_tools_listed(true);
        let want: Vec<(String, Value)> = expected_mask()
            .into_iter()
            .map(|(name, meta)| {
                let meta = meta
                    .as_object()
                    .unwrap()
                    .iter()
                    .filter(|(k, _)| *k == "toolgroup/group" || kept.contains(&k.as_str()))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                (name, Value::Object(meta))
            })
            .collect();
        let (client, _) = connect(&server, Session::new()).await;
        assert_eq!(
            metas(&client.list_all_tools().await.unwrap()),
            want,
            "{hints:?}"
        );
        // The grouping extension goes with the labels.
        let info = client.peer_info().unwrap();
        let declared = info
            .capabilities
            .extensions
            .as_ref()
            .is_some_and(|e| e.contains_key("io.modelcontextprotocol/grouping"));
        assert_eq!(
            declared,
            kept.contains(&"io.modelcontextprotocol/groups"),
            "{hints:?}"
        );
        client.cancel().await.unwrap();
    }
}

/// The skill tools are builtins: always loaded under the hint, whether rendered once (mask)
/// or for a session that sees fewer skills (list mode, rendered when listed).
#[tokio::test]
async fn the_skill_tools_are_always_loaded() {
    for mode in [Mode::Mask, Mode::List] {
        let server = McpServer::new(skills_support::toolkit(), mode)
            .with_client_hints(ClientHints::default().always_load(true))
            .with_reset_tools_listed(true);
        let (client, _) = connect(&server, Session::new()).await;
        let listed = metas(&client.list_all_tools().await.unwrap());
        // List mode with no group active lists `Skill` naming the basic group's skill alone
        // (rendered when listed), and no `read_skill_file` (that skill has no other file).
        let builtins: &[&str] = match mode {
            Mode::List => &["reset_tools", "Skill"],
            _ => &["reset_tools", "Skill", "read_skill_file"],
        };
        let found: Vec<_> = listed
            .iter()
            .filter(|(n, _)| ["reset_tools", "Skill", "read_skill_file"].contains(&n.as_str()))
            .collect();
        assert_eq!(
            found.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(),
            builtins,
            "{mode}"
        );
        for (name, meta) in found {
            assert_eq!(meta, &always(), "{mode}: {name}");
        }
        client.cancel().await.unwrap();
    }
}

/// A toolkit whose group names clash under the drafts' rule (`web` and `WEB`) or map to no
/// name (`__`).
mod clash {
    #![allow(non_snake_case)]

    use toolgroup::prelude::*;

    /// Fetch a page.
    #[tool]
    fn fetch() -> String {
        "page".to_owned()
    }

    /// Fetch a page again.
    #[tool]
    fn refetch() -> String {
        "page".to_owned()
    }

    /// Wait.
    #[tool]
    fn idle() -> String {
        "idle".to_owned()
    }

    #[tool_group(name = "web", description = "Fetching.", tools = [fetch])]
    struct Lower;

    #[tool_group(name = "WEB", description = "Fetching again.", tools = [refetch])]
    struct Upper;

    #[tool_group(name = "__", description = "Underscores.", tools = [idle])]
    struct Underscore;

    #[toolkit]
    pub(super) struct Clashing {
        web: Lower,
        WEB: Upper,
        __: Underscore,
    }

    pub(super) fn toolkit() -> Toolkit<Clashing> {
        Toolkit::new(Clashing {
            web: Lower,
            WEB: Upper,
            __: Underscore,
        })
    }
}

#[tokio::test]
async fn names_that_clash_under_the_drafts_rule_label_nothing() {
    let server = McpServer::new(clash::toolkit(), Mode::Mask);
    let problems = server.group_name_problems();
    assert_eq!(
        problems,
        [
            GroupNameProblem::Clash {
                groups: vec!["web", "WEB"],
                name: "web".to_owned(),
            },
            GroupNameProblem::Invalid {
                group: "__",
                name: String::new(),
            },
        ]
    );
    assert_eq!(
        problems[0].to_string(),
        "the groups `web` and `WEB` all map to the name `web` (lowercase, `_` as `-`): rename one so each group has a name of its own"
    );
    let (client, _) = connect(&server, Session::new()).await;
    let extensions = client
        .peer_info()
        .unwrap()
        .capabilities
        .extensions
        .clone()
        .unwrap_or_default();
    assert!(
        !extensions.contains_key("io.modelcontextprotocol/groups")
            && !extensions.contains_key("io.modelcontextprotocol/grouping"),
        "{extensions:?}"
    );
    // The vendor hints stay; no tool carries a label.
    for (name, meta) in metas(&client.list_all_tools().await.unwrap()) {
        assert!(
            meta.get("io.modelcontextprotocol/groups").is_none(),
            "{name}: {meta}"
        );
        if name != "reset_tools" {
            assert!(meta.get("anthropic/searchHint").is_some(), "{name}: {meta}");
        }
    }
    // And the extension's methods are not found.
    let e = client
        .send_request(rmcp::model::ClientRequest::CustomRequest(
            rmcp::model::CustomRequest::new("groups/list", None),
        ))
        .await
        .unwrap_err();
    assert_eq!(
        support::rpc_error(e).0,
        rmcp::model::ErrorCode::METHOD_NOT_FOUND
    );
    client.cancel().await.unwrap();
}
