//! The token and cache table: every provider in every delivery mode over the `deferred`
//! example's conversation, and AgentScope's behaviour, as Markdown (see ../BENCHMARKS.md).
//!
//! ```text
//! cd benches && cargo run --bin tokens
//! ```

use toolgroup_bench::tokens;

fn main() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a runtime");
    let rows = runtime.block_on(tokens::rows(&mut tokens::o200k));
    print!("{}", tokens::table(&rows));
}
