use toolgroup::prelude::*;

struct NotJson;

/// Argument type without Deserialize/JsonSchema.
#[tool]
fn bad_argument(value: NotJson) -> String {
    let _ = value;
    String::new()
}

/// Output that cannot become a tool result.
#[tool]
fn bad_output() -> NotJson {
    NotJson
}

struct NoDisplay;

/// Error type without Display.
#[tool]
fn bad_error() -> Result<String, NoDisplay> {
    Err(NoDisplay)
}

fn main() {}
