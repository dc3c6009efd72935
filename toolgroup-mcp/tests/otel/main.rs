//! Telemetry by the OpenTelemetry MCP conventions (features `otel`, `client`, `testing`): the
//! server span of a request and its parent from `params._meta`, the client span and the trace
//! context it sends, one trace from a client's call to the server's tool, and the trace
//! contexts a server must survive. Spans go through `tracing-opentelemetry` to the SDK's
//! in-memory exporter, as they would to any exporter.

#[path = "../support/mod.rs"]
mod support;

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use opentelemetry::trace::{SpanId, SpanKind, Status, TraceId, TracerProvider as _};
use opentelemetry::{KeyValue, Value as OtelValue};
use opentelemetry_sdk::error::OTelSdkResult;
use opentelemetry_sdk::trace::{SdkTracerProvider, SpanData, SpanExporter};
use rmcp::RoleClient;
use rmcp::model::{CallToolRequestParams, CallToolResult, MetaObject, RequestMetaObject};
use rmcp::service::{RunningService, ServiceError};
use rmcp::transport::StreamableHttpServerConfig;
use serde_json::{Value, json};
use toolgroup_mcp::client::{RemoteServer, RemoteTools};
use toolgroup_mcp::{McpServer, Mode};
use tracing::subscriber::DefaultGuard;
use tracing_subscriber::layer::SubscriberExt as _;

/// A trace id and a span id a client sent.
const TRACE: &str = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT: &str = "00f067aa0ba902b7";

/// An exporter that keeps what it is given.
#[derive(Clone, Debug, Default)]
struct Kept(Arc<Mutex<Vec<SpanData>>>);

impl SpanExporter for Kept {
    async fn export(&self, batch: Vec<SpanData>) -> OTelSdkResult {
        self.0.lock().unwrap().extend(batch);
        Ok(())
    }
}

/// The spans this thread's subscriber exported.
struct Capture {
    exporter: Kept,
    provider: SdkTracerProvider,
    _guard: DefaultGuard,
}

impl Capture {
    /// A `tracing` subscriber for this thread (the tests run on current-thread runtimes) that
    /// turns spans into OpenTelemetry spans.
    fn start() -> Capture {
        let exporter = Kept::default();
        let provider = SdkTracerProvider::builder()
            .with_simple_exporter(exporter.clone())
            .build();
        let tracer = provider.tracer("toolgroup-mcp-tests");
        let subscriber =
            tracing_subscriber::registry().with(tracing_opentelemetry::layer().with_tracer(tracer));
        Capture {
            exporter,
            provider,
            _guard: tracing::subscriber::set_default(subscriber),
        }
    }

    fn spans(&self) -> Vec<SpanData> {
        self.provider.force_flush().unwrap();
        self.exporter.0.lock().unwrap().clone()
    }

    /// The one span named `name`.
    fn one(&self, name: &str) -> SpanData {
        let spans = self.spans();
        let found: Vec<SpanData> = spans.iter().filter(|s| s.name == name).cloned().collect();
        assert_eq!(
            found.len(),
            1,
            "one span `{name}` expected among {:?}",
            spans.iter().map(|s| &s.name).collect::<Vec<_>>()
        );
        found.into_iter().next().unwrap()
    }
}

fn attr(span: &SpanData, key: &str) -> Option<String> {
    span.attributes
        .iter()
        .find(|kv: &&KeyValue| kv.key.as_str() == key)
        .map(|kv| match &kv.value {
            OtelValue::String(s) => s.to_string(),
            other => other.to_string(),
        })
}

fn server() -> McpServer<support::Agent> {
    McpServer::new(support::toolkit(), Mode::Mask)
}

/// A `tools/call` of `note_write` with `meta` as its `_meta`.
fn note_call(meta: serde_json::Map<String, Value>) -> CallToolRequestParams {
    let mut params = support::args(json!({"text": "hi"}));
    params.name = "note_write".into();
    params.meta = Some(RequestMetaObject(MetaObject(meta)));
    params
}

async fn call(
    client: &RunningService<RoleClient, ()>,
    name: &'static str,
    arguments: Value,
) -> Result<CallToolResult, ServiceError> {
    let mut params = support::args(arguments);
    params.name = name.into();
    client.call_tool(params).await
}

#[tokio::test]
async fn a_server_span_takes_its_parent_from_the_request_meta() {
    let capture = Capture::start();
    let client = toolgroup_mcp::testing::connect(&server()).await.unwrap();
    let mut meta = serde_json::Map::new();
    meta.insert(
        "traceparent".into(),
        json!(format!("00-{TRACE}-{PARENT}-01")),
    );
    meta.insert("tracestate".into(), json!("rojo=00f067aa0ba902b7"));
    let result = client.call_tool(note_call(meta)).await.unwrap();
    assert_eq!(support::text(&result), "noted: hi");
    client.cancel().await.unwrap();

    let span = capture.one("tools/call note_write");
    assert_eq!(span.span_kind, SpanKind::Server);
    assert_eq!(
        span.span_context.trace_id(),
        TraceId::from_hex(TRACE).unwrap()
    );
    assert_eq!(span.parent_span_id, SpanId::from_hex(PARENT).unwrap());
    assert!(span.parent_span_is_remote);
    assert_eq!(
        attr(&span, "mcp.method.name").as_deref(),
        Some("tools/call")
    );
    assert_eq!(
        attr(&span, "gen_ai.tool.name").as_deref(),
        Some("note_write")
    );
    assert_eq!(
        attr(&span, "gen_ai.operation.name").as_deref(),
        Some("execute_tool")
    );
    assert_eq!(attr(&span, "network.transport").as_deref(), Some("pipe"));
    assert!(attr(&span, "jsonrpc.request.id").is_some());
    assert!(attr(&span, "mcp.protocol.version").is_some());
    assert_eq!(attr(&span, "error.type"), None);
    assert_eq!(span.status, Status::Unset);

    // The tool's own span is the server span's child, in the same trace.
    let tool = capture.one("execute_tool note_write");
    assert_eq!(tool.span_kind, SpanKind::Internal);
    assert_eq!(tool.parent_span_id, span.span_context.span_id());
    assert_eq!(tool.span_context.trace_id(), span.span_context.trace_id());
}

#[tokio::test]
async fn a_bad_trace_context_is_no_parent_and_the_request_is_served() {
    let long = format!("00-{TRACE}-{PARENT}-01{}", "-a".repeat(5_000));
    let cases: Vec<(&str, Value)> = vec![
        ("malformed", json!("not a traceparent")),
        ("wrong version", json!(format!("ff-{TRACE}-{PARENT}-01"))),
        (
            "all zeros",
            json!("00-00000000000000000000000000000000-0000000000000000-01"),
        ),
        ("10 KB", json!(long)),
        ("a number", json!(42)),
        (
            "an object",
            json!({"traceparent": format!("00-{TRACE}-{PARENT}-01")}),
        ),
    ];
    for (case, value) in cases {
        let capture = Capture::start();
        let client = toolgroup_mcp::testing::connect(&server()).await.unwrap();
        let mut meta = serde_json::Map::new();
        meta.insert("traceparent".into(), value);
        meta.insert(
            "baggage".into(),
            json!("k=".to_owned() + &"v".repeat(9_000)),
        );
        let result = client.call_tool(note_call(meta)).await.unwrap();
        assert_eq!(support::text(&result), "noted: hi", "{case}");
        client.cancel().await.unwrap();
        let span = capture.one("tools/call note_write");
        assert_eq!(span.parent_span_id, SpanId::INVALID, "{case}: no parent");
        assert_ne!(
            span.span_context.trace_id(),
            TraceId::from_hex(TRACE).unwrap(),
            "{case}"
        );
        assert!(span.span_context.is_valid(), "{case}");
    }
}

#[tokio::test]
async fn errors_carry_the_conventions_error_type_and_status() {
    let capture = Capture::start();
    let client = toolgroup_mcp::testing::connect(&server()).await.unwrap();
    // A tool of an inactive group, with first-use activation off: an error result.
    let server_kit =
        McpServer::new(support::toolkit(), Mode::Mask).with_first_use_activation(false);
    let refusing = toolgroup_mcp::testing::connect(&server_kit).await.unwrap();
    let inactive = call(&refusing, "web_search", json!({"query": "q"}))
        .await
        .unwrap();
    assert_eq!(inactive.is_error, Some(true));
    // A name that is no tool: a JSON-RPC error, and the name stays out of the span's name.
    let unknown = call(&client, "no_such_tool", json!({})).await;
    assert!(unknown.is_err());
    client.cancel().await.unwrap();
    refusing.cancel().await.unwrap();

    let spans = capture.spans();
    let inactive = spans
        .iter()
        .find(|s| s.name == "tools/call web_search")
        .expect("the inactive call's span");
    assert_eq!(attr(inactive, "error.type").as_deref(), Some("tool_error"));
    assert_eq!(
        attr(inactive, "toolgroup.outcome").as_deref(),
        Some("inactive_group")
    );
    assert!(matches!(inactive.status, Status::Error { .. }));

    let unknown = spans
        .iter()
        .find(|s| attr(s, "gen_ai.tool.name").as_deref() == Some("no_such_tool"))
        .expect("the unknown call's span");
    assert_eq!(
        unknown.name, "tools/call",
        "no client-chosen name in a span name"
    );
    assert_eq!(attr(unknown, "error.type").as_deref(), Some("-32602"));
    assert_eq!(
        attr(unknown, "rpc.response.status_code").as_deref(),
        Some("-32602")
    );
    assert_eq!(
        attr(unknown, "toolgroup.outcome").as_deref(),
        Some("unknown_tool")
    );
    let Status::Error { description } = &unknown.status else {
        panic!("an error status: {:?}", unknown.status)
    };
    assert!(description.contains("unknown tool"), "{description}");

    // Requests other than calls have spans too, named by their method.
    let initialize = spans.iter().find(|s| s.name == "initialize");
    assert!(initialize.is_some_and(|s| s.span_kind == SpanKind::Server));
}

/// This crate's server over Streamable HTTP on loopback, on the test's runtime.
async fn http_server() -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let app = axum::Router::new().nest_service(
        "/mcp",
        server().http_service(StreamableHttpServerConfig::default()),
    );
    tokio::spawn(async move { axum::serve(listener, app).await });
    addr
}

#[tokio::test]
async fn one_trace_from_the_clients_call_to_the_servers_tool() {
    let capture = Capture::start();
    let addr = http_server().await;
    let remote = RemoteTools::connect(
        RemoteServer::http(format!("http://{addr}/mcp")).with_groups_extension(false),
    )
    .await
    .unwrap();
    let turn = tracing::info_span!("agent_turn");
    let result = tracing::Instrument::instrument(
        remote.call("note_write", &json!({"text": "hi"})),
        turn.clone(),
    )
    .await;
    assert!(!result.is_error, "{}", result.text_joined());
    drop(turn);

    let turn = capture.one("agent_turn");
    let trace = turn.span_context.trace_id();
    let spans = capture.spans();
    let named = |kind: SpanKind| {
        let found: Vec<&SpanData> = spans
            .iter()
            .filter(|s| s.name == "tools/call note_write" && s.span_kind == kind)
            .collect();
        assert_eq!(found.len(), 1, "one {kind:?} span");
        found[0]
    };
    let (client, server) = (named(SpanKind::Client), named(SpanKind::Server));
    assert_eq!(client.parent_span_id, turn.span_context.span_id());
    assert_eq!(client.span_context.trace_id(), trace);
    assert_eq!(attr(client, "network.transport").as_deref(), Some("tcp"));
    assert_eq!(attr(client, "server.address").as_deref(), Some("127.0.0.1"));
    assert_eq!(attr(client, "server.port"), Some(addr.port().to_string()));
    assert_eq!(server.span_context.trace_id(), trace, "one trace");
    assert_eq!(server.parent_span_id, client.span_context.span_id());
    assert!(server.parent_span_is_remote);
    assert_eq!(attr(server, "network.transport").as_deref(), Some("tcp"));
    assert_eq!(
        attr(server, "network.protocol.name").as_deref(),
        Some("http")
    );
    let tool = capture.one("execute_tool note_write");
    assert_eq!(tool.parent_span_id, server.span_context.span_id());
    assert_eq!(tool.span_context.trace_id(), trace);
}
