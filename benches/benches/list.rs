//! list: the tools a session shows, 1,000 tools in 50 groups with 5 groups active (100 tools),
//! serialised to JSON text, ours and rmcp's in one run.
//!
//! - `toolgroup`: the session's OpenAI Chat `tools` array (plus `reset_tools`, which lists
//!   all 50 groups) from `toolgroup::provider::Rendered`, which rendered every definition once;
//! - `toolgroup_serialised`: the same list from `Toolkit::definitions`, serialising each
//!   canonical schema per call (no renderer; for information);
//! - `rmcp`: `ToolRouter::list_all` over the same 1,000 tools with the 900 inactive ones
//!   disabled, serialised as the MCP `tools/list` result.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use toolgroup_bench::*;

fn list(c: &mut Criterion) {
    print_load();
    let (kit, session) = ours_big_setup();
    let rendered = ours_rendered(&kit);
    let router = rmcp_big_router();
    // Build the schemas (both sides cache them per process) before timing.
    black_box(ours_list_serialised(&kit, &session));
    black_box(rmcp_list(&router));

    let mut group = c.benchmark_group("list");
    group.bench_function("toolgroup", |b| {
        b.iter(|| ours_list_openai_chat(black_box(&rendered), black_box(&session)))
    });
    group.bench_function("toolgroup_serialised", |b| {
        b.iter(|| ours_list_serialised(black_box(&kit), black_box(&session)))
    });
    group.bench_function("rmcp", |b| b.iter(|| rmcp_list(black_box(&router))));
    group.finish();
}

criterion_group!(benches, list);
criterion_main!(benches);
