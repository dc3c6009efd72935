use toolgroup::prelude::*;

/// Search.
#[tool]
fn search() {}

/// Confirm.
#[tool]
fn confirm() {}

/// Note.
#[tool]
fn note() {}

#[tool_group(name = "web", description = "Web.", tools = [search])]
struct Web;

#[tool_group(name = "plan", description = "Plan.", tools = [confirm], turn_scoped)]
struct Plan;

#[tool_group(name = "notes", description = "Notes.", tools = [note], turn_scoped = "yes")]
struct Notes;

#[toolkit]
struct Arguments {
    #[pinned(always)]
    web: Web,
}

#[toolkit]
struct Twice {
    #[pinned]
    #[pinned]
    web: Web,
}

#[toolkit]
struct PinnedBasic {
    #[basic]
    #[pinned]
    web: Web,
}

#[toolkit]
struct PinnedTurn {
    web: Web,
    #[pinned]
    plan: Plan,
}

#[toolkit]
struct BasicTurn {
    web: Web,
    #[basic]
    plan: Plan,
}

fn main() {}
