//! A tool's log: to the caller's observer, else a `tracing` event; over MCP, to the client as
//! `notifications/message` at or above the level it asked for (`logging/setLevel`, or the
//! request's `_meta` on 2026-07-28), through rmcp's own client over an in-process stream.

#![allow(deprecated)] // rmcp marks MCP logging deprecated (SEP-2577); the wire is the same.

use crate::python;

use std::sync::{Arc, Mutex};

use rmcp::model::{
    CallToolRequestParams, LoggingLevel, LoggingMessageNotificationParam, ProtocolVersion,
    RequestMetaObject, SetLevelRequestParams,
};
use rmcp::service::{NotificationContext, RunningService};
use rmcp::{ClientHandler, ClientLifecycleMode, ClientServiceExt, RoleClient, ServiceExt};
use serde_json::{Value, json};
use toolgroup::context::{LogLevel, UnknownLogLevel};
use toolgroup::prelude::*;
use toolgroup::{CallContext, Session};
use toolgroup_mcp::{McpServer, Mode};

/// Log one message at every level, least severe first.
#[tool]
async fn chatty(ctx: ToolContext<'_>) -> String {
    for level in LogLevel::ALL {
        ctx.log(level, format_args!("a {level} message"));
        tokio::task::yield_now().await;
    }
    ctx.logger().info("done");
    "logged".to_owned()
}

#[tool_group(name = "talk", description = "Talking.", tools = [chatty])]
struct Talk;

#[toolkit]
struct Kit {
    #[basic]
    talk: Talk,
}

fn toolkit() -> Toolkit<Kit> {
    Toolkit::new(Kit { talk: Talk })
}

/// Every message `chatty` logs at or above `min`, as (level, text).
fn expected(min: LogLevel) -> Vec<(LogLevel, String)> {
    let mut all: Vec<_> = LogLevel::ALL
        .into_iter()
        .map(|l| (l, format!("a {l} message")))
        .collect();
    all.push((LogLevel::Info, "done".to_owned()));
    all.retain(|(l, _)| *l >= min);
    all
}

// --- outside MCP -------------------------------------------------------------------------

#[tokio::test]
async fn a_tools_log_reaches_the_call_observer_in_order() {
    let kit = toolkit();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let sink = seen.clone();
    let cx = CallContext::new().with_call_id("c1").on_log(move |event| {
        sink.lock().unwrap().push((
            event.tool,
            event.group,
            event.call_id.map(str::to_owned),
            event.level,
            event.message.to_owned(),
        ));
    });
    let mut session = Session::new();
    let r = kit.call_with(&mut session, "chatty", &json!({}), &cx).await;
    assert!(!r.is_error, "{r:?}");
    let seen = seen.lock().unwrap().clone();
    let want: Vec<_> = expected(LogLevel::Debug)
        .into_iter()
        .map(|(l, m)| ("chatty", "talk", Some("c1".to_owned()), l, m))
        .collect();
    assert_eq!(seen, want);
}

#[test]
fn the_observer_survives_replacing_the_per_call_data() {
    let cx = CallContext::new()
        .on_log(|_| {})
        .with_extensions(toolgroup::context::Extensions::new());
    assert!(
        format!("{cx:?}").contains("log: Some(\"observer\")"),
        "{cx:?}"
    );
}

/// One `tracing` event: its target, level and fields.
type EventRecord = (String, tracing::Level, Vec<(String, String)>);

#[derive(Clone, Default)]
struct Capture(Arc<Mutex<Vec<EventRecord>>>);

struct Fields<'a>(&'a mut Vec<(String, String)>);

impl tracing::field::Visit for Fields<'_> {
    fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
        self.0.push((field.name().to_owned(), format!("{value:?}")));
    }
    fn record_str(&mut self, field: &tracing::field::Field, value: &str) {
        self.0.push((field.name().to_owned(), value.to_owned()));
    }
}

impl tracing::Subscriber for Capture {
    fn enabled(&self, _: &tracing::Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, _: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        tracing::span::Id::from_u64(1)
    }
    fn record(&self, _: &tracing::span::Id, _: &tracing::span::Record<'_>) {}
    fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
    fn event(&self, event: &tracing::Event<'_>) {
        let mut fields = Vec::new();
        event.record(&mut Fields(&mut fields));
        let meta = event.metadata();
        self.0
            .lock()
            .unwrap()
            .push((meta.target().to_owned(), *meta.level(), fields));
    }
    fn enter(&self, _: &tracing::span::Id) {}
    fn exit(&self, _: &tracing::span::Id) {}
}

#[test]
fn without_an_observer_a_tools_log_is_a_tracing_event_naming_the_tool() {
    let capture = Capture::default();
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    tracing::subscriber::with_default(capture.clone(), || {
        let kit = toolkit();
        let mut session = Session::new();
        let r = rt.block_on(kit.call(&mut session, "chatty", &json!({})));
        assert!(!r.is_error, "{r:?}");
    });
    let events: Vec<_> = capture
        .0
        .lock()
        .unwrap()
        .iter()
        .filter(|(target, _, _)| target == "toolgroup::tool")
        .cloned()
        .collect();
    let tracing_level = |level: LogLevel| match level {
        LogLevel::Debug => tracing::Level::DEBUG,
        LogLevel::Info | LogLevel::Notice => tracing::Level::INFO,
        LogLevel::Warning => tracing::Level::WARN,
        _ => tracing::Level::ERROR,
    };
    let want: Vec<EventRecord> = expected(LogLevel::Debug)
        .into_iter()
        .map(|(level, message)| {
            (
                "toolgroup::tool".to_owned(),
                tracing_level(level),
                vec![
                    ("message".to_owned(), message),
                    ("tool".to_owned(), "chatty".to_owned()),
                    ("group".to_owned(), "talk".to_owned()),
                    ("severity".to_owned(), level.name().to_owned()),
                ],
            )
        })
        .collect();
    assert_eq!(events, want);
}

#[test]
fn levels_are_mcps_names_ordered_by_severity() {
    let names: Vec<_> = LogLevel::ALL.iter().map(|l| l.name()).collect();
    assert_eq!(
        names,
        [
            "debug",
            "info",
            "notice",
            "warning",
            "error",
            "critical",
            "alert",
            "emergency"
        ]
    );
    assert!(LogLevel::ALL.windows(2).all(|w| w[0] < w[1]));
    for level in LogLevel::ALL {
        assert_eq!(level.name().parse::<LogLevel>(), Ok(level));
    }
    let e: UnknownLogLevel = "warn".parse::<LogLevel>().unwrap_err();
    assert_eq!(
        e.to_string(),
        "unknown log level `warn`; expected one of `debug`, `info`, `notice`, `warning`, `error`, `critical`, `alert`, `emergency`"
    );
}

// --- over MCP ----------------------------------------------------------------------------

/// A client that keeps every `notifications/message`.
#[derive(Clone, Default)]
struct Listening(Arc<Mutex<Vec<LoggingMessageNotificationParam>>>);

impl ClientHandler for Listening {
    async fn on_logging_message(
        &self,
        params: LoggingMessageNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        self.0.lock().unwrap().push(params);
    }
}

type Client = RunningService<RoleClient, Listening>;

async fn connect(lifecycle: ClientLifecycleMode) -> (Client, Listening) {
    let server = McpServer::new(toolkit(), Mode::Mask);
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    let handler = server.handler_with(Session::new());
    tokio::spawn(async move {
        if let Ok(running) = handler.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let listening = Listening::default();
    let client = listening
        .clone()
        .serve_with_lifecycle(client_io, lifecycle)
        .await
        .expect("the client connects");
    (client, listening)
}

fn modern() -> ClientLifecycleMode {
    ClientLifecycleMode::Discover {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
    }
}

async fn call_chatty(client: &Client, log_level: Option<LoggingLevel>) {
    let mut params = CallToolRequestParams::new("chatty");
    if let Some(level) = log_level {
        let mut meta = RequestMetaObject::new();
        meta.set_log_level(level);
        params.meta = Some(meta);
    }
    let r = client.call_tool(params).await.expect("tools/call");
    assert_eq!(r.is_error, Some(false));
}

/// The messages received, as (level, logger, text), after the last one arrived (each call
/// sends its messages before its result; the client may still be handling the last one).
async fn received(listening: &Listening, count: usize) -> Vec<(Value, Option<String>, Value)> {
    for _ in 0..200 {
        if listening.0.lock().unwrap().len() >= count {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    // Anything extra would have arrived by now, too.
    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    listening
        .0
        .lock()
        .unwrap()
        .iter()
        .map(|p| {
            (
                serde_json::to_value(p.level).unwrap(),
                p.logger.clone(),
                p.data.clone(),
            )
        })
        .collect()
}

fn on_the_wire(min: LogLevel) -> Vec<(Value, Option<String>, Value)> {
    expected(min)
        .into_iter()
        .map(|(l, m)| (json!(l.name()), Some("chatty".to_owned()), json!(m)))
        .collect()
}

#[tokio::test]
async fn the_server_declares_logging_and_answers_set_level() {
    let (client, _) = connect(ClientLifecycleMode::Initialize).await;
    let info = client.peer_info().expect("server info");
    assert!(
        info.capabilities.logging.is_some(),
        "{:?}",
        info.capabilities
    );
    client
        .set_level(SetLevelRequestParams::new(LoggingLevel::Error))
        .await
        .expect("logging/setLevel is answered");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn before_set_level_a_legacy_client_gets_every_message_in_order() {
    let (client, listening) = connect(ClientLifecycleMode::Initialize).await;
    call_chatty(&client, None).await;
    let want = on_the_wire(LogLevel::Debug);
    assert_eq!(received(&listening, want.len()).await, want);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn after_set_level_only_messages_at_or_above_it_arrive() {
    let (client, listening) = connect(ClientLifecycleMode::Initialize).await;
    client
        .set_level(SetLevelRequestParams::new(LoggingLevel::Warning))
        .await
        .unwrap();
    call_chatty(&client, None).await;
    let want = on_the_wire(LogLevel::Warning);
    assert_eq!(received(&listening, want.len()).await, want);

    // A request's own `_meta` level wins over the connection's.
    listening.0.lock().unwrap().clear();
    call_chatty(&client, Some(LoggingLevel::Critical)).await;
    let want = on_the_wire(LogLevel::Critical);
    assert_eq!(received(&listening, want.len()).await, want);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_2026_request_gets_messages_only_when_its_meta_asks() {
    let (client, listening) = connect(modern()).await;
    call_chatty(&client, None).await;
    assert_eq!(received(&listening, 0).await, []);

    call_chatty(&client, Some(LoggingLevel::Notice)).await;
    let want = on_the_wire(LogLevel::Notice);
    assert_eq!(received(&listening, want.len()).await, want);
    client.cancel().await.unwrap();
}

// --- the official Python SDK -------------------------------------------------------------

/// `tests/mcp_interop/tool_logs.py` against this toolkit over Streamable HTTP (legacy sessions
/// on, for `logging/setLevel`), with the venv `.ci/run` creates; skipped without `MCP_VENV`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_sdk_receives_tool_logs_at_the_level_it_set() {
    python::run_script(McpServer::new(toolkit(), Mode::Mask), "tool_logs.py").await;
}
