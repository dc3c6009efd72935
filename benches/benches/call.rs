//! call: one three-argument tool called with raw JSON text, three ways, in one run.
//!
//! - `toolgroup`: `Toolkit::call` (lookup, group check, argument parse, call, result);
//! - `baseline`: the same by hand (`serde_json::from_str` into the same struct, direct call,
//!   `CallResult::structured`);
//! - `rmcp`: rmcp's `ToolRouter::call` with the router built once (the arguments parsed from
//!   the same text into the JSON object rmcp's transport hands over);
//! - `rmcp_default_handler`: the `call_tool` that `#[tool_router(server_handler)]` generates,
//!   which builds the router on every request (rmcp's default; for information).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use toolgroup_bench::*;

fn call(c: &mut Criterion) {
    print_load();
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime");
    let (kit, session) = ours_call_setup();
    let router = RmcpCalc::tool_router();
    let server = RmcpCalc;
    let peer = rt.block_on(async { rmcp_peer() });

    let mut group = c.benchmark_group("call");
    group.bench_function("toolgroup", |b| {
        b.to_async(&rt).iter(|| async {
            let mut session = session;
            kit.call(&mut session, black_box("add"), black_box(ADD_ARGS))
                .await
        })
    });
    group.bench_function("baseline", |b| {
        b.to_async(&rt)
            .iter(|| async { baseline_call(black_box(ADD_ARGS)) })
    });
    group.bench_function("rmcp", |b| {
        b.to_async(&rt)
            .iter(|| async { rmcp_call(&router, &server, &peer, black_box(ADD_ARGS)).await })
    });
    group.bench_function("rmcp_default_handler", |b| {
        b.to_async(&rt)
            .iter(|| async { rmcp_default_handler_call(&server, &peer, black_box(ADD_ARGS)).await })
    });
    let (cheap, cheap_session) = ours_cheap_setup();
    group.bench_function("cheap_toolgroup", |b| {
        b.to_async(&rt).iter(|| async {
            let mut session = cheap_session;
            cheap
                .call(
                    &mut session,
                    black_box("forecast"),
                    black_box(FORECAST_ARGS),
                )
                .await
        })
    });
    group.bench_function("cheap_baseline", |b| {
        b.to_async(&rt)
            .iter(|| async { baseline_cheap_call(black_box("forecast"), black_box(FORECAST_ARGS)) })
    });
    group.finish();
}

criterion_group!(benches, call);
criterion_main!(benches);
