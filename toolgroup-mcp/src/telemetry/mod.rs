//! Spans and metrics by the OpenTelemetry semantic conventions for MCP
//! (`open-telemetry/semantic-conventions-genai`, `docs/gen-ai/mcp.md` at commit `0393513c`,
//! status "development"), written as `tracing` spans and events that `tracing-opentelemetry`
//! maps to OpenTelemetry: `otel.name` is the span's name, `otel.kind` its kind,
//! `otel.status_code` and `otel.status_description` its status, and an event's
//! `histogram.*` and `monotonic_counter.*` fields are metrics (its `MetricsLayer`).
//!
//! Nothing is gathered unless a subscriber wants the span or the event: the level check comes
//! first, then the span is built out of line.

#[cfg(feature = "client")]
pub(crate) mod client;
#[cfg(feature = "otel")]
pub(crate) mod propagation;
pub(crate) mod server;

use std::sync::{Arc, OnceLock};

use toolgroup_core::CallOutcome;

/// The `tracing` target of the metric events (`mcp.server.operation.duration`,
/// `mcp.client.operation.duration`, `toolgroup.mcp.refused_calls`): filter it out of a log
/// subscriber (`toolgroup_mcp::metrics=off`) and into a `tracing-opentelemetry` `MetricsLayer`.
pub const METRICS_TARGET: &str = "toolgroup_mcp::metrics";

/// How a `tools/call` ended in the toolkit, written by the call's handling and read by the
/// server span when the request ends (the refused-calls counter's reason).
#[derive(Clone, Default)]
pub(crate) struct OutcomeSlot(Arc<OnceLock<CallOutcome>>);

impl OutcomeSlot {
    pub(crate) fn set(&self, outcome: CallOutcome) {
        let _ = self.0.set(outcome);
    }

    pub(crate) fn get(&self) -> Option<CallOutcome> {
        self.0.get().copied()
    }
}

/// Record `outcome` for the request `ctx` belongs to (a no-op outside a traced request).
pub(crate) fn note_outcome(extensions: &rmcp::model::Extensions, outcome: CallOutcome) {
    if let Some(slot) = extensions.get::<OutcomeSlot>() {
        slot.set(outcome);
    }
}

/// The outcomes that mean the server refused a call before or instead of running the tool:
/// the reasons of `toolgroup.mcp.refused_calls`.
pub(crate) fn refusal(outcome: CallOutcome) -> Option<&'static str> {
    match outcome {
        CallOutcome::UnknownTool
        | CallOutcome::InactiveGroup
        | CallOutcome::Denied
        | CallOutcome::InsufficientScope
        | CallOutcome::Refused
        | CallOutcome::InvalidArguments => Some(outcome.as_str()),
        _ => None,
    }
}

/// A JSON-RPC error message as a span's status description: bounded, one line.
pub(crate) fn status_description(message: &str) -> String {
    let line = message.lines().next().unwrap_or_default();
    match line.char_indices().nth(256) {
        Some((end, _)) => format!("{}...", &line[..end]),
        None => line.to_owned(),
    }
}
