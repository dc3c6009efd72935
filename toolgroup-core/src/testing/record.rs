//! Record a run's tool calls as JSON lines, and replay them offline.

use std::collections::BTreeMap;
use std::fmt;
use std::io::Write;
use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};

use serde_json::{Map, Value, json};

use crate::args::ArgumentsBuf;
use crate::echo::echo;
use crate::middleware::{Around, BoxError, ToolFuture, ToolRequest, ToolResponse, layer_service};
use crate::result::CallResult;

use super::Source;

/// How much of a call's arguments a message shows.
const SHOWN: usize = 120;

/// A layer that writes each call it sees as one JSON line: the tool, the arguments, and the
/// result (as MCP's `CallToolResult`) or the error of an inner layer.
///
/// ```text
/// {"tool":"web_search","arguments":{"query":"rust"},"outcome":"ok","result":{"content":[...],"isError":false}}
/// ```
///
/// Arguments that are not JSON are kept as `"arguments_text"`. Lines are in the order the
/// calls reached the layer (a batch's calls in call order), whatever order they finished in;
/// a call whose future was dropped before it finished is not written. Add it last
/// ([`Toolkit::layer`](crate::Toolkit::layer)), so that it is outermost and records what the
/// model got. Like every layer it sees the calls the toolkit lets through: a call of an
/// unknown tool, of an inactive group, or one the policy denies is answered before the layers,
/// and answered the same way again on replay.
///
/// Writing errors do not fail calls: [`finish`](Self::finish) reports the first one.
#[derive(Clone)]
pub struct Recorder {
    state: Arc<Mutex<RecordState>>,
}

struct RecordState {
    sink: Box<dyn Write + Send>,
    /// The next call's position.
    next: u64,
    /// The first position not yet written.
    written: u64,
    /// Finished calls waiting for an earlier one (`None`: dropped, nothing to write).
    pending: BTreeMap<u64, Option<String>>,
    error: Option<std::io::Error>,
}

impl Recorder {
    /// Record to `sink` (a file, a `Vec<u8>` behind your own handle...).
    pub fn new(sink: impl Write + Send + 'static) -> Self {
        Recorder {
            state: Arc::new(Mutex::new(RecordState {
                sink: Box::new(sink),
                next: 0,
                written: 0,
                pending: BTreeMap::new(),
                error: None,
            })),
        }
    }

    /// Record to the file at `path`, created or truncated.
    ///
    /// # Errors
    ///
    /// The file cannot be created.
    pub fn create(path: impl AsRef<Path>) -> std::io::Result<Self> {
        let file = std::fs::File::create(path)?;
        Ok(Recorder::new(std::io::BufWriter::new(file)))
    }

    /// Flush what was recorded.
    ///
    /// # Errors
    ///
    /// The first error writing a line, or the error flushing.
    pub fn finish(&self) -> std::io::Result<()> {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(error) = state.error.take() {
            return Err(error);
        }
        state.sink.flush()
    }

    fn fill(&self, position: u64, line: Option<String>) {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        state.pending.insert(position, line);
        loop {
            let written = state.written;
            let Some(line) = state.pending.remove(&written) else {
                break;
            };
            state.written += 1;
            if let Some(line) = line
                && state.error.is_none()
                && let Err(e) = writeln!(state.sink, "{line}")
            {
                state.error = Some(e);
            }
        }
    }
}

impl fmt::Debug for Recorder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Recorder").finish_non_exhaustive()
    }
}

/// A call on its way through the recorder: writes nothing for its position if dropped.
struct Slot {
    recorder: Recorder,
    position: u64,
    done: bool,
}

impl Drop for Slot {
    fn drop(&mut self) {
        if !self.done {
            self.recorder.fill(self.position, None);
        }
    }
}

layer_service!(
    /// The service of [`Recorder`]: the inner service, each call written down.
    Recording,
    Recorder
);

impl Around for Recorder {
    fn around(
        &self,
        request: ToolRequest,
        next: &mut dyn FnMut(ToolRequest) -> ToolFuture,
    ) -> ToolFuture {
        let position = {
            let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
            state.next += 1;
            state.next - 1
        };
        let mut slot = Slot {
            recorder: self.clone(),
            position,
            done: false,
        };
        let mut line = Map::new();
        line.insert("tool".to_owned(), Value::from(request.tool));
        match parsed(&request.arguments) {
            Ok(value) => line.insert("arguments".to_owned(), value),
            Err(text) => line.insert("arguments_text".to_owned(), Value::from(text)),
        };
        let future = next(request);
        Box::pin(async move {
            let response = future.await;
            match &response {
                Ok(response) => {
                    line.insert(
                        "outcome".to_owned(),
                        Value::from(response.result.outcome().as_str()),
                    );
                    line.insert("result".to_owned(), json!(response.result));
                }
                Err(error) => {
                    line.insert("layer_error".to_owned(), Value::from(error.to_string()));
                }
            }
            slot.done = true;
            slot.recorder
                .fill(position, Some(Value::Object(line).to_string()));
            response
        })
    }
}

/// Arguments as a JSON value (empty text is `{}`, as the toolkit reads it), or the text
/// that is not JSON.
fn parsed(arguments: &ArgumentsBuf) -> Result<Value, String> {
    match arguments {
        ArgumentsBuf::Value(value) => Ok(value.clone()),
        ArgumentsBuf::Text(text) if text.trim().is_empty() => Ok(Value::Object(Map::new())),
        ArgumentsBuf::Text(text) => serde_json::from_str(text).map_err(|_| text.clone()),
    }
}

fn shown(arguments: &Result<Value, String>) -> String {
    match arguments {
        Ok(value) => echo(&value.to_string(), SHOWN),
        Err(text) => format!("the text `{}` (not JSON)", echo(text, SHOWN)),
    }
}

/// One recorded call.
struct Record {
    line: usize,
    tool: String,
    arguments: Result<Value, String>,
    answer: Result<CallResult, String>,
}

/// A layer that answers each call from a recording (what [`Recorder`] wrote), in order,
/// without running any tool; the first call whose tool or arguments differ from the
/// recording's next one ends the replay.
///
/// Calls that change the session (`reset_tools`, `Skill`) are checked the same way and then
/// run, since their effect is the toolkit's own state (they run no tool of yours). Arguments
/// are compared as JSON values (key order and spacing do not matter).
///
/// A divergent call, and every call after it, gets an error result naming the divergence;
/// [`finish`](Self::finish) returns it, or says which recorded calls were never made. Add it
/// where the recorder was (last, outermost).
#[derive(Clone)]
pub struct Replayer {
    state: Arc<Mutex<ReplayState>>,
}

struct ReplayState {
    records: Vec<Record>,
    next: usize,
    divergence: Option<Divergence>,
}

impl Replayer {
    /// Replay the recording at `path`.
    ///
    /// # Errors
    ///
    /// The file cannot be read, or a line is not a recorded call ([`RecordingError`]).
    pub fn open(path: impl AsRef<Path>) -> Result<Self, RecordingError> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|e| RecordingError {
            line: None,
            message: format!("cannot read the recording {}: {e}", path.display()),
            source: Some(Arc::new(e)),
        })?;
        Replayer::from_jsonl(&text)
    }

    /// Replay a recording held in memory. Blank lines are skipped.
    ///
    /// # Errors
    ///
    /// The first line that is not a recorded call, with its number.
    pub fn from_jsonl(text: &str) -> Result<Self, RecordingError> {
        let mut records = Vec::new();
        for (index, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let record =
                parse_record(line, index + 1).map_err(|(message, source)| RecordingError {
                    line: Some(index + 1),
                    message,
                    source,
                })?;
            records.push(record);
        }
        Ok(Replayer {
            state: Arc::new(Mutex::new(ReplayState {
                records,
                next: 0,
                divergence: None,
            })),
        })
    }

    /// The recorded calls not yet replayed.
    pub fn remaining(&self) -> usize {
        let state = self.lock();
        state.records.len() - state.next
    }

    /// The divergence that ended the replay, if any.
    pub fn divergence(&self) -> Option<Divergence> {
        self.lock().divergence.clone()
    }

    /// Whether the run made exactly the recorded calls.
    ///
    /// # Errors
    ///
    /// The first divergence, or the first recorded call the run did not make.
    pub fn finish(&self) -> Result<(), Divergence> {
        let state = self.lock();
        if let Some(divergence) = &state.divergence {
            return Err(divergence.clone());
        }
        match state.records.get(state.next) {
            Some(record) => Err(Divergence {
                call: state.next + 1,
                kind: DivergenceKind::Missing {
                    line: record.line,
                    tool: echo(&record.tool, 64),
                    left: state.records.len() - state.next,
                },
            }),
            None => Ok(()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, ReplayState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The recorded answer for `request`, or the divergence.
    fn answer(&self, request: &ToolRequest) -> Result<Result<CallResult, String>, Divergence> {
        let mut state = self.lock();
        if let Some(divergence) = &state.divergence {
            return Err(divergence.clone());
        }
        let call = state.next + 1;
        let arguments = parsed(&request.arguments);
        let got = format!("`{}` with {}", echo(request.tool, 64), shown(&arguments));
        let kind = match state.records.get(state.next) {
            None => DivergenceKind::Extra {
                recorded: state.records.len(),
                got,
            },
            Some(record) if record.tool != request.tool || record.arguments != arguments => {
                DivergenceKind::Differs {
                    line: record.line,
                    expected: format!(
                        "`{}` with {}",
                        echo(&record.tool, 64),
                        shown(&record.arguments)
                    ),
                    got,
                }
            }
            Some(record) => {
                let answer = record.answer.clone();
                state.next += 1;
                return Ok(answer);
            }
        };
        let divergence = Divergence { call, kind };
        state.divergence = Some(divergence.clone());
        Err(divergence)
    }
}

impl fmt::Debug for Replayer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let state = self.lock();
        f.debug_struct("Replayer")
            .field("records", &state.records.len())
            .field("next", &state.next)
            .finish_non_exhaustive()
    }
}

layer_service!(
    /// The service of [`Replayer`]: recorded answers, the inner service only for calls that
    /// change the session.
    Replaying,
    Replayer
);

impl Around for Replayer {
    fn around(
        &self,
        request: ToolRequest,
        next: &mut dyn FnMut(ToolRequest) -> ToolFuture,
    ) -> ToolFuture {
        let answer = match self.answer(&request) {
            Ok(answer) => answer,
            Err(divergence) => {
                let error: BoxError = Box::new(divergence);
                return Box::pin(async move { Err(error) });
            }
        };
        if request.changes_session() {
            return next(request);
        }
        Box::pin(async move {
            match answer {
                Ok(result) => Ok(ToolResponse::new(result)),
                Err(layer_error) => Err(BoxError::from(layer_error)),
            }
        })
    }
}

/// What is wrong with a line, and the error behind it when there is one.
type Problem = (String, Option<Source>);

fn plain(message: &str) -> Problem {
    (message.to_owned(), None)
}

fn parse_record(line: &str, number: usize) -> Result<Record, Problem> {
    // serde_json's syntax errors name a position, never the text.
    let value: Value = serde_json::from_str(line)
        .map_err(|e| (format!("not JSON ({e})"), Some(Arc::new(e) as Source)))?;
    let Value::Object(mut map) = value else {
        return Err(plain(
            "not a JSON object (a recorded call is {\"tool\": ..., \"arguments\": ..., \"result\": ...})",
        ));
    };
    let tool = match map.remove("tool") {
        Some(Value::String(tool)) => tool,
        _ => return Err(plain("missing \"tool\" (a string)")),
    };
    let arguments = match (map.remove("arguments"), map.remove("arguments_text")) {
        (Some(value), None) => Ok(value),
        (None, Some(Value::String(text))) => Err(text),
        _ => {
            return Err(plain(
                "expected one of \"arguments\" (a JSON value) and \"arguments_text\" (a string)",
            ));
        }
    };
    let answer = match (map.remove("result"), map.remove("layer_error")) {
        // The decoder's message may quote the result, which can be long: the source keeps it
        // for the application, the message stays short.
        (Some(result), None) => Ok(serde_json::from_value::<CallResult>(result).map_err(|e| {
            (
                "\"result\" is not a tool result ({\"content\": [...], \"isError\": ...})"
                    .to_owned(),
                Some(Arc::new(e) as Source),
            )
        })?),
        (None, Some(Value::String(error))) => Err(error),
        _ => {
            return Err(plain(
                "expected one of \"result\" (a tool result) and \"layer_error\" (a string)",
            ));
        }
    };
    Ok(Record {
        line: number,
        tool,
        arguments,
        answer,
    })
}

/// A recording that cannot be read. Its [`source`](std::error::Error::source) is the I/O or
/// JSON error behind it, when there is one.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct RecordingError {
    /// The line (from 1), when a line is at fault.
    pub line: Option<usize>,
    /// What is wrong.
    pub message: String,
    source: Option<Source>,
}

/// Equal when the line and the message are; the source (an I/O or JSON error, neither
/// comparable) is left out.
impl PartialEq for RecordingError {
    fn eq(&self, other: &Self) -> bool {
        self.line == other.line && self.message == other.message
    }
}

impl Eq for RecordingError {}

impl fmt::Display for RecordingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "recording line {line}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for RecordingError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source.as_deref().map(|e| e as _)
    }
}

/// Where a replayed run left its recording.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Divergence {
    /// The call (from 1) at which it happened.
    pub call: usize,
    /// What happened.
    pub kind: DivergenceKind,
}

/// What a [`Divergence`] is.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum DivergenceKind {
    /// The call's tool or arguments differ from the recording's.
    Differs {
        /// The recording's line.
        line: usize,
        /// The recorded call (tool and arguments, escaped and capped).
        expected: String,
        /// The call made (the same).
        got: String,
    },
    /// The run made more calls than were recorded.
    Extra {
        /// How many were recorded.
        recorded: usize,
        /// The call made.
        got: String,
    },
    /// The run ended before making every recorded call.
    Missing {
        /// The recording's line of the first call not made.
        line: usize,
        /// Its tool.
        tool: String,
        /// How many were not made.
        left: usize,
    },
}

impl fmt::Display for Divergence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let call = self.call;
        match &self.kind {
            DivergenceKind::Differs {
                line,
                expected,
                got,
            } => write!(
                f,
                "the replay diverged at call {call}: the recording (line {line}) has {expected}, and the run called {got}"
            ),
            DivergenceKind::Extra { recorded, got } => write!(
                f,
                "the replay diverged at call {call}: the recording has {recorded} calls, and the run made another: {got}"
            ),
            DivergenceKind::Missing { line, tool, left } => write!(
                f,
                "the run stopped after {} calls, and the recording has {left} more, from `{tool}` (line {line})",
                call - 1
            ),
        }
    }
}

impl std::error::Error for Divergence {}
