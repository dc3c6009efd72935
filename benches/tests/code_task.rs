//! The code-mode table's claims (docs/tokens-and-cache.md, "Code mode"), checked on every run
//! (debug, no timing): the seven-call task takes 2 model requests by one program instead of
//! 4 by the model's own calls, and the model reads under a third of the tokens, in both
//! providers' shapes and both deliveries of the calls; beside the tools in the deferred
//! mode, under half of what the deferred calls read.

use toolgroup_bench::code_task::{self, PROVIDERS, Row, Way};
use toolgroup_bench::tokens::{self, Mode};

#[test]
fn the_code_mode_table_s_claims_hold() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let rows: Vec<Row> = runtime.block_on(code_task::rows(&mut tokens::o200k));
    print!("{}", code_task::table(&rows));
    assert_eq!(rows.len(), 8);
    for provider in PROVIDERS {
        let row = |way| {
            rows.iter()
                .find(|r| r.provider == provider && r.way == way)
                .expect("a row")
        };
        let code = row(Way::Code);
        assert_eq!((code.requests, code.calls), (2, 7), "{provider}");
        assert!(
            (1_300..=1_500).contains(&code.tokens),
            "{provider}: {}",
            code.tokens
        );
        // Beside the tools in the deferred mode, run_program lists the groups without their
        // declarations: the program's request pays for the eager tools, not for the toolkit.
        let beside = row(Way::CodeDeferred);
        assert_eq!((beside.requests, beside.calls), (2, 7), "{provider}");
        assert!(
            (2_000..=2_600).contains(&beside.tokens),
            "{provider}: {}",
            beside.tokens
        );
        let deferred_calls = row(Way::Calls(Mode::Deferred)).tokens;
        assert!(
            (beside.tokens as f64) < 0.5 * deferred_calls as f64,
            "{provider}: {} vs {deferred_calls}",
            beside.tokens
        );
        for mode in [Mode::List, Mode::Deferred] {
            let calls = row(Way::Calls(mode));
            assert_eq!((calls.requests, calls.calls), (4, 7), "{provider} {mode:?}");
            assert!(
                (4_400..=5_300).contains(&calls.tokens),
                "{provider} {mode:?}: {}",
                calls.tokens
            );
            assert!(
                (code.tokens as f64) < 0.32 * calls.tokens as f64,
                "{provider} {mode:?}: {} vs {}",
                code.tokens,
                calls.tokens
            );
        }
    }
}
