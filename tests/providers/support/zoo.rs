//! A second toolkit with many more argument shapes, for the rule checks (no goldens).

use super::*;

/// Untagged.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Untagged {
    /// A number.
    Number(f64),
    /// A word.
    Word(String),
}

/// Adjacently tagged.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(tag = "t", content = "c")]
pub enum Adjacent {
    /// On.
    On(bool),
    /// Off.
    Off,
}

/// Externally tagged, with data.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum External {
    /// Go to a place.
    Go { to: String },
    /// Wait.
    Wait(u32),
    /// Stop.
    Stop,
}

/// Flattened arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Flat {
    /// Own field.
    pub own: String,
    /// Flattened fields.
    #[serde(flatten)]
    pub inner: Inner,
}

/// Inner fields.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct Inner {
    /// A field.
    pub field: u8,
}

/// Constrained fields.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Constrained {
    /// A name.
    #[schemars(length(min = 1, max = 20), regex(pattern = r"^[a-z]+$"))]
    pub name: String,
    /// A count.
    #[schemars(range(min = 1, max = 10))]
    pub count: u8,
    /// An email address.
    #[schemars(email)]
    pub email: String,
    /// A web address.
    #[schemars(url)]
    pub url: String,
    /// Three bytes.
    pub rgb: [u8; 3],
    /// At least one word.
    #[schemars(length(min = 1))]
    pub words: Vec<String>,
}

/// A linked list.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct Link {
    /// The value.
    pub value: i32,
    /// The rest.
    pub next: Option<Box<Link>>,
}

macro_rules! nest {
    ($last:ident) => {
        /// The innermost level.
        #[derive(Debug, Deserialize, JsonSchema)]
        pub struct $last {
            /// A leaf.
            pub leaf: bool,
        }
    };
    ($name:ident, $next:ident $(, $rest:ident)*) => {
        /// One level.
        #[derive(Debug, Deserialize, JsonSchema)]
        pub struct $name {
            /// The next level.
            pub inner: $next,
        }
        nest!($next $(, $rest)*);
    };
}
nest!(L01, L02, L03, L04, L05, L06, L07, L08, L09, L10, L11, L12);

/// A set.
#[tool]
pub fn set(tags: HashSet<String>) -> usize {
    tags.len()
}

/// A tuple.
#[tool]
pub fn pair(both: (u8, String)) -> String {
    both.1
}

/// A nested option.
#[tool]
pub fn maybe(value: Option<Option<u32>>, sort: Option<Sort>) -> bool {
    value.is_some() && sort.is_some()
}

/// A sorted map.
#[tool]
pub fn btree(map: BTreeMap<String, String>) -> usize {
    map.len()
}

/// Enum shapes.
#[tool]
pub fn enums(untagged: Untagged, adjacent: Adjacent, external: External) -> String {
    format!("{untagged:?} {adjacent:?} {external:?}")
}

/// Flattened arguments.
#[tool]
pub fn flat(#[args] args: Flat) -> String {
    format!("{} {}", args.own, args.inner.field)
}

/// Scalars.
#[tool]
pub fn scalars(c: char, b: bool, f: f32, n: i128) -> String {
    format!("{c}{b}{f}{n}")
}

/// Constraints.
#[tool]
pub fn constrained(#[args] args: Constrained) -> String {
    args.name
}

/// A list of anything.
#[tool]
pub fn values(items: Vec<serde_json::Value>) -> usize {
    items.len()
}

/// A recursive list.
#[tool]
pub fn linked(list: Link) -> i32 {
    list.value
}

/// Deep nesting.
#[tool]
pub fn deep(top: L01) -> bool {
    let _ = top;
    true
}

/// A bare enum as the whole arguments.
#[tool]
pub fn command(#[args] command: External) -> String {
    format!("{command:?}")
}

#[tool_group(
    name = "zoo",
    description = "Every shape.",
    tools = [set, pair, maybe, btree, enums, flat, scalars, constrained, values, linked, deep, command]
)]
pub struct Zoo;

#[toolkit]
pub struct ZooKit {
    #[basic]
    pub zoo: Zoo,
}

pub fn kit() -> Toolkit<ZooKit> {
    Toolkit::new(ZooKit { zoo: Zoo })
}
