//! `tools/call` over MCP, end to end: toolgroup's server (`toolgroup::mcp`) against an rmcp
//! `#[tool_router]` server exposing the same tool, both driven by rmcp's own client in one run,
//! over an in-memory byte stream (the stdio transport's framing, without a child process) and
//! over Streamable HTTP on loopback (stateless, JSON responses).
//!
//! ```text
//! cd benches && cargo run --release --example mcp            # ROUNDS=5 CALLS=2000 CONCURRENCY=16
//! ```
//!
//! For each transport and each server: latency (one call at a time: median and p99 of each
//! call's round trip) and throughput (CONCURRENCY calls in flight, calls per second over the
//! round). The two servers alternate round by round, so a change of machine load hits both.

use std::sync::Arc;
use std::time::{Duration, Instant};

use rmcp::model::{CallToolRequestParams, ClientConfig};
use rmcp::transport::StreamableHttpService;
use rmcp::{ServerHandler, ServiceExt};
use toolgroup::mcp::axum as axum_router;
use toolgroup::mcp::{McpServer, Mode};
use toolgroup_bench::{ADD_ARGS, RmcpCalc, ours_call_setup};

#[path = "support/loopback.rs"]
mod loopback;
use loopback::{Client, env, http_client, serve, stateless};

fn params() -> CallToolRequestParams {
    let serde_json::Value::Object(args) = serde_json::from_str(ADD_ARGS).unwrap() else {
        unreachable!()
    };
    CallToolRequestParams::new("add").with_arguments(args)
}

async fn call(client: &Client) {
    let r = client.call_tool(params()).await.expect("tools/call");
    assert_eq!(r.is_error, Some(false));
}

/// A client over an in-memory byte stream to `handler`.
async fn stream_client<H: ServerHandler>(handler: H) -> Client {
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

#[derive(Default)]
struct Side {
    latencies: Vec<Duration>,
    throughput: Vec<f64>,
}

impl Side {
    fn report(&mut self, name: &str) -> (f64, f64, f64) {
        self.latencies.sort();
        let at = |q: f64| self.latencies[((self.latencies.len() - 1) as f64 * q).round() as usize];
        self.throughput.sort_by(f64::total_cmp);
        let tput = self.throughput[self.throughput.len() / 2];
        let (median, p99) = (at(0.5).as_secs_f64() * 1e6, at(0.99).as_secs_f64() * 1e6);
        println!(
            "  {name:<10} latency median {median:>8.1} us   p99 {p99:>8.1} us   throughput {tput:>9.0} calls/s"
        );
        (median, p99, tput)
    }
}

async fn latency(client: &Client, calls: usize, out: &mut Side) {
    for _ in 0..calls {
        let start = Instant::now();
        call(client).await;
        out.latencies.push(start.elapsed());
    }
}

async fn throughput(client: &Arc<Client>, calls: usize, concurrency: usize, out: &mut Side) {
    let start = Instant::now();
    let mut tasks = Vec::new();
    for _ in 0..concurrency {
        let client = client.clone();
        tasks.push(tokio::spawn(async move {
            for _ in 0..calls / concurrency {
                call(&client).await;
            }
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
    out.throughput
        .push((calls / concurrency * concurrency) as f64 / start.elapsed().as_secs_f64());
}

async fn compare(
    label: &str,
    ours: Client,
    theirs: Client,
    rounds: usize,
    calls: usize,
    concurrency: usize,
) {
    let (ours, theirs) = (Arc::new(ours), Arc::new(theirs));
    // Warm-up.
    latency(&ours, calls / 10, &mut Side::default()).await;
    latency(&theirs, calls / 10, &mut Side::default()).await;
    let (mut o, mut t) = (Side::default(), Side::default());
    for round in 0..rounds {
        // Alternate who goes first.
        if round % 2 == 0 {
            latency(&ours, calls, &mut o).await;
            latency(&theirs, calls, &mut t).await;
            throughput(&ours, calls, concurrency, &mut o).await;
            throughput(&theirs, calls, concurrency, &mut t).await;
        } else {
            latency(&theirs, calls, &mut t).await;
            latency(&ours, calls, &mut o).await;
            throughput(&theirs, calls, concurrency, &mut t).await;
            throughput(&ours, calls, concurrency, &mut o).await;
        }
    }
    println!("{label}");
    let (om, op, ot) = o.report("toolgroup");
    let (tm, tp, tt) = t.report("rmcp");
    println!(
        "  ratio (toolgroup / rmcp): latency median {:.2}x, p99 {:.2}x, throughput {:.2}x",
        om / tm,
        op / tp,
        ot / tt
    );
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    toolgroup_bench::print_load();
    let rounds = env("ROUNDS", 5);
    let calls = env("CALLS", 2000);
    let concurrency = env("CONCURRENCY", 16);
    println!(
        "tools/call `add` ({rounds} rounds of {calls} calls per side and measure; throughput with {concurrency} in flight)"
    );

    let (toolkit, session) = ours_call_setup();
    let server = McpServer::new(toolkit, Mode::Mask);

    // In-memory byte stream: the stdio transport's framing.
    let ours = stream_client(server.handler_with(session)).await;
    let theirs = stream_client(RmcpCalc).await;
    compare(
        "byte stream (stdio framing), legacy session",
        ours,
        theirs,
        rounds,
        calls,
        concurrency,
    )
    .await;

    // Streamable HTTP on loopback, stateless. The group is chosen in the URL (selected mode),
    // as mask mode would need a store lookup per call for stateless clients.
    let selected = McpServer::new(ours_call_setup().0, Mode::Selected);
    let ours_url = serve(selected.router("/mcp", stateless())).await;
    let rmcp_service: StreamableHttpService<RmcpCalc, _> = StreamableHttpService::new(
        || Ok(RmcpCalc),
        Arc::new(
            rmcp::transport::streamable_http_server::session::local::LocalSessionManager::default(),
        ),
        stateless(),
    );
    let theirs_url = serve(axum_router::Router::new().nest_service("/mcp", rmcp_service)).await;
    let ours = http_client(&format!("{ours_url}?groups=math")).await;
    let theirs = http_client(&theirs_url).await;
    compare(
        "Streamable HTTP on loopback, stateless, JSON responses",
        ours,
        theirs,
        rounds,
        calls,
        concurrency,
    )
    .await;
}
