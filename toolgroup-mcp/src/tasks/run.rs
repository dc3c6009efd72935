//! Running a call as a task: its record, its status as it runs, its end, and the user input
//! it waits for (its `input_required` status, answered by `tasks/update`).

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rmcp::model::{
    DetailedTask, ElicitRequest, ElicitResult, ErrorData, InputRequest, InputRequests, JsonObject,
    Task, TaskPayload, TaskStatus,
};
use rmcp::task_manager::current_timestamp;
use serde_json::Value;
use tokio_util::sync::CancellationToken;
use toolgroup_core::BoxFuture;
use toolgroup_core::context::{Answer, AskError, Asker, Question};

use super::{MemoryTaskStore, TaskRecord, TaskStore};
use crate::random::new_id;

/// Milliseconds since the Unix epoch.
pub(crate) fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

fn ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// The longest task id this server issues or looks up (ids are 32 hex digits).
pub(crate) const MAX_ID: usize = 64;

/// A server's tasks: where they are kept, how long, and the ones this process runs.
pub(crate) struct Tasks {
    pub(crate) store: Arc<dyn TaskStore>,
    /// How long a task may run, and how long its end is kept after.
    pub(crate) ttl: Duration,
    /// How often clients are asked to poll, and the running task reads its cancellation
    /// and answers from the store.
    pub(crate) poll: Duration,
    running: Mutex<HashMap<String, CancellationToken>>,
}

impl Default for Tasks {
    fn default() -> Self {
        Tasks {
            store: Arc::new(MemoryTaskStore::new()),
            ttl: Duration::from_secs(3600),
            poll: Duration::from_secs(1),
            running: Mutex::new(HashMap::new()),
        }
    }
}

impl Tasks {
    pub(crate) fn with_store(store: Arc<dyn TaskStore>, ttl: Duration, poll: Duration) -> Self {
        Tasks {
            store,
            ttl,
            poll,
            running: Mutex::new(HashMap::new()),
        }
    }

    fn base(&self, id: &str) -> Task {
        let now = current_timestamp();
        Task::new(id, TaskStatus::Working, now.clone(), now)
            .with_ttl_ms(ms(self.ttl))
            .with_poll_interval_ms(ms(self.poll))
    }

    /// Keep a new working task of `owner`, and the token that stops it here.
    pub(crate) async fn create(
        &self,
        owner: &str,
    ) -> Result<(TaskRecord, CancellationToken), crate::StoreError> {
        let id = new_id();
        let record = TaskRecord {
            owner: owner.to_owned(),
            task: DetailedTask::new(self.base(&id), TaskPayload::Working),
            expires_at_ms: now_ms().saturating_add(ms(self.ttl).saturating_mul(2)),
        };
        self.store.put(&record).await?;
        let token = CancellationToken::new();
        self.running
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id, token.clone());
        Ok((record, token))
    }

    /// The task `id` of `owner`; another owner's is unknown, as is an expired one.
    pub(crate) async fn find(&self, id: &str, owner: &str) -> Result<TaskRecord, ErrorData> {
        if id.len() > MAX_ID {
            return Err(unknown());
        }
        match self.store.get(id).await {
            Ok(Some(record)) if record.owner == owner => Ok(self.overdue(record)),
            Ok(_) => Err(unknown()),
            Err(e) => Err(ErrorData::internal_error(
                format!("the task store failed: {e}"),
                None,
            )),
        }
    }

    /// A task still running past its TTL is reported failed (its replica may have ended).
    fn overdue(&self, mut record: TaskRecord) -> TaskRecord {
        // The TTL the task was created with: the replica that created it may have another.
        let ttl = record.task.task.ttl_ms.unwrap_or(ms(self.ttl));
        let created = record.expires_at_ms.saturating_sub(ttl.saturating_mul(2));
        if !record.task.status().is_terminal() && now_ms() > created.saturating_add(ttl) {
            record.task = DetailedTask::new(
                record.task.task.clone(),
                TaskPayload::Failed {
                    error: error_object(&expired()),
                },
            );
        }
        record
    }

    /// Stop the task `id` if this process runs it.
    pub(crate) fn stop_here(&self, id: &str) {
        if let Some(token) = self
            .running
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(id)
        {
            token.cancel();
        }
    }

    pub(crate) fn finished(&self, id: &str) {
        self.running
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(id);
    }

    /// Write the task's new state, keeping its times and settings.
    pub(crate) async fn set(
        &self,
        record: &mut TaskRecord,
        payload: TaskPayload,
        message: Option<String>,
    ) {
        let mut task = record.task.task.clone();
        task.last_updated_at = current_timestamp();
        if message.is_some() {
            task.status_message = message;
        }
        record.task = DetailedTask::new(task, payload);
        // A store that went away loses this state: the client sees the task expire.
        if let Err(e) = self.store.put(record).await {
            tracing::warn!(task = record.id(), error = %e, "could not keep a task's state");
            // A result the store refuses (over its size bound, say) ends the task as failed,
            // rather than leaving it working until it expires.
            if matches!(record.task.payload, TaskPayload::Completed { .. }) {
                let error = ErrorData::internal_error(
                    format!("the task's result could not be kept: {e}"),
                    None,
                );
                record.task = DetailedTask::new(
                    record.task.task.clone(),
                    TaskPayload::Failed {
                        error: error_object(&error),
                    },
                );
                if let Err(e) = self.store.put(record).await {
                    tracing::warn!(task = record.id(), error = %e, "could not keep a task's state");
                }
            }
        }
    }

    /// Whether the task was asked to stop from any replica.
    pub(crate) async fn cancel_requested(&self, id: &str) -> bool {
        self.store.is_cancelled(id).await.unwrap_or(false)
    }
}

/// `-32602` for a task this caller cannot see: unknown, expired, another's. The id is not
/// repeated.
pub(crate) fn unknown() -> ErrorData {
    ErrorData::invalid_params(
        "unknown task: no task of this caller has this id (it may have expired)",
        None,
    )
}

fn expired() -> ErrorData {
    ErrorData::internal_error(
        "the task expired: its time to live elapsed before it ended",
        None,
    )
}

pub(crate) fn error_object(error: &ErrorData) -> JsonObject {
    match serde_json::to_value(error) {
        Ok(Value::Object(o)) => o,
        _ => JsonObject::new(),
    }
}

/// Asks the user of a task through its `input_required` status; the answers come with
/// `tasks/update`, read from the store at the poll interval.
pub(crate) struct TaskAsker {
    pub(crate) tasks: Arc<Tasks>,
    pub(crate) record: Arc<tokio::sync::Mutex<TaskRecord>>,
    pub(crate) asked: AtomicUsize,
    /// The answers of the input requests before the task (the approval), by key.
    pub(crate) answered: std::collections::BTreeMap<String, Value>,
}

impl Asker for TaskAsker {
    fn ask<'a>(&'a self, question: &'a Question) -> BoxFuture<'a, Result<Answer, AskError>> {
        Box::pin(async move {
            let key = format!("q{}", self.asked.fetch_add(1, Ordering::Relaxed) + 1);
            if let Some(raw) = self.answered.get(&key) {
                return answer(raw, &key, question);
            }
            let params = crate::input::elicit_params(question)?;
            let request = InputRequest::Elicitation(ElicitRequest::new(params));
            let id = {
                // Beside the questions already waiting: each is answered on its own.
                let mut record = self.record.lock().await;
                let mut requests = waiting(&record);
                requests.insert(key.clone(), request);
                let payload = TaskPayload::InputRequired {
                    input_requests: requests,
                };
                self.tasks.set(&mut record, payload, None).await;
                record.id().to_owned()
            };
            loop {
                tokio::time::sleep(self.tasks.poll.min(Duration::from_millis(200))).await;
                let answers = self.tasks.store.answers(&id).await.unwrap_or_default();
                let Some(raw) = answers.get(&key) else {
                    continue;
                };
                let mut record = self.record.lock().await;
                let mut requests = waiting(&record);
                requests.remove(&key);
                let payload = if requests.is_empty() {
                    TaskPayload::Working
                } else {
                    TaskPayload::InputRequired {
                        input_requests: requests,
                    }
                };
                self.tasks.set(&mut record, payload, None).await;
                drop(record);
                return answer(raw, &key, question);
            }
        })
    }
}

/// The answer an elicitation result the client sent under `key` gives to `question`.
fn answer(raw: &Value, key: &str, question: &Question) -> Result<Answer, AskError> {
    // serde's message could quote the value: the error names the key (one of ours).
    let result: ElicitResult = serde_json::from_value(raw.clone()).map_err(|_| {
        AskError::Failed(format!(
            "the client's answer `{key}` is not an elicitation result"
        ))
    })?;
    crate::input::answer_of(&result, question)
}

/// The questions the task is waiting on.
fn waiting(record: &TaskRecord) -> InputRequests {
    match &record.task.payload {
        TaskPayload::InputRequired { input_requests } => input_requests.clone(),
        _ => InputRequests::new(),
    }
}
