//! Line-delimited JSON-RPC (what stdio carries), served by rmcp, with one check in front of
//! it: a request that is JSON and carries an `id` it can be answered by, but is not a valid
//! JSON-RPC 2.0 request (`"jsonrpc": "1.0"`, a `result` beside its `method`...), is answered
//! here with `-32600` and that `id`, as JSON-RPC 2.0 section 5 requires ("if there was an
//! error in detecting the id in the Request object, it MUST be Null", so an id that was
//! detected is given back). rmcp's own framing answers such a line without any `id`, which a
//! client cannot match to its request.
//!
//! Everything else is rmcp's, byte for byte: a line that is not JSON is ignored (see
//! [`jsonrpc`](crate::jsonrpc) for why), a message without a readable id gets rmcp's answer,
//! and a line longer than rmcp's limit is passed through for rmcp to drop, without being held
//! here. Answers and refusals reach the output whole, one line each, never interleaved.

use std::sync::Arc;

use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::Mutex;

/// The longest line inspected here: rmcp's own limit (`DEFAULT_MAX_LINE_LENGTH`), above
/// which it drops a line; such a line is forwarded as it comes.
const MAX_LINE: usize = 16 * 1024 * 1024;

/// The answer to `line` when it is a request with a readable `id` that JSON-RPC 2.0 refuses.
fn refusal(line: &[u8]) -> Option<Vec<u8>> {
    let Ok(Value::Object(object)) = serde_json::from_slice::<Value>(line) else {
        return None;
    };
    let readable = matches!(object.get("id"), Some(Value::String(_)))
        || object.get("id").is_some_and(Value::is_i64)
        || object.get("id").is_some_and(Value::is_u64);
    if !object.contains_key("method") || !readable {
        return None;
    }
    let refusal = crate::jsonrpc::check_object(&object).err()?;
    let mut answer = serde_json::to_vec(&refusal.to_json()).ok()?;
    answer.push(b'\n');
    Some(answer)
}

/// Copy `input` to `to_rmcp` line by line, answering on `output` the requests [`refusal`]
/// refuses; ends at the input's end (dropping `to_rmcp` tells rmcp).
async fn pump_in<I, W, O>(input: I, mut to_rmcp: W, output: Arc<Mutex<O>>) -> std::io::Result<()>
where
    I: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
    O: AsyncWrite + Unpin,
{
    let mut input = BufReader::new(input);
    let mut line = Vec::new();
    loop {
        line.clear();
        let read = (&mut input)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut line)
            .await?;
        if read == 0 {
            return to_rmcp.shutdown().await;
        }
        if line.len() > MAX_LINE && line.last() != Some(&b'\n') {
            // Too long to inspect: pass it on as it comes, for rmcp to drop.
            to_rmcp.write_all(&line).await?;
            loop {
                let chunk = input.fill_buf().await?;
                if chunk.is_empty() {
                    break;
                }
                let end = chunk.iter().position(|&b| b == b'\n').map(|i| i + 1);
                let take = end.unwrap_or(chunk.len());
                to_rmcp.write_all(&chunk[..take]).await?;
                input.consume(take);
                if end.is_some() {
                    break;
                }
            }
            continue;
        }
        match refusal(&line) {
            Some(answer) => {
                let mut output = output.lock().await;
                output.write_all(&answer).await?;
                output.flush().await?;
            }
            None => to_rmcp.write_all(&line).await?,
        }
    }
}

/// Copy rmcp's output to `output`, a whole line at a time.
async fn pump_out<R, O>(from_rmcp: R, output: Arc<Mutex<O>>) -> std::io::Result<()>
where
    R: AsyncRead + Unpin,
    O: AsyncWrite + Unpin,
{
    let mut from_rmcp = BufReader::new(from_rmcp);
    let mut line = Vec::new();
    loop {
        line.clear();
        if from_rmcp.read_until(b'\n', &mut line).await? == 0 {
            return Ok(());
        }
        let mut output = output.lock().await;
        output.write_all(&line).await?;
        output.flush().await?;
    }
}

/// Serve `handler` on line-delimited `input` and `output` until the input ends.
pub(crate) async fn serve<R, I, O>(
    handler: crate::McpHandler<R>,
    input: I,
    output: O,
) -> Result<(), crate::ServeError>
where
    R: toolgroup_core::Registry,
    I: AsyncRead + Unpin + Send + 'static,
    O: AsyncWrite + Unpin + Send + 'static,
{
    use rmcp::ServiceExt as _;
    let (to_rmcp, rmcp_reads) = tokio::io::duplex(1 << 16);
    let (rmcp_writes, from_rmcp) = tokio::io::duplex(1 << 16);
    let output = Arc::new(Mutex::new(output));
    let inbound = tokio::spawn(pump_in(input, to_rmcp, output.clone()));
    let outbound = tokio::spawn(pump_out(from_rmcp, output));
    let running = match handler.serve((rmcp_reads, rmcp_writes)).await {
        Ok(running) => running,
        Err(e) => {
            // No connection: stop reading the input for it.
            inbound.abort();
            outbound.abort();
            return Err(crate::ServeError::new(e));
        }
    };
    let served = running.waiting().await.map_err(crate::ServeError::new);
    inbound.abort();
    // rmcp's writer is gone: the last answers drain to the output.
    let _ = outbound.await;
    served.map(|_| ())
}
