use toolgroup::prelude::*;

/// Requires nothing beyond its group's scopes: the key says nothing.
#[tool(scopes = [])]
fn nothing_more() {}

#[tool_group(name = "web", description = "Requires no scope.", scopes = [], tools = [nothing_more])]
struct Web;

struct Files;

#[tool_group(name = "files", description = "Requires no scope.", scopes = [])]
impl Files {
    /// Read.
    #[tool(scopes = [])]
    fn read(&self) {}
}

fn main() {}
