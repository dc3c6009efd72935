use toolgroup::prelude::*;

/// A value that is neither "optional" nor "required".
#[tool(task = "always")]
async fn unknown_value() {}

/// The default, written out.
#[tool(task = "forbidden")]
async fn forbidden() {}

/// A path, not a string literal.
#[tool(task = optional)]
async fn path_value() {}

/// The key without a value.
#[tool(task)]
async fn bare_key() {}

/// Given twice.
#[tool(task = "optional", task = "required")]
async fn twice() {}

fn main() {}
