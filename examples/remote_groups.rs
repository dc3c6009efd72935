//! A toolkit whose groups mix local Rust tools with the tools of MCP servers, switched by
//! the same `reset_tools`. Offline: the "remote" servers are this project's own MCP server
//! (the quickstart toolkit with its `charts` group), served over Streamable HTTP on loopback
//! in this process, and reached through the MCP client exactly as any server would be.
//!
//! ```text
//! cargo run --example remote_groups --features mcp-client
//! ```

#[allow(dead_code)]
#[path = "support/agent.rs"]
mod agent;
#[path = "support/charts.rs"]
mod charts;

use serde_json::json;
use toolgroup::dynamic::Dynamic;
use toolgroup::mcp::client::{Remote, RemoteServer, RemoteTools};
use toolgroup::mcp::rmcp::transport::StreamableHttpServerConfig;
use toolgroup::mcp::{McpServer, Mode};
use toolgroup::prelude::*;
use toolgroup::provider::{Provider, Rendered};

/// Remember a fact for later turns.
#[tool]
fn remember(
    /// The fact.
    fact: String,
) -> String {
    format!("remembered: {fact}")
}

#[tool_group(name = "memory", description = "Remembering facts.", tools = [remember])]
struct Memory;

#[tool_group(
    name = "research",
    description = "Searching the web and reading pages (a remote MCP server).",
    instructions = "Cite the URL of every result you use.",
    dynamic
)]
struct Research;

#[tool_group(
    name = "charts",
    description = "Drawing charts (a remote MCP server).",
    dynamic
)]
struct Charts;

#[toolkit]
struct Assistant {
    #[basic]
    memory: Memory,
    research: Dynamic<Research, Remote>,
    charts: Dynamic<Charts, Remote>,
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The project's MCP server on 127.0.0.1 (an ephemeral port), in selected mode: each URL
    // chooses the groups its client sees.
    let server = McpServer::new(charts::toolkit(), Mode::Selected);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let url = format!("http://{}/mcp", listener.local_addr()?);
    tokio::spawn(async move {
        let config = StreamableHttpServerConfig::default();
        if let Err(e) = server.serve_http(listener, "/mcp", config).await {
            eprintln!("the MCP server stopped: {e}");
        }
    });

    // Two connections, two groups. The research server also has `note_write` (its basic
    // group): exposed as `web_note_write` under the prefix.
    let research = RemoteTools::connect(
        RemoteServer::http(format!("{url}?groups=web_search,scraping")).with_label("research"),
    )
    .await?;
    let charts = RemoteTools::connect(
        RemoteServer::http(format!("{url}?groups=charts")).with_label("charts"),
    )
    .await?;
    let toolkit = Toolkit::new(Assistant {
        memory: Memory,
        research: Dynamic::new(Remote::new(research).with_prefix("web_")),
        charts: Dynamic::new(Remote::new(charts)),
    });
    let mut session = toolkit.session();

    let show = |session: &Session<Assistant>| {
        let names: Vec<&str> = toolkit.definitions(session).map(|d| d.name).collect();
        println!("tools shown: {}", names.join(", "));
    };
    show(&session);
    for hidden in toolkit.hidden_tools() {
        println!(
            "hidden: `{}` of group `{}`: {}",
            hidden.name, hidden.group, hidden.reason
        );
    }

    let turns = [
        ("reset_tools", json!({"research": true, "charts": false})),
        ("web_web_search", json!({"query": "rust tool calling"})),
        ("bar_chart", json!({"values": [1, 2]})),
        ("reset_tools", json!({"research": false, "charts": true})),
        ("bar_chart", json!({"values": [3, 5, 2, 8]})),
        ("bar_chart", json!({"values": []})),
        ("remember", json!({"fact": "the chart peaks at 8"})),
    ];
    for (name, arguments) in turns {
        println!("\n> {name} {arguments}");
        let result = toolkit.call(&mut session, name, &arguments).await;
        for block in &result.content {
            match block {
                Content::Image {
                    data, mime_type, ..
                } => println!("  [an image: {mime_type}, {} bytes]", data.len()),
                other => println!(
                    "  {}",
                    other
                        .as_text()
                        .unwrap_or("[a non-text block]")
                        .replace('\n', "\n  ")
                ),
            }
        }
        if result.is_error {
            println!("  (an error result: the model reads it and can correct itself)");
        }
        if name == "reset_tools" {
            show(&session);
        }
    }

    // What an OpenAI request carries now: the local tool and the active remote group's.
    let openai = Rendered::new(&toolkit, Provider::OpenAiChat);
    let tools = openai.tools_value(&session);
    let names: Vec<&str> = tools
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| t["function"]["name"].as_str())
        .collect();
    println!("\nOpenAI tools: {}", names.join(", "));
    Ok(())
}
