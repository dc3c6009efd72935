//! What the model behind each MCP client reads on its way to a group's tool, against a server
//! with groups (the defaults) and a flat server with the same tools: the MCP tables of
//! `docs/tokens-and-cache.md` (`cargo run --example mcp_groups`). The model of each client and
//! the method are in `support/mcp_clients.rs`; `tests/mcp_groups.rs` asserts the claims.

#[allow(dead_code)]
#[path = "../../examples/support/agent.rs"]
mod agent;
#[path = "../../examples/support/charts.rs"]
mod charts;
#[path = "support/mcp_clients.rs"]
mod mcp_clients;
#[path = "support/workplace.rs"]
mod workplace;

use mcp_clients::{Row, Server};

fn print(title: &str, rows: &[Row]) {
    println!("\n{title}\n");
    println!(
        "| client | server | model requests to the first result | to both results | bytes read until the first result | of which the activation | the group's instructions read |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|");
    let show = |n: Option<usize>| n.map_or_else(|| "never".to_owned(), |n| n.to_string());
    for row in rows {
        println!(
            "| {} | {} | {} | {} | {} | {} | {} |",
            row.client,
            match row.server {
                Server::Flat => "flat",
                Server::Default => "groups (defaults)",
            },
            show(row.requests),
            show(row.requests_all),
            row.bytes,
            row.activation_bytes,
            row.instructions_read,
        );
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let example = mcp_clients::rows(charts::toolkit, &mcp_clients::example_task()).await;
    print(
        "The `mcp_server` example's toolkit (3 switchable groups), `web_search` twice:",
        &example,
    );
    let workplace = mcp_clients::rows(workplace::toolkit, &mcp_clients::workplace_task()).await;
    print(
        "Ten groups with real instructions (`support/workplace.rs`), `issue_search` then `issue_read`:",
        &workplace,
    );
}
