use toolgroup::prelude::*;

/// A tool.
#[tool]
fn read_file(path: String) -> String {
    path
}

#[tool_group(name = "files", description = "Files.", tools = [read_file], dynamic)]
struct WithTools;

#[tool_group(name = "web", description = "Web.", dynamic)]
struct WithFields {
    url: String,
}

struct Db;

#[tool_group(name = "db", description = "Database.", dynamic)]
impl Db {
    /// Query.
    #[tool]
    fn query(&self, sql: String) -> String {
        sql
    }
}

fn main() {}
