//! code_mode: what a tool call costs from a program, against a direct call, over the fleet
//! toolkit (82 tools in 10 groups, 3 active), calling one list tool of an active group:
//!
//! - `direct_call`: `Toolkit::call`, the model's own call;
//! - `empty_program`: a run that calls nothing (a fresh QuickJS runtime on a thread of its
//!   own, the prelude, the program, the answer): the fixed price of a run;
//! - `program_100_sequential`: a program awaiting 100 calls one after another (100 batches:
//!   each a round trip between the engine's thread and the caller);
//! - `program_100_parallel`: the same 100 calls in one `Promise.all` (one batch);
//! - `definition_all_groups`: `run_program`'s definition declaring all 82 tools (what an
//!   MCP server in mask mode lists), generated from the schemas: the work a listing no
//!   longer repeats once the definition is kept for its set of shown tools;
//! - `definition_kept`: `CodeMode::definition` for that set again, once kept (a lookup
//!   keyed by the shown tools, and the definition's clone);
//! - `definition_1000_tools`: the same for the 1,000-tool toolkit of the list benchmark
//!   (50 groups, all shown): the declarations are generated at run time, so this is what a
//!   large toolkit pays for them, once per set of shown tools.
//!
//! Per call from a program: (`program_100_*` - `empty_program`) / 100.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::json;
use toolgroup::code::CodeMode;
use toolgroup_bench::print_load;
use toolgroup_bench::tokens::fleet::{self, FleetGroup};

fn code_mode(c: &mut Criterion) {
    print_load();
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime");
    let args = json!({"owner": "rust-lang", "resource": "cargo", "query": "code"}).to_string();
    let args = args.as_str();
    let code = CodeMode::new(fleet::toolkit());
    let mut session = code.toolkit().session();
    for g in [FleetGroup::Issues, FleetGroup::Pulls, FleetGroup::Code] {
        session.activate(g);
    }
    let call = format!("issues.issue_list({args})");
    let sequential = format!("for (let i = 0; i < 100; i++) await {call}; return 1;");
    let parallel =
        format!("await Promise.all(Array.from({{ length: 100 }}, () => {call})); return 1;");
    let mut group = c.benchmark_group("code_mode");
    group.bench_function("direct_call", |b| {
        b.iter(|| {
            let mut session = session;
            rt.block_on(
                code.toolkit()
                    .call(&mut session, black_box("issue_list"), args),
            )
        })
    });
    for (name, program) in [
        ("empty_program", "return 1;"),
        ("program_100_sequential", sequential.as_str()),
        ("program_100_parallel", parallel.as_str()),
    ] {
        let r = rt.block_on(code.run(&mut session.clone(), program));
        assert!(!r.is_error, "{name}: {}", r.text_joined());
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut session = session;
                rt.block_on(code.run(&mut session, black_box(program)))
            })
        });
    }
    let mut all = session;
    for &g in FleetGroup::ALL {
        all.activate(g);
    }
    group.bench_function("definition_all_groups", |b| {
        b.iter(|| toolgroup::code::definition(code.toolkit(), black_box(&all), code.limits()))
    });
    group.bench_function("definition_kept", |b| {
        b.iter(|| code.definition(black_box(&all)))
    });
    let (big, mut every) = toolgroup_bench::ours_big_setup();
    for &g in toolgroup_bench::BigGroup::ALL {
        every.activate(g);
    }
    let limits = toolgroup::code::Limits::new();
    assert_eq!(big.definitions(&every).count(), 1001);
    group.bench_function("definition_1000_tools", |b| {
        b.iter(|| toolgroup::code::definition(&big, black_box(&every), &limits))
    });
    group.finish();
}

criterion_group!(benches, code_mode);
criterion_main!(benches);
