//! Tool calls in your tracing backend, by the OpenTelemetry conventions: the quickstart's three
//! turns, then one MCP round trip (toolgroup's client -> toolgroup's server over Streamable
//! HTTP on loopback -> the tool), exported as OTLP over HTTP (protobuf) to the collector at
//! `OTEL_EXPORTER_OTLP_ENDPOINT` (default `http://127.0.0.1:4318`). Each tool call is an
//! `execute_tool {tool}` span; the round trip is one trace: the turn's span, the client's
//! `tools/call web_search` span, the server's, and the server's `execute_tool web_search`.
//! The MCP operation-duration histograms go out as metrics.
//!
//! ```text
//! cargo run --example otel --features otel,mcp-client
//! ```
//!
//! A collector that is down costs nothing but the lost telemetry: spans wait in the batch
//! processor's bounded queue (2,048 spans by default; the newest are dropped when it is full),
//! exports time out, and no tool call waits for them.

use std::time::Duration;

use opentelemetry::trace::TracerProvider as _;
use opentelemetry_otlp::{Protocol, WithExportConfig as _};
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::metrics::{PeriodicReader, SdkMeterProvider};
use opentelemetry_sdk::trace::SdkTracerProvider;
use serde_json::json;
use toolgroup::ToolCall;
use toolgroup::mcp::client::{RemoteServer, RemoteTools};
use toolgroup::mcp::rmcp::transport::StreamableHttpServerConfig;
use toolgroup::mcp::{McpServer, Mode};
use tracing::Instrument as _;
use tracing_subscriber::layer::SubscriberExt as _;

#[path = "support/agent.rs"]
mod agent;

/// Where the telemetry goes: the standard variable, else a collector on this machine.
fn endpoint() -> String {
    std::env::var("OTEL_EXPORTER_OTLP_ENDPOINT")
        .ok()
        .filter(|e| !e.is_empty())
        .unwrap_or_else(|| "http://127.0.0.1:4318".to_owned())
        .trim_end_matches('/')
        .to_owned()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let base = endpoint();
    let resource = Resource::builder()
        .with_service_name("toolgroup-otel-example")
        .build();
    // Built outside the async runtime: the OTLP exporters use reqwest's blocking client, which
    // runs on the batch processor's own thread.
    let spans = opentelemetry_otlp::SpanExporter::builder()
        .with_http()
        .with_protocol(Protocol::HttpBinary)
        .with_endpoint(format!("{base}/v1/traces"))
        .with_timeout(Duration::from_secs(3))
        .build()?;
    let tracer_provider = SdkTracerProvider::builder()
        .with_batch_exporter(spans)
        .with_resource(resource.clone())
        .build();
    let metrics = opentelemetry_otlp::MetricExporter::builder()
        .with_http()
        .with_protocol(Protocol::HttpBinary)
        .with_endpoint(format!("{base}/v1/metrics"))
        .with_timeout(Duration::from_secs(3))
        .build()?;
    let meter_provider = SdkMeterProvider::builder()
        .with_reader(PeriodicReader::builder(metrics).build())
        .with_resource(resource)
        .build();
    let subscriber = tracing_subscriber::registry()
        .with(
            tracing_opentelemetry::layer()
                .with_tracer(tracer_provider.tracer("toolgroup-otel-example")),
        )
        .with(tracing_opentelemetry::MetricsLayer::new(
            meter_provider.clone(),
        ));
    tracing::subscriber::set_global_default(subscriber)?;

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    runtime.block_on(run())?;
    drop(runtime);

    // Export what is left; a collector that is down makes these fail after their timeout.
    let traces = tracer_provider.shutdown();
    let metrics = meter_provider.shutdown();
    println!("exported to {base}: traces {traces:?}, metrics {metrics:?}");
    Ok(())
}

async fn run() -> Result<(), Box<dyn std::error::Error>> {
    // The quickstart's turns: a reset, a misspelt group (refused), a search. Each call has the
    // id its provider gave it, as in an agent loop (`Rendered::decode_calls` reads them from
    // the model's message), so its span carries `gen_ai.tool.call.id` and a backend can join
    // it to the model's request.
    let kit = agent::toolkit();
    let mut session = kit.session();
    let turns = [
        ToolCall::new("reset_tools", r#"{"web_search": true, "scraping": true}"#)
            .with_call_id("call_1"),
        ToolCall::new("reset_tools", r#"{"web_serch": true}"#).with_call_id("call_2"),
        ToolCall::new("web_search", r#"{"query": "rust tool groups"}"#).with_call_id("call_3"),
    ];
    for (turn, call) in turns.iter().enumerate() {
        let span = tracing::info_span!("agent_turn", turn = turn + 1);
        let results = kit
            .call_batch(&mut session, std::slice::from_ref(call))
            .instrument(span)
            .await;
        let id = call.call_id.as_deref().unwrap_or_default();
        println!(
            "turn {}: {} ({id}) -> {}",
            turn + 1,
            call.tool,
            results[0].outcome()
        );
    }

    // One MCP round trip: this crate's client calls this crate's server, which runs the tool.
    let server = McpServer::new(agent::toolkit(), Mode::Mask);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let url = format!("http://{}/mcp", listener.local_addr()?);
    let app = server.router("/mcp", StreamableHttpServerConfig::default());
    tokio::spawn(async move { toolgroup::mcp::axum::serve(listener, app).await });
    let remote = RemoteTools::connect(RemoteServer::http(url).with_groups_extension(false)).await?;
    let span = tracing::info_span!("agent_turn", turn = 4);
    let result = remote
        .call("web_search", &json!({"query": "otel"}))
        .instrument(span)
        .await;
    println!("turn 4 (over MCP): web_search -> {}", result.outcome());
    Ok(())
}
