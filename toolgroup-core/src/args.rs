//! Tool arguments as a provider sends them, and the errors a model gets for bad ones.
//!
//! The happy path is one `serde_json` parse into the tool's argument struct. Only when that
//! fails is the input parsed again (with `serde_path_to_error`) to find the argument path.
//! Error texts are built from the error's path and category, never from serde_json's message
//! text, which quotes the offending value.

use std::fmt;

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::result::CallResult;

/// Tool arguments: the raw JSON text a provider sends, or an already parsed value.
#[derive(Debug, Clone, Copy)]
pub enum Arguments<'a> {
    /// Raw JSON text (OpenAI sends arguments as a string). Empty text counts as `{}`.
    Text(&'a str),
    /// A parsed JSON value (Anthropic and Gemini send objects).
    Value(&'a Value),
}

impl<'a> From<&'a str> for Arguments<'a> {
    fn from(s: &'a str) -> Self {
        Arguments::Text(s)
    }
}

impl<'a> From<&'a String> for Arguments<'a> {
    fn from(s: &'a String) -> Self {
        Arguments::Text(s)
    }
}

impl<'a> From<&'a Value> for Arguments<'a> {
    fn from(v: &'a Value) -> Self {
        Arguments::Value(v)
    }
}

/// Owned tool arguments, as carried by a [`ToolCall`](crate::ToolCall).
#[derive(Debug, Clone, PartialEq)]
pub enum ArgumentsBuf {
    /// Raw JSON text.
    Text(String),
    /// A parsed JSON value.
    Value(Value),
}

impl ArgumentsBuf {
    /// Borrow as [`Arguments`].
    pub fn as_arguments(&self) -> Arguments<'_> {
        match self {
            ArgumentsBuf::Text(s) => Arguments::Text(s),
            ArgumentsBuf::Value(v) => Arguments::Value(v),
        }
    }
}

impl From<String> for ArgumentsBuf {
    fn from(s: String) -> Self {
        ArgumentsBuf::Text(s)
    }
}

impl From<&str> for ArgumentsBuf {
    fn from(s: &str) -> Self {
        ArgumentsBuf::Text(s.to_owned())
    }
}

impl From<Value> for ArgumentsBuf {
    fn from(v: Value) -> Self {
        ArgumentsBuf::Value(v)
    }
}

/// Why a tool's arguments were refused. Its `Display` is the text the model receives.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ArgumentError {
    /// The text is not JSON.
    Malformed {
        /// What the parser expected and where (line and column), never the input itself.
        detail: String,
    },
    /// Valid JSON, but not an object.
    NotObject {
        /// The JSON type that was given ("an array", "a string", ...).
        found: &'static str,
    },
    /// An object that does not match the tool's schema.
    Invalid {
        /// The argument path (`query`, `items[2].name`); empty for the object itself.
        path: String,
        /// What is wrong and what was expected.
        problem: String,
    },
}

impl fmt::Display for ArgumentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArgumentError::Malformed { detail } => write!(
                f,
                "the arguments are not valid JSON ({detail}); send one JSON object matching the tool's parameters"
            ),
            ArgumentError::NotObject { found } => write!(
                f,
                "the arguments must be a JSON object matching the tool's parameters, got {found}"
            ),
            ArgumentError::Invalid { path, problem } if path.is_empty() => {
                write!(f, "invalid arguments: {problem}")
            }
            ArgumentError::Invalid { path, problem } => {
                write!(f, "invalid argument `{path}`: {problem}")
            }
        }
    }
}

impl std::error::Error for ArgumentError {}

impl<'a> Arguments<'a> {
    /// An owned copy.
    pub fn to_buf(self) -> ArgumentsBuf {
        match self {
            Arguments::Text(s) => ArgumentsBuf::Text(s.to_owned()),
            Arguments::Value(v) => ArgumentsBuf::Value(v.clone()),
        }
    }

    /// Parse into `T`, reporting problems without echoing values.
    #[inline]
    pub fn parse<T: DeserializeOwned>(self) -> Result<T, ArgumentError> {
        self.parse_with((), |(), v| Ok(v), |(), e| Err(e))
    }

    /// [`parse`](Self::parse) in continuation style: `ok` gets the parsed value, `err` the
    /// problem, each with `state`. The synchronous call uses it
    /// ([`Tool::call_sync_into`](crate::Tool::call_sync_into)): the value goes from
    /// `serde_json` straight to the tool, where `parse`'s `Result` would copy it once more on
    /// the way.
    #[inline(always)]
    pub(crate) fn parse_with<T: DeserializeOwned, S, R>(
        &self,
        state: S,
        ok: impl FnOnce(S, T) -> R,
        err: impl FnOnce(S, ArgumentError) -> R,
    ) -> R {
        match *self {
            // The usual case first, inline: an object with no leading whitespace.
            Arguments::Text(text) if text.as_bytes().first() == Some(&b'{') => {
                match serde_json::from_str::<T>(text) {
                    Ok(v) => ok(state, v),
                    Err(e) => err(state, object_error::<T>(text, &e)),
                }
            }
            Arguments::Text(text) => match parse_text(text) {
                Ok(v) => ok(state, v),
                Err(e) => err(state, e),
            },
            Arguments::Value(value) => match parse_value(value) {
                Ok(v) => ok(state, v),
                Err(e) => err(state, e),
            },
        }
    }
}

fn parse_text<T: DeserializeOwned>(text: &str) -> Result<T, ArgumentError> {
    // The usual case first: an object with no leading whitespace.
    if text.as_bytes().first() == Some(&b'{') {
        return parse_object_text(text);
    }
    let trimmed = text.trim_start();
    if trimmed.is_empty() {
        return parse_text("{}");
    }
    if !trimmed.starts_with('{') {
        // Serde would accept an array for a struct (fields by position); our schema says object.
        return Err(match serde_json::from_str::<Value>(text) {
            Ok(v) => ArgumentError::NotObject {
                found: json_kind(&v),
            },
            Err(e) => malformed(&e),
        });
    }
    parse_object_text(text)
}

fn parse_object_text<T: DeserializeOwned>(text: &str) -> Result<T, ArgumentError> {
    match serde_json::from_str::<T>(text) {
        Ok(v) => Ok(v),
        Err(e) => Err(object_error::<T>(text, &e)),
    }
}

/// The error for object text that did not parse as `T`: a second pass finds the path.
#[cold]
#[inline(never)]
fn object_error<T: DeserializeOwned>(text: &str, e: &serde_json::Error) -> ArgumentError {
    match e.classify() {
        serde_json::error::Category::Data => {
            let mut de = serde_json::Deserializer::from_str(text);
            match serde_path_to_error::deserialize::<_, T>(&mut de) {
                Err(pe) => invalid(pe.path().to_string(), &pe.into_inner()),
                Ok(_) => invalid(String::new(), e),
            }
        }
        _ => malformed(e),
    }
}

fn parse_value<T: DeserializeOwned>(value: &Value) -> Result<T, ArgumentError> {
    if !value.is_object() {
        return Err(ArgumentError::NotObject {
            found: json_kind(value),
        });
    }
    match T::deserialize(value) {
        Ok(v) => Ok(v),
        Err(e) => Err(match serde_path_to_error::deserialize::<_, T>(value) {
            Err(pe) => invalid(pe.path().to_string(), &pe.into_inner()),
            Ok(_) => invalid(String::new(), &e),
        }),
    }
}

/// "an object", "an array", ... for a JSON value (`toolgroup-mcp` words its errors with it).
#[doc(hidden)]
pub fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn malformed(e: &serde_json::Error) -> ArgumentError {
    // Syntax messages name what was expected and where; they never contain the input.
    let msg = e.to_string();
    ArgumentError::Malformed { detail: msg }
}

fn invalid(path: String, e: &serde_json::Error) -> ArgumentError {
    let path = if path == "." { String::new() } else { path };
    ArgumentError::Invalid {
        path: crate::echo::echo(&path, 120),
        problem: describe_data_error(&strip_position(&e.to_string())),
    }
}

fn strip_position(msg: &str) -> String {
    match msg.rfind(" at line ") {
        Some(i) if msg[i..].contains(" column ") => msg[..i].to_owned(),
        _ => msg.to_owned(),
    }
}

/// Turn serde's data-error message into one that names what was expected and the kind of
/// value given, never the value. The message shapes are serde's `de::Error` defaults.
fn describe_data_error(msg: &str) -> String {
    if let Some(rest) = msg.strip_prefix("invalid type: ") {
        let (unexp, exp) = split_expected(rest);
        return format!(
            "expected {}, got {}",
            friendly_expected(exp),
            unexpected_kind(unexp)
        );
    }
    if let Some(rest) = msg.strip_prefix("invalid value: ") {
        let (unexp, exp) = split_expected(rest);
        return format!(
            "expected {}, got {} outside that range or set",
            friendly_expected(exp),
            unexpected_kind(unexp)
        );
    }
    if let Some(rest) = msg.strip_prefix("invalid length ") {
        let (len, exp) = split_expected(rest);
        return format!("expected {}, got {len} elements", friendly_expected(exp));
    }
    if let Some(rest) = msg.strip_prefix("unknown variant ") {
        let (_, exp) = split_expected(rest);
        return format!("unknown value, expected {exp}");
    }
    if let Some(rest) = msg.strip_prefix("unknown field ") {
        let (field, exp) = split_expected(rest);
        return format!(
            "unknown field {}, expected {}",
            crate::echo::echo(field, 80),
            exp.trim_start_matches("one of ")
        );
    }
    if msg.starts_with("missing field ") || msg.starts_with("duplicate field ") {
        return msg.to_owned();
    }
    // A custom message from a type's own `Deserialize` impl: its author chose the text.
    crate::echo::echo(msg, 300)
}

fn split_expected(rest: &str) -> (&str, &str) {
    match rest.rfind(", expected ") {
        Some(i) => (&rest[..i], &rest[i + ", expected ".len()..]),
        None => match rest.strip_suffix(", there are no fields") {
            Some(f) => (f, "no fields"),
            None => (rest, "something else"),
        },
    }
}

fn unexpected_kind(unexp: &str) -> &'static str {
    let word = unexp.split_whitespace().next().unwrap_or("");
    match word {
        "string" | "character" => "a string",
        "integer" => "an integer",
        "floating" => "a number",
        "boolean" => "a boolean",
        "null" | "unit" | "Option" => "null",
        "map" => "an object",
        "sequence" => "an array",
        "byte" => "bytes",
        _ => "another kind of value",
    }
}

fn friendly_expected(exp: &str) -> String {
    let range = |lo: &str, hi: &str| format!("an integer from {lo} to {hi}");
    match exp {
        "u8" => range("0", "255"),
        "u16" => range("0", "65535"),
        "u32" => range("0", "4294967295"),
        "u64" | "usize" | "u128" => "a non-negative integer".to_owned(),
        "i8" => range("-128", "127"),
        "i16" => range("-32768", "32767"),
        "i32" => range("-2147483648", "2147483647"),
        "i64" | "isize" | "i128" => "an integer".to_owned(),
        "f32" | "f64" => "a number".to_owned(),
        "a borrowed string" | "a string" | "a char" | "a character" => "a string".to_owned(),
        "a boolean" => "a boolean".to_owned(),
        "a sequence" => "an array".to_owned(),
        "a map" => "an object".to_owned(),
        _ if exp.starts_with("struct ") => "an object".to_owned(),
        _ if exp.starts_with("tuple of ") || exp.starts_with("a tuple of ") => {
            format!("an array ({exp})")
        }
        other => other.to_owned(),
    }
}

/// Cut `s` to at most `max` characters, marking the cut.
pub(crate) fn truncate(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_owned(),
    }
}

/// The error result of arguments that do not parse: the tool did not run.
pub(crate) fn invalid_arguments(tool: &str, error: &impl std::fmt::Display) -> CallResult {
    CallResult::error(format!("`{tool}` was not run: {error}"))
        .labelled(crate::result::CallOutcome::InvalidArguments)
}
