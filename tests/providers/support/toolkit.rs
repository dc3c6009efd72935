//! The toolkit of the golden tests: one tool per feature a schema can have. The tools read
//! some fields of their argument types only: the others are there for the schemas (hence the
//! `dead_code` allowances).

use super::*;

/// Which results to keep.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
pub struct Filter {
    /// Only results newer than this many days.
    pub max_age_days: Option<u16>,
    /// Domains to search.
    pub domains: Vec<String>,
    /// How to order the results.
    pub sort: Option<Sort>,
}

/// Result order.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Sort {
    /// Best match first.
    Relevance,
    /// Newest first.
    Newest,
}

/// A shape.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[allow(dead_code)]
pub enum Shape {
    /// A circle.
    Circle { radius: f64 },
    /// A square.
    Square { side: f64 },
}

/// A tree node.
#[derive(Debug, Deserialize, JsonSchema)]
#[allow(dead_code)]
pub struct Node {
    /// The node's name.
    pub name: String,
    /// Its children.
    pub children: Vec<Node>,
}

/// Summary statistics.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Stats {
    /// How many numbers.
    pub count: u32,
    /// Their mean.
    pub mean: f64,
}

/// Check that the service answers.
#[tool]
pub fn ping() -> String {
    "pong".into()
}

/// Search the web.
#[tool(read_only, open_world)]
pub fn search(
    /// What to search for.
    query: String,
    /// How many results.
    limit: Option<u32>,
    /// Which results to keep.
    filter: Option<Filter>,
) -> Vec<String> {
    let domains = filter.map_or(0, |f| f.domains.len());
    (0..limit.unwrap_or(2))
        .map(|i| format!("{query} #{i} ({domains} domains)"))
        .collect()
}

/// Weigh tags.
#[tool(idempotent)]
pub fn tag(
    /// Weight per tag.
    weights: HashMap<String, u32>,
    /// Anything else.
    extra: serde_json::Value,
) -> usize {
    weights.len() + usize::from(!extra.is_null())
}

/// Draw a tree.
#[tool(destructive = false)]
pub fn tree(
    /// The root node.
    root: Node,
    /// The frame's shape.
    shape: Shape,
) -> String {
    let frame = match shape {
        Shape::Circle { .. } => "circle",
        Shape::Square { .. } => "square",
    };
    format!("{} in a {frame}", root.name)
}

/// Summarise numbers.
#[tool]
pub fn numbers(
    /// A small number.
    small: u8,
    /// An offset.
    offset: i64,
    /// How often to retry.
    #[serde(default)]
    retries: u8,
) -> Result<Stats, String> {
    if small == 0 {
        return Err("nothing to summarise".to_owned());
    }
    Ok(Stats {
        count: u32::from(small) + u32::from(retries),
        mean: offset as f64,
    })
}

#[tool_group(name = "core", description = "Core tools.", tools = [ping])]
pub struct Core;

#[tool_group(
    name = "web",
    description = "Searching the web.",
    instructions = "Cite your sources.",
    tools = [search]
)]
pub struct Web;

#[tool_group(name = "data", description = "Working with data.", tools = [tag, tree, numbers])]
pub struct Data;

#[toolkit]
pub struct Kit {
    #[basic]
    core: Core,
    web: Web,
    data: Data,
}

pub fn kit() -> Toolkit<Kit> {
    Toolkit::new(Kit {
        core: Core,
        web: Web,
        data: Data,
    })
}

pub fn all_active<R: Registry>() -> Session<R> {
    let mut session = Session::new();
    for group in <R::Group as GroupId>::ALL {
        session.activate(*group);
    }
    session
}
