//! The lifecycle table: a 40-turn conversation over 8 groups with no rule, a cap of 3 and
//! idle expiry, per provider and delivery mode, as Markdown (see docs/tokens-and-cache.md).
//!
//! ```text
//! cd benches && cargo run --bin lifecycle
//! ```

use toolgroup_bench::{lifecycle, tokens};

fn main() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a runtime");
    let rows = runtime.block_on(lifecycle::rows(&mut tokens::o200k));
    print!("{}", lifecycle::table(&rows));
}
