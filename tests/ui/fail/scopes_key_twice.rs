use toolgroup::prelude::*;

/// Two lists.
#[tool(scopes = ["files:read"], scopes = ["files:write"])]
fn two_lists() {}

#[tool_group(name = "web", description = "Two lists.", scopes = ["web"], tools = [two_lists], scopes = ["admin"])]
struct Web;

struct Files;

#[tool_group(name = "files", description = "Fine.")]
impl Files {
    /// Two lists on a method.
    #[tool(scopes = ["a"], read_only, scopes = ["b"])]
    fn read(&self) {}
}

fn main() {}
