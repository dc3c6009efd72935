//! Lifecycle rules over stateless HTTP: each client's state lives in the server's store under
//! its key, so replicas sharing the store see the same uses and switch the same groups off,
//! and concurrent calls through them lose nothing.

use crate::support;

use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};
use support::{Agent, joined, serve_loopback, stateless};
use toolgroup::BoxFuture;
use toolgroup::lifecycle::Lifecycle;
use toolgroup_mcp::{GroupStore, McpServer, MemoryStore, Mode, StoreError, StoredState};

/// A replica of a server under `rules` (first-use activation on), keeping its clients' states
/// in `store` by their `x-user` header.
async fn replica(rules: Lifecycle<Agent>, store: impl GroupStore) -> String {
    let toolkit = support::toolkit().with_lifecycle(rules).unwrap();
    let server = McpServer::new(toolkit, Mode::Mask)
        .with_first_use_activation(true)
        .with_store(store)
        .with_key(crate::http::user_key);
    serve_loopback(server.http_service(stateless())).await
}

async fn post_call(url: &str, user: &str, tool: &str, arguments: Value) -> Value {
    crate::first_use::post_call(url, Some(user), tool, arguments).await
}

/// The state saved under `user`, as JSON.
async fn state(store: &MemoryStore, user: &str) -> Value {
    let saved = store
        .load_state(user)
        .await
        .unwrap()
        .expect("a saved state");
    serde_json::from_str(&saved.state).unwrap()
}

fn active(state: &Value) -> Vec<&str> {
    state["active"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect()
}

#[tokio::test]
async fn replicas_sharing_a_store_switch_off_the_same_groups_for_a_key() {
    let store = Arc::new(MemoryStore::new());
    let a = replica(Lifecycle::new().max_active(1), store.clone()).await;
    let b = replica(Lifecycle::new().max_active(1), store.clone()).await;

    let r = post_call(&a, "alice", "web_search", json!({"query": "q"})).await;
    assert_eq!(r["isError"], false, "{r}");
    assert_eq!(active(&state(&store, "alice").await), ["web_search"]);
    // Through the other replica: its activation evicts the group the first one activated.
    let r = post_call(&b, "alice", "page_fetch", json!({"url": "https://a"})).await;
    assert_eq!(r["isError"], false, "{r}");
    assert!(
        joined(&r).contains("`web_search` (least recently used; at most 1 groups stay active)"),
        "{r}"
    );
    assert_eq!(active(&state(&store, "alice").await), ["scraping"]);
    // Back through the first replica: it sees the eviction, activates (and instructs) again.
    let r = post_call(&a, "alice", "web_search", json!({"query": "again"})).await;
    assert!(joined(&r).contains("Cite your sources."), "{r}");
    assert!(joined(&r).contains("`scraping` (least recently"), "{r}");
    // Another key is another client.
    let r = post_call(&b, "bob", "page_fetch", json!({"url": "https://b"})).await;
    assert!(!joined(&r).contains("Switched off"), "{r}");
    assert_eq!(active(&state(&store, "bob").await), ["scraping"]);
    assert_eq!(active(&state(&store, "alice").await), ["web_search"]);
}

#[tokio::test]
async fn idle_requests_count_a_keys_calls_on_every_replica() {
    let store = Arc::new(MemoryStore::new());
    let a = replica(Lifecycle::new().idle_requests(2), store.clone()).await;
    let b = replica(Lifecycle::new().idle_requests(2), store.clone()).await;
    post_call(&a, "carol", "web_search", json!({"query": "q"})).await;
    let r = post_call(&b, "carol", "page_fetch", json!({"url": "https://a"})).await;
    assert!(!joined(&r).contains("Switched off"), "{r}");
    let r = post_call(&a, "carol", "note_write", json!({"text": "n"})).await;
    assert!(
        joined(&r).contains("`web_search` (unused by the last 2 tool call(s))"),
        "{r}"
    );
    let s = state(&store, "carol").await;
    assert_eq!(active(&s), ["scraping"]);
    assert_eq!(s["requests"], 3, "{s}");
}

#[tokio::test]
async fn a_stamp_from_the_future_counts_from_now() {
    // A clock that went back on another replica, or a forged state: a use stamped an hour
    // ahead neither switches its group off at once nor keeps it on for an hour.
    let store = Arc::new(MemoryStore::new());
    let url = replica(
        Lifecycle::new().idle_for(Duration::from_millis(300)),
        store.clone(),
    )
    .await;
    let ahead = SystemTime::now().duration_since(UNIX_EPOCH).unwrap() + Duration::from_secs(3600);
    let forged = json!({"active": ["web_search"], "order": 1, "requests": 1,
        "uses": [{"group": "web_search", "order": 1, "turn": 0, "request": 1,
                  "at_ms": ahead.as_millis() as u64}]});
    assert!(
        store
            .save_state("dave", forged.to_string(), 0)
            .await
            .unwrap()
    );

    let r = post_call(&url, "dave", "note_write", json!({"text": "n"})).await;
    assert!(!joined(&r).contains("Switched off"), "{r}");
    let s = state(&store, "dave").await;
    assert_eq!(active(&s), ["web_search"]);
    let stamp = s["uses"][0]["at_ms"].as_u64().unwrap();
    assert!(stamp < ahead.as_millis() as u64, "restamped to now: {s}");

    tokio::time::sleep(Duration::from_millis(400)).await;
    let r = post_call(&url, "dave", "note_write", json!({"text": "m"})).await;
    assert!(joined(&r).contains("`web_search` (unused for 1 s)"), "{r}");
    assert!(active(&state(&store, "dave").await).is_empty());
}

#[tokio::test]
async fn a_corrupt_saved_state_refuses_the_call_and_is_left_as_it_is() {
    let store = Arc::new(MemoryStore::new());
    let url = replica(Lifecycle::new().max_active(1), store.clone()).await;
    for (user, bad) in [
        (
            "erin",
            "{\"active\": [\"web_search\"], \"uses\": 7 <script>",
        ),
        ("frank", "{\"actives\": [\"web_search\"]}"),
    ] {
        assert!(store.save_state(user, bad.to_owned(), 0).await.unwrap());
        let r = post_call(&url, user, "page_fetch", json!({"url": "https://a"})).await;
        assert_eq!(r["isError"], true, "{r}");
        let text = joined(&r);
        assert!(
            text.starts_with("`page_fetch` was not run: the active groups could not be loaded: the saved lifecycle state is not"),
            "{text}"
        );
        assert!(
            !text.contains("<script>") && !text.contains("actives"),
            "never echoed: {text}"
        );
        let saved = store.load_state(user).await.unwrap().unwrap();
        assert_eq!(
            (saved.state.as_str(), saved.revision),
            (bad, 1),
            "unchanged"
        );
        // A basic tool needs no active set: it still answers.
        let r = post_call(&url, user, "note_write", json!({"text": "n"})).await;
        assert_eq!(r["isError"], false, "{r}");
    }
    // A state naming a group this server does not have: the group is dropped, the rest kept.
    let renamed = json!({"active": ["web_search", "old_group"]});
    assert!(
        store
            .save_state("gina", renamed.to_string(), 0)
            .await
            .unwrap()
    );
    let r = post_call(&url, "gina", "web_search", json!({"query": "q"})).await;
    assert_eq!(r["isError"], false, "{r}");
    assert_eq!(active(&state(&store, "gina").await), ["web_search"]);
}

/// The active-set methods of a store wrapping a `MemoryStore`, forwarded to it.
macro_rules! active_sets_of_the_inner_store {
    () => {
        fn load<'a>(
            &'a self,
            key: &'a str,
        ) -> BoxFuture<'a, Result<Option<Vec<String>>, StoreError>> {
            self.0.load(key)
        }
        fn save<'a>(
            &'a self,
            key: &'a str,
            groups: Vec<String>,
        ) -> BoxFuture<'a, Result<(), StoreError>> {
            self.0.save(key, groups)
        }
        fn consume<'a>(
            &'a self,
            token: &'a str,
            ttl: Duration,
        ) -> BoxFuture<'a, Result<bool, StoreError>> {
            self.0.consume(token, ttl)
        }
    };
}

/// A store of active sets only, as written before lifecycle states existed.
#[derive(Default)]
struct NamesOnly(MemoryStore);

impl GroupStore for NamesOnly {
    active_sets_of_the_inner_store!();
}

#[tokio::test]
async fn a_store_without_states_says_so_under_rules_and_serves_without() {
    let store = Arc::new(NamesOnly::default());
    let url = replica(Lifecycle::new().max_active(1), store.clone()).await;
    let r = post_call(&url, "hal", "web_search", json!({"query": "q"})).await;
    assert_eq!(r["isError"], true, "{r}");
    assert!(
        joined(&r).contains("this server's store does not keep lifecycle states (the store must implement `GroupStore::load_state` and `GroupStore::save_state`)"),
        "{r}"
    );
    assert_eq!(store.load("hal").await.unwrap(), None, "nothing saved");

    // A key saved by a server without rules starts its state from its names.
    let states = Arc::new(MemoryStore::new());
    states
        .save("ivy", vec!["scraping".to_owned()])
        .await
        .unwrap();
    let url = replica(Lifecycle::new().max_active(1), states.clone()).await;
    let r = post_call(&url, "ivy", "web_search", json!({"query": "q"})).await;
    assert!(joined(&r).contains("`scraping` (least recently"), "{r}");
    assert_eq!(active(&state(&states, "ivy").await), ["web_search"]);
}

/// A memory store that answers state reads and writes after other tasks had their turn, as a
/// networked store does: replicas' reads and saves interleave.
#[derive(Default)]
struct Remote(MemoryStore);

impl GroupStore for Remote {
    active_sets_of_the_inner_store!();
    fn load_state<'a>(
        &'a self,
        key: &'a str,
    ) -> BoxFuture<'a, Result<Option<StoredState>, StoreError>> {
        Box::pin(async move {
            tokio::task::yield_now().await;
            self.0.load_state(key).await
        })
    }
    fn save_state<'a>(
        &'a self,
        key: &'a str,
        state: String,
        revision: u64,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(async move {
            tokio::task::yield_now().await;
            self.0.save_state(key, state, revision).await
        })
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_calls_of_one_key_through_one_replica_lose_nothing() {
    let store = Arc::new(Remote::default());
    let url = replica(Lifecycle::new().max_active(1), store.clone()).await;
    support::race::race_an_eviction(&[url], &*store, "jack", 200, true).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_calls_of_one_key_through_two_replicas_lose_nothing() {
    let store = Arc::new(Remote::default());
    let a = replica(Lifecycle::new().max_active(1), store.clone()).await;
    let b = replica(Lifecycle::new().max_active(1), store.clone()).await;
    support::race::race_an_eviction(&[a, b], &*store, "kim", 200, false).await;
}

/// A store where another replica always saved first.
#[derive(Default)]
struct Contended(MemoryStore);

impl GroupStore for Contended {
    active_sets_of_the_inner_store!();
    fn load_state<'a>(
        &'a self,
        key: &'a str,
    ) -> BoxFuture<'a, Result<Option<StoredState>, StoreError>> {
        self.0.load_state(key)
    }
    fn save_state<'a>(
        &'a self,
        _key: &'a str,
        _state: String,
        _revision: u64,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(std::future::ready(Ok(false)))
    }
}

#[tokio::test]
async fn a_state_that_never_stays_put_refuses_a_change_and_keeps_a_calls_answer() {
    let store = Arc::new(Contended::default());
    let url = replica(Lifecycle::new().max_active(1), store.clone()).await;
    // A first use must be kept to be made: refused, and said why.
    let r = post_call(&url, "olga", "web_search", json!({"query": "q"})).await;
    assert_eq!(r["isError"], true, "{r}");
    assert!(
        joined(&r).contains("could not save the active groups: other calls for this client kept changing its lifecycle state (16 attempts). Nothing was changed."),
        "{r}"
    );
    assert_eq!(store.0.load_state("olga").await.unwrap(), None);
    // A basic tool's call ran: its answer stands, its use is not recorded.
    let r = post_call(&url, "olga", "note_write", json!({"text": "n"})).await;
    assert_eq!(r["isError"], false, "{r}");
}
