//! This crate's client against this crate's server, both with the groups extension (the
//! server in mask mode, as a stdio child and over HTTP): the server's groups are fetched,
//! mounted as the groups of a local toolkit, switched by its `reset_tools` and called.

use serde_json::json;
use toolgroup::dynamic::Dynamic;
use toolgroup::prelude::*;
use toolgroup_mcp::Mode;
use toolgroup_mcp::client::{Remote, RemoteServer, RemoteTools, Stderr};

use super::{Killable, err_text, interop_server, ok_text, own_server};

#[tool_group(name = "search", description = "Search the web (remote).", dynamic)]
struct Search;

#[tool_group(name = "pages", description = "Fetch pages (remote).", dynamic)]
struct Pages;

#[tool_group(name = "basics", description = "The remote basic tools.", dynamic)]
struct Basics;

#[toolkit]
struct Front {
    search: Dynamic<Search, Remote>,
    pages: Dynamic<Pages, Remote>,
    basics: Dynamic<Basics, Remote>,
}

/// What the client sees of the tests' toolkit served in mask mode, and a local toolkit of
/// its groups.
async fn mount_and_switch(remote: RemoteTools) {
    assert!(remote.declares_groups());
    // The basic tools are top-level, without `reset_tools`: the client switches groups.
    let top: Vec<String> = remote.tools().iter().map(|t| t.name.clone()).collect();
    assert_eq!(top, ["note_write", "slow_stats", "whoami"]);
    assert!(
        remote.hidden_groups().is_empty(),
        "{:?}",
        remote.hidden_groups()
    );
    let groups = remote.groups();
    let summary = crate::group_summary(&groups);
    assert_eq!(
        summary,
        [
            ("web-search", Some("Cite your sources."), vec!["web_search"]),
            (
                "scraping",
                Some("Only fetch pages found by a search."),
                vec!["page_fetch"]
            ),
            ("waiting", None, vec!["slow", "count"]),
        ]
    );
    assert_eq!(groups[0].description, "Searching the web.");
    let own_name = groups[0]
        .meta
        .as_ref()
        .map(|m| &m[toolgroup_mcp::GROUP_META_KEY]);
    assert_eq!(own_name, Some(&json!("web_search")));

    let kit = Toolkit::new(Front {
        search: Dynamic::new(Remote::group(remote.clone(), "web-search").unwrap()),
        pages: Dynamic::new(Remote::group(remote.clone(), "scraping").unwrap()),
        basics: Dynamic::new(Remote::new(remote.clone())),
    });
    assert!(kit.hidden_tools().is_empty(), "{:?}", kit.hidden_tools());
    let mut session = kit.session();
    let on = json!({"search": true, "pages": false, "basics": true});
    let answer = kit.call(&mut session, "reset_tools", &on).await;
    assert!(ok_text(&answer).contains("Cite your sources."));
    let listed: Vec<&str> = kit.definitions(&session).map(|d| d.name).collect();
    assert_eq!(
        listed,
        [
            "reset_tools",
            "web_search",
            "note_write",
            "slow_stats",
            "whoami"
        ]
    );
    // The server runs a group's tool for a client of the extension without any activation
    // on its side.
    let hit = kit
        .call(&mut session, "web_search", &json!({"query": "rust"}))
        .await;
    assert!(
        ok_text(&hit).contains("hit for rust"),
        "{}",
        hit.text_joined()
    );
    let refused = kit
        .call(&mut session, "page_fetch", &json!({"url": "https://a"}))
        .await;
    assert!(
        err_text(&refused).contains("`pages`"),
        "{}",
        refused.text_joined()
    );

    let swap = json!({"search": false, "pages": true, "basics": false});
    let answer = kit.call(&mut session, "reset_tools", &swap).await;
    assert!(ok_text(&answer).contains("Only fetch pages found by a search."));
    let listed: Vec<&str> = kit.definitions(&session).map(|d| d.name).collect();
    assert_eq!(listed, ["reset_tools", "page_fetch"]);
    let page = kit
        .call(&mut session, "page_fetch", &json!({"url": "https://a"}))
        .await;
    assert_eq!(ok_text(&page), "page https://a");
}

#[tokio::test]
async fn own_server_over_stdio_groups_mount_and_switch() {
    let remote = RemoteTools::connect(
        RemoteServer::stdio(interop_server(), ["mask", "stdio"])
            .with_label("own-stdio")
            .with_stderr(Stderr::Discard),
    )
    .await
    .expect("the interop server starts");
    mount_and_switch(remote).await;
}

#[tokio::test]
async fn own_server_over_http_groups_mount_and_switch() {
    let server = Killable::start(own_server(Mode::Mask), "127.0.0.1:0");
    let remote = RemoteTools::connect(RemoteServer::http(server.url()).with_label("own"))
        .await
        .expect("the client connects");
    mount_and_switch(remote).await;
}
