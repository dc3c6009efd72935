//! Runs one side of a benchmark in a loop, for instruction counts under callgrind:
//!
//! ```sh
//! cargo build --release --example profile
//! valgrind --tool=callgrind target/release/examples/profile call-toolgroup 100000
//! ```
//!
//! Cases: cheap-toolgroup, cheap-baseline, cheap-policy, cheap-audit, cheap-cap, cheap-cache,
//! cheap-context, call-toolgroup, call-baseline, call-rmcp, list-toolgroup, list-serialised, list-rmcp,
//! reset-toolgroup, reset-floor, none (setup only, to subtract).

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
    let (big, big_session) = ours_big_setup();
    let (cheap, cheap_session) = ours_cheap_setup();
    // What each option costs on the cheap call.
    let options = ours_cheap_options();
    #[derive(Clone)]
    struct User(#[allow(dead_code)] u64);
    let cx = toolgroup::CallContext::new()
        .with_call_id("call_1")
        .with_extension(User(7));
    let rendered = ours_rendered(&big);
    let router = RmcpCalc::tool_router();
    let big_router = rmcp_big_router();
    let peer = rt.block_on(async { rmcp_peer() });
    let reset = reset_arguments();
    // Warm every cache (schemas, lazily built routes) once.
    black_box(ours_list_serialised(&big, &big_session));
    black_box(rmcp_list(&big_router));
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
                "cheap-context" => {
                    let mut s = cheap_session;
                    black_box(
                        cheap
                            .call_with(&mut s, black_box("forecast"), black_box(FORECAST_ARGS), &cx)
                            .await,
                    );
                }
                "cheap-baseline" => {
                    black_box(baseline_cheap_call(
                        black_box("forecast"),
                        black_box(FORECAST_ARGS),
                    ));
                }
                "call-baseline" => {
                    black_box(baseline_call(black_box(ADD_ARGS)));
                }
                "call-rmcp" => {
                    black_box(rmcp_call(&router, &RmcpCalc, &peer, black_box(ADD_ARGS)).await).ok();
                }
                "list-toolgroup" => {
                    black_box(ours_list_openai_chat(&rendered, &big_session));
                }
                "list-serialised" => {
                    black_box(ours_list_serialised(&big, &big_session));
                }
                "list-rmcp" => {
                    black_box(rmcp_list(&big_router));
                }
                "reset-toolgroup" => {
                    let mut s = big_session;
                    black_box(
                        big.call(&mut s, "reset_tools", black_box(reset.as_str()))
                            .await,
                    );
                }
                "reset-floor" => {
                    black_box(reset_floor(black_box(reset.as_str())));
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
