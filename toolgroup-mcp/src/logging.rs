//! A tool's log messages as MCP `notifications/message`.
//!
//! Which messages a request's client receives, per protocol revision:
//!
//! - a request whose `_meta` carries `io.modelcontextprotocol/logLevel` (every revision): the
//!   messages at or above that level;
//! - otherwise, 2026-07-28 and later: none (that revision says a server must not send log
//!   messages for a request that does not ask for them);
//! - otherwise, up to 2025-11-25: the messages at or above the level the connection set with
//!   `logging/setLevel`, and every message before the client sets one (those revisions state
//!   no default; this is what the official TypeScript and Python SDK servers do).
//!
//! A message the client does not receive is a `tracing` event instead, as it is outside MCP.
//! rmcp marks MCP logging deprecated (SEP-2577 moves it to per-request opt-in); the wire
//! format is unchanged, hence the `allow(deprecated)`.
#![allow(deprecated)]

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};

use rmcp::RoleServer;
use rmcp::model::{LoggingLevel, LoggingMessageNotificationParam, ProtocolVersion};
use rmcp::service::RequestContext;
use serde_json::Value;
use toolgroup_core::CallContext;
use toolgroup_core::context::LogLevel;

/// The level a connection's client set with `logging/setLevel` (`None` until it sets one).
#[derive(Debug, Default)]
pub(crate) struct ClientLogLevel(AtomicU8);

impl ClientLogLevel {
    const UNSET: u8 = u8::MAX;

    pub(crate) fn new() -> Self {
        ClientLogLevel(AtomicU8::new(Self::UNSET))
    }

    /// Take the level `other` holds (a session's, restored from hibernation).
    #[cfg(feature = "http")]
    pub(crate) fn copy_from(&self, other: &ClientLogLevel) {
        self.0
            .store(other.0.load(Ordering::Relaxed), Ordering::Relaxed);
    }

    pub(crate) fn set(&self, level: LoggingLevel) {
        self.0.store(from_mcp(level) as u8, Ordering::Relaxed);
    }

    fn get(&self) -> Option<LogLevel> {
        LogLevel::ALL
            .get(usize::from(self.0.load(Ordering::Relaxed)))
            .copied()
    }
}

fn from_mcp(level: LoggingLevel) -> LogLevel {
    match level {
        LoggingLevel::Debug => LogLevel::Debug,
        LoggingLevel::Info => LogLevel::Info,
        LoggingLevel::Notice => LogLevel::Notice,
        LoggingLevel::Warning => LogLevel::Warning,
        LoggingLevel::Error => LogLevel::Error,
        LoggingLevel::Critical => LogLevel::Critical,
        LoggingLevel::Alert => LogLevel::Alert,
        LoggingLevel::Emergency => LogLevel::Emergency,
    }
}

fn to_mcp(level: LogLevel) -> LoggingLevel {
    match level {
        LogLevel::Debug => LoggingLevel::Debug,
        LogLevel::Info => LoggingLevel::Info,
        LogLevel::Notice => LoggingLevel::Notice,
        LogLevel::Warning => LoggingLevel::Warning,
        LogLevel::Error => LoggingLevel::Error,
        LogLevel::Critical => LoggingLevel::Critical,
        LogLevel::Alert => LoggingLevel::Alert,
        LogLevel::Emergency => LoggingLevel::Emergency,
    }
}

/// What holds a connection's [`ClientLogLevel`]: the handler puts its connection state in
/// each request's extensions as an `Arc<dyn HasLogLevel>`, so the level needs no allocation
/// of its own.
pub(crate) trait HasLogLevel: Send + Sync {
    fn log_level(&self) -> &ClientLogLevel;
}

/// Where a request's log messages go.
enum Wanted {
    /// At or above this level, fixed by the request.
    AtLeast(LogLevel),
    /// At or above the connection's level, read at each message (`logging/setLevel` may come
    /// while the call runs); every message while it is unset.
    Connection(Arc<dyn HasLogLevel>),
}

impl Wanted {
    fn accepts(&self, level: LogLevel) -> bool {
        match self {
            Wanted::AtLeast(min) => level >= *min,
            Wanted::Connection(set) => set.log_level().get().is_none_or(|min| level >= min),
        }
    }
}

/// What the request's client wants; the connection's level is in the request's extensions
/// (the handler puts it there).
fn wanted(ctx: &RequestContext<RoleServer>) -> Option<Wanted> {
    if let Some(level) = ctx.meta.log_level() {
        return Some(Wanted::AtLeast(from_mcp(level)));
    }
    let modern = ctx
        .protocol_version()
        .is_some_and(|v| v.as_str() >= ProtocolVersion::V_2026_07_28.as_str());
    let connection = ctx.extensions.get::<Arc<dyn HasLogLevel>>()?;
    (!modern).then(|| Wanted::Connection(connection.clone()))
}

/// Observe the log of the call `cx` belongs to: each message the client wants becomes a
/// `notifications/message` (logger: the tool's name; data: the message text), sent by the
/// returned future in order; join it with the call, which must drop `cx` when it ends (the
/// future ends once it has sent every message). The other messages are `tracing` events.
pub(crate) fn forward(
    cx: CallContext,
    ctx: &RequestContext<RoleServer>,
) -> (CallContext, impl Future<Output = ()> + use<>) {
    let Some(wanted) = wanted(ctx) else {
        return (cx, Sender(None).run());
    };
    let (sender, receiver) = tokio::sync::mpsc::unbounded_channel();
    let cx = cx.on_log(move |event| {
        if wanted.accepts(event.level) {
            let _ = sender.send((event.level, event.tool, event.message.to_owned()));
        } else {
            event.trace();
        }
    });
    (cx, Sender(Some((ctx.peer.clone(), receiver))).run())
}

type Message = (LogLevel, &'static str, String);

/// The sending side: nothing to send, or the peer and the messages to send it.
struct Sender(
    Option<(
        rmcp::Peer<RoleServer>,
        tokio::sync::mpsc::UnboundedReceiver<Message>,
    )>,
);

impl Sender {
    async fn run(self) {
        let Some((peer, mut receiver)) = self.0 else {
            return;
        };
        while let Some((level, tool, message)) = receiver.recv().await {
            let param = LoggingMessageNotificationParam::new(to_mcp(level), Value::String(message))
                .with_logger(tool);
            // A client that went away needs no log.
            if peer.notify_logging_message(param).await.is_err() {
                break;
            }
        }
    }
}
