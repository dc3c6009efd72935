//! Provider formats through the public API, one module per topic, in one test binary so that
//! the support module (toolkits, readers, rule checkers, goldens) is compiled once.

#[path = "../../examples/support/responses.rs"]
mod responses;
mod support;

mod calls;
mod deferred;
mod deferred_code;
mod delivery;
mod first_use;
mod golden;
mod mcp_dialect;
mod results;
mod schemas;
mod skills;
mod strict;
