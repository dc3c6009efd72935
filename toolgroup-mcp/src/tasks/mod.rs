//! Long-running calls as tasks: the MCP Tasks extension, `io.modelcontextprotocol/tasks`
//! (SEP-2663, Final, as rmcp 3.11 implements its types), and where tasks are kept.
//!
//! A tool declared `#[tool(task = "optional")]` or `"required"` may run as a task. When a
//! 2026-07-28 request declares the extension (in its `_meta` client capabilities), the server
//! answers its `tools/call` with a task (`resultType: "task"`) once the task is durably kept,
//! runs the tool detached, and answers `tasks/get` (the status, the status message the tool's
//! progress reports become, the input it waits for, and at the end its result), `tasks/update`
//! (the user's answers) and `tasks/cancel`. A request that did not declare the extension gets
//! a plain result from an `optional` tool, and `-32021` (the missing capability) from a
//! `required` one. The extension defines no per-tool field (it removed 2025-11-25's
//! `execution.taskSupport`): the declaration decides what the server does, and the server is
//! the sole decider, as the SEP says.
//!
//! Tasks are kept in a [`TaskStore`]: [`MemoryTaskStore`] by default, one per server; with the
//! `redis` feature, `RedisTaskStore` shares them between the replicas behind one address.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex};

use rmcp::model::DetailedTask;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use toolgroup_core::BoxFuture;

use crate::StoreError;

#[cfg(feature = "redis")]
mod redis;
pub(crate) mod run;

#[cfg(feature = "redis")]
pub use self::redis::RedisTaskStore;

/// One task as a [`TaskStore`] keeps it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct TaskRecord {
    /// Who may see and cancel it: the principal's subject, else the request's key
    /// (`McpServer::with_key`), else the protocol session, else the connection; empty for a
    /// stateless request with none of them (never shown to clients).
    pub owner: String,
    /// The task as `tasks/get` answers it.
    pub task: DetailedTask,
    /// When the store may forget it, in milliseconds since the Unix epoch.
    pub expires_at_ms: u64,
}

impl TaskRecord {
    /// The task's id.
    pub fn id(&self) -> &str {
        &self.task.task.task_id
    }
}

/// Where a server keeps its tasks, so that `tasks/get`, `tasks/update` and `tasks/cancel`
/// find them wherever they are served. The replica that runs a task writes its record; any
/// replica may mark it cancelled or add the user's answers, kept apart from the record so
/// that neither overwrites the other.
pub trait TaskStore: Send + Sync + 'static {
    /// Keep `record`, replacing the one of the same id.
    fn put<'a>(&'a self, record: &'a TaskRecord) -> BoxFuture<'a, Result<(), StoreError>>;
    /// The record of the task `id`, if the store has one.
    fn get<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<TaskRecord>, StoreError>>;
    /// Mark the task `id` as asked to stop (`tasks/cancel`).
    fn cancel<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<(), StoreError>>;
    /// Whether the task `id` was asked to stop.
    fn is_cancelled<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<bool, StoreError>>;
    /// Add the user's answers for the task `id` (`tasks/update`), by input request key.
    fn answer<'a>(
        &'a self,
        id: &'a str,
        responses: &'a Map<String, Value>,
    ) -> BoxFuture<'a, Result<(), StoreError>>;
    /// The answers for the task `id` so far.
    fn answers<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Map<String, Value>, StoreError>>;
}

/// A shared store: several servers (replicas in one process, tests) can use one store.
impl<S: TaskStore + ?Sized> TaskStore for Arc<S> {
    fn put<'a>(&'a self, record: &'a TaskRecord) -> BoxFuture<'a, Result<(), StoreError>> {
        (**self).put(record)
    }

    fn get<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<TaskRecord>, StoreError>> {
        (**self).get(id)
    }

    fn cancel<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<(), StoreError>> {
        (**self).cancel(id)
    }

    fn is_cancelled<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<bool, StoreError>> {
        (**self).is_cancelled(id)
    }

    fn answer<'a>(
        &'a self,
        id: &'a str,
        responses: &'a Map<String, Value>,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        (**self).answer(id, responses)
    }

    fn answers<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Map<String, Value>, StoreError>> {
        (**self).answers(id)
    }
}

/// A store chosen at run time (`Box<dyn TaskStore>`: memory or Redis, from configuration).
impl<S: TaskStore + ?Sized> TaskStore for Box<S> {
    fn put<'a>(&'a self, record: &'a TaskRecord) -> BoxFuture<'a, Result<(), StoreError>> {
        (**self).put(record)
    }

    fn get<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<TaskRecord>, StoreError>> {
        (**self).get(id)
    }

    fn cancel<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<(), StoreError>> {
        (**self).cancel(id)
    }

    fn is_cancelled<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<bool, StoreError>> {
        (**self).is_cancelled(id)
    }

    fn answer<'a>(
        &'a self,
        id: &'a str,
        responses: &'a Map<String, Value>,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        (**self).answer(id, responses)
    }

    fn answers<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Map<String, Value>, StoreError>> {
        (**self).answers(id)
    }
}

#[derive(Default)]
struct Entry {
    record: Option<TaskRecord>,
    cancelled: bool,
    answers: Map<String, Value>,
}

/// Tasks in this process's memory: a server's default. Tasks end with the process, and a
/// replica cannot see another's.
#[derive(Default)]
pub struct MemoryTaskStore {
    entries: Mutex<HashMap<String, Entry>>,
}

impl fmt::Debug for MemoryTaskStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MemoryTaskStore").finish_non_exhaustive()
    }
}

impl MemoryTaskStore {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    fn with<T>(&self, f: impl FnOnce(&mut HashMap<String, Entry>) -> T) -> T {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        let now = run::now_ms();
        entries.retain(|_, e| e.record.as_ref().is_none_or(|r| r.expires_at_ms > now));
        f(&mut entries)
    }
}

impl TaskStore for MemoryTaskStore {
    fn put<'a>(&'a self, record: &'a TaskRecord) -> BoxFuture<'a, Result<(), StoreError>> {
        self.with(|entries| {
            entries.entry(record.id().to_owned()).or_default().record = Some(record.clone());
        });
        Box::pin(async { Ok(()) })
    }

    fn get<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<TaskRecord>, StoreError>> {
        let record = self.with(|entries| entries.get(id).and_then(|e| e.record.clone()));
        Box::pin(async move { Ok(record) })
    }

    fn cancel<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<(), StoreError>> {
        self.with(|entries| {
            if let Some(entry) = entries.get_mut(id) {
                entry.cancelled = true;
            }
        });
        Box::pin(async { Ok(()) })
    }

    fn is_cancelled<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<bool, StoreError>> {
        let cancelled = self.with(|entries| entries.get(id).is_some_and(|e| e.cancelled));
        Box::pin(async move { Ok(cancelled) })
    }

    fn answer<'a>(
        &'a self,
        id: &'a str,
        responses: &'a Map<String, Value>,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        self.with(|entries| {
            if let Some(entry) = entries.get_mut(id) {
                for (key, value) in responses {
                    entry
                        .answers
                        .entry(key.clone())
                        .or_insert_with(|| value.clone());
                }
            }
        });
        Box::pin(async { Ok(()) })
    }

    fn answers<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Map<String, Value>, StoreError>> {
        let answers = self.with(|entries| {
            entries
                .get(id)
                .map(|e| e.answers.clone())
                .unwrap_or_default()
        });
        Box::pin(async move { Ok(answers) })
    }
}

impl<R: toolgroup_core::Registry> crate::McpServer<R> {
    /// Keep tasks in `store` instead of this process's memory (say, Redis, shared by the
    /// replicas behind one address, so `tasks/get` finds a task whichever replica it
    /// reaches).
    #[must_use]
    pub fn with_task_store(mut self, store: impl TaskStore) -> Self {
        let (ttl, poll) = (self.shared.tasks.ttl, self.shared.tasks.poll);
        self.shared_mut().tasks = std::sync::Arc::new(run::Tasks::with_store(
            std::sync::Arc::new(store),
            ttl,
            poll,
        ));
        self
    }

    /// How long a task may run (it fails as expired after) and how long its end is kept;
    /// one hour unless set. Clients are told it as the task's `ttlMs`.
    #[must_use]
    pub fn with_task_ttl(mut self, ttl: std::time::Duration) -> Self {
        let (store, poll) = (self.shared.tasks.store.clone(), self.shared.tasks.poll);
        self.shared_mut().tasks = std::sync::Arc::new(run::Tasks::with_store(store, ttl, poll));
        self
    }
}
