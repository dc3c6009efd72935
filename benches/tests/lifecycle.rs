//! The lifecycle table's claims (docs/tokens-and-cache.md, "Lifecycle rules"), checked on every
//! run (debug, no timing): over 40 turns and 8 groups, a cap of 3 and idle expiry halve the
//! definitions the model reads where the provider drops what is switched off (every list
//! mode, Anthropic's deferred mode), at the price of re-activations and, in the list mode, of
//! more breaks of the cached prefix; the deferred mode breaks it never.

use toolgroup::provider::Provider;
use toolgroup_bench::lifecycle::{self, PROVIDERS, Row, Rules};
use toolgroup_bench::tokens::{self, Mode};

fn rows() -> Vec<Row> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a runtime");
    runtime.block_on(lifecycle::rows(&mut tokens::o200k))
}

fn row(rows: &[Row], provider: Provider, mode: Mode, rules: Rules) -> &Row {
    rows.iter()
        .find(|r| r.provider == provider && r.mode == mode && r.rules == rules)
        .expect("a row")
}

#[test]
fn the_lifecycle_table_s_claims_hold() {
    let rows = rows();
    assert_eq!(rows.len(), 18);
    for provider in PROVIDERS {
        let none = row(&rows, provider, Mode::List, Rules::None);
        assert_eq!(none.broken, 8, "{provider}: one break per first activation");
        assert_eq!(none.reactivations, 0);
        for (rules, broken) in [(Rules::Cap3, 12), (Rules::Idle4, 19)] {
            let r = row(&rows, provider, Mode::List, rules);
            assert!(
                r.definitions < 0.55 * none.definitions,
                "{provider} {rules:?}: {} vs {}",
                r.definitions,
                none.definitions
            );
            assert_eq!(r.broken, broken, "{provider} {rules:?}");
            assert_eq!(r.reactivations, 4, "{provider} {rules:?}");
            assert!(r.instructions > none.instructions, "delivered again");
        }
        for rules in Rules::ALL {
            let deferred = row(&rows, provider, Mode::Deferred, rules);
            assert_eq!(deferred.broken, 0, "{provider} {rules:?}");
        }
    }
    // Anthropic removes what is switched off; Responses keeps every appended definition and
    // Gemini's deferred mode is the mask mode: there the rules cannot shrink definitions.
    let a = |rules| row(&rows, Provider::Anthropic, Mode::Deferred, rules).definitions;
    assert!(a(Rules::Cap3) < 0.55 * a(Rules::None));
    assert!(a(Rules::Idle4) < 0.55 * a(Rules::None));
    for provider in [Provider::OpenAiResponses, Provider::Gemini] {
        let d = |rules| row(&rows, provider, Mode::Deferred, rules).definitions;
        assert_eq!(d(Rules::Cap3), d(Rules::None), "{provider}");
    }
}
