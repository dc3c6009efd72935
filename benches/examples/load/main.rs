//! The MCP server under load: toolgroup's `McpServer` (memory store, and Redis store on a real
//! `redis-server`), a plain rmcp server and FastMCP, serving the same six tools over Streamable
//! HTTP on loopback to 10, 100 and 1,000 concurrent clients, in both protocol eras.
//!
//! ```text
//! cd benches && REDIS_URL=redis://127.0.0.1:6379 FASTMCP_PYTHON=/path/to/venv/bin/python \
//!     cargo run --release --example load
//! ```
//!
//! Settings (environment): `CLIENTS` (default `10,100,1000`), `SECS` per round (5), `ROUNDS`
//! (3), `SESSIONS` opened for the memory figure (1000), `SERVERS` (default: rmcp and
//! toolgroup, with toolgroup-redis when `REDIS_URL` is set and fastmcp when `FASTMCP_PYTHON`
//! is), `ERAS` (`sessions,stateless`). `SHORT=1` is CI's form: 10 and 50 clients, one
//! one-second round, 50 sessions; it fails on any wrong answer, and its figures (a debug
//! build) mean nothing.
//!
//! Each server runs in a process of its own pinned to the second core (`taskset`), the driver
//! on the first, so the two never share a core; a fresh server process for every measurement.
//! The servers alternate round by round, so a change of machine load hits them all.
//! BENCHMARKS.md, "Under load", has the method and the figures.

mod drive;
mod report;
mod run;
mod serve;

use drive::Era;
use serve::Kind;

fn main() {
    let mut args = std::env::args().skip(1);
    if args.next().as_deref() == Some("serve") {
        let kind = args.next().and_then(|name| Kind::parse(&name));
        let Some(kind) = kind.filter(|kind| *kind != Kind::FastMcp) else {
            eprintln!("usage: load serve rmcp|toolgroup|toolgroup-redis [IDLE_MS]");
            std::process::exit(2);
        };
        // toolgroup's hibernation delay, when the memory figure of sessions arriving over
        // time sets it (else the default).
        let idle = args
            .next()
            .and_then(|ms| ms.parse().ok())
            .map(std::time::Duration::from_millis);
        if let Err(e) = serve::serve(kind, idle) {
            eprintln!("load serve {}: {e}", kind.name());
            std::process::exit(1);
        }
        return;
    }
    let settings = match run::Settings::from_env() {
        Ok(settings) => settings,
        Err(e) => {
            eprintln!("load: {e}");
            std::process::exit(2);
        }
    };
    toolgroup_bench::print_load();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    match runtime.block_on(run::all(&settings)) {
        Ok(results) => report::print(&settings, &results),
        Err(e) => {
            eprintln!("load: {e}");
            std::process::exit(1);
        }
    }
}

/// The eras' and kinds' names as settings spell them.
fn parse_list<T>(value: &str, parse: impl Fn(&str) -> Option<T>) -> Result<Vec<T>, String> {
    value
        .split(',')
        .map(str::trim)
        .filter(|name| !name.is_empty())
        .map(|name| parse(name).ok_or_else(|| format!("unknown name `{name}`")))
        .collect()
}

fn parse_era(name: &str) -> Option<Era> {
    match name {
        "sessions" => Some(Era::Sessions),
        "stateless" => Some(Era::Stateless),
        _ => None,
    }
}
