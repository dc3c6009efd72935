//! The test server of the groups-extension tests: an rmcp server over HTTP that answers
//! `groups/list` and `groups/get` from a [`Catalog`], and variants that fail, hang, break the
//! extension's rules, or do not declare it.

use std::sync::{Arc, Mutex};

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

pub const EXTENSION: &str = "io.modelcontextprotocol/groups";

/// How the test server answers `groups/get` for one group.
#[derive(Clone)]
pub enum Answer {
    Json(Value),
    Error(ErrorData),
    /// Never answers.
    Hang,
}

/// One group of the test server: its `groups/list` entry and its `groups/get` answer.
#[derive(Clone)]
pub struct Group {
    pub name: String,
    pub entry: Value,
    pub answer: Answer,
}

/// What the test server lists.
#[derive(Clone, Default)]
pub struct Catalog {
    pub top: Vec<Tool>,
    pub groups: Vec<Group>,
    /// Answers every `groups/list` instead of the pages of `groups`.
    pub list: Option<Answer>,
}

/// An rmcp server with groups; `change` (a top-level tool) switches to `next` and sends
/// `notifications/groups/list_changed`.
#[derive(Clone)]
pub struct GroupsServer {
    pub declare: bool,
    pub catalog: Arc<Mutex<Catalog>>,
    pub next: Arc<Mutex<Option<Catalog>>>,
    /// The method of every custom request received, in order.
    pub requests: Arc<Mutex<Vec<String>>>,
    /// The client's capabilities, as it declared them.
    pub client: Arc<Mutex<Option<Value>>>,
}

impl GroupsServer {
    pub fn new(declare: bool, catalog: Catalog) -> Self {
        GroupsServer {
            declare,
            catalog: Arc::new(Mutex::new(catalog)),
            next: Arc::default(),
            requests: Arc::default(),
            client: Arc::default(),
        }
    }

    pub fn requests(&self, method: &str) -> usize {
        let requests = self.requests.lock().unwrap();
        requests.iter().filter(|m| *m == method).count()
    }

    pub fn app(&self) -> impl FnOnce() -> axum::Router + use<> {
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

pub fn tool(name: &str, description: &str) -> Tool {
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
pub fn group(name: &str, instructions: Option<&str>, tools: &[Tool]) -> Group {
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

pub fn with_answer(mut group: Group, answer: Answer) -> Group {
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
        let declared = context.peer.peer_info().map(|info| {
            let capabilities = serde_json::to_value(&info.capabilities).unwrap();
            *self.client.lock().unwrap() = Some(capabilities.clone());
            capabilities["extensions"].get(EXTENSION).is_some()
        });
        let catalog = self.catalog.lock().unwrap().clone();
        let mut tools = catalog.top;
        if !self.declare || declared != Some(true) {
            // Without the extension on both sides, every tool is top-level.
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
pub fn office() -> Catalog {
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
