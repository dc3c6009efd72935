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

    /// The lifecycle state saved under `key`, with its revision, or `None` if nothing was
    /// saved.
    ///
    /// A server whose toolkit has [lifecycle rules](toolgroup_core::lifecycle) keeps each
    /// key's [`ManagedSession`](toolgroup_core::lifecycle::ManagedSession) here instead of
    /// [`load`](Self::load)'s list of names: the active groups, when each was last used,
    /// and the switch-offs the client has not been told of yet. The state is a JSON text the
    /// server wrote and reads back; store it as is.
    ///
    /// The default answers with an error: a store that does not override it cannot serve a
    /// toolkit with lifecycle rules (each stateless call is then refused, and says why).
    fn load_state<'a>(
        &'a self,
        key: &'a str,
    ) -> BoxFuture<'a, Result<Option<StoredState>, StoreError>> {
        let _ = key;
        Box::pin(std::future::ready(Err(StoreError::new(
            NO_STATES.to_owned(),
        ))))
    }

    /// Save `state` under `key` as revision `revision + 1`, if the revision saved there is
    /// still `revision` (`0`: nothing is saved there), atomically: of two saves from the same
    /// revision (two replicas serving one client at once), exactly one succeeds. `Ok(false)`:
    /// another save came first and nothing was saved; the server then reads the state again
    /// and applies its call to it, so that no call's change is lost.
    ///
    /// The default answers with an error, as [`load_state`](Self::load_state)'s does.
    fn save_state<'a>(
        &'a self,
        key: &'a str,
        state: String,
        revision: u64,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        let _ = (key, state, revision);
        Box::pin(std::future::ready(Err(StoreError::new(
            NO_STATES.to_owned(),
        ))))
    }
}

/// What a store without lifecycle states answers (and the model reads).
const NO_STATES: &str = "this server's store does not keep lifecycle states (the store must implement `GroupStore::load_state` and `GroupStore::save_state`)";

/// A lifecycle state as a [`GroupStore`] keeps it: the server's JSON text and the revision
/// that [`GroupStore::save_state`] compares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredState {
    /// The state, as the server wrote it.
    pub state: String,
    /// How many saves made it (the first save is revision 1).
    pub revision: u64,
}

/// `GroupStore` for a pointer to a store: every method forwarded (none left to the trait's
/// defaults, which would hide the store's own lifecycle states).
macro_rules! forward_store {
    ($(#[$doc:meta])* $pointer:ident) => {
        $(#[$doc])*
        impl<S: GroupStore + ?Sized> GroupStore for $pointer<S> {
            fn load<'a>(
                &'a self,
                key: &'a str,
            ) -> BoxFuture<'a, Result<Option<Vec<String>>, StoreError>> {
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

            fn load_state<'a>(
                &'a self,
                key: &'a str,
            ) -> BoxFuture<'a, Result<Option<StoredState>, StoreError>> {
                (**self).load_state(key)
            }

            fn save_state<'a>(
                &'a self,
                key: &'a str,
                state: String,
                revision: u64,
            ) -> BoxFuture<'a, Result<bool, StoreError>> {
                (**self).save_state(key, state, revision)
            }
        }
    };
}

forward_store!(
    /// A shared store: several servers (replicas in one process, tests) can use one store.
    Arc
);
forward_store!(
    /// A store chosen at run time (`Box<dyn GroupStore>`: memory or Redis, from configuration).
    Box
);

/// A [`GroupStore`] in this process's memory: for one replica (or tests). Entries are never
/// evicted; bound the number of keys yourself (for example, keys are user ids). It keeps
/// lifecycle states too (one map beside the active sets).
#[derive(Debug, Default)]
pub struct MemoryStore {
    /// Each key's names in one allocation beside the key's: a server holds one entry per
    /// stateless client, and few small allocations per entry keep the heap compact.
    map: Mutex<HashMap<Box<str>, Names>>,
    /// Lifecycle states, by key.
    states: Mutex<HashMap<String, StoredState>>,
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

/// A saved list of group names: joined by newlines (group names are neither empty nor have
/// one), or as given when one is.
#[derive(Debug)]
enum Names {
    Joined(Box<str>),
    List(Box<[String]>),
}

impl Names {
    fn new(names: Vec<String>) -> Names {
        if names
            .iter()
            .any(|name| name.is_empty() || name.contains('\n'))
        {
            Names::List(names.into_boxed_slice())
        } else {
            Names::Joined(names.join("\n").into_boxed_str())
        }
    }

    fn to_vec(&self) -> Vec<String> {
        match self {
            Names::Joined(joined) if joined.is_empty() => Vec::new(),
            Names::Joined(joined) => joined.split('\n').map(str::to_owned).collect(),
            Names::List(list) => list.to_vec(),
        }
    }
}

impl GroupStore for MemoryStore {
    fn load<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<Option<Vec<String>>, StoreError>> {
        let value = self
            .map
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(key)
            .map(Names::to_vec);
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
            .insert(key.into(), Names::new(groups));
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

    fn load_state<'a>(
        &'a self,
        key: &'a str,
    ) -> BoxFuture<'a, Result<Option<StoredState>, StoreError>> {
        let value = self
            .states
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(key)
            .cloned();
        Box::pin(std::future::ready(Ok(value)))
    }

    fn save_state<'a>(
        &'a self,
        key: &'a str,
        state: String,
        revision: u64,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        let mut states = self.states.lock().unwrap_or_else(|e| e.into_inner());
        let current = states.get(key).map_or(0, |s| s.revision);
        let saved = current == revision;
        if saved {
            let revision = revision.saturating_add(1);
            states.insert(key.to_owned(), StoredState { state, revision });
        }
        Box::pin(std::future::ready(Ok(saved)))
    }
}

#[cfg(feature = "redis")]
pub use self::redis_store::RedisStore;
#[cfg(feature = "redis")]
pub(crate) use self::redis_store::{connect, query};

#[cfg(feature = "redis")]
mod redis_store;

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
