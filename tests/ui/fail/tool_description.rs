use toolgroup::prelude::*;

#[tool]
fn undocumented(query: String) -> String {
    query
}

/// # Arguments
/// * `query` - documented, but the tool itself is not.
#[tool]
fn only_arguments(query: String) -> String {
    query
}

#[tool(description = "   ")]
fn blank(query: String) -> String {
    query
}

fn main() {}
