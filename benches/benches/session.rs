//! session: the size of a session value and the cost of creating one.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use toolgroup::Session;
use toolgroup_bench::*;

fn session(c: &mut Criterion) {
    print_load();
    let (calc, _) = ours_call_setup();
    let (big, _) = ours_big_setup();
    println!(
        "size_of::<Session<Calc>>() = {} bytes (1 switchable group)",
        std::mem::size_of::<Session<Calc>>()
    );
    println!(
        "size_of::<Session<Big>>() = {} bytes (50 switchable groups)",
        std::mem::size_of::<Session<Big>>()
    );

    let mut group = c.benchmark_group("session");
    group.bench_function("new_calc", |b| b.iter(|| black_box(&calc).session()));
    group.bench_function("new_big", |b| b.iter(|| black_box(&big).session()));
    group.finish();
}

criterion_group!(benches, session);
criterion_main!(benches);
