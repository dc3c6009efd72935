//! The script a [`ScriptedModel`](super::ScriptedModel) plays: its turns, built in code or
//! read from JSON lines.

use std::fmt;
use std::sync::Arc;

use serde_json::{Map, Value};

use crate::args::ArgumentsBuf;
use crate::echo::echo;
use crate::toolkit::ToolCall;

use super::Source;

/// One turn of the scripted model: the tool calls of one assistant message, or its text.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ScriptTurn {
    /// An assistant message with these tool calls (run as one batch, as a model's parallel
    /// calls are). Call ids are given when the turn is played.
    Calls(Vec<ToolCall>),
    /// An assistant message of text, without tool calls.
    Text(String),
}

/// What a [`ScriptedModel`](super::ScriptedModel) answers, turn by turn.
///
/// Build it in code ([`call`](Self::call), [`calls`](Self::calls), [`text`](Self::text)) or
/// read it from JSON lines ([`from_jsonl`](Self::from_jsonl)).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Script {
    turns: Vec<ScriptTurn>,
}

impl Script {
    /// An empty script.
    pub fn new() -> Self {
        Script::default()
    }

    /// Add a turn with one call of `tool`. `arguments` is a JSON value, or a string taken as
    /// the raw argument text a provider would send (possibly malformed JSON).
    #[must_use]
    pub fn call(self, tool: &str, arguments: impl Into<ArgumentsBuf>) -> Self {
        self.calls([(tool, arguments.into())])
    }

    /// Add a turn with several calls, run as one batch.
    #[must_use]
    pub fn calls<'a, A: Into<ArgumentsBuf>>(
        mut self,
        calls: impl IntoIterator<Item = (&'a str, A)>,
    ) -> Self {
        let calls = calls
            .into_iter()
            .map(|(tool, arguments)| ToolCall::new(tool, arguments))
            .collect();
        self.turns.push(ScriptTurn::Calls(calls));
        self
    }

    /// Add a turn of text (the model's answer, without tool calls).
    #[must_use]
    pub fn text(mut self, text: impl Into<String>) -> Self {
        self.turns.push(ScriptTurn::Text(text.into()));
        self
    }

    /// The turns, in order.
    pub fn turns(&self) -> &[ScriptTurn] {
        &self.turns
    }

    /// Read a script of JSON lines, one turn per line: the format of the quickstart
    /// example's `--script` mode, extended.
    ///
    /// | line | turn |
    /// |---|---|
    /// | `{"name": "web_search", "arguments": {"query": "rust"}}` | one call; `arguments` is a JSON value, or a string of raw argument text; missing, it is `{}` |
    /// | `{"calls": [{"name": ..., "arguments": ...}, ...]}` | several calls in one turn |
    /// | `{"text": "..."}` | a text answer |
    ///
    /// Blank lines and lines starting with `#` are skipped.
    ///
    /// # Errors
    ///
    /// The first line that is not one of these, with its number ([`ScriptError`]).
    pub fn from_jsonl(text: &str) -> Result<Self, ScriptError> {
        let mut turns = Vec::new();
        for (index, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let error = |message, source| ScriptError {
                line: index + 1,
                message,
                source,
            };
            // serde_json's message names a position, never the text.
            let value: Value = serde_json::from_str(line)
                .map_err(|e| error(format!("not JSON ({e})"), Some(Arc::new(e) as Source)))?;
            let turn = parse_turn(value).map_err(|message| error(message, None))?;
            turns.push(turn);
        }
        Ok(Script { turns })
    }
}

/// A line of a script that is not a turn. Its [`source`](std::error::Error::source) is the
/// JSON error, for a line that is not JSON.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ScriptError {
    /// The line's number (from 1).
    pub line: usize,
    /// What is wrong with it.
    pub message: String,
    source: Option<Source>,
}

/// Equal when the line and the message are; the source (a JSON error, not comparable) is
/// left out.
impl PartialEq for ScriptError {
    fn eq(&self, other: &Self) -> bool {
        self.line == other.line && self.message == other.message
    }
}

impl Eq for ScriptError {}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "script line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for ScriptError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source.as_deref().map(|e| e as _)
    }
}

const SHAPES: &str =
    "a line is {\"name\": ..., \"arguments\": ...}, {\"calls\": [...]} or {\"text\": ...}";

fn parse_turn(value: Value) -> Result<ScriptTurn, String> {
    let Value::Object(mut map) = value else {
        return Err(format!("not a JSON object; {SHAPES}"));
    };
    if let Some(text) = map.remove("text") {
        let Value::String(text) = text else {
            return Err("\"text\" must be a string".to_owned());
        };
        no_other_key(&map, "a text line has only \"text\"")?;
        return Ok(ScriptTurn::Text(text));
    }
    if let Some(calls) = map.remove("calls") {
        let Value::Array(calls) = calls else {
            return Err(
                "\"calls\" must be a list of {\"name\": ..., \"arguments\": ...}".to_owned(),
            );
        };
        no_other_key(&map, "a line of several calls has only \"calls\"")?;
        let calls = calls
            .into_iter()
            .enumerate()
            .map(|(i, call)| match call {
                Value::Object(map) => parse_call(map).map_err(|e| format!("calls[{i}]: {e}")),
                _ => Err(format!("calls[{i}]: not a JSON object")),
            })
            .collect::<Result<Vec<_>, _>>()?;
        if calls.is_empty() {
            return Err(
                "\"calls\" is empty; a turn without calls is a {\"text\": ...} line".to_owned(),
            );
        }
        return Ok(ScriptTurn::Calls(calls));
    }
    if !map.contains_key("name") {
        return Err(format!("missing \"name\" (a string); {SHAPES}"));
    }
    Ok(ScriptTurn::Calls(vec![parse_call(map)?]))
}

fn parse_call(mut map: Map<String, Value>) -> Result<ToolCall, String> {
    let name = match map.remove("name") {
        Some(Value::String(name)) => name,
        _ => return Err("missing \"name\" (a string)".to_owned()),
    };
    let arguments = match map.remove("arguments") {
        None => ArgumentsBuf::Text("{}".to_owned()),
        Some(Value::String(raw)) => ArgumentsBuf::Text(raw),
        Some(value) => ArgumentsBuf::Value(value),
    };
    no_other_key(&map, "a call has \"name\" and \"arguments\"")?;
    Ok(ToolCall::new(name, arguments))
}

fn no_other_key(map: &Map<String, Value>, rule: &str) -> Result<(), String> {
    match map.keys().next() {
        Some(key) => Err(format!("unexpected key \"{}\" ({rule})", echo(key, 64))),
        None => Ok(()),
    }
}
