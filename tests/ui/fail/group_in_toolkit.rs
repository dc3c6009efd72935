use toolgroup::prelude::*;

// A failed `#[tool_group]` still implements `ToolGroup` (a stub without tools, named as
// written or after its type), and a failed `#[toolkit]` still implements `Registry`: each
// mistake gives only its own error, not one per use of the group or the toolkit.

/// Search.
#[tool]
fn search(query: String) -> String {
    query
}

#[tool_group(name = "web", tools = [search])]
struct Web;

#[tool_group(description = "Pages.", tools = [search])]
struct Pages;

struct Db;

#[tool_group(name = "db", description = "Database.")]
impl Db {
    /// Takes `&mut self`.
    #[tool]
    fn bump(&mut self) -> u8 {
        0
    }
}

#[toolkit]
struct Kit {
    web: Web,
    pages: Pages,
    db: Db,
}

#[toolkit]
struct Tuple(Web);

fn main() {
    let kit = toolgroup::Toolkit::new(Kit {
        web: Web,
        pages: Pages,
        db: Db,
    });
    let _ = kit.all_definitions().count();
    let tuple = toolgroup::Toolkit::new(Tuple(Web));
    let _ = tuple.all_definitions().count();
}
