//! What a client sends over HTTP, checked as JSON-RPC 2.0 before rmcp reads it.
//!
//! rmcp answers a body it cannot read with `415` and plain text. JSON-RPC says: `-32700` for
//! what is not JSON, `-32600` for what is not a JSON-RPC message, each with the message's `id`
//! when it can be read and `null` otherwise. The tower service (`http_service.rs`) answers
//! what [`check`] refuses that way, with `400`; messages that pass are handed to rmcp byte for
//! byte, so everything else is rmcp's. Over HTTP an answer is the response to the POST that
//! carried the message, so it cannot be taken for a new message.
//!
//! Over stdio the lines are rmcp's own (`rmcp::transport::stdio`), which ignores a line that is
//! not JSON and answers other refusals with `-32600` without an `id`; only a request whose
//! `id` can be read is checked here first and answered with it (the `stdio` module). An answer to a line that is not JSON correlates with no request, and it is one more message
//! for the peer: a peer that writes a log line to the pipe for each message it receives turns
//! each answer into one more line that is not JSON, and the two sides exchange errors without
//! end (rmcp issue #938). The official SDKs do not answer such lines either.

use serde_json::{Map, Value, json};

/// JSON-RPC's "parse error": the message is not JSON.
pub(crate) const PARSE_ERROR: i64 = -32700;
/// JSON-RPC's "invalid request": JSON, but not a JSON-RPC message.
pub(crate) const INVALID_REQUEST: i64 = -32600;

/// A message refused before rmcp read it, as the JSON-RPC error that answers it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Refusal {
    pub(crate) code: i64,
    pub(crate) message: String,
    /// The message's `id` when it could be read, else `null`.
    pub(crate) id: Value,
}

impl Refusal {
    fn parse(message: String) -> Self {
        Refusal {
            code: PARSE_ERROR,
            message: format!("parse error: {message}"),
            id: Value::Null,
        }
    }

    fn invalid(id: &Option<Value>, message: impl Into<String>) -> Self {
        Refusal {
            code: INVALID_REQUEST,
            message: format!("invalid request: {}", message.into()),
            id: id.clone().unwrap_or(Value::Null),
        }
    }

    /// The JSON-RPC error response (with `"id": null` when the id could not be read, as
    /// JSON-RPC 2.0 requires).
    pub(crate) fn to_json(&self) -> Value {
        json!({
            "jsonrpc": "2.0",
            "id": self.id,
            "error": {"code": self.code, "message": self.message},
        })
    }
}

/// Check one message (an HTTP body): `Ok` when it is a single JSON-RPC 2.0 request,
/// notification or response of the shape MCP allows.
#[cfg_attr(not(feature = "http"), allow(dead_code))]
pub(crate) fn check(bytes: &[u8]) -> Result<(), Refusal> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        Refusal::parse(format!(
            "the message is not UTF-8 (invalid byte at offset {})",
            e.valid_up_to()
        ))
    })?;
    if text.trim().is_empty() {
        return Err(Refusal::parse("the message is empty".to_owned()));
    }
    let value: Value = serde_json::from_str(text)
        .map_err(|e| Refusal::parse(format!("the message is not JSON: {e}")))?;
    let object = match value {
        Value::Object(object) => object,
        Value::Array(items) if items.is_empty() => {
            return Err(Refusal::invalid(
                &None,
                "an empty batch (`[]`) is no message",
            ));
        }
        Value::Array(_) => {
            return Err(Refusal::invalid(
                &None,
                "batches are not supported: send each JSON-RPC message on its own",
            ));
        }
        other => {
            return Err(Refusal::invalid(
                &None,
                format!(
                    "a JSON-RPC message is an object, not {}",
                    crate::json_kind(&other)
                ),
            ));
        }
    };
    check_object(&object)
}

pub(crate) fn check_object(object: &Map<String, Value>) -> Result<(), Refusal> {
    let has = |key: &str| object.contains_key(key);
    let is_error_response = !has("method") && has("error");
    let id = match object.get("id") {
        None => None,
        Some(id) if is_id(id) => Some(id.clone()),
        // The answer to a message whose id could not be read.
        Some(Value::Null) if is_error_response => None,
        Some(other) => {
            return Err(Refusal::invalid(
                &None,
                format!(
                    "`id` must be a string or an integer, not {}",
                    crate::json_kind(other)
                ),
            ));
        }
    };
    match object.get("jsonrpc") {
        Some(Value::String(version)) if version == "2.0" => {}
        Some(other) => {
            return Err(Refusal::invalid(
                &id,
                format!("`jsonrpc` must be \"2.0\", not {}", shown(other)),
            ));
        }
        None => {
            return Err(Refusal::invalid(
                &id,
                "`jsonrpc` is missing: it must be \"2.0\"",
            ));
        }
    }
    match object.get("method") {
        Some(Value::String(_)) => {
            if has("result") || has("error") {
                return Err(Refusal::invalid(
                    &id,
                    "a request or notification (a message with `method`) has no `result` or `error`",
                ));
            }
            match object.get("params") {
                None | Some(Value::Object(_) | Value::Null) => Ok(()),
                Some(other) => Err(Refusal::invalid(
                    &id,
                    format!(
                        "`params` must be an object, not {}",
                        crate::json_kind(other)
                    ),
                )),
            }
        }
        Some(other) => Err(Refusal::invalid(
            &id,
            format!("`method` must be a string, not {}", crate::json_kind(other)),
        )),
        None => match (has("result"), has("error")) {
            (true, true) => Err(Refusal::invalid(
                &id,
                "a response has `result` or `error`, not both",
            )),
            (false, false) => Err(Refusal::invalid(
                &id,
                "the message has no `method` (a request or notification) and no `result` or `error` (a response)",
            )),
            (true, false) if id.is_none() => Err(Refusal::invalid(
                &id,
                "a response needs the `id` of the request it answers",
            )),
            (true, false) => Ok(()),
            (false, true) => match object.get("error") {
                Some(Value::Object(error))
                    if error.get("code").is_some_and(is_integer)
                        && error.get("message").is_some_and(Value::is_string) =>
                {
                    Ok(())
                }
                _ => Err(Refusal::invalid(
                    &id,
                    "`error` must be an object with an integer `code` and a string `message`",
                )),
            },
        },
    }
}

/// A request id as rmcp reads one: a string, or an integer that fits an `i64` (`1.0` and
/// `1e2` included).
fn is_id(id: &Value) -> bool {
    id.is_string() || is_integer(id)
}

fn is_integer(value: &Value) -> bool {
    // 2^53: beyond it an `f64` no longer says which integer was sent.
    const MAX_EXACT: f64 = 9_007_199_254_740_992.0;
    match value {
        Value::Number(n) => {
            n.is_i64()
                || n.as_u64().is_some_and(|u| i64::try_from(u).is_ok())
                || n.as_f64()
                    .is_some_and(|f| f.fract() == 0.0 && f.abs() < MAX_EXACT)
        }
        _ => false,
    }
}

/// A short value as it may be shown back (strings escaped and capped).
fn shown(value: &Value) -> String {
    match value {
        Value::String(s) => format!("\"{}\"", crate::echo(s, 32)),
        Value::Number(_) | Value::Bool(_) | Value::Null => value.to_string(),
        other => crate::json_kind(other).to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use rmcp::model::ClientJsonRpcMessage;

    use super::{INVALID_REQUEST, PARSE_ERROR, check};

    /// Every message refused here, rmcp refuses too: the check only changes the answer to
    /// what rmcp could not read, never lets less through.
    #[test]
    fn refuses_only_what_rmcp_refuses() {
        let refused: &[&[u8]] = &[
            b"",
            b"  ",
            b"{not json",
            br#"{"jsonrpc": "2.0", "id": 1, "method": "tools/list""#,
            b"\xff\xfe{}",
            br#"[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]"#,
            b"[]",
            b"1",
            br#""text""#,
            br#"{"jsonrpc":"2.0","id":1}"#,
            br#"{"jsonrpc":"2.0","id":{},"method":"tools/list"}"#,
            br#"{"jsonrpc":"2.0","id":true,"method":"tools/list"}"#,
            br#"{"jsonrpc":"2.0","id":[1],"method":"tools/list"}"#,
            br#"{"jsonrpc":"2.0","id":null,"method":"tools/list"}"#,
            br#"{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}"#,
            br#"{"jsonrpc":"1.0","id":1,"method":"tools/list"}"#,
            br#"{"id":1,"method":"tools/list"}"#,
            br#"{"jsonrpc":2.0,"id":1,"method":"tools/list"}"#,
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":"x"}"#,
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":[1]}"#,
            br#"{"jsonrpc":"2.0","method":"notifications/initialized","params":"x"}"#,
            br#"{"jsonrpc":"2.0","id":1,"method":7}"#,
            br#"{"jsonrpc":"2.0","id":1,"method":"ping","result":{}}"#,
            br#"{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"m"}}"#,
            br#"{"jsonrpc":"2.0","result":{}}"#,
            br#"{"jsonrpc":"2.0","id":1,"error":"boom"}"#,
            br#"{"jsonrpc":"2.0","id":1,"error":{"code":"x","message":"m"}}"#,
        ];
        for bytes in refused {
            let shown = String::from_utf8_lossy(bytes);
            assert!(check(bytes).is_err(), "not refused: {shown}");
            assert!(
                serde_json::from_slice::<ClientJsonRpcMessage>(bytes).is_err(),
                "rmcp reads it: {shown}"
            );
        }
        let passed: &[&[u8]] = &[
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
            br#"{"jsonrpc":"2.0","id":"a","method":"tools/list","params":{}}"#,
            br#"{"jsonrpc":"2.0","id":1e2,"method":"ping"}"#,
            br#"{"jsonrpc":"2.0","id":1,"method":"ping","params":null}"#,
            br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            br#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
            br#"{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"m"}}"#,
            br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"m"}}"#,
            br#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"m"}}"#,
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":"text"}}"#,
        ];
        for bytes in passed {
            let shown = String::from_utf8_lossy(bytes);
            assert_eq!(check(bytes), Ok(()), "{shown}");
            assert!(
                serde_json::from_slice::<ClientJsonRpcMessage>(bytes).is_ok(),
                "rmcp refuses it: {shown}"
            );
        }
    }

    #[test]
    fn codes_and_ids() {
        let parse = check(b"{not json").unwrap_err();
        assert_eq!(
            (parse.code, parse.id),
            (PARSE_ERROR, serde_json::Value::Null)
        );
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert_eq!(check(deep.as_bytes()).unwrap_err().code, PARSE_ERROR);
        let version = check(br#"{"jsonrpc":"1.0","id":"x","method":"ping"}"#).unwrap_err();
        assert_eq!((version.code, version.id), (INVALID_REQUEST, "x".into()));
        let id = check(br#"{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}"#).unwrap_err();
        assert_eq!((id.code, id.id), (INVALID_REQUEST, serde_json::Value::Null));
        assert_eq!(
            id.message,
            "invalid request: `id` must be a string or an integer, not an object"
        );
    }
}
