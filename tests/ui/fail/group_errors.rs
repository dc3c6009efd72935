use toolgroup::prelude::*;

/// A tool.
#[tool]
fn a() {}

struct Empty;

#[tool_group(name = "empty", description = "Nothing.")]
impl Empty {
    fn not_a_tool(&self) {}
}

#[tool_group(name = "basic", description = "Reserved.", tools = [a])]
struct Basic;

#[tool_group(name = "web-search", description = "Dash.", tools = [a])]
struct Dashed;

#[tool_group(name = "nodesc", tools = [a])]
struct NoDescription;

#[tool_group(description = "No name.", tools = [a])]
struct NoName;

#[tool_group(name = "nothing", description = "No tools.")]
struct NoTools;

#[tool_group(name = "typo", description = "Unknown key.", tols = [a])]
struct Typo;

struct Twice;

#[tool_group(name = "twice", description = "Two tools, one name.")]
impl Twice {
    /// First.
    #[tool(name = "same")]
    fn one(&self) {}
    /// Second.
    #[tool(name = "same")]
    fn two(&self) {}
}

#[tool_group(name = "not_tools", description = "Lists a function that is not a tool.", tools = [helper])]
struct NotTools;

fn helper() {}

/// First.
#[tool(name = "same")]
fn first() {}

/// Second.
#[tool(name = "same")]
fn second() {}

// Free tools' names are known only to the compiler, which checks them in a constant.
#[tool_group(name = "twice_free", description = "Two free tools, one name.", tools = [first, second])]
struct TwiceFree;

fn main() {}
