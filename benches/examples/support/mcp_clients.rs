//! What the model behind each MCP client reads on its way to a group's tool, against a server
//! with groups (toolgroup's `McpServer` with its defaults) and a flat server with the same
//! tools (selected mode with every group: every group's instructions in the server's
//! `instructions`). The table of `docs/tokens-and-cache.md` ("Over MCP") and the claims
//! `tests/mcp_groups.rs` asserts.
//!
//! The server side is real: rmcp's client talks to the server over an in-memory stream, so
//! every list and call is the wire exchange. The client side is a model of each client, from
//! its source or from recording what it sent to a model on loopback (the versions named in
//! [`CLIENTS`]):
//!
//! - which definitions the model is shown: all in full, or (a client that defers MCP tools
//!   behind its own tool search) names only, except tools marked `anthropic/alwaysLoad` and
//!   those the model has loaded by searching; a definition is its name, description and
//!   input schema (no client shows `outputSchema` or `_meta` to its model);
//! - whether the server's `instructions` are in the model's prompt;
//! - what of a result the model reads: its structured content when it has one (else its
//!   text), its text alone, or the whole result object;
//! - whether the client lists again (on `list_changed`, every request, or never).
//!
//! The scripted model's task: use two tools of one group (the first, then the second of the
//! group, or the first again when the group has one). Each model request is counted with
//! everything it shows the model: the definitions, the instructions, and every result read so
//! far. The model searches for a tool it has not been shown in full, calls it once shown, and
//! when a call is refused (or the tool is not listed) loads and calls `reset_tools`.

use std::collections::BTreeSet;

use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, ClientConfig, Tool};
use serde_json::{Value, json};
use toolgroup::mcp::{McpServer, Mode};
use toolgroup::{Registry, Session, Toolkit};

/// What of a tool result the client gives its model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reads {
    /// The structured content when the result has some, else the text blocks.
    Structured,
    /// The text blocks (images as images), never the structured content.
    Text,
    /// The whole result object, as a program that prints it sees it.
    Whole,
}

/// When the client calls `tools/list` again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Relist {
    /// On `notifications/tools/list_changed`.
    OnListChanged,
    /// Before every model request.
    EveryRequest,
    /// Never after the first.
    Never,
}

/// One client, as modelled.
#[derive(Debug, Clone, Copy)]
pub struct Client {
    pub name: &'static str,
    /// Defers MCP tools behind its own tool search (names only until loaded).
    pub defers: bool,
    /// Puts the server's `instructions` in the model's prompt.
    pub instructions: bool,
    pub reads: Reads,
    pub relist: Relist,
}

/// The clients of the table. Claude Code 2.1.332 and Codex 0.171.0 were run against a
/// recording model on loopback; pydantic-ai 2.78.0, openai-agents 0.24.0 and
/// langchain-mcp-adapters 0.3.2 were read in their sources (their defaults).
pub const CLIENTS: [Client; 7] = [
    Client {
        name: "Claude Code 2.1.332, tool search on",
        defers: true,
        instructions: true,
        reads: Reads::Structured,
        relist: Relist::OnListChanged,
    },
    Client {
        name: "Claude Code 2.1.332, tool search off",
        defers: false,
        instructions: true,
        reads: Reads::Structured,
        relist: Relist::OnListChanged,
    },
    Client {
        name: "Codex 0.171.0, code mode",
        defers: false,
        instructions: true,
        reads: Reads::Whole,
        relist: Relist::Never,
    },
    Client {
        name: "Codex 0.171.0, function tools",
        defers: false,
        instructions: true,
        reads: Reads::Structured,
        relist: Relist::Never,
    },
    Client {
        name: "pydantic-ai 2.78.0",
        defers: false,
        instructions: false,
        reads: Reads::Structured,
        relist: Relist::OnListChanged,
    },
    Client {
        name: "OpenAI Agents SDK 0.24.0",
        defers: false,
        instructions: false,
        reads: Reads::Text,
        relist: Relist::EveryRequest,
    },
    Client {
        name: "LangChain MCP adapters 0.3.2",
        defers: false,
        instructions: false,
        reads: Reads::Text,
        relist: Relist::Never,
    },
];

/// The server: flat, or with groups and its defaults.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Server {
    /// Selected mode with every group chosen: the same tools without groups, and every
    /// group's instructions in the server's `instructions`.
    Flat,
    /// `McpServer::new(toolkit, Mode::Mask)` with nothing else set.
    Default,
}

/// The task: the group whose tools the model uses, and the two calls it makes.
#[derive(Debug, Clone)]
pub struct Task {
    pub group: &'static str,
    pub calls: [(&'static str, Value); 2],
}

/// What one client read on one server.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub client: &'static str,
    pub server: Server,
    /// Model requests until the first call's result was read (`None`: never reached).
    pub requests: Option<usize>,
    /// Model requests until the second call's result was read.
    pub requests_all: Option<usize>,
    /// Bytes the model read over the requests until the first result (definitions,
    /// instructions, results), summed.
    pub bytes: usize,
    /// How many times the model read the group's instructions: in the server's instructions
    /// (once, however many requests repeat them) and in results.
    pub instructions_read: usize,
    /// Bytes of the activation the model read (its text block, or its key in the structured
    /// content), in the first result's request.
    pub activation_bytes: usize,
}

const MAX_REQUESTS: usize = 12;

type Peer = rmcp::service::RunningService<rmcp::RoleClient, ClientConfig>;

async fn connect<R: Registry>(toolkit: Toolkit<R>, server: Server) -> Peer {
    let handler = match server {
        Server::Flat => {
            let every: Vec<&str> = R::SWITCHABLE.iter().map(|&g| R::GROUPS[g].name).collect();
            let all: Session<R> = every.join(",").parse().expect("the toolkit's groups");
            McpServer::new(toolkit, Mode::Selected).handler_with(all)
        }
        Server::Default => McpServer::new(toolkit, Mode::Mask).handler(),
    };
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        if let Ok(running) = handler.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    ClientConfig::default()
        .serve(client_io)
        .await
        .expect("connect")
}

fn always_loaded(tool: &Tool) -> bool {
    tool.meta
        .as_ref()
        .and_then(|m| m.0.get("anthropic/alwaysLoad"))
        .and_then(Value::as_bool)
        == Some(true)
}

/// A definition as clients show it to their model: name, description, input schema.
fn definition(tool: &Tool) -> String {
    json!({
        "name": tool.name,
        "description": tool.description,
        "input_schema": tool.input_schema,
    })
    .to_string()
}

/// The tool text of one request.
fn shown(client: &Client, tools: &[Tool], loaded: &BTreeSet<String>) -> usize {
    tools
        .iter()
        .map(|tool| {
            if !client.defers || always_loaded(tool) || loaded.contains(tool.name.as_ref()) {
                definition(tool).len() + 1
            } else {
                tool.name.len() + 1
            }
        })
        .sum()
}

/// What the model reads of a result.
fn read(client: &Client, result: &Value) -> String {
    let text = || {
        result["content"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|block| match block["type"].as_str() {
                Some("text") => block["text"].as_str().unwrap_or_default().to_owned(),
                Some(kind) => format!("[{kind}]"),
                None => String::new(),
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    match client.reads {
        Reads::Structured => match result.get("structuredContent") {
            Some(structured) if !structured.is_null() => structured.to_string(),
            _ => text(),
        },
        Reads::Text => text(),
        Reads::Whole => result.to_string(),
    }
}

/// The bytes of what the model reads of `result` that are the activation: its text block,
/// and its `"activated_group":{...}` member in the structured content.
fn activation_part(client: &Client, result: &Value) -> usize {
    let block = result["content"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|b| b["text"].as_str())
        .find(|t| t.starts_with("This call activated the group"))
        .map_or(0, |t| t.len() + 1);
    let structured = result
        .get("structuredContent")
        .and_then(|s| s.get("activated_group"))
        .map_or(0, |a| a.to_string().len() + r#","activated_group":"#.len());
    let has_structured = result
        .get("structuredContent")
        .is_some_and(|s| !s.is_null());
    match client.reads {
        Reads::Structured if has_structured => structured,
        Reads::Structured | Reads::Text => block,
        Reads::Whole => block + structured,
    }
}

/// One client against one server: the scripted model's requests, and what it read.
pub async fn run<R: Registry>(
    toolkit: Toolkit<R>,
    client: &Client,
    server: Server,
    task: &Task,
) -> Row {
    let instructions_text = R::GROUPS
        .iter()
        .find(|g| g.name == task.group)
        .and_then(|g| g.instructions)
        .expect("the task's group has instructions");
    let peer = connect(toolkit, server).await;
    let server_instructions = if client.instructions {
        peer.peer_info()
            .and_then(|info| info.instructions.clone())
            .unwrap_or_default()
    } else {
        String::new()
    };
    let mut listed = peer.list_all_tools().await.expect("tools/list");
    let mut loaded: BTreeSet<String> = BTreeSet::new();
    let mut results: Vec<String> = Vec::new();
    let mut row = Row {
        client: client.name,
        server,
        requests: None,
        requests_all: None,
        bytes: 0,
        instructions_read: usize::from(server_instructions.contains(instructions_text)),
        activation_bytes: 0,
    };
    let mut step = 0;
    let mut need_reset = false;
    let mut changed = false;
    for request in 1..=MAX_REQUESTS {
        if client.relist == Relist::EveryRequest
            || (client.relist == Relist::OnListChanged && changed)
        {
            listed = peer.list_all_tools().await.expect("tools/list");
            changed = false;
        }
        let bytes = shown(client, &listed, &loaded)
            + server_instructions.len()
            + results.iter().map(String::len).sum::<usize>();
        if row.requests.is_none() {
            row.bytes += bytes;
        }
        // This request reads the last result: is it the one the task waited for?
        if step == 1 && row.requests.is_none() {
            row.requests = Some(request);
        }
        if step == 2 {
            row.requests_all = Some(request);
            break;
        }
        let is_listed = |name: &str| listed.iter().any(|t| t.name == name);
        let target = task.calls[step].0;
        let want = if need_reset || !is_listed(target) {
            "reset_tools"
        } else {
            target
        };
        if !is_listed(want) {
            // Nothing the model is shown reaches the tool.
            break;
        }
        let shown_in_full = !client.defers
            || loaded.contains(want)
            || listed.iter().any(|t| t.name == want && always_loaded(t));
        if !shown_in_full {
            // A tool search: the definition is shown from the next request on.
            loaded.insert(want.to_owned());
            continue;
        }
        let arguments = if want == "reset_tools" {
            json!({ task.group: true })
        } else {
            task.calls[step].1.clone()
        };
        let result = peer
            .call_tool(
                CallToolRequestParams::new(want.to_owned())
                    .with_arguments(arguments.as_object().cloned().expect("an object")),
            )
            .await;
        let result = match result {
            Ok(result) => serde_json::to_value(&result).expect("a result is JSON"),
            Err(e) => {
                json!({"content": [{"type": "text", "text": e.to_string()}], "isError": true})
            }
        };
        let seen = read(client, &result);
        if seen.contains(instructions_text) {
            row.instructions_read += 1;
        }
        row.activation_bytes += activation_part(client, &result);
        results.push(seen);
        if want == "reset_tools" {
            need_reset = false;
            changed = true;
        } else if result["isError"] == true {
            need_reset = true;
        } else {
            step += 1;
        }
    }
    let _ = peer.cancel().await;
    row
}

/// Every client against both servers.
pub async fn rows<R: Registry>(toolkit: impl Fn() -> Toolkit<R>, task: &Task) -> Vec<Row> {
    let mut rows = Vec::new();
    for client in &CLIENTS {
        for server in [Server::Flat, Server::Default] {
            rows.push(run(toolkit(), client, server, task).await);
        }
    }
    rows
}

/// The `mcp_server` example's toolkit and task: `web_search` twice.
pub fn example_task() -> Task {
    Task {
        group: "web_search",
        calls: [
            ("web_search", json!({"query": "rust"})),
            ("web_search", json!({"query": "tokio"})),
        ],
    }
}

/// The ten-group fixture's task: search the issues, then read one.
pub fn workplace_task() -> Task {
    Task {
        group: "issues",
        calls: [
            ("issue_search", json!({"query": "panic in deferred mode"})),
            ("issue_read", json!({"id": "issue_search-0"})),
        ],
    }
}
