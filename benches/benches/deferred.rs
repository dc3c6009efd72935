//! deferred: one turn's tools in the deferred mode against the list mode, over the `deferred`
//! example's toolkit (82 tools in 10 groups, 2 groups active):
//!
//! - `list/<provider>`: `Rendered::tools_json`, the session's tools joined into a new string;
//! - `deferred/<provider>`: `Deferred::tools_json` and `tool_choice_json`, both borrowed (the
//!   array is rendered once per toolkit, the allow-list once per change);
//! - `deferred_change/<provider>`: `Deferred::sync` across one switch and back, which builds
//!   the change messages (the only per-change allocation).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use toolgroup::provider::Provider;
use toolgroup::provider::Rendered;
use toolgroup::provider::deferred::{Deferred, DeferredOptions};
use toolgroup_bench::print_load;
use toolgroup_bench::tokens::fleet::{self, FleetGroup};

fn deferred(c: &mut Criterion) {
    print_load();
    let kit = fleet::toolkit();
    let mut session = kit.session();
    session.activate(FleetGroup::Issues);
    session.activate(FleetGroup::Pulls);
    let mut other = kit.session();
    other.activate(FleetGroup::Code);
    let mut group = c.benchmark_group("deferred");
    for provider in [Provider::Anthropic, Provider::OpenAiResponses] {
        let rendered = Rendered::new(&kit, provider);
        let deferred = Deferred::new(&kit, provider, DeferredOptions::default()).expect("deferred");
        let mut state = deferred.state();
        deferred.sync(&mut state, &session);
        group.bench_function(format!("list/{provider}"), |b| {
            b.iter(|| rendered.tools_json(black_box(&session)))
        });
        group.bench_function(format!("deferred/{provider}"), |b| {
            b.iter(|| {
                let state = black_box(&state);
                (
                    deferred.tools_json(state).len(),
                    deferred.tool_choice_json(state).map(str::len),
                )
            })
        });
        group.bench_function(format!("deferred_change/{provider}"), |b| {
            b.iter(|| {
                let a = deferred.sync(&mut state, black_box(&other));
                let b = deferred.sync(&mut state, black_box(&session));
                (a, b)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, deferred);
criterion_main!(benches);
