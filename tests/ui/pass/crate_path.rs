// The runtime reached through a renamed path (`crate = ...`), as a re-exporting crate would.
mod reexport {
    pub use toolgroup as tg;
}

/// Add one.
#[toolgroup::tool(crate = "reexport::tg")]
fn add_one(x: i32) -> i32 {
    x + 1
}

#[toolgroup::tool_group(crate = reexport::tg, name = "math", description = "Math.", tools = [add_one])]
struct Math;

#[toolgroup::toolkit(crate = "reexport::tg")]
struct Kit {
    math: Math,
}

fn main() {
    let kit = toolgroup::Toolkit::new(Kit { math: Math });
    assert_eq!(kit.all_definitions().count(), 2);
}
