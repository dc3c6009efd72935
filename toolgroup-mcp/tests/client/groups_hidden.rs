//! Remote groups the client hides, with the reason: `groups/get` failing, hanging or
//! answering what the extension forbids, and a `groups/list` that fails the connection.

use std::time::Duration;

use rmcp::model::{ErrorCode, ErrorData};
use serde_json::json;
use toolgroup_mcp::client::{GroupError, Remote, RemoteError, RemoteServer, RemoteTools};

use super::groups_server::{
    Answer, Catalog, Group, GroupsServer, group, office, tool, with_answer,
};
use super::{Killable, err_text, ok_text};

#[tokio::test]
async fn failing_and_lying_groups_are_hidden_with_a_reason() {
    let shared_a = tool("lookup", "Look something up.");
    let shared_b = tool("lookup", "Look something else up.");
    let no_description = Group {
        name: "vague".to_owned(),
        entry: json!({"name": "vague"}),
        answer: Answer::Json(json!({"instructions": "x"})),
    };
    let catalog = Catalog {
        list: None,
        top: vec![tool("status", "The server's status.")],
        groups: vec![
            group("good", Some("Fine."), &[tool("fine", "Works.")]),
            with_answer(
                group("fails", None, &[]),
                Answer::Error(ErrorData::internal_error(
                    "database \u{1b}[31mdown\nretry",
                    None,
                )),
            ),
            with_answer(group("slow", None, &[]), Answer::Hang),
            with_answer(group("empty", None, &[]), Answer::Json(json!({}))),
            group("twice-a", None, &[shared_a]),
            group("twice-b", None, &[shared_b]),
            group("shadow", None, &[tool("status", "The server's status.")]),
            with_answer(
                group("broken-tool", None, &[]),
                Answer::Json(json!({"contents": {"tools": [{"name": 5}]}})),
            ),
            no_description,
            group("good", None, &[]),
        ],
    };
    let server = GroupsServer::new(true, catalog);
    let http = Killable::start(server.app(), "127.0.0.1:0");
    let remote = RemoteTools::connect(
        RemoteServer::http(http.url())
            .with_label("liar")
            // Bounds the `slow` group's groups/get.
            .with_call_timeout(Duration::from_millis(500)),
    )
    .await
    .expect("the client connects");

    let offered: Vec<String> = remote.groups().iter().map(|g| g.name.clone()).collect();
    assert_eq!(offered, ["good"]);
    let hidden = remote.hidden_groups();
    let reasons: Vec<(&str, &str)> = hidden
        .iter()
        .map(|h| (h.name.as_str(), h.reason.as_str()))
        .collect();
    let reason = |name: &str| {
        reasons
            .iter()
            .find(|(n, _)| *n == name)
            .unwrap_or_else(|| panic!("{name} not hidden: {reasons:?}"))
            .1
    };
    let names: Vec<&str> = reasons.iter().map(|(n, _)| *n).collect();
    assert_eq!(
        names,
        [
            "fails",
            "slow",
            "empty",
            "twice-a",
            "twice-b",
            "shadow",
            "broken-tool",
            "vague",
            "good"
        ]
    );
    assert_eq!(
        reason("fails"),
        "`groups/get` failed: JSON-RPC error -32603: database \\u{1b}[31mdown\\nretry"
    );
    assert_eq!(
        reason("slow"),
        "`groups/get` failed: no answer within 500 ms"
    );
    assert!(reason("empty").contains("neither `instructions` nor `contents`"));
    assert_eq!(
        reason("twice-a"),
        "its tool `lookup` is defined differently in the group `twice-b`, and the extension requires one definition in every group"
    );
    assert!(reason("twice-b").contains("in the group `twice-a`"));
    assert!(reason("shadow").contains("`status` is also a top-level tool"));
    assert!(reason("broken-tool").contains("`contents.tools[0]`"));
    assert!(reason("vague").contains("no `description`"));
    assert!(reason("good").contains("more than once"));
    for (_, reason) in &reasons {
        assert!(!reason.chars().any(char::is_control), "{reason:?}");
    }

    // The rest mounts; a hidden group is refused at mount time with its reason.
    let good = Remote::group(remote.clone(), "good").unwrap();
    assert_eq!(good.group_problem(), None);
    let err = Remote::group(remote.clone(), "twice-a").unwrap_err();
    assert!(matches!(err, GroupError::Hidden { .. }), "{err:?}");
    assert!(
        err.to_string().starts_with(
            "the group `twice-a` of the MCP server `liar` is hidden: its tool `lookup`"
        ),
        "{err}"
    );
    // A hidden group's tools are not callable through the client; the rest are.
    assert_eq!(
        ok_text(&remote.call("fine", &json!({"text": "1"})).await),
        "ran fine: 1"
    );
    let r = remote.call("lookup", &json!({"text": "2"})).await;
    assert!(
        err_text(&r).contains("unknown tool `lookup`"),
        "{}",
        r.text_joined()
    );
}

#[tokio::test]
async fn a_groups_list_that_fails_or_loops_fails_the_connection() {
    let cases = [
        (
            Answer::Error(ErrorData::new(
                ErrorCode::METHOD_NOT_FOUND,
                "groups/list",
                None,
            )),
            "the MCP server `office` did not list its groups: JSON-RPC error -32601: groups/list",
        ),
        (
            Answer::Json(json!({"groups": [], "nextCursor": "again\n"})),
            "the MCP server `office` did not list its groups: `groups/list` answered the cursor `again\\n` a second time",
        ),
        (
            Answer::Json(json!({"groups": {}})),
            "the MCP server `office` did not list its groups: `groups/list` answered `groups` that is not an array",
        ),
    ];
    for (answer, expected) in cases {
        let mut catalog = office();
        catalog.list = Some(answer);
        let server = GroupsServer::new(true, catalog);
        let http = Killable::start(server.app(), "127.0.0.1:0");
        let err = RemoteTools::connect(RemoteServer::http(http.url()).with_label("office"))
            .await
            .unwrap_err();
        assert!(matches!(err, RemoteError::ListGroups { .. }), "{err:?}");
        assert_eq!(err.to_string(), expected);
        assert_eq!(server.requests("groups/get"), 0);
    }
}
