//! A raw JSON-RPC client over the in-process byte stream (what stdio carries): the exact
//! messages both ways, for answers rmcp's typed client would read as another type (the
//! extension's results) and for `_meta` a real client would never send. Either era: the
//! `initialize` handshake (revisions up to 2025-11-25) or self-contained 2026-07-28 requests.

use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{
    AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines, ReadHalf, WriteHalf,
};
use toolgroup::Registry;
use toolgroup_mcp::McpHandler;

/// The capabilities of a client that declares the groups extension.
pub fn declaring() -> Value {
    json!({"extensions": {"io.modelcontextprotocol/groups": {}}})
}

pub struct Raw {
    write: WriteHalf<DuplexStream>,
    lines: Lines<BufReader<ReadHalf<DuplexStream>>>,
    next_id: u64,
    /// 2026-07-28: the `_meta` every request carries.
    modern: Option<Value>,
}

impl Raw {
    fn open<R: Registry>(handler: McpHandler<R>) -> Raw {
        let (server_io, client_io) = tokio::io::duplex(1 << 20);
        tokio::spawn(async move {
            use rmcp::ServiceExt as _;
            if let Ok(running) = handler.serve(server_io).await {
                let _ = running.waiting().await;
            }
        });
        let (read, write) = tokio::io::split(client_io);
        Raw {
            write,
            lines: BufReader::new(read).lines(),
            next_id: 1,
            modern: None,
        }
    }

    /// A connection that negotiated `version` with `initialize`, declaring `capabilities`;
    /// the `initialize` result.
    pub async fn legacy<R: Registry>(
        handler: McpHandler<R>,
        version: &str,
        capabilities: Value,
    ) -> (Raw, Value) {
        let mut raw = Raw::open(handler);
        let init = raw
            .result(
                "initialize",
                json!({"protocolVersion": version, "capabilities": capabilities,
                       "clientInfo": {"name": "raw", "version": "0"}}),
            )
            .await;
        raw.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        (raw, init)
    }

    /// A 2026-07-28 client: each request carries its version and `capabilities` in `_meta`.
    pub async fn modern<R: Registry>(handler: McpHandler<R>, capabilities: Value) -> Raw {
        let mut raw = Raw::open(handler);
        raw.modern = Some(json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "0"},
            "io.modelcontextprotocol/clientCapabilities": capabilities,
        }));
        raw
    }

    async fn send(&mut self, message: &Value) {
        self.write
            .write_all(format!("{message}\n").as_bytes())
            .await
            .unwrap();
    }

    /// One request, its `_meta` the connection's (2026-07-28) with `meta`'s keys over it; the
    /// whole response message.
    pub async fn request_with(
        &mut self,
        method: &str,
        params: Value,
        meta: Option<Value>,
    ) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        let mut params = match params {
            Value::Null => json!({}),
            p => p,
        };
        let mut all = self.modern.clone().unwrap_or_else(|| json!({}));
        if let Some(Value::Object(extra)) = meta {
            all.as_object_mut().unwrap().extend(extra);
        }
        if let (Some(object), Some(all)) = (params.as_object_mut(), all.as_object())
            && !all.is_empty()
        {
            object.insert("_meta".to_owned(), Value::Object(all.clone()));
        }
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await;
        loop {
            let line = tokio::time::timeout(Duration::from_secs(30), self.lines.next_line())
                .await
                .unwrap_or_else(|_| panic!("no answer to {method}"))
                .unwrap()
                .unwrap_or_else(|| panic!("the server closed the stream: {method}"));
            let message: Value = serde_json::from_str(&line).unwrap();
            // Notifications (and requests from the server) are not the answer.
            if message.get("method").is_none() && message["id"] == id {
                return message;
            }
        }
    }

    /// One request; the whole response message.
    pub async fn request(&mut self, method: &str, params: Value) -> Value {
        self.request_with(method, params, None).await
    }

    /// The `result` of one request (panics on an error).
    pub async fn result(&mut self, method: &str, params: Value) -> Value {
        let answer = self.request(method, params).await;
        answer
            .get("result")
            .cloned()
            .unwrap_or_else(|| panic!("{method}: {answer}"))
    }

    /// The error code and message of one request (panics on a result).
    pub async fn error(&mut self, method: &str, params: Value) -> (i64, String) {
        let answer = self.request(method, params).await;
        let error = answer
            .get("error")
            .unwrap_or_else(|| panic!("{method}: no error: {answer}"));
        (
            error["code"].as_i64().unwrap(),
            error["message"].as_str().unwrap().to_owned(),
        )
    }

    /// The names `tools/list` gives.
    pub async fn names(&mut self) -> Vec<String> {
        names_of(&self.result("tools/list", json!({})).await)
    }
}

/// The tool names of a `tools/list` result.
pub fn names_of(result: &Value) -> Vec<String> {
    result["tools"]
        .as_array()
        .unwrap_or_else(|| panic!("no tools: {result}"))
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_owned())
        .collect()
}
