//! The overhead of a remote group's call over rmcp's raw client call: one MCP server (this
//! project's `McpServer` serving the cheap `forecast` tool over Streamable HTTP on loopback, in
//! this process) called three ways with the same arguments:
//!
//! - **raw**: rmcp's client, `peer.call_tool(CallToolRequestParams)`, the arguments parsed from
//!   the model's text into the `JsonObject` it takes;
//! - **client**: `RemoteTools::call(name, text)`: our client (the tool's lookup in the listed
//!   tools, argument parse and check against the remote input schema, the connection check,
//!   the request with timeout and cancellation, the answer converted to a `CallResult`);
//! - **toolkit**: `Toolkit::call(&mut session, name, text)` on a toolkit whose only group is a
//!   `Dynamic<G, Remote>` over such a client, active (the toolkit's lookup of a tool found at
//!   run time, group and policy checks, the per-call context, then the client's call).
//!
//! ```text
//! cd benches && cargo run --release --example remote      # ROUNDS=200 CALLS=100 SECONDS=60
//! ```
//!
//! Each side has its own connection (its own HTTP session). A round times CALLS calls of each
//! side back to back, in an order that cycles through all six permutations, so a change of
//! machine load hits all three alike; the run stops after ROUNDS rounds or SECONDS seconds,
//! whichever comes first. Printed per side: the median over rounds of the mean time per call,
//! and the median and p99 of single calls; then the medians of the per-round ratios and
//! differences (client - raw, toolkit - raw, toolkit - client).

use std::hint::black_box;
use std::time::{Duration, Instant};

use rmcp::model::{CallToolRequestParams, CallToolResult, JsonObject};
use rmcp::transport::StreamableHttpServerConfig;
use toolgroup::dynamic::Dynamic;
use toolgroup::mcp::client::{Remote, RemoteServer, RemoteTools};
use toolgroup::mcp::{McpServer, Mode};
use toolgroup::prelude::*;
use toolgroup_bench::{FORECAST_ARGS, median, quantile};

// `mcp.rs` uses the rest.
#[allow(dead_code)]
#[path = "support/loopback.rs"]
mod loopback;
use loopback::{Client, env, http_client, serve};

/// The served group: the cheap tool alone (three scalar arguments, a short text result).
#[tool_group(name = "weather", description = "Weather.", tools = [toolgroup_bench::forecast])]
struct Weather;

/// The served toolkit.
#[toolkit]
struct Served {
    weather: Weather,
}

/// The same group on the calling side, its tools found on the server.
#[tool_group(
    name = "weather",
    description = "Weather (a remote MCP server).",
    dynamic
)]
struct RemoteWeather;

/// The calling toolkit: one remote group.
#[toolkit]
struct Front {
    weather: Dynamic<RemoteWeather, Remote>,
}

const TOOL: &str = "forecast";
const SIDES: [&str; 3] = ["raw rmcp", "RemoteTools", "Toolkit"];
/// Every order of the three sides; round `r` uses `ORDERS[r % 6]`.
const ORDERS: [[usize; 3]; 6] = [
    [0, 1, 2],
    [1, 2, 0],
    [2, 0, 1],
    [0, 2, 1],
    [2, 1, 0],
    [1, 0, 2],
];

struct Callers {
    raw: Client,
    remote: RemoteTools,
    kit: Toolkit<Front>,
    session: Session<Front>,
}

/// What the raw side does with the model's text: parse it into the object rmcp sends.
fn raw_params(arguments: &str) -> CallToolRequestParams {
    let arguments: JsonObject = serde_json::from_str(arguments).expect("a JSON object");
    CallToolRequestParams::new(TOOL).with_arguments(arguments)
}

impl Callers {
    async fn raw(&self) -> CallToolResult {
        self.raw
            .call_tool(raw_params(black_box(FORECAST_ARGS)))
            .await
            .expect("tools/call")
    }

    async fn client(&self) -> CallResult {
        self.remote.call(TOOL, black_box(FORECAST_ARGS)).await
    }

    async fn toolkit(&mut self) -> CallResult {
        self.kit
            .call(&mut self.session, TOOL, black_box(FORECAST_ARGS))
            .await
    }

    /// One call of `side`, its result dropped.
    async fn call(&mut self, side: usize) {
        match side {
            0 => drop(black_box(self.raw().await)),
            1 => drop(black_box(self.client().await)),
            _ => drop(black_box(self.toolkit().await)),
        }
    }

    /// Each side's answer must be the same text, and no error, before anything is timed.
    async fn check(&mut self) {
        let raw = self.raw().await;
        assert_eq!(raw.is_error, Some(false), "{raw:?}");
        let raw_text: Vec<&str> = raw
            .content
            .iter()
            .map(|c| c.as_text().expect("a text block").text.as_str())
            .collect();
        let raw_text = raw_text.join("\n");
        for result in [self.client().await, self.toolkit().await] {
            assert!(!result.is_error, "{}", result.text_joined());
            assert_eq!(result.text_joined(), raw_text);
        }
        println!("each side answers {raw_text:?}");
    }
}

#[derive(Default)]
struct Times {
    /// Per round: the mean time per call, in microseconds.
    per_round: Vec<f64>,
    /// Every timed call, in microseconds.
    calls: Vec<f64>,
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    toolgroup_bench::print_load();
    let rounds = env("ROUNDS", 200).max(1);
    let calls = env("CALLS", 100).max(1);
    let budget = Duration::from_secs(env("SECONDS", 60) as u64);

    // The server, in selected mode: the URL's `groups` chooses what each client sees.
    let server = McpServer::new(Toolkit::new(Served { weather: Weather }), Mode::Selected);
    let url = serve(server.router("/mcp", StreamableHttpServerConfig::default())).await;
    let url = format!("{url}?groups=weather");

    let raw = http_client(&url).await;
    let connect = || async {
        RemoteTools::connect(RemoteServer::http(url.as_str()).with_label("bench"))
            .await
            .expect("connect")
    };
    let remote = connect().await;
    let kit = Toolkit::new(Front {
        weather: Dynamic::new(Remote::new(connect().await)),
    });
    let mut session = kit.session();
    session.activate(FrontGroup::Weather);
    let mut callers = Callers {
        raw,
        remote,
        kit,
        session,
    };
    callers.check().await;

    // Warm-up: two rounds' worth of calls per side.
    for side in 0..3 {
        for _ in 0..2 * calls {
            callers.call(side).await;
        }
    }

    let mut times: [Times; 3] = Default::default();
    // Per round: client / raw, toolkit / raw, toolkit / client; and the same as differences.
    let mut ratios: [Vec<f64>; 3] = Default::default();
    let mut extra: [Vec<f64>; 3] = Default::default();
    let start = Instant::now();
    let mut done = 0;
    while done < rounds && start.elapsed() < budget {
        let mut mean = [0.0; 3];
        for side in ORDERS[done % ORDERS.len()] {
            let round_start = Instant::now();
            for _ in 0..calls {
                let call_start = Instant::now();
                callers.call(side).await;
                times[side]
                    .calls
                    .push(call_start.elapsed().as_secs_f64() * 1e6);
            }
            mean[side] = round_start.elapsed().as_secs_f64() * 1e6 / calls as f64;
            times[side].per_round.push(mean[side]);
        }
        ratios[0].push(mean[1] / mean[0]);
        ratios[1].push(mean[2] / mean[0]);
        ratios[2].push(mean[2] / mean[1]);
        extra[0].push(mean[1] - mean[0]);
        extra[1].push(mean[2] - mean[0]);
        extra[2].push(mean[2] - mean[1]);
        done += 1;
    }

    println!(
        "tools/call `{TOOL}` over Streamable HTTP on loopback: {done} rounds of {calls} calls per side in {:.1} s",
        start.elapsed().as_secs_f64()
    );
    println!("| side | per call, median of rounds | single call median | single call p99 |");
    println!("|---|---:|---:|---:|");
    for (name, t) in SIDES.iter().zip(&times) {
        println!(
            "| {name} | {:.1} us | {:.1} us | {:.1} us |",
            median(&t.per_round),
            median(&t.calls),
            quantile(&t.calls, 0.99)
        );
    }
    println!("| pair | median of per-round ratios | median of per-round differences |");
    println!("|---|---:|---:|");
    for (i, pair) in [
        "RemoteTools / raw rmcp",
        "Toolkit / raw rmcp",
        "Toolkit / RemoteTools",
    ]
    .iter()
    .enumerate()
    {
        println!(
            "| {pair} | {:.3}x | {:+.1} us |",
            median(&ratios[i]),
            median(&extra[i])
        );
    }
}
