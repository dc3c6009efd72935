//! Lifecycle states in Redis: two replicas, each with its own connection, serve one client
//! at once and race the evictions of a cap; the revision check loses no call's use.

use toolgroup::lifecycle::Lifecycle;
use toolgroup_mcp::{GroupStore, McpServer, Mode, RedisStore};

use super::{prefix, redis_url, support};

async fn store(url: &str, prefix: &str) -> RedisStore {
    RedisStore::connect(url)
        .await
        .unwrap()
        .with_prefix(prefix)
        .with_ttl(std::time::Duration::from_secs(600))
}

async fn replica(url: &str, prefix: &str) -> String {
    let toolkit = support::toolkit()
        .with_lifecycle(Lifecycle::new().max_active(1))
        .unwrap();
    let server = McpServer::new(toolkit, Mode::Mask)
        .with_first_use_activation(true)
        .with_store(store(url, prefix).await)
        .with_key(super::user_key);
    support::serve_loopback(server.http_service(support::stateless())).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_replicas_racing_evictions_of_one_client_lose_nothing() {
    let Some(url) = redis_url() else { return };
    let prefix = prefix();
    let a = replica(&url, &prefix).await;
    let b = replica(&url, &prefix).await;
    let reader = store(&url, &prefix).await;
    support::race::race_an_eviction(&[a, b], &reader, "lena", 200, false).await;
    // A stale revision is refused, and leaves the state as it is.
    let saved = reader.load_state("lena").await.unwrap().unwrap();
    assert!(saved.revision > 1, "{saved:?}");
    let stale = saved.revision - 1;
    assert!(
        !reader
            .save_state("lena", "[]".to_owned(), stale)
            .await
            .unwrap()
    );
    assert_eq!(reader.load_state("lena").await.unwrap(), Some(saved));
}

#[tokio::test]
async fn the_first_save_of_a_key_is_revision_one_and_only_once() {
    let Some(url) = redis_url() else { return };
    let reader = store(&url, &prefix()).await;
    assert_eq!(reader.load_state("mo").await.unwrap(), None);
    assert!(
        reader
            .save_state("mo", "[\"web_search\"]".to_owned(), 0)
            .await
            .unwrap()
    );
    assert!(!reader.save_state("mo", "[]".to_owned(), 0).await.unwrap());
    let saved = reader.load_state("mo").await.unwrap().unwrap();
    assert_eq!(
        (saved.state.as_str(), saved.revision),
        ("[\"web_search\"]", 1)
    );
}

#[tokio::test]
async fn a_half_written_state_is_an_error_that_names_it() {
    let Some(url) = redis_url() else { return };
    let prefix = prefix();
    let reader = store(&url, &prefix).await;
    let client = redis::Client::open(url.as_str()).unwrap();
    let mut conn = client.get_multiplexed_async_connection().await.unwrap();
    let _: () = redis::cmd("HSET")
        .arg(format!("{prefix}state:nina"))
        .arg("rev")
        .arg(3)
        .query_async(&mut conn)
        .await
        .unwrap();
    let e = reader.load_state("nina").await.unwrap_err();
    assert!(e.to_string().contains("incomplete"), "{e}");
}
