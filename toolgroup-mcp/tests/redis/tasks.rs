//! The Redis task store's contract, through its own methods and the keys it writes: a record
//! and its expiry, the cancel flag, first answers win, and what it refuses to write or read
//! (corrupt values, values over its bound), naming nothing of the value.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use redis::aio::MultiplexedConnection;
use rmcp::model::{DetailedTask, Task, TaskPayload, TaskStatus};
use serde_json::{Map, Value, json};
use toolgroup_mcp::{RedisTaskStore, TaskRecord, TaskStore};

use super::task_kit::{Replica, get};
use super::{prefix, redis_url};

const ID: &str = "0123456789abcdef0123456789abcdef";
/// Written into corrupt values: no error may repeat it.
const SECRET: &str = "s3cr3t-value";

fn now_ms() -> u64 {
    let since = SystemTime::now().duration_since(UNIX_EPOCH).unwrap();
    u64::try_from(since.as_millis()).unwrap()
}

/// A working task `id` of ann's that the store may forget `lives` from now.
fn record(id: &str, lives: Duration) -> TaskRecord {
    let stamp = "2026-07-28T00:00:00+00:00";
    let task = DetailedTask::new(
        Task::new(id, TaskStatus::Working, stamp, stamp),
        TaskPayload::Working,
    );
    serde_json::from_value(json!({
        "owner": "principal:ann",
        "task": task,
        "expires_at_ms": now_ms() + u64::try_from(lives.as_millis()).unwrap(),
    }))
    .unwrap()
}

fn map(value: Value) -> Map<String, Value> {
    value.as_object().unwrap().clone()
}

async fn raw(url: &str) -> MultiplexedConnection {
    let client = redis::Client::open(url).unwrap();
    client.get_multiplexed_async_connection().await.unwrap()
}

async fn pttl(conn: &mut MultiplexedConnection, key: &str) -> i64 {
    redis::cmd("PTTL").arg(key).query_async(conn).await.unwrap()
}

async fn set(conn: &mut MultiplexedConnection, key: &str, value: &str) {
    redis::cmd("SET")
        .arg(key)
        .arg(value)
        .arg("PX")
        .arg(60_000)
        .query_async::<()>(conn)
        .await
        .unwrap();
}

#[tokio::test]
async fn the_store_keeps_a_record_its_cancel_flag_and_first_answers_with_its_expiry() {
    let Some(url) = redis_url() else { return };
    let prefix = prefix();
    let store = RedisTaskStore::connect(&url)
        .await
        .unwrap()
        .with_prefix(prefix.as_str());
    let mut conn = raw(&url).await;
    let key = |kind: &str| format!("{prefix}{ID}:{kind}");

    // A task the store does not keep is neither marked nor answered, and leaves no key.
    assert_eq!(store.get(ID).await.unwrap(), None);
    store.cancel(ID).await.unwrap();
    store.answer(ID, &map(json!({"q1": 1}))).await.unwrap();
    assert!(!store.is_cancelled(ID).await.unwrap());
    assert!(store.answers(ID).await.unwrap().is_empty());
    for kind in ["record", "cancelled", "answers"] {
        assert_eq!(pttl(&mut conn, &key(kind)).await, -2, "{kind}");
    }

    let mut kept = record(ID, Duration::from_secs(60));
    store.put(&kept).await.unwrap();
    assert_eq!(store.get(ID).await.unwrap().as_ref(), Some(&kept));
    kept.task = DetailedTask::new(
        kept.task.task.clone(),
        TaskPayload::Completed {
            result: map(json!({"content": [{"type": "text", "text": "done"}]})),
        },
    );
    store.put(&kept).await.unwrap();
    assert_eq!(
        store.get(ID).await.unwrap().as_ref(),
        Some(&kept),
        "replaced"
    );

    assert!(!store.is_cancelled(ID).await.unwrap());
    store.cancel(ID).await.unwrap();
    assert!(store.is_cancelled(ID).await.unwrap());
    store
        .answer(ID, &map(json!({"q1": "first"})))
        .await
        .unwrap();
    store
        .answer(
            ID,
            &map(json!({"q1": "second", "q2": {"action": "accept"}})),
        )
        .await
        .unwrap();
    assert_eq!(
        store.answers(ID).await.unwrap(),
        map(json!({"q1": "first", "q2": {"action": "accept"}}))
    );

    // Each key expires with the record, none later than it asked.
    let record_ttl = pttl(&mut conn, &key("record")).await;
    assert!(record_ttl > 0 && record_ttl <= 60_000, "{record_ttl}");
    for kind in ["cancelled", "answers"] {
        let ttl = pttl(&mut conn, &key(kind)).await;
        assert!(ttl > 0 && (record_ttl - ttl).abs() < 1000, "{kind}: {ttl}");
    }

    // Another prefix is another store.
    let other = RedisTaskStore::connect(&url)
        .await
        .unwrap()
        .with_prefix(format!("{prefix}other:"));
    assert_eq!(other.get(ID).await.unwrap(), None);
    assert!(!other.is_cancelled(ID).await.unwrap());
}

#[tokio::test]
async fn a_task_is_forgotten_when_its_record_expires() {
    let Some(url) = redis_url() else { return };
    let store = RedisTaskStore::connect(&url)
        .await
        .unwrap()
        .with_prefix(prefix());
    store
        .put(&record(ID, Duration::from_millis(400)))
        .await
        .unwrap();
    store.cancel(ID).await.unwrap();
    store.answer(ID, &map(json!({"q1": true}))).await.unwrap();
    assert!(store.get(ID).await.unwrap().is_some());
    tokio::time::sleep(Duration::from_millis(700)).await;
    assert_eq!(store.get(ID).await.unwrap(), None);
    assert!(!store.is_cancelled(ID).await.unwrap());
    assert!(store.answers(ID).await.unwrap().is_empty());
    // A record already past its expiry is not kept.
    let mut past = record(ID, Duration::ZERO);
    past.expires_at_ms -= 1000;
    store.put(&past).await.unwrap();
    tokio::time::sleep(Duration::from_millis(20)).await;
    assert_eq!(store.get(ID).await.unwrap(), None);
}

/// The error `get` answers for `value` under the record's key.
async fn get_error(url: &str, value: &str) -> String {
    let prefix = prefix();
    set(&mut raw(url).await, &format!("{prefix}{ID}:record"), value).await;
    let store = RedisTaskStore::connect(url)
        .await
        .unwrap()
        .with_prefix(prefix);
    store.get(ID).await.unwrap_err().to_string()
}

#[tokio::test]
async fn a_corrupt_record_is_an_error_that_names_nothing_of_it() {
    let Some(url) = redis_url() else { return };
    let prefix = "the task store cannot read the task with an id of 32 bytes: ";
    for (value, problem) in [
        (format!("not json {SECRET}"), "its record is not JSON"),
        (
            json!({"owner": SECRET, "task": 5}).to_string(),
            "its record is JSON but not a task record",
        ),
        (
            serde_json::to_string(&record("another-task-id", Duration::from_secs(60)))
                .unwrap()
                .replace("principal:ann", SECRET),
            "its record is another task's",
        ),
    ] {
        let error = get_error(&url, &value).await;
        assert_eq!(error, format!("{prefix}{problem}"));
    }

    // A value of another type, and answers that are not JSON.
    let store_prefix = super::prefix();
    let mut conn = raw(&url).await;
    for kind in ["record", "answers"] {
        redis::cmd("HSET")
            .arg(format!("{store_prefix}{ID}:{kind}"))
            .arg("q1")
            .arg(SECRET)
            .query_async::<()>(&mut conn)
            .await
            .unwrap();
    }
    let store = RedisTaskStore::connect(&url)
        .await
        .unwrap()
        .with_prefix(store_prefix);
    let error = store.get(ID).await.unwrap_err().to_string();
    assert!(error.starts_with("Redis GET failed: "), "{error}");
    assert!(!error.contains(SECRET), "{error}");
    let error = store.answers(ID).await.unwrap_err().to_string();
    assert_eq!(error, format!("{prefix}an answer is not JSON"));
}

#[tokio::test]
async fn values_over_the_stores_bound_are_neither_written_nor_read() {
    let Some(url) = redis_url() else { return };
    let prefix = prefix();
    let store = RedisTaskStore::connect(&url)
        .await
        .unwrap()
        .with_prefix(prefix.as_str())
        .with_max_bytes(1000);
    let mut conn = raw(&url).await;

    // A record over the bound, found in Redis, is not read.
    set(
        &mut conn,
        &format!("{prefix}{ID}:record"),
        &"x".repeat(5000),
    )
    .await;
    let error = store.get(ID).await.unwrap_err().to_string();
    assert_eq!(
        error,
        "the task store cannot read the task with an id of 32 bytes: its record is 5000 bytes, \
         over the store's 1000"
    );

    // One over the bound is not written, and what was kept stays.
    let mut big = record(ID, Duration::from_secs(60));
    big.task = DetailedTask::new(
        big.task.task.clone(),
        TaskPayload::Completed {
            result: map(json!({"text": "y".repeat(2000)})),
        },
    );
    let error = store.put(&big).await.unwrap_err().to_string();
    assert!(error.contains("over the store's 1000 bytes"), "{error}");
    let kept: String = redis::cmd("GET")
        .arg(format!("{prefix}{ID}:record"))
        .query_async(&mut conn)
        .await
        .unwrap();
    assert_eq!(kept.len(), 5000);

    // Answers: each update that would take them over the bound is refused whole.
    store
        .put(&record(ID, Duration::from_secs(60)))
        .await
        .unwrap();
    let error = store
        .answer(ID, &map(json!({"q1": "z".repeat(2000)})))
        .await
        .unwrap_err()
        .to_string();
    assert!(error.contains("over the store's 1000 bytes"), "{error}");
    store
        .answer(ID, &map(json!({"q1": "z".repeat(600)})))
        .await
        .unwrap();
    let error = store
        .answer(ID, &map(json!({"q2": "z".repeat(600), "q3": 1})))
        .await
        .unwrap_err()
        .to_string();
    assert!(error.contains("over the store's 1000 bytes"), "{error}");
    let answers = store.answers(ID).await.unwrap();
    assert_eq!(answers.keys().collect::<Vec<_>>(), ["q1"]);

    // Answers found over the bound are not read.
    redis::cmd("HSET")
        .arg(format!("{prefix}{ID}:answers"))
        .arg("q9")
        .arg("w".repeat(3000))
        .query_async::<()>(&mut conn)
        .await
        .unwrap();
    let error = store.answers(ID).await.unwrap_err().to_string();
    assert!(error.contains("its answers take 3606 bytes"), "{error}");
}

#[tokio::test]
async fn tasks_get_of_a_corrupt_record_answers_an_error_without_its_content() {
    let Some(url) = redis_url() else { return };
    let prefix = prefix();
    set(
        &mut raw(&url).await,
        &format!("{prefix}{ID}:record"),
        &format!("{{\"owner\": \"{SECRET}\""),
    )
    .await;
    let replica = Replica::start(&url, &prefix, Duration::from_secs(60)).await;
    let client = replica.client().await;
    let error = get(&client, ID).await.unwrap_err();
    assert!(
        error.contains(
            "the task store failed: the task store cannot read the task with an id of 32 \
             bytes: its record is not JSON"
        ),
        "{error}"
    );
    assert!(!error.contains(SECRET), "{error}");
    client.cancel().await.unwrap();
}
