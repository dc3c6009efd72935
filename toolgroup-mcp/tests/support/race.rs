//! Many concurrent calls of one stateless client through server replicas that share a store,
//! racing the evictions of a cap of one group, and what must hold once they are done: every
//! call answered, no call's use lost, the cap kept, and every switch-off told at most once.

use std::time::Duration;

use serde_json::{Value, json};
use toolgroup_mcp::GroupStore;

/// What the model reads when a call activates `web_search` or `scraping`.
const INSTRUCTIONS: [&str; 2] = ["Cite your sources.", "Only fetch pages found by a search."];
/// What each switch-off by a cap of one says, once per group switched off.
const CAP_NOTICE: &str = "(least recently used; at most 1 groups stay active)";

/// Send `calls` concurrent `tools/call`s of `user` (alternating `web_search` and
/// `page_fetch`, and the replicas at `urls`), each bounded to 20 s, then check the state the
/// replicas left in `store`. `exact`: one replica, whose calls of one key wait for each other
/// (two replicas may both activate a group that neither saw active, and both deliver its
/// instructions, so that an activation is counted twice).
pub async fn race_an_eviction(
    urls: &[String],
    store: &dyn GroupStore,
    user: &str,
    calls: usize,
    exact: bool,
) {
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(20))
        .build()
        .unwrap();
    let mut tasks = tokio::task::JoinSet::new();
    for i in 0..calls {
        let (name, arguments) = match i % 2 {
            0 => ("web_search", json!({"query": format!("q{i}")})),
            _ => (
                "page_fetch",
                json!({"url": format!("https://example.com/{i}")}),
            ),
        };
        let body = json!({"jsonrpc": "2.0", "id": i, "method": "tools/call",
            "params": {"name": name, "arguments": arguments}})
        .to_string();
        let (http, url, user) = (http.clone(), urls[i % urls.len()].clone(), user.to_owned());
        tasks.spawn(async move {
            let response = http
                .post(&url)
                .header("content-type", "application/json")
                .header("accept", "application/json, text/event-stream")
                .header("mcp-protocol-version", "2025-06-18")
                .header("x-user", user)
                .body(body)
                .send()
                .await
                .expect("the replica answers");
            let text = response.text().await.unwrap();
            let v: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
            v["result"].clone()
        });
    }
    let results: Vec<Value> = tasks.join_all().await;
    let texts: Vec<String> = results
        .iter()
        .map(|r| {
            assert_eq!(r["isError"], false, "every call is answered: {r}");
            super::joined(r)
        })
        .collect();
    let delivered: usize = texts
        .iter()
        .map(|t| INSTRUCTIONS.iter().filter(|i| t.contains(*i)).count())
        .sum();
    let told: usize = texts.iter().map(|t| t.matches(CAP_NOTICE).count()).sum();

    let saved = store
        .load_state(user)
        .await
        .unwrap()
        .expect("a state is saved");
    let state: Value = serde_json::from_str(&saved.state).unwrap();
    let active = state["active"].as_array().unwrap().len();
    let pending = state["pending"].as_array().map_or(0, Vec::len);
    assert_eq!(
        state["requests"],
        json!(calls),
        "every call's use is in the state: {state}"
    );
    assert_eq!(active, 1, "the cap holds: {state}");
    assert!(told > 0, "the calls raced evictions: {state}");
    if exact {
        assert_eq!(
            delivered,
            told + pending + active,
            "every activation is switched off and told once, or still active: {state}"
        );
    } else {
        assert!(
            told + pending + active <= delivered,
            "no switch-off is told twice: {delivered} activations, {told} told, {pending} pending, {active} active"
        );
    }
}
