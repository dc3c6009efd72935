//! What a model behind an MCP client is shown, and how many requests it makes to reach a
//! group's tool, per server mode and option, against a flat server with the same tools: the
//! MCP table of `docs/tokens-and-cache.md` (`cargo run --example mcp_groups`).
//!
//! The server is the `mcp_server` example's toolkit (`notes` basic; `web_search`, `scraping`
//! and `charts` switchable) served by toolgroup's MCP server; rmcp's client talks to it over
//! an in-memory stream, so every list and call is the real wire exchange. The client side is
//! scripted after two documented behaviours:
//!
//! - **searching** (Claude Code; Codex above its deferral threshold): every MCP tool is
//!   deferred behind the client's tool search, so the model is shown names only, except the
//!   tools marked `_meta["anthropic/alwaysLoad"]`, shown in full; the client lists again on
//!   `notifications/tools/list_changed`.
//! - **no re-list** (Codex below its threshold, LangChain's adapters): every listed
//!   definition is shown in full, and the list is never read again.
//!
//! The scripted model wants `web_search`'s tool. Each turn is one model request: it searches
//! for a tool whose definition it has not been shown, calls it once it has, and when the call
//! is refused as inactive (or the tool is not listed) it loads and calls `reset_tools`, then
//! goes back to the tool. "Shown" is the first request's tool text: full definitions as JSON,
//! names of deferred tools one per line; tokens are o200k_base.

#[allow(dead_code)]
#[path = "../../examples/support/agent.rs"]
mod agent;
#[path = "../../examples/support/charts.rs"]
mod charts;

use std::collections::BTreeSet;

use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, ClientConfig, Tool};
use toolgroup::Session;
use toolgroup::mcp::{ClientHints, McpServer, Mode};
use toolgroup_bench::tokens::o200k;

/// The tool the model wants, its group, and its arguments.
const TARGET: &str = "web_search";
const GROUP: &str = "web_search";
const MAX_TURNS: usize = 8;

#[derive(Clone, Copy, PartialEq)]
enum ClientKind {
    Searching,
    NoRelist,
}

impl ClientKind {
    fn name(self) -> &'static str {
        match self {
            ClientKind::Searching => "searching (Claude Code, Codex with tool search)",
            ClientKind::NoRelist => "no re-list (Codex under its threshold, LangChain)",
        }
    }
}

struct Config {
    label: &'static str,
    mode: Mode,
    first_use: bool,
    hints: bool,
    flat: bool,
}

const CONFIGS: [Config; 7] = [
    Config {
        label: "flat (selected, every group)",
        mode: Mode::Selected,
        first_use: false,
        hints: false,
        flat: true,
    },
    Config {
        label: "mask, refusal, no hints",
        mode: Mode::Mask,
        first_use: false,
        hints: false,
        flat: false,
    },
    Config {
        label: "mask, refusal, hints",
        mode: Mode::Mask,
        first_use: false,
        hints: true,
        flat: false,
    },
    Config {
        label: "mask, first use, no hints",
        mode: Mode::Mask,
        first_use: true,
        hints: false,
        flat: false,
    },
    Config {
        label: "mask, first use, hints (default)",
        mode: Mode::Mask,
        first_use: true,
        hints: true,
        flat: false,
    },
    Config {
        label: "list, refusal, no hints",
        mode: Mode::List,
        first_use: false,
        hints: false,
        flat: false,
    },
    Config {
        label: "list, first use, hints",
        mode: Mode::List,
        first_use: true,
        hints: true,
        flat: false,
    },
];

type Client = rmcp::service::RunningService<rmcp::RoleClient, ClientConfig>;

async fn connect(config: &Config) -> Client {
    let hints = if config.hints {
        ClientHints::default()
    } else {
        ClientHints::none()
    };
    let server = McpServer::new(charts::toolkit(), config.mode)
        .with_client_hints(hints)
        .with_first_use_activation(config.first_use);
    let handler = if config.flat {
        let all: Session<charts::Analyst> = "web_search, scraping, charts".parse().expect("groups");
        server.handler_with(all)
    } else {
        server.handler()
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
        .and_then(serde_json::Value::as_bool)
        == Some(true)
}

/// The tool text of one request, as the client shows it to the model.
fn shown(kind: ClientKind, tools: &[Tool]) -> String {
    let mut text = String::new();
    for tool in tools {
        if kind == ClientKind::NoRelist || always_loaded(tool) {
            text.push_str(&serde_json::to_string(tool).expect("a tool is JSON"));
        } else {
            text.push_str(&tool.name);
        }
        text.push('\n');
    }
    text
}

struct Row {
    client: ClientKind,
    label: &'static str,
    bytes: usize,
    tokens: usize,
    turns: Option<usize>,
}

async fn run(kind: ClientKind, config: &Config) -> Row {
    let client = connect(config).await;
    let mut listed = client.list_all_tools().await.expect("tools/list");
    let text = shown(kind, &listed);
    let mut loaded: BTreeSet<String> = listed
        .iter()
        .filter(|t| kind == ClientKind::NoRelist || always_loaded(t))
        .map(|t| t.name.to_string())
        .collect();
    let mut need_reset = false;
    let mut turns = 0;
    let mut reached = None;
    while turns < MAX_TURNS {
        let is_listed = |name: &str, listed: &[Tool]| listed.iter().any(|t| t.name == name);
        if !need_reset && is_listed(TARGET, &listed) {
            turns += 1;
            if !loaded.contains(TARGET) {
                loaded.insert(TARGET.to_owned());
                continue;
            }
            let arguments = serde_json::json!({"query": "rust"});
            let result = client
                .call_tool(
                    CallToolRequestParams::new(TARGET)
                        .with_arguments(arguments.as_object().cloned().expect("an object")),
                )
                .await;
            if matches!(&result, Ok(r) if r.is_error != Some(true)) {
                reached = Some(turns);
                break;
            }
            need_reset = true;
            continue;
        }
        if !is_listed("reset_tools", &listed) {
            break;
        }
        turns += 1;
        if !loaded.contains("reset_tools") {
            loaded.insert("reset_tools".to_owned());
            continue;
        }
        let mut arguments = serde_json::Map::new();
        arguments.insert(GROUP.to_owned(), serde_json::Value::Bool(true));
        let result = client
            .call_tool(CallToolRequestParams::new("reset_tools").with_arguments(arguments))
            .await
            .expect("reset_tools");
        assert_ne!(result.is_error, Some(true), "reset_tools was refused");
        need_reset = false;
        if kind == ClientKind::Searching {
            listed = client.list_all_tools().await.expect("tools/list");
        }
    }
    let _ = client.cancel().await;
    Row {
        client: kind,
        label: config.label,
        bytes: text.len(),
        tokens: o200k(&text),
        turns: reached,
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    println!(
        "| client | server | tool text shown (bytes) | o200k tokens | model requests to the tool's result |"
    );
    println!("|---|---|---:|---:|---:|");
    for kind in [ClientKind::Searching, ClientKind::NoRelist] {
        for config in &CONFIGS {
            let row = run(kind, config).await;
            let turns = row.turns.map_or_else(
                || "never (the tool is not listed)".to_owned(),
                |n| n.to_string(),
            );
            println!(
                "| {} | {} | {} | {} | {} |",
                row.client.name(),
                row.label,
                row.bytes,
                row.tokens,
                turns
            );
        }
    }
}
