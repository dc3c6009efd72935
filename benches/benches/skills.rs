//! skills: the two builtin skill tools beside a plain tool, all through `Toolkit::call` on
//! raw argument text, and the session's listing with skills beside the same toolkit without.
//!
//! - `plain_call`: `page_fetch` (one string argument, a `format!`);
//! - `skill`: `Skill` loading `pdf-tools` for the first time in the session (its body, the
//!   list of its files, the structured answer, the loaded mark);
//! - `read_skill_file_text` / `read_skill_file_image`: the Markdown reference and the PNG
//!   (the file's bytes copied into the result);
//! - `list_with_skills` / `list_without_skills`: `definitions(&session)` walked, `docs`
//!   active (`Skill` and `read_skill_file` are two more definitions).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use toolgroup_bench::print_load;
use toolgroup_bench::skills::*;

fn skills(c: &mut Criterion) {
    print_load();
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime");
    let (kit, session) = skilled_setup();
    let (plain, plain_session) = plain_setup();

    let mut group = c.benchmark_group("skills");
    for (id, name, args) in [
        ("plain_call", "page_fetch", FETCH_ARGS),
        ("skill", "Skill", SKILL_ARGS),
        ("read_skill_file_text", "read_skill_file", TEXT_FILE_ARGS),
        ("read_skill_file_image", "read_skill_file", IMAGE_FILE_ARGS),
    ] {
        group.bench_function(id, |b| {
            b.to_async(&rt).iter(|| async {
                let mut session = session;
                kit.call(&mut session, black_box(name), black_box(args))
                    .await
            })
        });
    }
    group.bench_function("list_with_skills", |b| {
        b.iter(|| count_names(black_box(&kit), black_box(&session)))
    });
    group.bench_function("list_without_skills", |b| {
        b.iter(|| count_names(black_box(&plain), black_box(&plain_session)))
    });
    group.finish();
}

criterion_group!(benches, skills);
criterion_main!(benches);
