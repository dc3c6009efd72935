//! The code-mode table: one task of seven tool calls done by the model's own calls (list and
//! deferred delivery) and by one program, per provider, as Markdown (see
//! docs/tokens-and-cache.md).
//!
//! ```text
//! cd benches && cargo run --bin code_task
//! ```

use toolgroup_bench::{code_task, tokens};

fn main() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let rows = runtime.block_on(code_task::rows(&mut tokens::o200k));
    print!("{}", code_task::table(&rows));
}
