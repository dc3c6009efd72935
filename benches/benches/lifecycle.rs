//! lifecycle: what the lifecycle rules cost per call, over the fleet toolkit (82 tools in 10
//! groups, 3 active), calling one list tool of an active group:
//!
//! - `plain`: `Toolkit::call` on a `Session` (the toolkit has no rules: what a toolkit
//!   without them keeps paying);
//! - `managed_no_rules`: `Toolkit::call_managed` on a `ManagedSession`, no rules;
//! - `managed_cap_idle`: the same under `max_active(3)` and `idle_turns(4)`, a turn ended
//!   every call (the rules' whole bookkeeping);
//! - `evict_and_return`: two calls that each activate a fourth group under the cap, so each
//!   evicts one and tells the model (the price of a re-activation, tool run included).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::json;
use toolgroup::lifecycle::Lifecycle;
use toolgroup_bench::print_load;
use toolgroup_bench::tokens::fleet::{self, FleetGroup};

fn lifecycle(c: &mut Criterion) {
    print_load();
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime");
    let args = json!({"owner": "rust-lang", "resource": "cargo", "query": "lifecycle"}).to_string();
    let args = args.as_str();
    let plain = fleet::toolkit().with_first_use_activation(true);
    let mut session = plain.session();
    for g in [FleetGroup::Issues, FleetGroup::Pulls, FleetGroup::Code] {
        session.activate(g);
    }
    let ruled = fleet::toolkit()
        .with_first_use_activation(true)
        .with_lifecycle(Lifecycle::new().max_active(3).idle_turns(4))
        .expect("valid rules");
    let mut group = c.benchmark_group("lifecycle");
    // Every case polls its call with `block_on`, so that they compare.
    group.bench_function("plain", |b| {
        b.iter(|| {
            let mut session = session;
            rt.block_on(plain.call(&mut session, black_box("issue_list"), args))
        })
    });
    let mut managed = toolgroup::lifecycle::ManagedSession::new(session);
    group.bench_function("managed_no_rules", |b| {
        b.iter(|| rt.block_on(plain.call_managed(&mut managed, black_box("issue_list"), args)))
    });
    let mut managed = toolgroup::lifecycle::ManagedSession::new(session);
    group.bench_function("managed_cap_idle", |b| {
        b.iter(|| {
            let r = rt.block_on(ruled.call_managed(&mut managed, black_box("issue_list"), args));
            ruled.end_turn(&mut managed);
            r
        })
    });
    let mut managed = toolgroup::lifecycle::ManagedSession::new(session);
    group.bench_function("evict_and_return", |b| {
        b.iter(|| {
            let a = rt.block_on(ruled.call_managed(&mut managed, black_box("run_list"), args));
            let b = rt.block_on(ruled.call_managed(&mut managed, black_box("issue_list"), args));
            (a, b)
        })
    });
    group.finish();
}

criterion_group!(benches, lifecycle);
criterion_main!(benches);
