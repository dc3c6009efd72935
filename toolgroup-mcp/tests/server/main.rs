//! The server's tests, one module per area, in one test binary (each binary links rmcp, axum,
//! hyper, reqwest and tokio; one link instead of one per file). The modules that drive an
//! outside program (the official Python SDK, in `logging`, `elicitation` and
//! `skills_interop`) skip that part with a note unless `MCP_VENV` names a venv with the PyPI
//! `mcp` package, which `.ci/run` creates. Run them alone with
//! `cargo test -p toolgroup-mcp --test server -- logging:: elicitation:: skills_interop::`.
//!
//! The client's tests (feature `client`) are the `client` binary, the Redis store's (feature
//! `redis`) the `redis` binary.

#[path = "../support/mod.rs"]
mod support;

#[path = "../support/python.rs"]
mod python;

#[path = "../skills_support/mod.rs"]
mod skills_support;

mod activation;
mod capabilities;
mod elicitation;
mod first_use;
mod groups_ext;
mod hibernation;
mod hints;
mod http;
mod jsonrpc;
mod lifecycle;
mod lifecycle_keyed;
mod logging;
mod long_instructions;
mod modes;
mod not_offered;
mod origin;
mod raw;
mod readme;
mod selection;
mod skills;
mod skills_interop;
mod tasks;
mod tasks_bad;
