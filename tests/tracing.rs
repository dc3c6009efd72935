//! Every call is one `tracing` span, `execute_tool`, whose fields follow the OpenTelemetry
//! semantic conventions for generative AI (v1.41.0, "Execute tool span"): its name for
//! OpenTelemetry, the tool, the call, how it ended and what it changed.
// Own binary: tracing caches callsite interest process-wide, racing other tests' calls.

mod common;

#[path = "tracing/capture.rs"]
mod capture;
#[path = "tracing/code.rs"]
mod code;
#[path = "tracing/fields.rs"]
mod fields;
#[path = "tracing/nesting.rs"]
mod nesting;
#[path = "tracing/outcomes.rs"]
mod outcomes;
