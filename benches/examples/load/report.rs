//! The tables of BENCHMARKS.md, "Under load": medians over the rounds, each as a ratio to
//! rmcp's in the same run, with the spread of the rounds as the noise.

use crate::drive::Era;
use crate::run::{Results, Round, Settings, Shape};
use crate::serve::Kind;
use toolgroup_bench::median;

/// The medians of one server at one client count, and the spread of its throughput.
struct Summary {
    per_second: f64,
    latency: [f64; 3],
    cpu_per_1000: f64,
    /// (max - min) / median of the rounds' throughput.
    spread: f64,
    requests: usize,
}

fn summarize(rounds: &[&Round]) -> Summary {
    let per_second: Vec<f64> = rounds.iter().map(|r| r.per_second).collect();
    let max = per_second.iter().copied().fold(f64::MIN, f64::max);
    let min = per_second.iter().copied().fold(f64::MAX, f64::min);
    let mid = median(&per_second);
    Summary {
        per_second: mid,
        latency: [0, 1, 2]
            .map(|i| median(&rounds.iter().map(|r| r.latency[i]).collect::<Vec<_>>())),
        cpu_per_1000: median(&rounds.iter().map(|r| r.cpu_per_1000).collect::<Vec<_>>()),
        spread: if mid > 0.0 { (max - min) / mid } else { 0.0 },
        requests: rounds.iter().map(|r| r.requests).sum(),
    }
}

fn ratio(ours: f64, theirs: Option<f64>) -> String {
    match theirs {
        Some(theirs) if theirs > 0.0 => format!("{:.2}x", ours / theirs),
        _ => "-".to_owned(),
    }
}

fn ms(us: f64) -> String {
    format!("{:.2}", us / 1000.0)
}

pub fn print(settings: &Settings, results: &Results) {
    println!(
        "\nRounds of {} s, {} per server and client count; the driver on core 0, each server on core 1{}; load average {}",
        settings.secs,
        settings.rounds,
        if settings.pin {
            ""
        } else {
            " (not pinned: one core or no taskset)"
        },
        toolgroup_bench::load_average(),
    );
    if settings.short {
        println!(
            "(SHORT=1: a check that every server answers the mix correctly; the figures are not a measurement)"
        );
    }
    for &era in &settings.eras {
        println!("\n### {}\n", era.name());
        println!(
            "| clients | server | requests/s | vs rmcp | p50 ms | p99 ms | p999 ms | p99 vs rmcp | server CPU s per 1,000 requests | vs rmcp | spread of rounds | requests |"
        );
        println!("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        for &clients in &settings.clients {
            let of = |kind: Kind| -> Option<Summary> {
                let rounds: Vec<&Round> = results
                    .rounds
                    .iter()
                    .filter(|(e, c, k, _)| *e == era && *c == clients && *k == kind)
                    .map(|(_, _, _, r)| r)
                    .collect();
                (!rounds.is_empty()).then(|| summarize(&rounds))
            };
            let rmcp = of(Kind::Rmcp);
            for &kind in &settings.servers {
                let Some(s) = of(kind) else { continue };
                println!(
                    "| {clients} | {} | {:.0} | {} | {} | {} | {} | {} | {:.3} | {} | {:.0}% | {} |",
                    kind.name(),
                    s.per_second,
                    ratio(s.per_second, rmcp.as_ref().map(|r| r.per_second)),
                    ms(s.latency[0]),
                    ms(s.latency[1]),
                    ms(s.latency[2]),
                    ratio(s.latency[1], rmcp.as_ref().map(|r| r.latency[1])),
                    s.cpu_per_1000,
                    ratio(s.cpu_per_1000, rmcp.as_ref().map(|r| r.cpu_per_1000)),
                    s.spread * 100.0,
                    s.requests,
                );
            }
            if let (Some(memory), Some(redis)) = (of(Kind::Toolgroup), of(Kind::ToolgroupRedis)) {
                println!(
                    "| {clients} | *Redis store over memory store* | {} | | | {} | | | {} | | | |",
                    ratio(redis.per_second, Some(memory.per_second)),
                    ratio(redis.latency[1], Some(memory.latency[1])),
                    ratio(redis.cpu_per_1000, Some(memory.cpu_per_1000)),
                );
            }
        }
    }
    for note in &results.left_out {
        println!("\nLeft out (FastMCP's connection failed mid-request): {note}");
    }
    println!(
        "\n### Resident memory per 1,000 idle clients (KiB; {} opened, after one warm one)\n",
        settings.sessions
    );
    println!("| server | era | arrived | KiB per 1,000 | vs rmcp |");
    println!("|---|---|---|---:|---:|");
    for &era in &settings.eras {
        for shape in [Shape::AtOnce, Shape::OverTime] {
            let of = |kind: Kind| {
                results
                    .memory
                    .iter()
                    .find(|(e, s, k, _)| *e == era && *s == shape && *k == kind)
                    .map(|(_, _, _, kib)| *kib)
            };
            let rmcp = of(Kind::Rmcp);
            for &kind in &settings.servers {
                if let Some(kib) = of(kind) {
                    let what = match era {
                        Era::Sessions => "2025-11-25: sessions opened, listed once",
                        Era::Stateless => "2026-07-28: keyed clients, groups switched once",
                    };
                    // rmcp keeps nothing for a stateless client: no ratio to a figure near
                    // zero.
                    let vs = if rmcp.is_some_and(|r| r > 64.0) {
                        ratio(kib, rmcp)
                    } else {
                        "-".to_owned()
                    };
                    println!(
                        "| {} | {what} | {} | {kib:.0} | {vs} |",
                        kind.name(),
                        shape.name()
                    );
                }
            }
        }
    }
}
