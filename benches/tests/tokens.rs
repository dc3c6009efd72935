//! The token and cache benchmark's claims, checked on every run (debug, no timing): the
//! tokenizer is offline and counts as tiktoken does, the deferred mode never changes the tool
//! array and never breaks the cached prefix, the list mode breaks it on every switch, and the
//! deferred mode shows the model fewer definition tokens than the mask mode
//! (under half on Anthropic).

use toolgroup::provider::Provider;
use toolgroup_bench::tokens::{self, Mode, Row};

fn rows() -> Vec<Row> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a runtime");
    runtime.block_on(tokens::rows(&mut tokens::o200k))
}

fn row(rows: &[Row], provider: Provider, mode: Mode) -> &Row {
    rows.iter()
        .find(|r| r.provider == provider && r.mode == mode)
        .expect("a row")
}

#[test]
fn the_tokenizer_is_o200k_base() {
    // Reference counts from tiktoken's `o200k_base` (Python `tiktoken` 0.9).
    assert_eq!(tokens::o200k("hello world"), 2);
    assert_eq!(tokens::o200k(r#"{"type":"object"}"#), 5);
}

#[test]
fn the_table_s_claims_hold() {
    let rows = rows();
    assert_eq!(rows.len(), 13);
    for provider in tokens::PROVIDERS {
        let deferred = row(&rows, *provider, Mode::Deferred);
        let list = row(&rows, *provider, Mode::List);
        let mask = row(&rows, *provider, Mode::Mask);
        assert_eq!(deferred.tools_changed, 0, "{provider}");
        assert_eq!(deferred.broken, 0, "{provider}: {deferred:?}");
        assert_eq!(mask.broken, 0, "{provider}");
        assert_eq!(list.tools_changed, 6, "{provider}: one change per switch");
        assert_eq!(list.broken, 6, "{provider}");
        assert!(list.tools_shown < mask.tools_shown, "{provider}");
    }
    // Anthropic removes what it defers; Responses keeps every appended definition.
    let shown = |p, m| row(&rows, p, m).tools_shown;
    let anthropic = Provider::Anthropic;
    assert!(shown(anthropic, Mode::Deferred) < shown(anthropic, Mode::Mask) / 2.0);
    let responses = Provider::OpenAiResponses;
    assert!(shown(responses, Mode::Deferred) < shown(responses, Mode::Mask));
    let agentscope = row(&rows, Provider::OpenAiChat, Mode::AgentScope);
    assert_eq!(agentscope.broken, 6);
}
