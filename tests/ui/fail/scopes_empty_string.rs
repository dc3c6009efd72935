use toolgroup::prelude::*;

/// An empty scope.
#[tool(scopes = [""])]
fn empty() {}

/// An empty scope after a good one.
#[tool(scopes = ["files:read", ""])]
fn empty_second() {}

#[tool_group(name = "web", description = "An empty scope.", scopes = [""], tools = [empty])]
struct Web;

struct Files;

#[tool_group(name = "files", description = "Fine.", scopes = ["files:read"])]
impl Files {
    /// Read.
    #[tool(scopes = [""])]
    fn read(&self) {}
}

fn main() {}
