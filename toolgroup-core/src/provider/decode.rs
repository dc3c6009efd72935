//! Errors of decoding provider payloads, and the helpers that walk them.

use std::fmt;

use serde_json::{Map, Value};

use crate::args::{ArgumentsBuf, json_kind};
use crate::echo::echo;
use crate::toolkit::ToolCall;

/// A provider payload of the wrong shape: what was expected where, and what was found.
///
/// Its `Display` names the path (`tool_calls[1].function.name: expected a string, found a
/// number`); it never quotes the payload's values.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct DecodeError {
    /// The provider whose format was expected.
    pub provider: &'static str,
    /// Where in the payload (`tool_calls[1].function.name`); empty for the payload itself.
    pub path: String,
    /// What was expected there.
    pub expected: &'static str,
    /// What was found ("nothing" when the field is missing).
    pub found: &'static str,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.path.is_empty() {
            "the payload"
        } else {
            &self.path
        };
        write!(
            f,
            "malformed {} tool-call payload: {at}: expected {}, found {}",
            self.provider, self.expected, self.found
        )
    }
}

impl std::error::Error for DecodeError {}

/// A tool result cannot be sent back: the provider needs the call's id to match the result to
/// its call, and the [`ToolCall`] has none.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct MissingCallId {
    /// The provider that needs the id.
    pub provider: &'static str,
    /// The tool that was called.
    pub tool: String,
}

impl fmt::Display for MissingCallId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the call of `{}` has no id, and {} needs it to match the result to its call; keep the id the provider sent (`ToolCall::with_id`)",
            echo(&self.tool, 64),
            self.provider
        )
    }
}

impl std::error::Error for MissingCallId {}

/// A cursor into a payload that knows its path, for error messages.
#[derive(Clone, Copy)]
pub(crate) struct At<'v, 'p> {
    pub(crate) provider: &'static str,
    pub(crate) value: Option<&'v Value>,
    path: &'p Path<'p>,
}

/// A path as a linked list of segments (no allocation until an error is built).
pub(crate) enum Path<'a> {
    Root,
    Field(&'a Path<'a>, &'a str),
    Index(&'a Path<'a>, usize),
}

impl Path<'_> {
    fn render(&self, out: &mut String) {
        match self {
            Path::Root => {}
            Path::Field(parent, name) => {
                parent.render(out);
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(name);
            }
            Path::Index(parent, i) => {
                parent.render(out);
                out.push('[');
                out.push_str(&i.to_string());
                out.push(']');
            }
        }
    }
}

pub(crate) const ROOT: Path<'static> = Path::Root;

impl<'v, 'p> At<'v, 'p> {
    pub(crate) fn root(provider: &'static str, value: &'v Value) -> Self {
        At {
            provider,
            value: Some(value),
            path: &ROOT,
        }
    }

    pub(crate) fn error(&self, expected: &'static str) -> DecodeError {
        let mut path = String::new();
        self.path.render(&mut path);
        DecodeError {
            provider: self.provider,
            path,
            expected,
            found: self.value.map_or("nothing", json_kind),
        }
    }

    /// Call `f` with the cursor at `self.field`.
    pub(crate) fn with_field<T>(&self, name: &str, f: impl FnOnce(At<'v, '_>) -> T) -> T {
        let path = Path::Field(self.path, name);
        let value = self.value.and_then(|v| v.get(name));
        f(At {
            provider: self.provider,
            value,
            path: &path,
        })
    }

    /// Call `f` with the cursor at `self[index]`.
    pub(crate) fn with_index<T>(&self, index: usize, f: impl FnOnce(At<'v, '_>) -> T) -> T {
        let path = Path::Index(self.path, index);
        let value = self.value.and_then(|v| v.get(index));
        f(At {
            provider: self.provider,
            value,
            path: &path,
        })
    }

    /// Calls from the first element of the list at `self` (the first choice or candidate of
    /// a response): an empty list has none; anything but a list is an error naming
    /// `expected`.
    pub(crate) fn first<T>(
        &self,
        expected: &'static str,
        f: impl FnOnce(At<'v, '_>) -> Result<Vec<T>, DecodeError>,
    ) -> Result<Vec<T>, DecodeError> {
        match self.value {
            Some(Value::Array(items)) if items.is_empty() => Ok(Vec::new()),
            Some(Value::Array(_)) => self.with_index(0, f),
            _ => Err(self.error(expected)),
        }
    }

    /// Calls from `f` at `self`, or none when the field is absent or `null`.
    pub(crate) fn optional<T>(
        self,
        f: impl FnOnce(At<'v, 'p>) -> Result<Vec<T>, DecodeError>,
    ) -> Result<Vec<T>, DecodeError> {
        match self.value {
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(_) => f(self),
        }
    }

    /// Call `f` with the cursor at each element of the list at `self`.
    pub(crate) fn each<T>(
        &self,
        mut f: impl FnMut(At<'v, '_>) -> Result<Option<T>, DecodeError>,
    ) -> Result<Vec<T>, DecodeError> {
        let items = match self.value {
            Some(Value::Array(items)) => items,
            _ => return Err(self.error("a list")),
        };
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let path = Path::Index(self.path, i);
            if let Some(t) = f(At {
                provider: self.provider,
                value: Some(item),
                path: &path,
            })? {
                out.push(t);
            }
        }
        Ok(out)
    }

    pub(crate) fn object(&self) -> Result<&'v Map<String, Value>, DecodeError> {
        match self.value {
            Some(Value::Object(map)) => Ok(map),
            _ => Err(self.error("an object")),
        }
    }

    pub(crate) fn string(&self) -> Result<&'v str, DecodeError> {
        match self.value {
            Some(Value::String(s)) => Ok(s),
            _ => Err(self.error("a string")),
        }
    }

    /// A string, or nothing (`null` counts as nothing).
    pub(crate) fn opt_string(&self) -> Result<Option<&'v str>, DecodeError> {
        match self.value {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(_) => Err(self.error("a string")),
        }
    }

    /// A non-empty string naming a tool.
    pub(crate) fn name(&self) -> Result<&'v str, DecodeError> {
        match self.value {
            Some(Value::String(s)) if !s.is_empty() => Ok(s),
            _ => Err(self.error("a tool name (a non-empty string)")),
        }
    }

    /// Arguments given as an object (kept as a value); missing or `null` arguments are `{}`.
    pub(crate) fn object_arguments(&self) -> Result<ArgumentsBuf, DecodeError> {
        match self.value {
            None | Some(Value::Null) => Ok(ArgumentsBuf::Value(Value::Object(Map::new()))),
            Some(v @ Value::Object(_)) => Ok(ArgumentsBuf::Value(v.clone())),
            Some(_) => Err(self.error("the arguments as an object")),
        }
    }

    /// Arguments given as JSON text (kept as text, so the toolkit reports bad JSON to the
    /// model); an object is accepted too, as some compatible servers send one.
    pub(crate) fn text_arguments(&self) -> Result<ArgumentsBuf, DecodeError> {
        match self.value {
            Some(Value::String(s)) => Ok(ArgumentsBuf::Text(s.clone())),
            None | Some(Value::Null) => Ok(ArgumentsBuf::Text(String::new())),
            Some(v @ Value::Object(_)) => Ok(ArgumentsBuf::Value(v.clone())),
            Some(_) => Err(self.error("the arguments as a JSON string")),
        }
    }
}

/// A call with an optional id.
pub(crate) fn call(id: Option<&str>, name: &str, arguments: ArgumentsBuf) -> ToolCall {
    ToolCall {
        call_id: id.map(str::to_owned),
        tool: name.to_owned(),
        arguments,
    }
}
