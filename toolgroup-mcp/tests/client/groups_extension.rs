//! The client side of the `io.modelcontextprotocol/groups` extension against a real rmcp
//! server over HTTP ([`groups_server`](super::groups_server)): remote groups mounted as the
//! groups of a local toolkit, switched by its `reset_tools`, followed through
//! `notifications/groups/list_changed` and reconnections; a server without the extension
//! unchanged.

use std::time::Duration;

use serde_json::json;
use toolgroup::dynamic::Dynamic;
use toolgroup::prelude::*;
use toolgroup_mcp::client::{GroupError, Remote, RemoteServer, RemoteTools};

use super::groups_server::{EXTENSION, GroupsServer, group, office, tool};
use super::{Killable, PATIENCE, err_text, next_list, ok_text};

/// Remember something.
#[tool]
fn remember(
    /// What to remember.
    text: String,
) -> String {
    format!("remembered: {text}")
}

#[tool_group(name = "local", description = "Local tools.", tools = [remember])]
struct Local;

#[tool_group(
    name = "web_search",
    description = "Search the web (a remote group).",
    dynamic
)]
struct WebSearch;

#[tool_group(
    name = "calendar",
    description = "Plan meetings (a remote group).",
    instructions = "Times are UTC.",
    dynamic
)]
struct Calendar;

#[tool_group(
    name = "office",
    description = "The office server's top-level tools.",
    dynamic
)]
struct Office;

#[toolkit]
struct Kit {
    #[basic]
    local: Local,
    web_search: Dynamic<WebSearch, Remote>,
    calendar: Dynamic<Calendar, Remote>,
    office: Dynamic<Office, Remote>,
}

fn kit(remote: &RemoteTools) -> Toolkit<Kit> {
    Toolkit::new(Kit {
        local: Local,
        web_search: Dynamic::new(Remote::group(remote.clone(), "web-search").unwrap()),
        calendar: Dynamic::new(
            Remote::group(remote.clone(), "calendar")
                .unwrap()
                .with_prefix("cal_"),
        ),
        office: Dynamic::new(Remote::new(remote.clone())),
    })
}

fn listed(kit: &Toolkit<Kit>, session: &Session<Kit>) -> Vec<&'static str> {
    kit.definitions(session).map(|d| d.name).collect()
}

async fn reset(kit: &Toolkit<Kit>, session: &mut Session<Kit>, on: [bool; 3]) -> CallResult {
    let args = json!({"web_search": on[0], "calendar": on[1], "office": on[2]});
    let answer = kit.call(session, "reset_tools", &args).await;
    assert!(!answer.is_error, "{}", answer.text_joined());
    answer
}

async fn connect(server: &Killable) -> RemoteTools {
    RemoteTools::connect(
        RemoteServer::http(server.url())
            .with_label("office")
            .with_backoff(Duration::from_millis(50), Duration::from_millis(200)),
    )
    .await
    .expect("the client connects")
}

#[tokio::test]
async fn remote_groups_mount_as_local_groups_and_reset_tools_switches_them() {
    let server = GroupsServer::new(true, office());
    let http = Killable::start(server.app(), "127.0.0.1:0");
    let remote = connect(&http).await;

    // The client declared the extension, with no settings.
    let client = server.client.lock().unwrap().clone().unwrap();
    assert_eq!(client["extensions"][EXTENSION], json!({}), "{client}");
    // Every page of groups/list (two pages), one groups/get per group.
    assert_eq!(server.requests("groups/list"), 2);
    assert_eq!(server.requests("groups/get"), 3);

    assert!(remote.declares_groups());
    let top: Vec<String> = remote.tools().iter().map(|t| t.name.clone()).collect();
    assert_eq!(top, ["status", "change"]);
    let groups = remote.groups();
    let summary = crate::group_summary(&groups);
    assert_eq!(
        summary,
        [
            (
                "web-search",
                Some("Cite the URL of every result you use."),
                vec!["search", "share_link"]
            ),
            ("calendar", None, vec!["list_events", "share_link"]),
            ("notes", Some("Notes live in the wiki."), vec![]),
        ]
    );
    assert_eq!(groups[0].title.as_deref(), Some("The web-search group"));
    assert_eq!(groups[0].description, "Tools for web-search.");
    assert_eq!(
        groups[0].meta.as_ref().unwrap()["example.com/owner"],
        json!("tests")
    );
    assert_eq!(
        groups[0].tools[0].description.as_deref(),
        Some("Search the web.")
    );
    assert!(remote.hidden_groups().is_empty());

    // A scoped tool is called like a top-level one.
    assert_eq!(
        ok_text(&remote.call("search", &json!({"text": "rust"})).await),
        "ran search: rust"
    );
    let unknown = err_text(&remote.call("serch", &json!({"text": "x"})).await);
    assert!(unknown.contains("Did you mean `search`?"), "{unknown}");

    // Each remote group is a local group, switched by reset_tools.
    let kit = kit(&remote);
    assert!(kit.hidden_tools().is_empty(), "{:?}", kit.hidden_tools());
    let mut session = kit.session();
    assert_eq!(listed(&kit, &session), ["reset_tools", "remember"]);
    // The answer gives the remote group's instructions (`web_search` declares none of its
    // own) and its tools, in the text and in the structured content.
    let answer = reset(&kit, &mut session, [true, false, false]).await;
    assert!(
        answer.text_joined().contains(
            "<group name=\"web_search\">\nTools: search, share_link.\nCite the URL of every result you use.\n</group>"
        ),
        "{}",
        answer.text_joined()
    );
    let available = &answer.structured_content.as_ref().unwrap()["available"];
    assert_eq!(
        available,
        &json!([{
            "group": "web_search",
            "tools": ["search", "share_link"],
            "instructions": "Cite the URL of every result you use."
        }])
    );
    assert_eq!(
        listed(&kit, &session),
        ["reset_tools", "remember", "search", "share_link"]
    );
    // `calendar`'s remote group has no instructions: only the local group's.
    let answer = reset(&kit, &mut session, [false, true, true]).await;
    let available = &answer.structured_content.as_ref().unwrap()["available"];
    assert_eq!(available[0]["group"], "calendar");
    assert_eq!(available[0]["instructions"], "Times are UTC.");
    assert_eq!(
        listed(&kit, &session),
        [
            "reset_tools",
            "remember",
            "cal_list_events",
            "cal_share_link",
            "status",
            "change"
        ]
    );
    let r = kit
        .call(&mut session, "cal_share_link", &json!({"text": "a"}))
        .await;
    assert_eq!(ok_text(&r), "ran share_link: a");
    // An inactive remote group's tool is not run by the toolkit.
    let r = kit
        .call(&mut session, "search", &json!({"text": "b"}))
        .await;
    assert!(err_text(&r).contains("`web_search`"), "{}", r.text_joined());
    // Every remote group's tools are in the full list (the mask mode's).
    let all: Vec<&str> = kit.all_definitions().map(|d| d.name).collect();
    for name in [
        "search",
        "share_link",
        "cal_list_events",
        "cal_share_link",
        "status",
    ] {
        assert!(all.contains(&name), "{name} not in {all:?}");
    }

    // A group name the server does not have: an error naming the closest one; the name is
    // shown escaped.
    let err = Remote::group(remote.clone(), "web_search").unwrap_err();
    assert!(matches!(err, GroupError::Unknown { .. }), "{err:?}");
    assert_eq!(
        err.to_string(),
        "the MCP server `office` has no group `web_search`; did you mean `web-search`? (its groups: `web-search`, `calendar`, `notes`)"
    );
    let err = Remote::group(remote.clone(), "x\u{1b}[2Jy").unwrap_err();
    assert!(err.to_string().contains("`x\\u{1b}[2Jy`"), "{err}");
    assert!(!err.to_string().contains('\u{1b}'), "{err}");
}

#[tokio::test]
async fn groups_follow_list_changed_and_reconnections() {
    let server = GroupsServer::new(true, office());
    // After `change`: `calendar` is gone, `maps` is new, `web-search` has new instructions.
    let mut changed = office();
    changed.groups.remove(1);
    changed.groups[0] = group(
        "web-search",
        Some("Prefer primary sources."),
        &[tool("search", "Search the web.")],
    );
    changed
        .groups
        .push(group("maps", None, &[tool("route", "Plan a route.")]));
    *server.next.lock().unwrap() = Some(changed);
    let mut http = Killable::start(server.app(), "127.0.0.1:0");
    let addr = http.addr;
    let remote = connect(&http).await;
    let kit = kit(&remote);
    let mut session = kit.session();
    reset(&kit, &mut session, [true, true, true]).await;
    assert!(listed(&kit, &session).contains(&"cal_list_events"));
    let calendar = kit.registry().calendar.source();
    assert_eq!(calendar.group_name(), Some("calendar"));
    assert_eq!(calendar.group_problem(), None);

    let before = remote.version();
    let r = kit
        .call(&mut session, "change", &json!({"text": "now"}))
        .await;
    assert_eq!(ok_text(&r), "ran change: now");
    next_list(&remote, before).await;
    let names: Vec<String> = remote.groups().iter().map(|g| g.name.clone()).collect();
    assert_eq!(names, ["web-search", "notes", "maps"]);
    assert_eq!(
        remote.groups()[0].instructions.as_deref(),
        Some("Prefer primary sources.")
    );
    // The mounted `calendar` is gone: no tools, and the source says why.
    assert_eq!(
        listed(&kit, &session),
        ["reset_tools", "remember", "search", "status", "change"]
    );
    // `web_search` switched on again gives the new instructions.
    reset(&kit, &mut session, [false, true, true]).await;
    let answer = reset(&kit, &mut session, [true, true, true]).await;
    let available = &answer.structured_content.as_ref().unwrap()["available"];
    assert_eq!(available[0]["instructions"], "Prefer primary sources.");
    let problem = calendar.group_problem().expect("the group is gone");
    assert!(matches!(problem, GroupError::Unknown { .. }), "{problem:?}");
    assert!(
        problem.to_string().contains("no group `calendar`"),
        "{problem}"
    );
    let r = kit
        .call(&mut session, "cal_list_events", &json!({"text": "x"}))
        .await;
    err_text(&r);

    // The server goes down (a call fails, the client forgets the connection), then comes
    // back with the first catalog: the reconnection fetches the groups again and `calendar`
    // is back. (A server restarted between two calls is not noticed: rmcp's HTTP transport
    // opens a new session on its own when the old one is unknown.)
    http.kill();
    err_text(&remote.call("status", &json!({"text": "down"})).await);
    // The killed runtime closes its listener on its own time.
    tokio::time::timeout(PATIENCE, async {
        while std::net::TcpListener::bind(addr).is_err() {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .expect("the old listener closed");
    let restarted = GroupsServer::new(true, office());
    let _http = Killable::start(restarted.app(), &addr.to_string());
    let after_change = remote.version();
    let back = tokio::time::timeout(PATIENCE, async {
        loop {
            let r = remote.call("status", &json!({"text": "?"})).await;
            if !r.is_error {
                return r;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await
    .expect("the client reconnected");
    assert_eq!(back.text_joined(), "ran status: ?");
    assert_eq!(restarted.requests("groups/get"), 3);
    assert!(remote.version() > after_change);
    assert_eq!(calendar.group_problem(), None);
    assert!(listed(&kit, &session).contains(&"cal_list_events"));
    let r = kit
        .call(&mut session, "cal_list_events", &json!({"text": "y"}))
        .await;
    assert_eq!(ok_text(&r), "ran list_events: y");
}

#[tokio::test]
async fn first_use_activation_of_a_remote_group_gives_its_instructions_once() {
    let server = GroupsServer::new(true, office());
    let http = Killable::start(server.app(), "127.0.0.1:0");
    let remote = connect(&http).await;
    let kit = kit(&remote).with_first_use_activation(true);
    let mut session = kit.session();
    let r = kit
        .call(&mut session, "search", &json!({"text": "q"}))
        .await;
    let text = ok_text(&r);
    assert!(text.starts_with("ran search: q"), "{text}");
    assert!(
        text.contains("Cite the URL of every result you use."),
        "{text}"
    );
    assert!(session.is_active(KitGroup::WebSearch));
    let again = ok_text(
        &kit.call(&mut session, "search", &json!({"text": "r"}))
            .await,
    );
    assert_eq!(again, "ran search: r");
}

#[tokio::test]
async fn a_server_without_the_extension_is_listed_as_before() {
    let server = GroupsServer::new(false, office());
    let http = Killable::start(server.app(), "127.0.0.1:0");
    let remote = connect(&http).await;
    assert!(!remote.declares_groups());
    assert!(remote.groups().is_empty());
    assert!(remote.hidden_groups().is_empty());
    let names: Vec<String> = remote.tools().iter().map(|t| t.name.clone()).collect();
    assert_eq!(
        names,
        [
            "status",
            "change",
            "search",
            "share_link",
            "list_events",
            "share_link"
        ]
    );
    assert_eq!(
        ok_text(&remote.call("search", &json!({"text": "q"})).await),
        "ran search: q"
    );
    // No request beyond today's: no groups/list, no groups/get.
    assert!(server.requests.lock().unwrap().is_empty());

    let err = Remote::group(remote.clone(), "web-search").unwrap_err();
    assert_eq!(
        err,
        GroupError::NotDeclared {
            server: "office".into(),
            group: "web-search".into()
        }
    );
    assert!(
        err.to_string()
            .contains("mount its tools with `Remote::new`"),
        "{err}"
    );
    let all = Remote::new(remote);
    assert_eq!(all.group_name(), None);
    assert_eq!(all.group_problem(), None);
    // The duplicate `share_link` is reported as before.
    assert_eq!(all.name_problems().len(), 1);
}

#[tokio::test]
async fn a_client_built_without_the_extension_fetches_no_group() {
    let server = GroupsServer::new(true, office());
    let http = Killable::start(server.app(), "127.0.0.1:0");
    let remote = RemoteTools::connect(
        RemoteServer::http(http.url())
            .with_label("office")
            .with_groups_extension(false),
    )
    .await
    .expect("the client connects");
    let client = server.client.lock().unwrap().clone().unwrap();
    // Only the tasks extension, which the client always declares.
    assert_eq!(
        client["extensions"],
        json!({"io.modelcontextprotocol/tasks": {}}),
        "{client}"
    );
    assert!(server.requests.lock().unwrap().is_empty());
    assert!(!remote.declares_groups());
    assert!(remote.groups().is_empty());
    // The server lists every tool at the top level for such a client.
    assert_eq!(remote.tools().len(), 6);
    let err = Remote::group(remote.clone(), "web-search").unwrap_err();
    assert_eq!(
        err.to_string(),
        "the group `web-search` of the MCP server `office` cannot be mounted: the client was built with `RemoteServer::with_groups_extension(false)`, so it fetches no group"
    );
}
