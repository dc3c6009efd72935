//! Server replicas that share their tasks through Redis (SEP-2663): a task started through one
//! is found, cancelled and answered through another; a task whose replica ended is reported
//! expired after its TTL; Redis down and back; a result over the store's bound; and a hundred
//! concurrent tasks through two replicas, none lost or crossed.

use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rmcp::model::{CancelTaskParams, TaskPayload, TaskStatus, UpdateTaskParams};
use serde_json::json;

use super::task_kit::{Replica, echo, get, result_text, start, until, until_ended};
use super::{OwnRedis, PROMPT, prefix, redis_url, timed};

/// How long a task of these tests may take to reach what a test waits for; the runner reads
/// a cancel from the store once a second.
const WITHIN: Duration = Duration::from_secs(10);

#[tokio::test]
async fn a_task_started_through_one_replica_is_served_through_another() {
    let Some(url) = redis_url() else { return };
    let prefix = prefix();
    let ttl = Duration::from_secs(60);
    let a = Replica::start(&url, &prefix, ttl).await;
    let b = Replica::start(&url, &prefix, ttl).await;
    let (on_a, on_b) = (a.client().await, b.client().await);

    // Its end, through B.
    let id = start(&on_a, "echo_later", echo("one", 50)).await.unwrap();
    let task = until_ended(&on_b, &id, WITHIN).await;
    assert_eq!(result_text(&task), "done one");

    // A cancel through B stops the call running on A: A writes it ended as cancelled.
    let id = start(&on_a, "wait_for_cancel", json!({})).await.unwrap();
    let task = get(&on_b, &id).await.unwrap();
    assert_eq!(task.status(), TaskStatus::Working);
    on_b.peer()
        .cancel_task(CancelTaskParams::new(id.clone()))
        .await
        .unwrap();
    let task = until_ended(&on_a, &id, WITHIN).await;
    assert_eq!(task.status(), TaskStatus::Cancelled, "{task:?}");

    // The question the task on A asks is answered through B.
    let id = start(&on_a, "archive_all", json!({})).await.unwrap();
    let task = until(&on_b, &id, WITHIN, |task| {
        matches!(task.payload, TaskPayload::InputRequired { .. })
    })
    .await;
    let TaskPayload::InputRequired { input_requests } = &task.payload else {
        unreachable!()
    };
    assert_eq!(input_requests.keys().collect::<Vec<_>>(), ["q1"]);
    let mut responses = BTreeMap::new();
    responses.insert(
        "q1".to_owned(),
        json!({"action": "accept", "content": {"archive": true}}),
    );
    on_b.peer()
        .update_task(UpdateTaskParams::new(id.clone(), responses))
        .await
        .unwrap();
    let task = until_ended(&on_a, &id, WITHIN).await;
    assert_eq!(result_text(&task), "archived");

    on_a.cancel().await.unwrap();
    on_b.cancel().await.unwrap();
}

#[tokio::test]
async fn a_task_whose_replica_ended_is_reported_expired_after_its_ttl() {
    let Some(url) = redis_url() else { return };
    let prefix = prefix();
    let ttl = Duration::from_secs(2);
    let a = Replica::start(&url, &prefix, ttl).await;
    // B's own TTL is another: the task's, which its record carries, decides.
    let b = Replica::start(&url, &prefix, Duration::from_secs(600)).await;
    let on_b = b.client().await;
    let asked = Instant::now();
    let id = {
        let on_a = a.client().await;
        start(&on_a, "wait_for_cancel", json!({})).await.unwrap()
    };
    a.kill();

    // Working as long as it may run (nobody can tell a slow task from one that ended)...
    let task = get(&on_b, &id).await.unwrap();
    assert!(asked.elapsed() < ttl, "this test ran too slowly to check");
    assert_eq!(task.status(), TaskStatus::Working);
    // ...then failed, as expired.
    let task = until_ended(&on_b, &id, ttl * 2).await;
    assert!(asked.elapsed() >= ttl, "{:?}", asked.elapsed());
    let TaskPayload::Failed { error } = &task.payload else {
        panic!("not failed: {task:?}");
    };
    assert!(
        error["message"].as_str().unwrap().contains("expired"),
        "{error:?}"
    );
    // Its record is kept for another TTL, then forgotten.
    loop {
        match get(&on_b, &id).await {
            Ok(task) => assert_eq!(task.status(), TaskStatus::Failed),
            Err(e) => {
                assert!(e.contains("unknown task"), "{e}");
                break;
            }
        }
        assert!(asked.elapsed() < ttl * 4, "the record outlived its expiry");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(asked.elapsed() >= ttl * 2, "{:?}", asked.elapsed());
    on_b.cancel().await.unwrap();
}

#[tokio::test]
async fn task_calls_answer_errors_while_redis_is_down_and_work_after_it_restarts() {
    let Some(mut redis) = OwnRedis::start().await else {
        return;
    };
    let url = redis.url();
    let replica = Replica::start(&url, &prefix(), Duration::from_secs(60)).await;
    let client = replica.client().await;
    let before = start(&client, "echo_later", echo("before", 0))
        .await
        .unwrap();
    until_ended(&client, &before, WITHIN).await;

    redis.kill();
    let label = "label-that-must-not-be-echoed";
    for _ in 0..2 {
        let (r, took) = timed(start(&client, "echo_later", echo(label, 0))).await;
        let error = r.unwrap_err();
        assert!(
            error.contains("the task could not be kept: Redis SET failed: "),
            "{error}"
        );
        assert!(!error.contains(label), "{error}");
        assert!(took < PROMPT, "tools/call took {took:?}");
        let (r, took) = timed(get(&client, &before)).await;
        let error = r.unwrap_err();
        assert!(
            error.contains("the task store failed: Redis GET failed: "),
            "{error}"
        );
        assert!(took < PROMPT, "tasks/get took {took:?}");
    }

    // The new server starts empty: the task kept before is forgotten, and new ones run.
    redis.restart().await;
    let (r, _) = timed(get(&client, &before)).await;
    assert!(r.unwrap_err().contains("unknown task"));
    let (id, took) = timed(start(&client, "echo_later", echo("after", 0))).await;
    let id = id.unwrap_or_else(|e| panic!("after the restart ({took:?}): {e}"));
    let task = until_ended(&client, &id, WITHIN).await;
    assert_eq!(result_text(&task), "done after");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_result_over_the_stores_bound_ends_the_task_as_failed() {
    let Some(url) = redis_url() else { return };
    let replica = Replica::with_store(&url, &prefix(), Duration::from_secs(60), |store| {
        store.with_max_bytes(64 * 1024)
    })
    .await;
    let client = replica.client().await;
    let id = start(&client, "write_bytes", json!({"bytes": 100_000}))
        .await
        .unwrap();
    let task = until_ended(&client, &id, WITHIN).await;
    let TaskPayload::Failed { error } = &task.payload else {
        panic!("not failed: {:?}", task.task);
    };
    let message = error["message"].as_str().unwrap();
    assert!(
        message.starts_with("the task's result could not be kept: a task record of "),
        "{message}"
    );
    assert!(
        message.ends_with(" bytes is over the store's 65536 bytes"),
        "{message}"
    );
    let id = start(&client, "write_bytes", json!({"bytes": 1000}))
        .await
        .unwrap();
    let task = until_ended(&client, &id, WITHIN).await;
    assert_eq!(result_text(&task).len(), 1000);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_hundred_concurrent_tasks_through_two_replicas_each_end_with_their_own_result() {
    let Some(url) = redis_url() else { return };
    let prefix = prefix();
    let ttl = Duration::from_secs(60);
    let a = Replica::start(&url, &prefix, ttl).await;
    let b = Replica::start(&url, &prefix, ttl).await;
    // Four clients, two of each replica; each polls its tasks through the other replica.
    let clients = Arc::new(vec![
        a.client().await,
        a.client().await,
        b.client().await,
        b.client().await,
    ]);
    const EACH: u64 = 25;
    let began = Instant::now();
    let mut runs = tokio::task::JoinSet::new();
    for c in 0..clients.len() {
        for t in 0..EACH {
            let clients = clients.clone();
            runs.spawn(async move {
                let label = format!("c{c}-t{t}");
                let id = start(&clients[c], "echo_later", echo(&label, 20 + t * 7 % 50))
                    .await
                    .unwrap();
                let task = until_ended(&clients[(c + 2) % 4], &id, Duration::from_secs(30)).await;
                assert_eq!(result_text(&task), format!("done {label}"), "crossed");
                id
            });
        }
    }
    let mut ids = HashSet::new();
    while let Some(id) = runs.join_next().await {
        assert!(ids.insert(id.unwrap()), "an id issued twice");
    }
    let took = began.elapsed();
    assert_eq!(ids.len(), 100);
    assert!(took < Duration::from_secs(30), "{took:?}");
    eprintln!("100 tasks through two replicas: {took:?}");

    // Every record is in Redis, under its own id.
    let client = redis::Client::open(url.as_str()).unwrap();
    let mut conn = client.get_multiplexed_async_connection().await.unwrap();
    let keys: Vec<String> = redis::cmd("KEYS")
        .arg(format!("{prefix}*:record"))
        .query_async(&mut conn)
        .await
        .unwrap();
    let kept: HashSet<String> = keys
        .iter()
        .map(|k| k[prefix.len()..k.len() - ":record".len()].to_owned())
        .collect();
    assert_eq!(kept, ids);
}

/// A task is its owner's on every replica: another user's `tasks/get`, `tasks/update` and
/// `tasks/cancel`, through any replica, are the `-32602` "unknown task" of a wrong id, and
/// change nothing.
#[tokio::test]
async fn a_task_is_its_owners_alone_on_every_replica() {
    let Some(url) = redis_url() else { return };
    let prefix = prefix();
    let ttl = Duration::from_secs(60);
    let a = Replica::start(&url, &prefix, ttl).await;
    let b = Replica::start(&url, &prefix, ttl).await;
    let carol_on_a = a.client_as("carol").await;
    let carol_on_b = b.client_as("carol").await;
    let dave_on_a = a.client_as("dave").await;
    let dave_on_b = b.client_as("dave").await;

    let id = start(&carol_on_a, "wait_for_cancel", json!({}))
        .await
        .unwrap();
    for dave in [&dave_on_a, &dave_on_b] {
        let seen = get(dave, &id).await.unwrap_err();
        assert!(seen.contains("unknown task"), "{seen}");
        let cancelled = dave
            .peer()
            .cancel_task(CancelTaskParams::new(id.clone()))
            .await
            .unwrap_err()
            .to_string();
        assert!(cancelled.contains("unknown task"), "{cancelled}");
        assert!(cancelled.contains("-32602"), "{cancelled}");
        let mut responses = BTreeMap::new();
        responses.insert("q1".to_owned(), json!({"action": "decline"}));
        let updated = dave
            .peer()
            .update_task(UpdateTaskParams::new(id.clone(), responses))
            .await
            .unwrap_err()
            .to_string();
        assert!(updated.contains("unknown task"), "{updated}");
    }
    // Carol's task runs on, seen from either replica, and is hers to cancel.
    assert_eq!(
        get(&carol_on_b, &id).await.unwrap().status(),
        TaskStatus::Working
    );
    carol_on_b
        .peer()
        .cancel_task(CancelTaskParams::new(id.clone()))
        .await
        .unwrap();
    let task = until_ended(&carol_on_a, &id, WITHIN).await;
    assert_eq!(task.status(), TaskStatus::Cancelled);
    for client in [carol_on_a, carol_on_b, dave_on_a, dave_on_b] {
        client.cancel().await.unwrap();
    }
}
