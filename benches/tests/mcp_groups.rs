//! The claims of `docs/tokens-and-cache.md` ("Over MCP"), checked against the model of each
//! client (`examples/support/mcp_clients.rs`) on every run: with its defaults, a server with
//! groups needs no more model requests than a flat server to reach a group's tool, delivers
//! the group's instructions exactly once in every client, and carries no more bytes to the
//! model than flat, beyond the instructions it delivers where flat's never reach the model;
//! on ten groups with real instructions, clearly fewer where they do.

#[allow(dead_code)]
#[path = "../../examples/support/agent.rs"]
mod agent;
#[path = "../../examples/support/charts.rs"]
mod charts;
#[path = "../examples/support/mcp_clients.rs"]
mod mcp_clients;
#[path = "../examples/support/workplace.rs"]
mod workplace;

use mcp_clients::{CLIENTS, Row, Server};

fn pair<'a>(rows: &'a [Row], client: &str) -> (&'a Row, &'a Row) {
    let find = |server| {
        rows.iter()
            .find(|r| r.client == client && r.server == server)
            .expect("a row")
    };
    (find(Server::Flat), find(Server::Default))
}

fn check(rows: &[Row], fewer_by: Option<f64>) {
    for client in &CLIENTS {
        let (flat, groups) = pair(rows, client.name);
        let name = client.name;
        assert!(
            groups.requests.is_some(),
            "{name}: never reached: {groups:?}"
        );
        assert!(
            groups.requests <= flat.requests && groups.requests_all <= flat.requests_all,
            "{name}: more requests than flat: {groups:?} against {flat:?}"
        );
        assert_eq!(
            groups.instructions_read, 1,
            "{name}: the group's instructions must reach the model exactly once: {groups:?}"
        );
        assert_eq!(
            flat.instructions_read,
            usize::from(client.instructions),
            "{name}: flat delivers them only in its instructions: {flat:?}"
        );
        if client.instructions {
            assert!(
                groups.bytes <= flat.bytes,
                "{name}: more bytes than flat: {groups:?} against {flat:?}"
            );
            if let Some(ratio) = fewer_by {
                assert!(
                    (groups.bytes as f64) < ratio * flat.bytes as f64,
                    "{name}: not clearly fewer bytes than flat: {groups:?} against {flat:?}"
                );
            }
        } else {
            // Flat's instructions never reach this client's model; groups add their
            // delivery and nothing else.
            assert!(
                groups.bytes <= flat.bytes + groups.activation_bytes,
                "{name}: more than flat beyond the activation: {groups:?} against {flat:?}"
            );
        }
    }
}

#[tokio::test]
async fn on_the_example_groups_cost_no_more_than_flat_and_instruct_once() {
    let rows = mcp_clients::rows(charts::toolkit, &mcp_clients::example_task()).await;
    check(&rows, None);
}

#[tokio::test]
async fn on_ten_groups_with_real_instructions_groups_read_clearly_fewer_bytes() {
    let rows = mcp_clients::rows(workplace::toolkit, &mcp_clients::workplace_task()).await;
    check(&rows, Some(0.75));
}
