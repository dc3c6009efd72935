//! Paired wall-clock ratios: ours and its comparison timed in alternating short rounds, so a
//! change in the machine's load hits both sides of a round alike; prints the median time per
//! iteration of each side and the median of the per-round ratios.
//!
//! ```sh
//! cargo run --profile bench --example paired            # every pair, 201 rounds
//! cargo run --profile bench --example paired -- call 501
//! ```
//!
//! Criterion (`cargo bench`) times one side after the other, several seconds apart; on a
//! shared machine their ratio moves with the load. This complements it.

use std::hint::black_box;
use std::time::{Duration, Instant};

use toolgroup_bench::*;

/// Times `f`, which runs `iters` iterations.
fn round(iters: u32, mut f: impl FnMut(u32)) -> Duration {
    let start = Instant::now();
    f(iters);
    start.elapsed()
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Alternates `a` and `b` (which side goes first alternates too) for `rounds` rounds of about
/// 2 ms each; prints the medians.
fn pair(label: &str, rounds: usize, mut a: impl FnMut(u32), mut b: impl FnMut(u32)) {
    // Calibrate: iterations of `a` that take about 2 ms.
    let mut iters = 1u32;
    while round(iters, &mut a) < Duration::from_millis(2) {
        iters *= 2;
    }
    for _ in 0..20 {
        round(iters, &mut a);
        round(iters, &mut b);
    }
    let (mut ta, mut tb, mut ratio) = (Vec::new(), Vec::new(), Vec::new());
    for r in 0..rounds {
        let (x, y) = if r % 2 == 0 {
            let x = round(iters, &mut a);
            (x, round(iters, &mut b))
        } else {
            let y = round(iters, &mut b);
            (round(iters, &mut a), y)
        };
        let (x, y) = (
            x.as_nanos() as f64 / iters as f64,
            y.as_nanos() as f64 / iters as f64,
        );
        ta.push(x);
        tb.push(y);
        ratio.push(x / y);
    }
    println!(
        "| {label} | {:.0} ns | {:.0} ns | {:.3}x |",
        median(&mut ta),
        median(&mut tb),
        median(&mut ratio)
    );
}

fn main() {
    let mut args = std::env::args().skip(1);
    let filter = args.next().unwrap_or_default();
    let rounds: usize = args
        .next()
        .map_or(201, |n| n.parse().expect("a number of rounds"));
    print_load();
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime");
    println!(
        "| pair ({rounds} alternating rounds) | ours, median | other, median | median of ratios |"
    );
    println!("|---|---:|---:|---:|");

    if "call".starts_with(&filter) || filter.starts_with("call") {
        let (kit, session) = ours_call_setup();
        let router = RmcpCalc::tool_router();
        let peer = rt.block_on(async { rmcp_peer() });
        let ours = |n| {
            rt.block_on(async {
                for _ in 0..n {
                    let mut s = session;
                    black_box(
                        kit.call(&mut s, black_box("add"), black_box(ADD_ARGS))
                            .await,
                    );
                }
            })
        };
        let baseline = |n| {
            rt.block_on(async {
                for _ in 0..n {
                    black_box(baseline_call(black_box(ADD_ARGS)));
                }
            })
        };
        let rmcp = |n| {
            rt.block_on(async {
                for _ in 0..n {
                    black_box(rmcp_call(&router, &RmcpCalc, &peer, black_box(ADD_ARGS)).await).ok();
                }
            })
        };
        pair("call: toolgroup / hand-written", rounds, ours, baseline);
        pair("call: toolgroup / rmcp", rounds, ours, rmcp);
    }
    if "cheap".starts_with(&filter) || filter.starts_with("cheap") {
        let (kit, session) = ours_cheap_setup();
        let ours = |n| {
            rt.block_on(async {
                for _ in 0..n {
                    let mut s = session;
                    black_box(
                        kit.call(&mut s, black_box("forecast"), black_box(FORECAST_ARGS))
                            .await,
                    );
                }
            })
        };
        let baseline = |n| {
            rt.block_on(async {
                for _ in 0..n {
                    black_box(baseline_cheap_call(
                        black_box("forecast"),
                        black_box(FORECAST_ARGS),
                    ));
                }
            })
        };
        pair(
            "cheap call: toolgroup / hand-written",
            rounds,
            ours,
            baseline,
        );
    }
    if "list".starts_with(&filter) || filter.starts_with("list") {
        let (kit, session) = ours_big_setup();
        let rendered = ours_rendered(&kit);
        let router = rmcp_big_router();
        black_box(rmcp_list(&router));
        pair(
            "list: toolgroup / rmcp",
            rounds,
            |n| {
                for _ in 0..n {
                    black_box(ours_list_openai_chat(&rendered, &session));
                }
            },
            |n| {
                for _ in 0..n {
                    black_box(rmcp_list(&router));
                }
            },
        );
    }
    if "reset".starts_with(&filter) || filter.starts_with("reset") {
        let (kit, session) = ours_big_setup();
        let arguments = reset_arguments();
        pair(
            "reset: toolgroup / HashMap floor",
            rounds,
            |n| {
                rt.block_on(async {
                    for _ in 0..n {
                        let mut s = session;
                        black_box(
                            kit.call(&mut s, "reset_tools", black_box(arguments.as_str()))
                                .await,
                        );
                    }
                })
            },
            |n| {
                rt.block_on(async {
                    for _ in 0..n {
                        black_box(reset_floor(black_box(arguments.as_str())));
                    }
                })
            },
        );
    }
}
