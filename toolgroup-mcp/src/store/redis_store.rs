//! The Redis store: active sets, lifecycle states and single-use tokens shared by every
//! replica that connects to the same Redis server.

use std::time::Duration;

use redis::aio::{ConnectionManager, ConnectionManagerConfig};

use super::{BoxFuture, GroupStore, StoreError, StoredState};

/// A [`GroupStore`] in Redis, shared by every replica that connects to the same server.
///
/// Each key's active set is one Redis string (a JSON list of group names) under
/// `{prefix}{key}`, written with `SET` (optionally with an expiry, refreshed by every
/// save). Under [lifecycle rules](toolgroup_core::lifecycle) a key's state is a hash under
/// `{prefix}state:{key}` (fields `rev` and `state`), replaced by a script that compares the
/// revision and writes in one step, so that of two replicas saving from one revision
/// exactly one succeeds (Redis runs a script alone); the expiry applies to it too.
///
/// The connection comes back by itself when Redis does (a restart, a dropped connection):
/// a command whose connection was dropped is sent once more, on a new one. While Redis is
/// unreachable or stalled, a store call fails within about 3 s at worst (a reply is
/// awaited 500 ms, a connection attempt 1 s, with one more attempt 100 ms to 200 ms
/// later), so the call that needed it gets its error result promptly.
#[derive(Clone)]
#[cfg_attr(docsrs, doc(cfg(feature = "redis")))]
pub struct RedisStore {
    connection: ConnectionManager,
    prefix: String,
    ttl: Option<std::time::Duration>,
}

impl std::fmt::Debug for RedisStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisStore")
            .field("prefix", &self.prefix)
            .field("ttl", &self.ttl)
            .finish_non_exhaustive()
    }
}

impl RedisStore {
    /// Connect to the Redis server at `url` (`redis://127.0.0.1:6379/`). Keys get the
    /// prefix `toolgroup:groups:`; saved sets never expire.
    ///
    /// # Errors
    ///
    /// An invalid URL or a failed connection.
    pub async fn connect(url: &str) -> Result<Self, StoreError> {
        Ok(RedisStore {
            connection: connect(url).await?,
            prefix: "toolgroup:groups:".to_owned(),
            ttl: None,
        })
    }

    /// Use another key prefix (to share one Redis between servers).
    #[must_use]
    pub fn with_prefix(mut self, prefix: impl Into<String>) -> Self {
        self.prefix = prefix.into();
        self
    }

    /// Let a saved set expire `ttl` after its last save (Redis `PX`, whole milliseconds;
    /// at least one).
    #[must_use]
    pub fn with_ttl(mut self, ttl: std::time::Duration) -> Self {
        self.ttl = Some(ttl);
        self
    }
}

/// A reconnecting connection to the Redis server at `url`, with [`connection_config`]'s
/// bounded waits.
pub(crate) async fn connect(url: &str) -> Result<ConnectionManager, StoreError> {
    let client = redis::Client::open(url)
        .map_err(|e| StoreError::with_source(format!("invalid Redis URL: {e}"), e))?;
    ConnectionManager::new_with_config(client, connection_config())
        .await
        .map_err(|e| StoreError::with_source(format!("cannot connect to Redis: {e}"), e))
}

/// Bounded waits: the redis crate's defaults for a reply and a connection attempt (what a
/// single multiplexed connection used before), and one retry instead of six, whose
/// pauses (6.3 s to 12.6 s in all) would hold a call that long while Redis is down.
fn connection_config() -> ConnectionManagerConfig {
    ConnectionManagerConfig::new()
        .set_response_timeout(Some(Duration::from_millis(500)))
        .set_connection_timeout(Some(Duration::from_secs(1)))
        .set_number_of_retries(1)
        .set_min_delay(Duration::from_millis(100))
}

/// Send `cmd`; once more if its connection was found dropped (the manager has begun a new
/// one), so that the first call after a Redis restart is not refused. A timeout is not
/// retried: a stalled server would double the wait.
pub(crate) async fn query<T: redis::FromRedisValue>(
    connection: &ConnectionManager,
    cmd: &redis::Cmd,
) -> redis::RedisResult<T> {
    let mut conn = connection.clone();
    match cmd.query_async(&mut conn).await {
        Err(e) if e.is_connection_dropped() => cmd.query_async(&mut conn).await,
        result => result,
    }
}

impl RedisStore {
    async fn query<T: redis::FromRedisValue>(&self, cmd: &redis::Cmd) -> redis::RedisResult<T> {
        query(&self.connection, cmd).await
    }
}

impl GroupStore for RedisStore {
    fn load<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<Option<Vec<String>>, StoreError>> {
        Box::pin(async move {
            let mut cmd = redis::cmd("GET");
            cmd.arg(format!("{}{key}", self.prefix));
            let value: Option<String> = self
                .query(&cmd)
                .await
                .map_err(|e| StoreError::with_source(format!("Redis GET failed: {e}"), e))?;
            match value {
                None => Ok(None),
                Some(text) => serde_json::from_str(&text).map(Some).map_err(|e| {
                    StoreError::with_source("the saved active groups are not a list of names", e)
                }),
            }
        })
    }

    fn save<'a>(
        &'a self,
        key: &'a str,
        groups: Vec<String>,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            let value = serde_json::Value::from(groups).to_string();
            let mut cmd = redis::cmd("SET");
            cmd.arg(format!("{}{key}", self.prefix)).arg(value);
            if let Some(ttl) = self.ttl {
                // Redis refuses a zero expiry.
                let millis = millis(ttl);
                cmd.arg("PX").arg(millis);
            }
            self.query::<()>(&cmd)
                .await
                .map_err(|e| StoreError::with_source(format!("Redis SET failed: {e}"), e))
        })
    }

    /// `HMGET {prefix}state:{key} rev state`.
    fn load_state<'a>(
        &'a self,
        key: &'a str,
    ) -> BoxFuture<'a, Result<Option<StoredState>, StoreError>> {
        Box::pin(async move {
            let mut cmd = redis::cmd("HMGET");
            cmd.arg(format!("{}state:{key}", self.prefix))
                .arg("rev")
                .arg("state");
            let (revision, state): (Option<u64>, Option<String>) = self
                .query(&cmd)
                .await
                .map_err(|e| StoreError::with_source(format!("Redis HMGET failed: {e}"), e))?;
            match (revision, state) {
                (Some(revision), Some(state)) => Ok(Some(StoredState { state, revision })),
                (None, None) => Ok(None),
                _ => Err(StoreError::new(
                    "the saved lifecycle state is incomplete (a revision without a state, or a state without one)",
                )),
            }
        })
    }

    /// One `EVAL` of a script that compares the revision, writes and sets the expiry, in one
    /// step (Redis runs a script alone).
    fn save_state<'a>(
        &'a self,
        key: &'a str,
        state: String,
        revision: u64,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(async move {
            let millis = self.ttl.map_or(0, millis);
            let mut cmd = redis::cmd("EVAL");
            cmd.arg(SAVE_STATE)
                .arg(1)
                .arg(format!("{}state:{key}", self.prefix))
                .arg(revision)
                .arg(revision.saturating_add(1))
                .arg(state)
                .arg(millis);
            let saved: i64 = self.query(&cmd).await.map_err(|e| {
                StoreError::with_source(format!("Redis EVAL (save the state) failed: {e}"), e)
            })?;
            Ok(saved == 1)
        })
    }

    /// `SET {prefix}used:{token} 1 NX PX ttl`: Redis answers `OK` to the first use only.
    fn consume<'a>(
        &'a self,
        token: &'a str,
        ttl: std::time::Duration,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(async move {
            let millis = millis(ttl);
            let mut cmd = redis::cmd("SET");
            cmd.arg(format!("{}used:{token}", self.prefix))
                .arg(1)
                .arg("NX")
                .arg("PX")
                .arg(millis);
            let answer: Option<String> = self
                .query(&cmd)
                .await
                .map_err(|e| StoreError::with_source(format!("Redis SET NX failed: {e}"), e))?;
            Ok(answer.is_some())
        })
    }
}

/// Replace the state hash `KEYS[1]` with `ARGV[3]` as revision `ARGV[2]` if its revision is
/// `ARGV[1]` (a missing hash is revision 0), and let it expire after `ARGV[4]` ms (`0`:
/// never). Answers 1 when saved, 0 when another save came first.
const SAVE_STATE: &str = r"
local current = redis.call('HGET', KEYS[1], 'rev') or '0'
if current ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'rev', ARGV[2], 'state', ARGV[3])
if ARGV[4] ~= '0' then redis.call('PEXPIRE', KEYS[1], ARGV[4]) else redis.call('PERSIST', KEYS[1]) end
return 1
";

/// An expiry in whole milliseconds, at least one (Redis refuses a zero expiry).
fn millis(ttl: Duration) -> u64 {
    u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX).max(1)
}
