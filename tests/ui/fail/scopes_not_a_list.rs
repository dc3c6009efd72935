use toolgroup::prelude::*;

/// A single string, not a list.
#[tool(scopes = "files:read")]
fn one_string() {}

/// The key without a value.
#[tool(scopes)]
fn bare_key() {}

/// A path, not a string literal.
#[tool(scopes = [files_read])]
fn path_item() {}

/// A number and a byte string among the strings.
#[tool(scopes = ["files:read", 7, b"admin"])]
fn mixed_items() {}

#[tool_group(name = "web", description = "A constant, not a list.", scopes = WEB, tools = [one_string])]
struct Web;

struct Files;

#[tool_group(name = "files", description = "A macro call in the list.", scopes = [concat!("files", ":read")])]
impl Files {
    /// Read.
    #[tool]
    fn read(&self) {}
}

fn main() {}
