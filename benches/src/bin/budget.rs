//! The instruction budgets' harness: runs one budgeted case in a loop, for `budget.sh` to
//! count under callgrind (collection limited to [`timed`]):
//!
//! ```sh
//! cargo build --profile budget --no-default-features --bin budget
//! valgrind --tool=callgrind --toggle-collect='budget::timed*' target/budget/budget cheap-toolgroup 6000
//! ```
//!
//! Cases: cheap-toolgroup, call-toolgroup, cheap-policy, cheap-audit, cheap-cap, cheap-cache,
//! none (setup only). Each loop body is
//! that of `examples/profile.rs` for the same case. This is a binary, not a case of that
//! example, so that it builds without the dev-dependencies and, with `--no-default-features`,
//! without rmcp and the 1,000-tool toolkit: about a minute from clean, where the example
//! takes over a quarter of an hour. Its counts are its own; compare them only with
//! `budgets.txt`, and `examples/profile.rs`'s with `callgrind.sh`'s history.

use std::hint::black_box;

use toolgroup_bench::*;

fn main() {
    let mut args = std::env::args().skip(1);
    let case = args.next().unwrap_or_else(|| "none".to_owned());
    let n: u64 = args.next().map_or(10_000, |n| n.parse().expect("a count"));
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime");
    let (calc, calc_session) = ours_call_setup();
    let (cheap, cheap_session) = ours_cheap_setup();
    let options = ours_cheap_options();
    timed(&rt, || async {
        for _ in 0..n {
            match case.as_str() {
                "call-toolgroup" => {
                    let mut s = calc_session;
                    black_box(
                        calc.call(&mut s, black_box("add"), black_box(ADD_ARGS))
                            .await,
                    );
                }
                "cheap-toolgroup" => {
                    let mut s = cheap_session;
                    black_box(
                        cheap
                            .call(&mut s, black_box("forecast"), black_box(FORECAST_ARGS))
                            .await,
                    );
                }
                "cheap-policy" | "cheap-audit" | "cheap-cap" | "cheap-cache" => {
                    let kit = options.of_case(&case).expect("an option's case");
                    let mut s = cheap_session;
                    black_box(
                        kit.call(&mut s, black_box("forecast"), black_box(FORECAST_ARGS))
                            .await,
                    );
                }
                "none" => {}
                other => panic!("unknown case {other}"),
            }
        }
    });
}

/// Runs the measured loop; callgrind collects inside this function only (a named function
/// that is never inlined, unlike the loop's async block).
#[inline(never)]
fn timed<F: std::future::Future<Output = ()>>(
    rt: &tokio::runtime::Runtime,
    body: impl FnOnce() -> F,
) {
    rt.block_on(body());
}
