use toolgroup::prelude::*;

/// Reserved.
#[tool]
fn reset_tools() {}

/// Reserved by override.
#[tool(name = "reset_tools")]
fn other() {}

/// Dots are rejected by OpenAI.
#[tool(name = "web.search")]
fn dotted() {}

/// Too long.
#[tool(name = "a_name_that_is_far_too_long_for_any_provider_to_accept_as_a_tool_name_really")]
fn long() {}

/// Starts with a digit.
#[tool(name = "1st")]
fn first() {}

fn main() {}
