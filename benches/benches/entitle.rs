//! entitle: what serving one principal costs, on 1,000 tools in 50 groups where every
//! second group requires a scope and the principal holds half of those scopes.
//!
//! - `view_cached`: `Toolkit::entitled` for a held set seen before (what an MCP server pays
//!   per request: a hash lookup of the set and a handle to the cached view);
//! - `view_built`: deriving that view for a set never seen (once per distinct set: the
//!   filtered definitions, index and `reset_tools` schema);
//! - `list_entitled`: the principal's OpenAI Chat `tools` array (5 groups active), to compare
//!   with `list/toolgroup`, the same list without entitlements.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use toolgroup::Scopes;
use toolgroup::{Registry, Toolkit};
use toolgroup_bench::*;

fn scoped() -> Toolkit<Big> {
    let (kit, _) = ours_big_setup();
    let mut kit = kit;
    for (i, &group) in <Big as Registry>::Group::ALL.iter().enumerate() {
        if i % 2 == 1 {
            let scope = Scopes::parse(&format!("scope:{i}")).expect("a scope");
            kit = kit.with_required_scopes(group, scope);
        }
    }
    kit
}

fn held(n: usize) -> Scopes {
    Scopes::from_tokens(
        (0..50)
            .filter(|i| i % 4 == 1)
            .map(|i| format!("scope:{i}"))
            .take(n),
    )
    .expect("scopes")
}

fn entitle(c: &mut Criterion) {
    print_load();
    let kit = scoped();
    let (_, session) = ours_big_setup();
    let held = held(13);
    let view = kit.entitled(&held);
    let rendered = ours_rendered(&view);

    let mut group = c.benchmark_group("entitle");
    group.bench_function("view_cached", |b| {
        b.iter(|| black_box(kit.entitled(black_box(&held))))
    });
    let mut n = 0u64;
    group.bench_function("view_built", |b| {
        b.iter(|| {
            // A set never seen: a scope no group requires makes it new.
            n += 1;
            let fresh = held.union(&Scopes::parse(&format!("fresh:{n}")).expect("a scope"));
            black_box(kit.entitled(&fresh))
        })
    });
    group.bench_function("list_entitled", |b| {
        b.iter(|| ours_list_openai_chat(black_box(&rendered), black_box(&session)))
    });
    group.finish();
}

criterion_group!(benches, entitle);
criterion_main!(benches);
