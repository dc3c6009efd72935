//! Where stateless HTTP clients' active groups live: a pluggable async store.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex};

use toolgroup_core::BoxFuture;

/// A store could not load or save an active set (a connection error, a corrupt value...).
///
/// The call that needed it is answered with an error result and changes nothing.
/// [`source`](std::error::Error::source) gives the store's own error, when there is one.
#[derive(Debug, Clone)]
pub struct StoreError {
    message: String,
    source: Option<Arc<dyn std::error::Error + Send + Sync + 'static>>,
}

impl StoreError {
    /// An error with this description (shown to the model, so keep secrets out of it).
    pub fn new(message: impl Into<String>) -> Self {
        StoreError {
            message: message.into(),
            source: None,
        }
    }

    /// An error with this description, caused by `source` (kept for the application: the
    /// model reads only the description).
    pub fn with_source(
        message: impl Into<String>,
        source: impl std::error::Error + Send + Sync + 'static,
    ) -> Self {
        StoreError {
            message: message.into(),
            source: Some(Arc::new(source)),
        }
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for StoreError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source.as_deref().map(|e| e as _)
    }
}

/// Where the active groups of stateless HTTP clients are kept, by a key the server's author
/// chooses (see [`McpServer::with_key`](crate::McpServer::with_key)).
///
/// A value is the list of active switchable group names (what a serialised
/// [`Session`](toolgroup_core::Session) holds). Implement it over any shared database so
/// that several replicas behind a load balancer see the same active set: a `reset_tools`
/// through one replica is seen by a call through another. Two resets for one key at the same
/// moment: the last save wins (each is a complete final state, never a merge).
pub trait GroupStore: Send + Sync + 'static {
    /// The active group names saved under `key`, or `None` if nothing was saved.
    fn load<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<Option<Vec<String>>, StoreError>>;

    /// Save the active group names under `key`, replacing what was there.
    fn save<'a>(
        &'a self,
        key: &'a str,
        groups: Vec<String>,
    ) -> BoxFuture<'a, Result<(), StoreError>>;

    /// Use the single-use `token` once: `true` the first time, `false` every later time
    /// while the record lasts (at least `ttl`), atomically, so that of two concurrent uses
    /// (through two replicas sharing the store) exactly one gets `true`.
    ///
    /// The server consumes each `requestState` it opens here (MCP 2026-07-28 multi-round-trip
    /// calls, SEP-2322): a retry that carries an answer, such as a user's approval of a
    /// destructive call, runs once; a second use is refused. `token` is 32 hex digits,
    /// random; `ttl` covers the state's own lifetime, after which its seal refuses it anyway.
    fn consume<'a>(
        &'a self,
        token: &'a str,
        ttl: std::time::Duration,
    ) -> BoxFuture<'a, Result<bool, StoreError>>;
}

/// A shared store: several servers (replicas in one process, tests) can use one store.
impl<S: GroupStore + ?Sized> GroupStore for std::sync::Arc<S> {
    fn load<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<Option<Vec<String>>, StoreError>> {
        (**self).load(key)
    }

    fn save<'a>(
        &'a self,
        key: &'a str,
        groups: Vec<String>,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        (**self).save(key, groups)
    }

    fn consume<'a>(
        &'a self,
        token: &'a str,
        ttl: std::time::Duration,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        (**self).consume(token, ttl)
    }
}

/// A store chosen at run time (`Box<dyn GroupStore>`: memory or Redis, from configuration).
impl<S: GroupStore + ?Sized> GroupStore for Box<S> {
    fn load<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<Option<Vec<String>>, StoreError>> {
        (**self).load(key)
    }

    fn save<'a>(
        &'a self,
        key: &'a str,
        groups: Vec<String>,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        (**self).save(key, groups)
    }

    fn consume<'a>(
        &'a self,
        token: &'a str,
        ttl: std::time::Duration,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        (**self).consume(token, ttl)
    }
}

/// A [`GroupStore`] in this process's memory: for one replica (or tests). Entries are never
/// evicted; bound the number of keys yourself (for example, keys are user ids).
#[derive(Debug, Default)]
pub struct MemoryStore {
    map: Mutex<HashMap<String, Vec<String>>>,
    /// Used single-use tokens, until when they are remembered; the expired ones are dropped
    /// as new ones come, so the map holds at most the tokens of one lifetime.
    used: Mutex<HashMap<String, std::time::Instant>>,
}

impl MemoryStore {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    /// How many keys have a saved active set.
    pub fn len(&self) -> usize {
        self.map.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// Whether no key has a saved active set.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl GroupStore for MemoryStore {
    fn load<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<Option<Vec<String>>, StoreError>> {
        let value = self
            .map
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(key)
            .cloned();
        Box::pin(std::future::ready(Ok(value)))
    }

    fn save<'a>(
        &'a self,
        key: &'a str,
        groups: Vec<String>,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        self.map
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key.to_owned(), groups);
        Box::pin(std::future::ready(Ok(())))
    }

    fn consume<'a>(
        &'a self,
        token: &'a str,
        ttl: std::time::Duration,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        let now = std::time::Instant::now();
        let mut used = self.used.lock().unwrap_or_else(|e| e.into_inner());
        // Amortised: a sweep only when the map has doubled since the last one.
        if used.len() >= 64 && used.len().is_power_of_two() {
            used.retain(|_, until| *until > now);
        }
        let first = match used.get(token) {
            Some(until) if *until > now => false,
            _ => {
                used.insert(token.to_owned(), now + ttl);
                true
            }
        };
        Box::pin(std::future::ready(Ok(first)))
    }
}

#[cfg(feature = "redis")]
pub use self::redis_store::RedisStore;
#[cfg(feature = "redis")]
pub(crate) use self::redis_store::{connect, query};

#[cfg(feature = "redis")]
mod redis_store {
    use std::time::Duration;

    use redis::aio::{ConnectionManager, ConnectionManagerConfig};

    use super::{BoxFuture, GroupStore, StoreError};

    /// A [`GroupStore`] in Redis, shared by every replica that connects to the same server.
    ///
    /// Each key's active set is one Redis string (a JSON list of group names) under
    /// `{prefix}{key}`, written with `SET` (optionally with an expiry, refreshed by every
    /// save).
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
        fn load<'a>(
            &'a self,
            key: &'a str,
        ) -> BoxFuture<'a, Result<Option<Vec<String>>, StoreError>> {
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
                        StoreError::with_source(
                            "the saved active groups are not a list of names",
                            e,
                        )
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
                    let millis = u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX).max(1);
                    cmd.arg("PX").arg(millis);
                }
                self.query::<()>(&cmd)
                    .await
                    .map_err(|e| StoreError::with_source(format!("Redis SET failed: {e}"), e))
            })
        }

        /// `SET {prefix}used:{token} 1 NX PX ttl`: Redis answers `OK` to the first use only.
        fn consume<'a>(
            &'a self,
            token: &'a str,
            ttl: std::time::Duration,
        ) -> BoxFuture<'a, Result<bool, StoreError>> {
            Box::pin(async move {
                let millis = u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX).max(1);
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
}

/// Gates that serialise, within one process, the calls that change the active groups kept
/// under one key (`reset_tools`, a skill load, a first use), so that two concurrent first
/// uses of a group by one client activate it, and deliver its instructions, once. Striped:
/// a fixed number of locks, each key hashed onto one, so memory does not grow with the
/// number of keys (two keys may share a lock and then wait for each other's change).
pub(crate) struct KeyGates {
    gates: Box<[tokio::sync::Mutex<()>]>,
}

impl KeyGates {
    const STRIPES: usize = 64;

    /// The gate of `key`, held until the guard is dropped.
    pub(crate) async fn lock(&self, key: &str) -> tokio::sync::MutexGuard<'_, ()> {
        let index = fnv1a(key) % self.gates.len();
        self.gates[index].lock().await
    }
}

/// FNV-1a: a cheap hash of a key onto a stripe (which keys share a stripe decides only
/// who may wait for whom, never correctness).
fn fnv1a(key: &str) -> usize {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in key.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash as usize
}

impl Default for KeyGates {
    fn default() -> Self {
        KeyGates {
            gates: (0..Self::STRIPES)
                .map(|_| tokio::sync::Mutex::new(()))
                .collect(),
        }
    }
}

impl fmt::Debug for KeyGates {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KeyGates").finish_non_exhaustive()
    }
}
