//! Tasks in Redis, so that every replica behind one address serves every task.

use std::fmt;

use ::redis::aio::ConnectionManager;
use ::redis::{Cmd, Value as Reply};
use serde_json::{Map, Value};
use toolgroup_core::BoxFuture;

use super::{TaskRecord, TaskStore};
use crate::StoreError;
use crate::store::{connect, query};

/// The default bound on what one task keeps: its record, and its answers together.
const MAX_BYTES: usize = 4 << 20;

/// The record's length when it is over the bound (ARGV[1]), else the record (nil when there
/// is none). The bound is checked in Redis, so an oversized value never crosses the wire.
const GET: &str = "\
local n = redis.call('STRLEN', KEYS[1])
if n > tonumber(ARGV[1]) then return n end
return redis.call('GET', KEYS[1])";

/// Marks a task cancelled, with its record's expiry; nothing for a task that is not kept.
const CANCEL: &str = "\
local ttl = redis.call('PTTL', KEYS[1])
if ttl <= 0 then return 0 end
redis.call('SET', KEYS[2], '1', 'PX', ttl)
return 1";

/// Adds the answers (ARGV[2..], key then value) a task does not have yet, with its record's
/// expiry: -1, adding none, when they would take its answers over the bound (ARGV[1]); 0 for a
/// task that is not kept.
const ANSWER: &str = "\
local ttl = redis.call('PTTL', KEYS[1])
if ttl <= 0 then return 0 end
local total = 0
local kept = redis.call('HGETALL', KEYS[2])
for i = 1, #kept do total = total + #kept[i] end
for i = 2, #ARGV, 2 do
  if redis.call('HEXISTS', KEYS[2], ARGV[i]) == 0 then
    total = total + #ARGV[i] + #ARGV[i + 1]
  end
end
if total > tonumber(ARGV[1]) then return -1 end
for i = 2, #ARGV, 2 do redis.call('HSETNX', KEYS[2], ARGV[i], ARGV[i + 1]) end
redis.call('PEXPIRE', KEYS[2], ttl)
return 1";

/// The answers' total length when it is over the bound (ARGV[1]), else the answers, key then
/// value.
const ANSWERS: &str = "\
local all = redis.call('HGETALL', KEYS[1])
local total = 0
for i = 1, #all do total = total + #all[i] end
if total > tonumber(ARGV[1]) then return total end
return all";

/// A [`TaskStore`] in Redis, shared by every replica that connects to the same server: a task
/// started through one replica is found, cancelled and answered through any other (the Tasks
/// extension, SEP-2663).
///
/// A task `id` is three keys, each expiring when the task's record does
/// ([`TaskRecord::expires_at_ms`], by this replica's clock):
///
/// - `{prefix}{id}:record`: the record, as JSON (written whole by the replica that runs the
///   task: `SET` with `PX`);
/// - `{prefix}{id}:cancelled`: present once `tasks/cancel` asked the task to stop;
/// - `{prefix}{id}:answers`: a hash of the user's answers by input request key, the first
///   answer to a key kept (`HSETNX`).
///
/// The cancel flag and the answers are written only for a task whose record is kept (a Lua
/// script reads the record's expiry and writes in one step), so no key is left without an
/// expiry. A record, or a task's answers together, over 4 MiB unless set otherwise
/// ([`with_max_bytes`](Self::with_max_bytes)) is not written (an error), and one found over
/// it, not JSON or not a task record is an error that names the length of the id and
/// nothing of the value; a task whose result cannot be kept ends as failed.
///
/// It needs Redis 2.8 or later (or a server that speaks its protocol) with Lua scripting
/// (`EVAL`). Its connection is [`RedisStore`](crate::RedisStore)'s: it comes back by itself
/// when Redis does, and while Redis is unreachable or stalled a store call fails within about
/// 3 s (then `tools/call` of a task and `tasks/*` answer an internal error; a running task's
/// new state is lost, and its client sees it expire).
#[derive(Clone)]
#[cfg_attr(docsrs, doc(cfg(feature = "redis")))]
pub struct RedisTaskStore {
    connection: ConnectionManager,
    prefix: String,
    max_bytes: usize,
}

impl fmt::Debug for RedisTaskStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RedisTaskStore")
            .field("prefix", &self.prefix)
            .field("max_bytes", &self.max_bytes)
            .finish_non_exhaustive()
    }
}

impl RedisTaskStore {
    /// Connect to the Redis server at `url` (`redis://127.0.0.1:6379/`). Keys get the prefix
    /// `toolgroup:task:`.
    ///
    /// # Errors
    ///
    /// An invalid URL or a failed connection.
    pub async fn connect(url: &str) -> Result<Self, StoreError> {
        Ok(Self::from_connection(connect(url).await?))
    }

    /// Keep tasks through `connection` (say, one the application also uses). Its own waits
    /// and retries apply: [`connect`](Self::connect) bounds them as the type's docs say.
    pub fn from_connection(connection: ConnectionManager) -> Self {
        RedisTaskStore {
            connection,
            prefix: "toolgroup:task:".to_owned(),
            max_bytes: MAX_BYTES,
        }
    }

    /// Use another key prefix (to share one Redis between servers).
    #[must_use]
    pub fn with_prefix(mut self, prefix: impl Into<String>) -> Self {
        self.prefix = prefix.into();
        self
    }

    /// The most bytes one task keeps: its record as JSON (a finished task's record holds its
    /// result), and its answers (keys and JSON values) together. 4 MiB unless set.
    #[must_use]
    pub fn with_max_bytes(mut self, max_bytes: usize) -> Self {
        self.max_bytes = max_bytes;
        self
    }

    fn key(&self, id: &str, kind: &str) -> String {
        format!("{}{id}:{kind}", self.prefix)
    }

    fn script(&self, script: &str, keys: &[String]) -> Cmd {
        let mut cmd = ::redis::cmd("EVAL");
        cmd.arg(script).arg(keys.len()).arg(keys);
        cmd
    }

    async fn run<T: ::redis::FromRedisValue>(
        &self,
        what: &str,
        cmd: &Cmd,
    ) -> Result<T, StoreError> {
        query(&self.connection, cmd)
            .await
            .map_err(|e| StoreError::with_source(format!("Redis {what} failed: {e}"), e))
    }
}

/// What is kept under the task `id` cannot be read (corrupt, or over this store's bound); the
/// id is client input, so only its length is named, and nothing of the value.
fn unreadable(id: &str, problem: &str) -> StoreError {
    StoreError::new(format!(
        "the task store cannot read the task with an id of {} bytes: {problem}",
        id.len()
    ))
}

fn parse_record(id: &str, json: &[u8]) -> Result<TaskRecord, StoreError> {
    let record: TaskRecord = serde_json::from_slice(json).map_err(|e| {
        let problem = if e.is_data() {
            "its record is JSON but not a task record"
        } else {
            "its record is not JSON"
        };
        // The source is for the application's logs: serde's message may quote the value.
        StoreError::with_source(unreadable(id, problem).to_string(), e)
    })?;
    if record.id() != id {
        return Err(unreadable(id, "its record is another task's"));
    }
    Ok(record)
}

fn too_large(id: &str, what: &str, len: i64, max: usize) -> StoreError {
    unreadable(id, &format!("{what} {len} bytes, over the store's {max}"))
}

fn parse_answers(id: &str, items: Vec<Reply>) -> Result<Map<String, Value>, StoreError> {
    let mut answers = Map::new();
    let mut items = items.into_iter();
    while let (Some(key), Some(value)) = (items.next(), items.next()) {
        let (Reply::BulkString(key), Reply::BulkString(value)) = (key, value) else {
            return Err(unreadable(id, "its answers are not strings"));
        };
        let key =
            String::from_utf8(key).map_err(|_| unreadable(id, "an answer's key is not UTF-8"))?;
        let value =
            serde_json::from_slice(&value).map_err(|_| unreadable(id, "an answer is not JSON"))?;
        answers.insert(key, value);
    }
    Ok(answers)
}

impl TaskStore for RedisTaskStore {
    fn put<'a>(&'a self, record: &'a TaskRecord) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            let json = serde_json::to_string(record)
                .map_err(|e| StoreError::with_source("a task record is not JSON", e))?;
            if json.len() > self.max_bytes {
                return Err(StoreError::new(format!(
                    "a task record of {} bytes is over the store's {} bytes",
                    json.len(),
                    self.max_bytes
                )));
            }
            // Redis refuses a zero expiry; a record already past its expiry lives 1 ms.
            let px = record
                .expires_at_ms
                .saturating_sub(super::run::now_ms())
                .max(1);
            let mut cmd = ::redis::cmd("SET");
            cmd.arg(self.key(record.id(), "record"))
                .arg(json)
                .arg("PX")
                .arg(px);
            self.run::<()>("SET", &cmd).await
        })
    }

    fn get<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<TaskRecord>, StoreError>> {
        Box::pin(async move {
            let mut cmd = self.script(GET, &[self.key(id, "record")]);
            cmd.arg(self.max_bytes);
            match self.run::<Reply>("GET", &cmd).await? {
                Reply::Nil => Ok(None),
                Reply::BulkString(json) => parse_record(id, &json).map(Some),
                Reply::Int(len) => Err(too_large(id, "its record is", len, self.max_bytes)),
                _ => Err(unreadable(id, "its record is not a string")),
            }
        })
    }

    fn cancel<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            let cmd = self.script(CANCEL, &[self.key(id, "record"), self.key(id, "cancelled")]);
            self.run::<i64>("cancel", &cmd).await.map(drop)
        })
    }

    fn is_cancelled<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(async move {
            let mut cmd = ::redis::cmd("EXISTS");
            cmd.arg(self.key(id, "cancelled"));
            self.run::<i64>("EXISTS", &cmd).await.map(|n| n > 0)
        })
    }

    fn answer<'a>(
        &'a self,
        id: &'a str,
        responses: &'a Map<String, Value>,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            let mut cmd = self.script(ANSWER, &[self.key(id, "record"), self.key(id, "answers")]);
            cmd.arg(self.max_bytes);
            let mut len = 0usize;
            for (key, value) in responses {
                let value = value.to_string();
                len = len.saturating_add(key.len()).saturating_add(value.len());
                cmd.arg(key).arg(value);
            }
            let refused = || {
                StoreError::new(format!(
                    "the answers would take a task's answers over the store's {} bytes",
                    self.max_bytes
                ))
            };
            if len > self.max_bytes {
                return Err(refused());
            }
            match self.run::<i64>("answer", &cmd).await? {
                -1 => Err(refused()),
                _ => Ok(()),
            }
        })
    }

    fn answers<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Map<String, Value>, StoreError>> {
        Box::pin(async move {
            let mut cmd = self.script(ANSWERS, &[self.key(id, "answers")]);
            cmd.arg(self.max_bytes);
            match self.run::<Reply>("answers", &cmd).await? {
                Reply::Array(items) => parse_answers(id, items),
                Reply::Int(len) => Err(too_large(id, "its answers take", len, self.max_bytes)),
                _ => Err(unreadable(id, "its answers are not a hash")),
            }
        })
    }
}
