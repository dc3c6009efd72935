use toolgroup::prelude::*;

/// Unknown key.
#[tool(nmae = "x")]
fn unknown_key() {}

/// Duplicate key.
#[tool(name = "a", name = "b")]
fn duplicate_key() {}

/// Bad timeout.
#[tool(timeout = "soon")]
fn bad_timeout() {}

/// Bad flag.
#[tool(read_only = "yes")]
fn bad_flag() {}

/// Contradicting hints.
#[tool(read_only, destructive)]
fn contradicting_hints() {}

/// Not on a function.
#[tool]
struct NotAFunction;

fn main() {}
