//! The client side of the `io.modelcontextprotocol/groups` extension against a real rmcp
//! server over HTTP that answers `groups/list` and `groups/get` (and variants that fail or
//! break the extension's rules, and one without the extension): remote groups mounted as the
//! groups of a local toolkit, switched by its `reset_tools`, followed through
//! `notifications/groups/list_changed` and reconnections.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, CustomNotification,
    CustomRequest, CustomResult, ErrorCode, ErrorData, ExtensionCapabilities, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, ServerNotification, Tool,
};
use rmcp::service::RequestContext;
use rmcp::transport::StreamableHttpService;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::{RoleServer, ServerHandler};
use serde_json::{Value, json};
use toolgroup::dynamic::Dynamic;
use toolgroup::prelude::*;
use toolgroup_mcp::client::{GroupError, Remote, RemoteServer, RemoteTools};

use super::{Killable, PATIENCE, err_text, next_list, ok_text};

const EXTENSION: &str = "io.modelcontextprotocol/groups";

/// How the test server answers `groups/get` for one group.
#[derive(Clone)]
enum Answer {
    Json(Value),
    Error(ErrorData),
    /// Never answers.
    Hang,
}

/// One group of the test server: its `groups/list` entry and its `groups/get` answer.
#[derive(Clone)]
struct Group {
    name: String,
    entry: Value,
    answer: Answer,
}

/// What the test server lists.
#[derive(Clone, Default)]
struct Catalog {
    top: Vec<Tool>,
    groups: Vec<Group>,
    /// Answers every `groups/list` instead of the pages of `groups`.
    list: Option<Answer>,
}

/// An rmcp server with groups; `change` (a top-level tool) switches to `next` and sends
/// `notifications/groups/list_changed`.
#[derive(Clone)]
struct GroupsServer {
    declare: bool,
    catalog: Arc<Mutex<Catalog>>,
    next: Arc<Mutex<Option<Catalog>>>,
    /// The method of every custom request received, in order.
    requests: Arc<Mutex<Vec<String>>>,
    /// The client's capabilities, as it declared them.
    client: Arc<Mutex<Option<Value>>>,
}

impl GroupsServer {
    fn new(declare: bool, catalog: Catalog) -> Self {
        GroupsServer {
            declare,
            catalog: Arc::new(Mutex::new(catalog)),
            next: Arc::default(),
            requests: Arc::default(),
            client: Arc::default(),
        }
    }

    fn requests(&self, method: &str) -> usize {
        let requests = self.requests.lock().unwrap();
        requests.iter().filter(|m| *m == method).count()
    }

    fn app(&self) -> impl FnOnce() -> axum::Router + use<> {
        let server = self.clone();
        move || {
            let service = StreamableHttpService::new(
                move || Ok(server.clone()),
                Arc::new(LocalSessionManager::default()),
                rmcp::transport::StreamableHttpServerConfig::default(),
            );
            axum::Router::new().nest_service("/mcp", service)
        }
    }
}

fn tool(name: &str, description: &str) -> Tool {
    let Value::Object(schema) = json!({
        "type": "object",
        "properties": {"text": {"type": "string"}},
        "required": ["text"]
    }) else {
        unreachable!()
    };
    Tool::new(name.to_owned(), description.to_owned(), schema)
}

/// A well-formed group.
fn group(name: &str, instructions: Option<&str>, tools: &[Tool]) -> Group {
    let mut answer = json!({"contents": {"tools": tools}});
    if let Some(text) = instructions {
        answer["instructions"] = json!(text);
    }
    Group {
        name: name.to_owned(),
        entry: json!({
            "name": name,
            "title": format!("The {name} group"),
            "description": format!("Tools for {name}."),
            "_meta": {"example.com/owner": "tests"}
        }),
        answer: Answer::Json(answer),
    }
}

fn with_answer(mut group: Group, answer: Answer) -> Group {
    group.answer = answer;
    group
}

impl ServerHandler for GroupsServer {
    fn get_info(&self) -> ServerConfig {
        let mut capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_tool_list_changed()
            .build();
        if self.declare {
            let mut extensions = ExtensionCapabilities::new();
            let Value::Object(settings) = json!({"listChanged": true}) else {
                unreachable!()
            };
            extensions.insert(EXTENSION.to_owned(), settings);
            capabilities.extensions = Some(extensions);
        }
        ServerConfig::new(capabilities)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        if let Some(info) = context.peer.peer_info() {
            *self.client.lock().unwrap() = Some(serde_json::to_value(&info.capabilities).unwrap());
        }
        let catalog = self.catalog.lock().unwrap().clone();
        let mut tools = catalog.top;
        if !self.declare {
            // Without the extension, every tool is top-level.
            for group in &catalog.groups {
                if let Answer::Json(answer) = &group.answer {
                    let raw = answer["contents"]["tools"].clone();
                    let scoped: Vec<Tool> = serde_json::from_value(raw).unwrap_or_default();
                    tools.extend(scoped);
                }
            }
        }
        Ok(ListToolsResult::with_all_items(tools))
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        self.requests.lock().unwrap().push(request.method.clone());
        if !self.declare {
            return Err(ErrorData::new(
                ErrorCode::METHOD_NOT_FOUND,
                request.method,
                None,
            ));
        }
        let params = request.params.unwrap_or_default();
        let catalog = self.catalog.lock().unwrap().clone();
        match request.method.as_str() {
            "groups/list" if catalog.list.is_some() => match catalog.list.unwrap() {
                Answer::Json(answer) => Ok(CustomResult::new(answer)),
                Answer::Error(error) => Err(error),
                Answer::Hang => std::future::pending().await,
            },
            // Two groups a page.
            "groups/list" => {
                let start: usize = params["cursor"].as_str().map_or(0, |c| c.parse().unwrap());
                let end = (start + 2).min(catalog.groups.len());
                let entries: Vec<&Value> = catalog.groups[start..end]
                    .iter()
                    .map(|g| &g.entry)
                    .collect();
                let mut page = json!({"groups": entries});
                if end < catalog.groups.len() {
                    page["nextCursor"] = json!(end.to_string());
                }
                Ok(CustomResult::new(page))
            }
            "groups/get" => {
                let name = params["name"].as_str().unwrap_or_default();
                let Some(group) = catalog.groups.iter().find(|g| g.name == name) else {
                    return Err(ErrorData::new(
                        ErrorCode(-32002),
                        "Resource not found",
                        None,
                    ));
                };
                match &group.answer {
                    Answer::Json(answer) => Ok(CustomResult::new(answer.clone())),
                    Answer::Error(error) => Err(error.clone()),
                    Answer::Hang => std::future::pending().await,
                }
            }
            other => Err(ErrorData::new(
                ErrorCode::METHOD_NOT_FOUND,
                other.to_owned(),
                None,
            )),
        }
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let name = request.name.as_ref();
        let next = if name == "change" {
            self.next.lock().unwrap().take()
        } else {
            None
        };
        if let Some(next) = next {
            *self.catalog.lock().unwrap() = next;
            let changed = CustomNotification::new("notifications/groups/list_changed", None);
            let _ = context
                .peer
                .send_notification(ServerNotification::CustomNotification(changed))
                .await;
        }
        let text = request
            .arguments
            .and_then(|a| a.get("text").and_then(Value::as_str).map(str::to_owned))
            .unwrap_or_default();
        Ok(CallToolResult::success(vec![ContentBlock::text(format!("ran {name}: {text}"))]).into())
    }
}

/// The office server: top-level `status` and `change`; groups `web-search` (with
/// instructions), `calendar` (none) and `notes` (instructions only), both of the first two
/// with the same `share_link`.
fn office() -> Catalog {
    let share = tool("share_link", "Share a link.");
    Catalog {
        list: None,
        top: vec![
            tool("status", "The server's status."),
            tool("change", "Change the groups."),
        ],
        groups: vec![
            group(
                "web-search",
                Some("Cite the URL of every result you use."),
                &[tool("search", "Search the web."), share.clone()],
            ),
            group(
                "calendar",
                None,
                &[tool("list_events", "List events."), share],
            ),
            with_answer(
                group("notes", None, &[]),
                Answer::Json(json!({"instructions": "Notes live in the wiki."})),
            ),
        ],
    }
}

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
    let summary: Vec<(&str, Option<&str>, Vec<&str>)> = groups
        .iter()
        .map(|g| {
            (
                g.name.as_str(),
                g.instructions.as_deref(),
                g.tools.iter().map(|t| t.name.as_str()).collect(),
            )
        })
        .collect();
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
    reset(&kit, &mut session, [true, false, false]).await;
    assert_eq!(
        listed(&kit, &session),
        ["reset_tools", "remember", "search", "share_link"]
    );
    let answer = reset(&kit, &mut session, [false, true, true]).await;
    assert!(
        answer.text_joined().contains("Times are UTC."),
        "{}",
        answer.text_joined()
    );
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
        assert!(
            matches!(err, toolgroup_mcp::client::RemoteError::ListGroups { .. }),
            "{err:?}"
        );
        assert_eq!(err.to_string(), expected);
        assert_eq!(server.requests("groups/get"), 0);
    }
}
