use toolgroup::prelude::*;

/// The same scope twice.
#[tool(scopes = ["files:write", "admin", "files:write"])]
fn twice() {}

/// Scopes are case-sensitive: these two differ, and are fine.
#[tool(scopes = ["Admin", "admin"])]
fn cased() {}

#[tool_group(name = "web", description = "Twice.", scopes = ["web", "web", "web"], tools = [twice, cased])]
struct Web;

struct Files;

#[tool_group(name = "files", description = "Twice.", scopes = ["files:read", "files:read"])]
impl Files {
    /// Read: its group's scope listed again is allowed.
    #[tool(scopes = ["files:read"])]
    fn read(&self) {}
}

fn main() {}
