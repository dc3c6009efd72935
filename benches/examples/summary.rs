//! Prints the medians of the last `cargo bench` run (criterion's `estimates.json` files) as the
//! Markdown table of BENCHMARKS.md, with the ratios:
//!
//! ```sh
//! cargo run --profile bench --example summary
//! ```
//!
//! It reads `$CARGO_TARGET_DIR/criterion`, or `target/criterion`.

use std::path::{Path, PathBuf};

use serde_json::Value;

/// A median and its 95% confidence interval, in nanoseconds.
struct Median {
    point: f64,
    low: f64,
    high: f64,
}

fn median(root: &Path, group: &str, name: &str) -> Option<Median> {
    let path = root.join(group).join(name).join("new/estimates.json");
    let json: Value = serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()?;
    let m = &json["median"];
    Some(Median {
        point: m["point_estimate"].as_f64()?,
        low: m["confidence_interval"]["lower_bound"].as_f64()?,
        high: m["confidence_interval"]["upper_bound"].as_f64()?,
    })
}

fn time(ns: f64) -> String {
    if ns < 1.0 {
        format!("{:.0} ps", ns * 1000.0)
    } else if ns < 1000.0 {
        format!("{ns:.0} ns")
    } else if ns < 1_000_000.0 {
        format!("{:.2} µs", ns / 1000.0)
    } else {
        format!("{:.2} ms", ns / 1_000_000.0)
    }
}

fn cell(m: &Option<Median>) -> String {
    match m {
        Some(m) => format!("{} ({}–{})", time(m.point), time(m.low), time(m.high)),
        None => "not run".to_owned(),
    }
}

fn ratio(a: &Option<Median>, b: &Option<Median>) -> String {
    match (a, b) {
        (Some(a), Some(b)) => format!("{:.2}x", a.point / b.point),
        _ => "-".to_owned(),
    }
}

fn main() {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("target"));
    let root = target.join("criterion");
    if !root.is_dir() {
        eprintln!(
            "no criterion results under {}: run `cargo bench` first",
            root.display()
        );
        std::process::exit(1);
    }
    let get = |group: &str, name: &str| median(&root, group, name);

    println!(
        "| benchmark | toolgroup | hand-written / floor | rmcp | ours / baseline | ours / rmcp | target |"
    );
    println!("|---|---:|---:|---:|---:|---:|---|");
    let (ours, base, rmcp) = (
        get("call", "toolgroup"),
        get("call", "baseline"),
        get("call", "rmcp"),
    );
    println!(
        "| call: 3-argument tool, raw JSON in, structured result out | {} | {} | {} | {} | {} | ≤ 1.10x baseline, < 1x rmcp |",
        cell(&ours),
        cell(&base),
        cell(&rmcp),
        ratio(&ours, &base),
        ratio(&ours, &rmcp)
    );
    let (ours, rmcp) = (get("list", "toolgroup"), get("list", "rmcp"));
    println!(
        "| list: 100 active of 1,000 tools, to JSON text | {} | - | {} | - | {} | ≪ 1x rmcp |",
        cell(&ours),
        cell(&rmcp),
        ratio(&ours, &rmcp)
    );
    let (ours, floor) = (get("reset", "toolgroup"), get("reset", "hashmap_floor"));
    println!(
        "| reset: `reset_tools` over 50 groups | {} | {} | - | {} | - | ≤ 1.5x floor |",
        cell(&ours),
        cell(&floor),
        ratio(&ours, &floor)
    );
    println!();
    println!("For information:");
    println!();
    println!("| measurement | median (95% CI) |");
    println!("|---|---:|");
    for (group, name, label) in [
        (
            "call",
            "rmcp_default_handler",
            "call: rmcp's generated `call_tool` (router rebuilt per request)",
        ),
        (
            "list",
            "toolgroup_serialised",
            "list: toolgroup without the renderer (definitions serialised per call)",
        ),
        (
            "session",
            "new_calc",
            "session: `toolkit.session()`, 1 group",
        ),
        (
            "session",
            "new_big",
            "session: `toolkit.session()`, 50 groups",
        ),
    ] {
        println!("| {label} | {} |", cell(&get(group, name)));
    }
}
