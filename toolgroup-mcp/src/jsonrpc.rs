//! What a client sends, checked as JSON-RPC 2.0 before rmcp reads it.
//!
//! rmcp answers a body it cannot read with `415` and plain text over HTTP, and a line it
//! cannot read with nothing (not JSON) or an error without the request's `id` (not JSON-RPC)
//! over stdio. JSON-RPC says: `-32700` for what is not JSON, `-32600` for what is not a
//! JSON-RPC message, each with the message's `id` when it can be read and `null` otherwise.
//! Messages that pass are handed to rmcp byte for byte, so everything else is rmcp's.
//!
//! Over HTTP the check runs in the tower service (`http_service.rs`); over stdio
//! [`serve_lines`] frames the lines itself and runs rmcp on an in-memory pipe.

use std::future::Future;

use serde_json::{Map, Value, json};
use tokio::io::{AsyncBufRead, AsyncBufReadExt as _, AsyncRead, AsyncWrite, AsyncWriteExt as _};

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

/// Check one message (an HTTP body, a stdio line without its line ending): `Ok` when it is a
/// single JSON-RPC 2.0 request, notification or response of the shape MCP allows.
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

fn check_object(object: &Map<String, Value>) -> Result<(), Refusal> {
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

/// The longest line read, as rmcp's stdio transport (longer ones are dropped and logged).
const MAX_LINE: usize = rmcp::transport::async_rw::DEFAULT_MAX_LINE_LENGTH;

/// Serve newline-delimited JSON-RPC from `read` to `write` with `serve`, which runs rmcp on
/// the in-memory pipe it is given: lines that pass [`check`] go to rmcp unchanged, the others
/// are answered here, and every line rmcp writes goes out whole. Returns what `serve` returns
/// once rmcp's side is closed and its last line written.
pub(crate) async fn serve_lines<R, W, F, T>(
    read: R,
    write: W,
    serve: impl FnOnce(tokio::io::DuplexStream) -> F,
) -> T
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
    F: Future<Output = T>,
{
    let (rmcp_side, ours) = tokio::io::duplex(1 << 16);
    let (from_rmcp, to_rmcp) = tokio::io::split(ours);
    let (refusals, refused) = tokio::sync::mpsc::channel(64);
    let work = async {
        let (out, ()) = tokio::join!(serve(rmcp_side), outbound(from_rmcp, refused, write));
        out
    };
    let inbound = inbound(tokio::io::BufReader::new(read), to_rmcp, refusals);
    tokio::pin!(work, inbound);
    // rmcp may stop before its input ends (a failed handshake): then the pending read of
    // `read` is abandoned, as rmcp's own stdio transport abandons it.
    let mut reading = true;
    loop {
        tokio::select! {
            out = &mut work => return out,
            () = &mut inbound, if reading => reading = false,
        }
    }
}

/// The client's lines: checked, then to rmcp or answered. Ends at the end of `read`, closing
/// rmcp's input.
async fn inbound<R, W>(mut read: R, mut to_rmcp: W, refusals: tokio::sync::mpsc::Sender<Vec<u8>>)
where
    R: AsyncBufRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut line = Vec::new();
    loop {
        line.clear();
        match read_line(&mut read, &mut line).await {
            Ok(Line::Whole) => {}
            Ok(Line::TooLong) => {
                tracing::error!(
                    max_line_length = MAX_LINE,
                    "incoming message exceeded the maximum line length, discarding it"
                );
                continue;
            }
            // The bytes of an unfinished last line are no message (rmcp drops them too).
            Ok(Line::End) => break,
            Err(e) => {
                tracing::error!("error reading from stdin: {e}");
                break;
            }
        }
        let message = line.strip_suffix(b"\n").unwrap_or(&line);
        let message = message.strip_suffix(b"\r").unwrap_or(message);
        // rmcp accepts a UTF-8 byte order mark (RFC 8259 allows ignoring one).
        let message = message.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(message);
        if message.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        match check(message) {
            Ok(()) => {
                if to_rmcp.write_all(&line).await.is_err() {
                    break;
                }
            }
            Err(refusal) => {
                let mut answer = refusal.to_json().to_string().into_bytes();
                answer.push(b'\n');
                if refusals.send(answer).await.is_err() {
                    break;
                }
            }
        }
    }
    let _ = to_rmcp.shutdown().await;
}

/// rmcp's lines and the refusals, each line written whole. Ends when rmcp's side closes.
async fn outbound<R, W>(
    from_rmcp: R,
    mut refused: tokio::sync::mpsc::Receiver<Vec<u8>>,
    mut write: W,
) where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut from_rmcp = tokio::io::BufReader::new(from_rmcp);
    let mut line = Vec::new();
    loop {
        // `read_until` keeps what it read in `line` when the other branch wins.
        let next = tokio::select! {
            read = from_rmcp.read_until(b'\n', &mut line) => match read {
                Ok(0) | Err(_) => break,
                Ok(_) => std::mem::take(&mut line),
            },
            Some(refusal) = refused.recv() => refusal,
        };
        if write.write_all(&next).await.is_err() || write.flush().await.is_err() {
            return;
        }
    }
    while let Ok(refusal) = refused.try_recv() {
        if write.write_all(&refusal).await.is_err() {
            return;
        }
    }
    let _ = write.flush().await;
}

enum Line {
    Whole,
    TooLong,
    End,
}

/// One `\n`-terminated line into `line`, never holding more than [`MAX_LINE`] bytes.
async fn read_line<R: AsyncBufRead + Unpin>(
    read: &mut R,
    line: &mut Vec<u8>,
) -> std::io::Result<Line> {
    let mut too_long = false;
    loop {
        let available = read.fill_buf().await?;
        if available.is_empty() {
            return Ok(Line::End);
        }
        let newline = available.iter().position(|b| *b == b'\n');
        let take = newline.map_or(available.len(), |i| i + 1);
        if !too_long && line.len().saturating_add(take) > MAX_LINE {
            too_long = true;
            line.clear();
        }
        if !too_long {
            line.extend_from_slice(&available[..take]);
        }
        read.consume(take);
        if newline.is_some() {
            return Ok(if too_long { Line::TooLong } else { Line::Whole });
        }
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
