//! reset: a `reset_tools` call over 50 groups (validation, the new state, the answer with its
//! structured JSON), vs parsing the same text into a `HashMap<String, bool>` (the floor).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use toolgroup_bench::*;

fn reset(c: &mut Criterion) {
    print_load();
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime");
    let (kit, session) = ours_big_setup();
    let arguments = reset_arguments();

    let mut group = c.benchmark_group("reset");
    group.bench_function("toolgroup", |b| {
        b.to_async(&rt).iter(|| async {
            // Every iteration starts from the same state: g00, g10, .. g40 active.
            let mut session = session;
            let result = kit
                .call(&mut session, "reset_tools", black_box(arguments.as_str()))
                .await;
            (result, session)
        })
    });
    group.bench_function("hashmap_floor", |b| {
        b.to_async(&rt)
            .iter(|| async { reset_floor(black_box(arguments.as_str())) })
    });
    group.finish();
}

criterion_group!(benches, reset);
criterion_main!(benches);
