use toolgroup::prelude::*;

/// A space separates two scopes: list them as two strings.
#[tool(scopes = ["files:read files:write"])]
fn spaced() {}

/// Quotes and backslashes are excluded.
#[tool(scopes = ["say\"hi\"", "C:\\files"])]
fn quoted() {}

/// Control characters and non-ASCII letters are excluded.
#[tool(scopes = ["tab\there", "café"])]
fn unprintable() {}

#[tool_group(name = "web", description = "A space.", scopes = [" web"], tools = [spaced])]
struct Web;

struct Files;

#[tool_group(name = "files", description = "Non-ASCII.", scopes = ["fichiers:lecture", "fichiers:écriture"])]
impl Files {
    /// Read.
    #[tool(scopes = ["files read"])]
    fn read(&self) {}
}

fn main() {}
