use toolgroup::prelude::*;

// A failed `#[tool]` still implements `Tool` (a stub, with its doc macro): the group listing
// it, the toolkit holding the group and the code calling the toolkit report nothing more,
// so each mistake gives only the tool's own error.

#[tool]
fn undocumented(query: String) -> String {
    query
}

/// Borrows its argument.
#[tool]
fn borrowed(text: &str) -> usize {
    text.len()
}

/// A reserved name.
#[tool(name = "reset_tools")]
fn reserved() {}

#[tool_group(
    name = "search",
    description = "Search.",
    tools = [undocumented, borrowed, reserved]
)]
struct Search;

#[toolkit]
struct Kit {
    search: Search,
}

fn main() {
    let kit = toolgroup::Toolkit::new(Kit { search: Search });
    let _ = kit.all_definitions().count();
}
