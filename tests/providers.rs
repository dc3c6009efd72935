//! Provider renderings through the public API: golden definitions for every provider, the
//! strict-mode rules on every schema marked strict, validity against the JSON Schema 2020-12
//! meta-schema, list and mask delivery, call decoding and result messages.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use toolgroup::prelude::*;
use toolgroup::provider::{
    ANTHROPIC_MAX_STRICT_OPTIONAL_PARAMS, ANTHROPIC_MAX_STRICT_TOOLS,
    ANTHROPIC_MAX_STRICT_UNION_PARAMS, AllowMode, DecodeError, MissingCallId, NotStrict, Provider,
    Rendered, Strictness, anthropic_strict, gemini_legacy_schema, mcp_output_schema, openai_strict,
};
use toolgroup::{ArgumentsBuf, GroupId, Registry};

// ---------------------------------------------------------------------------------------
// The toolkit of the golden tests: one tool per feature a schema can have.
// ---------------------------------------------------------------------------------------

/// Which results to keep.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
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
pub enum Shape {
    /// A circle.
    Circle { radius: f64 },
    /// A square.
    Square { side: f64 },
}

/// A tree node.
#[derive(Debug, Deserialize, JsonSchema)]
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
fn ping() -> String {
    "pong".into()
}

/// Search the web.
#[tool(read_only, open_world)]
fn search(
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
fn tag(
    /// Weight per tag.
    weights: HashMap<String, u32>,
    /// Anything else.
    extra: serde_json::Value,
) -> usize {
    weights.len() + usize::from(!extra.is_null())
}

/// Draw a tree.
#[tool(destructive = false)]
fn tree(
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
fn numbers(
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
struct Core;

#[tool_group(
    name = "web",
    description = "Searching the web.",
    instructions = "Cite your sources.",
    tools = [search]
)]
struct Web;

#[tool_group(name = "data", description = "Working with data.", tools = [tag, tree, numbers])]
struct Data;

#[toolkit]
struct Kit {
    #[basic]
    core: Core,
    web: Web,
    data: Data,
}

fn kit() -> Toolkit<Kit> {
    Toolkit::new(Kit {
        core: Core,
        web: Web,
        data: Data,
    })
}

fn all_active<R: Registry>() -> Session<R> {
    let mut session = Session::new();
    for group in <R::Group as GroupId>::ALL {
        session.activate(*group);
    }
    session
}

// ---------------------------------------------------------------------------------------
// A second toolkit with many more argument shapes, for the rule checks (no goldens).
// ---------------------------------------------------------------------------------------

mod zoo {
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
}

// ---------------------------------------------------------------------------------------
// Reading schemas back out of rendered definitions.
// ---------------------------------------------------------------------------------------

/// A schema found in a rendered definition.
struct Found {
    tool: String,
    /// `parameters`, `inputSchema`, `outputSchema`...
    field: &'static str,
    schema: Value,
    /// Whether the definition marks it strict.
    strict: bool,
}

/// Every schema of every definition in a tools array of `provider`.
fn schemas_of(provider: Provider, tools: &Value) -> Vec<Found> {
    let defs: Vec<Value> = match provider {
        Provider::Gemini | Provider::GeminiLegacy => match tools.as_array().and_then(|a| a.first())
        {
            Some(wrapper) => wrapper["functionDeclarations"]
                .as_array()
                .expect("declarations")
                .clone(),
            None => Vec::new(),
        },
        _ => tools.as_array().expect("a list of tools").clone(),
    };
    let mut out = Vec::new();
    for def in &defs {
        let (tool, fields, strict): (&Value, &[&'static str], bool) = match provider {
            Provider::OpenAiChat => (
                &def["function"],
                &["parameters"],
                def["function"]["strict"] == true,
            ),
            Provider::OpenAiResponses => (def, &["parameters"], def["strict"] == true),
            Provider::Anthropic | Provider::AnthropicStrict => (
                def,
                &["input_schema"],
                def.get("strict") == Some(&json!(true)),
            ),
            Provider::Gemini => (def, &["parametersJsonSchema"], false),
            Provider::GeminiLegacy => (def, &["parameters"], false),
            Provider::Mcp => (def, &["inputSchema", "outputSchema"], false),
            other => panic!("no reader for {other}"),
        };
        for field in fields {
            if let Some(schema) = tool.get(*field) {
                out.push(Found {
                    tool: tool["name"].as_str().expect("a name").to_owned(),
                    field,
                    schema: schema.clone(),
                    strict: strict && *field != "outputSchema",
                });
            }
        }
    }
    out
}

fn strictness_table<R: Registry>(rendered: &Rendered<R>) -> Vec<(&'static str, String)> {
    rendered
        .entries()
        .map(|e| {
            let s = match e.strictness {
                Strictness::Strict => "strict".to_owned(),
                Strictness::NotApplicable => "-".to_owned(),
                Strictness::Fallback(why) => format!("fallback: {why}"),
            };
            (e.name, s)
        })
        .collect()
}

/// One rendered definition, parsed.
fn definition<R: Registry>(rendered: &Rendered<R>, name: &str) -> Value {
    let tool = rendered
        .get(name)
        .unwrap_or_else(|| panic!("no tool `{name}`"));
    serde_json::from_str(tool.json.get()).expect("valid JSON")
}

// ---------------------------------------------------------------------------------------
// Goldens: every definition of every provider, exactly.
// ---------------------------------------------------------------------------------------

use toolgroup::RESET_TOOLS_DESCRIPTION;

#[test]
fn golden_openai_chat() {
    let r = Rendered::new(&kit(), Provider::OpenAiChat);
    assert_eq!(
        definition(&r, "reset_tools"),
        json!({
            "type": "function",
            "function": {
                "name": "reset_tools",
                "description": RESET_TOOLS_DESCRIPTION,
                "parameters": {
                    "type": "object",
                    "properties": {
                        "web": {"type": "boolean", "description": "Searching the web."},
                        "data": {"type": "boolean", "description": "Working with data."},
                    },
                    "required": ["web", "data"],
                    "additionalProperties": false,
                },
                "strict": true,
            },
        })
    );
    assert_eq!(
        definition(&r, "ping"),
        json!({
            "type": "function",
            "function": {
                "name": "ping",
                "description": "Check that the service answers.",
                "parameters": {
                    "type": "object",
                    "additionalProperties": false,
                    "properties": {},
                    "required": [],
                },
                "strict": true,
            },
        })
    );
    assert_eq!(
        definition(&r, "search"),
        json!({
            "type": "function",
            "function": {
                "name": "search",
                "description": "Search the web.",
                "parameters": {
                    "type": "object",
                    "additionalProperties": false,
                    "properties": {
                        "query": {"type": "string", "description": "What to search for."},
                        "limit": {"type": ["integer", "null"], "description": "How many results."},
                        "filter": {
                            "anyOf": [{"$ref": "#/$defs/Filter"}, {"type": "null"}],
                            "description": "Which results to keep.",
                        },
                    },
                    "required": ["query", "limit", "filter"],
                    "$defs": {
                        "Filter": {
                            "type": "object",
                            "additionalProperties": false,
                            "properties": {
                                "max_age_days": {
                                    "type": ["integer", "null"],
                                    "description": "Only results newer than this many days.",
                                },
                                "domains": {
                                    "type": "array",
                                    "items": {"type": "string"},
                                    "description": "Domains to search.",
                                },
                                "sort": {
                                    "anyOf": [{"$ref": "#/$defs/Sort"}, {"type": "null"}],
                                    "description": "How to order the results.",
                                },
                            },
                            "required": ["max_age_days", "domains", "sort"],
                            "description": "Which results to keep.",
                        },
                        "Sort": {
                            "anyOf": [
                                {
                                    "type": "string",
                                    "enum": ["relevance"],
                                    "description": "Best match first.",
                                },
                                {
                                    "type": "string",
                                    "enum": ["newest"],
                                    "description": "Newest first.",
                                },
                            ],
                            "description": "Result order.",
                        },
                    },
                },
                "strict": true,
            },
        })
    );
    assert_eq!(
        definition(&r, "tag"),
        json!({
            "type": "function",
            "function": {
                "name": "tag",
                "description": "Weigh tags.",
                "parameters": {
                    "type": "object",
                    "additionalProperties": false,
                    "properties": {
                        "weights": {
                            "type": "object",
                            "additionalProperties": {
                                "type": "integer",
                                "format": "uint32",
                                "minimum": 0,
                            },
                            "description": "Weight per tag.",
                        },
                        "extra": {"description": "Anything else."},
                    },
                    "required": ["weights", "extra"],
                },
                "strict": false,
            },
        })
    );
    assert_eq!(
        definition(&r, "tree"),
        json!({
            "type": "function",
            "function": {
                "name": "tree",
                "description": "Draw a tree.",
                "parameters": {
                    "type": "object",
                    "additionalProperties": false,
                    "properties": {
                        "root": {
                            "type": "object",
                            "properties": {
                                "name": {"type": "string", "description": "The node's name."},
                                "children": {
                                    "type": "array",
                                    "items": {"$ref": "#/$defs/Node"},
                                    "description": "Its children.",
                                },
                            },
                            "required": ["name", "children"],
                            "description": "The root node.",
                            "additionalProperties": false,
                        },
                        "shape": {
                            "anyOf": [
                                {
                                    "type": "object",
                                    "properties": {
                                        "kind": {"type": "string", "enum": ["circle"]},
                                        "radius": {"type": "number"},
                                    },
                                    "required": ["kind", "radius"],
                                    "description": "A circle.",
                                    "additionalProperties": false,
                                },
                                {
                                    "type": "object",
                                    "properties": {
                                        "kind": {"type": "string", "enum": ["square"]},
                                        "side": {"type": "number"},
                                    },
                                    "required": ["kind", "side"],
                                    "description": "A square.",
                                    "additionalProperties": false,
                                },
                            ],
                            "description": "The frame's shape.",
                        },
                    },
                    "required": ["root", "shape"],
                    "$defs": {
                        "Node": {
                            "type": "object",
                            "properties": {
                                "name": {"type": "string", "description": "The node's name."},
                                "children": {
                                    "type": "array",
                                    "items": {"$ref": "#/$defs/Node"},
                                    "description": "Its children.",
                                },
                            },
                            "required": ["name", "children"],
                            "description": "A tree node.",
                            "additionalProperties": false,
                        },
                    },
                },
                "strict": true,
            },
        })
    );
    assert_eq!(
        definition(&r, "numbers"),
        json!({
            "type": "function",
            "function": {
                "name": "numbers",
                "description": "Summarise numbers.",
                "parameters": {
                    "type": "object",
                    "additionalProperties": false,
                    "properties": {
                        "small": {
                            "type": "integer",
                            "format": "uint8",
                            "minimum": 0,
                            "maximum": 255,
                            "description": "A small number.",
                        },
                        "offset": {
                            "type": "integer",
                            "format": "int64",
                            "description": "An offset.",
                        },
                        "retries": {
                            "type": "integer",
                            "format": "uint8",
                            "minimum": 0,
                            "maximum": 255,
                            "description": "How often to retry.",
                            "default": 0,
                        },
                    },
                    "required": ["small", "offset"],
                },
                "strict": false,
            },
        })
    );
}

#[test]
fn golden_openai_responses() {
    let r = Rendered::new(&kit(), Provider::OpenAiResponses);
    assert_eq!(
        definition(&r, "reset_tools"),
        json!({
            "type": "function",
            "name": "reset_tools",
            "description": RESET_TOOLS_DESCRIPTION,
            "parameters": {
                "type": "object",
                "properties": {
                    "web": {"type": "boolean", "description": "Searching the web."},
                    "data": {"type": "boolean", "description": "Working with data."},
                },
                "required": ["web", "data"],
                "additionalProperties": false,
            },
            "strict": true,
        })
    );
    assert_eq!(
        definition(&r, "ping"),
        json!({
            "type": "function",
            "name": "ping",
            "description": "Check that the service answers.",
            "parameters": {
                "type": "object",
                "additionalProperties": false,
                "properties": {},
                "required": [],
            },
            "strict": true,
        })
    );
    assert_eq!(
        definition(&r, "search"),
        json!({
            "type": "function",
            "name": "search",
            "description": "Search the web.",
            "parameters": {
                "type": "object",
                "additionalProperties": false,
                "properties": {
                    "query": {"type": "string", "description": "What to search for."},
                    "limit": {"type": ["integer", "null"], "description": "How many results."},
                    "filter": {
                        "anyOf": [{"$ref": "#/$defs/Filter"}, {"type": "null"}],
                        "description": "Which results to keep.",
                    },
                },
                "required": ["query", "limit", "filter"],
                "$defs": {
                    "Filter": {
                        "type": "object",
                        "additionalProperties": false,
                        "properties": {
                            "max_age_days": {
                                "type": ["integer", "null"],
                                "description": "Only results newer than this many days.",
                            },
                            "domains": {
                                "type": "array",
                                "items": {"type": "string"},
                                "description": "Domains to search.",
                            },
                            "sort": {
                                "anyOf": [{"$ref": "#/$defs/Sort"}, {"type": "null"}],
                                "description": "How to order the results.",
                            },
                        },
                        "required": ["max_age_days", "domains", "sort"],
                        "description": "Which results to keep.",
                    },
                    "Sort": {
                        "anyOf": [
                            {
                                "type": "string",
                                "enum": ["relevance"],
                                "description": "Best match first.",
                            },
                            {"type": "string", "enum": ["newest"], "description": "Newest first."},
                        ],
                        "description": "Result order.",
                    },
                },
            },
            "strict": true,
        })
    );
    assert_eq!(
        definition(&r, "tag"),
        json!({
            "type": "function",
            "name": "tag",
            "description": "Weigh tags.",
            "parameters": {
                "type": "object",
                "additionalProperties": false,
                "properties": {
                    "weights": {
                        "type": "object",
                        "additionalProperties": {
                            "type": "integer",
                            "format": "uint32",
                            "minimum": 0,
                        },
                        "description": "Weight per tag.",
                    },
                    "extra": {"description": "Anything else."},
                },
                "required": ["weights", "extra"],
            },
            "strict": false,
        })
    );
    assert_eq!(
        definition(&r, "tree"),
        json!({
            "type": "function",
            "name": "tree",
            "description": "Draw a tree.",
            "parameters": {
                "type": "object",
                "additionalProperties": false,
                "properties": {
                    "root": {
                        "type": "object",
                        "properties": {
                            "name": {"type": "string", "description": "The node's name."},
                            "children": {
                                "type": "array",
                                "items": {"$ref": "#/$defs/Node"},
                                "description": "Its children.",
                            },
                        },
                        "required": ["name", "children"],
                        "description": "The root node.",
                        "additionalProperties": false,
                    },
                    "shape": {
                        "anyOf": [
                            {
                                "type": "object",
                                "properties": {
                                    "kind": {"type": "string", "enum": ["circle"]},
                                    "radius": {"type": "number"},
                                },
                                "required": ["kind", "radius"],
                                "description": "A circle.",
                                "additionalProperties": false,
                            },
                            {
                                "type": "object",
                                "properties": {
                                    "kind": {"type": "string", "enum": ["square"]},
                                    "side": {"type": "number"},
                                },
                                "required": ["kind", "side"],
                                "description": "A square.",
                                "additionalProperties": false,
                            },
                        ],
                        "description": "The frame's shape.",
                    },
                },
                "required": ["root", "shape"],
                "$defs": {
                    "Node": {
                        "type": "object",
                        "properties": {
                            "name": {"type": "string", "description": "The node's name."},
                            "children": {
                                "type": "array",
                                "items": {"$ref": "#/$defs/Node"},
                                "description": "Its children.",
                            },
                        },
                        "required": ["name", "children"],
                        "description": "A tree node.",
                        "additionalProperties": false,
                    },
                },
            },
            "strict": true,
        })
    );
    assert_eq!(
        definition(&r, "numbers"),
        json!({
            "type": "function",
            "name": "numbers",
            "description": "Summarise numbers.",
            "parameters": {
                "type": "object",
                "additionalProperties": false,
                "properties": {
                    "small": {
                        "type": "integer",
                        "format": "uint8",
                        "minimum": 0,
                        "maximum": 255,
                        "description": "A small number.",
                    },
                    "offset": {"type": "integer", "format": "int64", "description": "An offset."},
                    "retries": {
                        "type": "integer",
                        "format": "uint8",
                        "minimum": 0,
                        "maximum": 255,
                        "description": "How often to retry.",
                        "default": 0,
                    },
                },
                "required": ["small", "offset"],
            },
            "strict": false,
        })
    );
}

#[test]
fn golden_anthropic() {
    let r = Rendered::new(&kit(), Provider::Anthropic);
    assert_eq!(
        definition(&r, "reset_tools"),
        json!({
            "name": "reset_tools",
            "description": RESET_TOOLS_DESCRIPTION,
            "input_schema": {
                "type": "object",
                "properties": {
                    "web": {"type": "boolean", "description": "Searching the web."},
                    "data": {"type": "boolean", "description": "Working with data."},
                },
                "required": ["web", "data"],
                "additionalProperties": false,
            },
        })
    );
    assert_eq!(
        definition(&r, "ping"),
        json!({
            "name": "ping",
            "description": "Check that the service answers.",
            "input_schema": {"type": "object", "additionalProperties": false},
        })
    );
    assert_eq!(
        definition(&r, "search"),
        json!({
            "name": "search",
            "description": "Search the web.",
            "input_schema": {
                "type": "object",
                "additionalProperties": false,
                "properties": {
                    "query": {"type": "string", "description": "What to search for."},
                    "limit": {
                        "type": ["integer", "null"],
                        "format": "uint32",
                        "minimum": 0,
                        "description": "How many results.",
                    },
                    "filter": {
                        "anyOf": [{"$ref": "#/$defs/Filter"}, {"type": "null"}],
                        "description": "Which results to keep.",
                    },
                },
                "required": ["query"],
                "$defs": {
                    "Filter": {
                        "type": "object",
                        "additionalProperties": false,
                        "properties": {
                            "max_age_days": {
                                "type": ["integer", "null"],
                                "format": "uint16",
                                "minimum": 0,
                                "maximum": 65535,
                                "description": "Only results newer than this many days.",
                            },
                            "domains": {
                                "type": "array",
                                "items": {"type": "string"},
                                "description": "Domains to search.",
                            },
                            "sort": {
                                "anyOf": [{"$ref": "#/$defs/Sort"}, {"type": "null"}],
                                "description": "How to order the results.",
                            },
                        },
                        "required": ["domains"],
                        "description": "Which results to keep.",
                    },
                    "Sort": {
                        "oneOf": [
                            {
                                "type": "string",
                                "const": "relevance",
                                "description": "Best match first.",
                            },
                            {"type": "string", "const": "newest", "description": "Newest first."},
                        ],
                        "description": "Result order.",
                    },
                },
            },
        })
    );
    assert_eq!(
        definition(&r, "tag"),
        json!({
            "name": "tag",
            "description": "Weigh tags.",
            "input_schema": {
                "type": "object",
                "additionalProperties": false,
                "properties": {
                    "weights": {
                        "type": "object",
                        "additionalProperties": {
                            "type": "integer",
                            "format": "uint32",
                            "minimum": 0,
                        },
                        "description": "Weight per tag.",
                    },
                    "extra": {"description": "Anything else."},
                },
                "required": ["weights", "extra"],
            },
        })
    );
    assert_eq!(
        definition(&r, "tree"),
        json!({
            "name": "tree",
            "description": "Draw a tree.",
            "input_schema": {
                "type": "object",
                "additionalProperties": false,
                "properties": {
                    "root": {"$ref": "#/$defs/Node", "description": "The root node."},
                    "shape": {"$ref": "#/$defs/Shape", "description": "The frame's shape."},
                },
                "required": ["root", "shape"],
                "$defs": {
                    "Node": {
                        "type": "object",
                        "properties": {
                            "name": {"type": "string", "description": "The node's name."},
                            "children": {
                                "type": "array",
                                "items": {"$ref": "#/$defs/Node"},
                                "description": "Its children.",
                            },
                        },
                        "required": ["name", "children"],
                        "description": "A tree node.",
                    },
                    "Shape": {
                        "oneOf": [
                            {
                                "type": "object",
                                "properties": {
                                    "kind": {"type": "string", "const": "circle"},
                                    "radius": {"type": "number", "format": "double"},
                                },
                                "required": ["kind", "radius"],
                                "description": "A circle.",
                            },
                            {
                                "type": "object",
                                "properties": {
                                    "kind": {"type": "string", "const": "square"},
                                    "side": {"type": "number", "format": "double"},
                                },
                                "required": ["kind", "side"],
                                "description": "A square.",
                            },
                        ],
                        "description": "A shape.",
                    },
                },
            },
        })
    );
    assert_eq!(
        definition(&r, "numbers"),
        json!({
            "name": "numbers",
            "description": "Summarise numbers.",
            "input_schema": {
                "type": "object",
                "additionalProperties": false,
                "properties": {
                    "small": {
                        "type": "integer",
                        "format": "uint8",
                        "minimum": 0,
                        "maximum": 255,
                        "description": "A small number.",
                    },
                    "offset": {"type": "integer", "format": "int64", "description": "An offset."},
                    "retries": {
                        "type": "integer",
                        "format": "uint8",
                        "minimum": 0,
                        "maximum": 255,
                        "description": "How often to retry.",
                        "default": 0,
                    },
                },
                "required": ["small", "offset"],
            },
        })
    );
}

#[test]
fn golden_anthropic_strict() {
    let r = Rendered::new(&kit(), Provider::AnthropicStrict);
    assert_eq!(
        definition(&r, "reset_tools"),
        json!({
            "name": "reset_tools",
            "description": RESET_TOOLS_DESCRIPTION,
            "input_schema": {
                "type": "object",
                "properties": {
                    "web": {"type": "boolean", "description": "Searching the web."},
                    "data": {"type": "boolean", "description": "Working with data."},
                },
                "required": ["web", "data"],
                "additionalProperties": false,
            },
            "strict": true,
        })
    );
    assert_eq!(
        definition(&r, "ping"),
        json!({
            "name": "ping",
            "description": "Check that the service answers.",
            "input_schema": {"type": "object", "additionalProperties": false, "properties": {}},
            "strict": true,
        })
    );
    assert_eq!(
        definition(&r, "search"),
        json!({
            "name": "search",
            "description": "Search the web.",
            "input_schema": {
                "type": "object",
                "additionalProperties": false,
                "properties": {
                    "query": {"type": "string", "description": "What to search for."},
                    "limit": {"type": ["integer", "null"], "description": "How many results."},
                    "filter": {
                        "anyOf": [{"$ref": "#/$defs/Filter"}, {"type": "null"}],
                        "description": "Which results to keep.",
                    },
                },
                "required": ["query"],
                "$defs": {
                    "Filter": {
                        "type": "object",
                        "additionalProperties": false,
                        "properties": {
                            "max_age_days": {
                                "type": ["integer", "null"],
                                "description": "Only results newer than this many days.",
                            },
                            "domains": {
                                "type": "array",
                                "items": {"type": "string"},
                                "description": "Domains to search.",
                            },
                            "sort": {
                                "anyOf": [{"$ref": "#/$defs/Sort"}, {"type": "null"}],
                                "description": "How to order the results.",
                            },
                        },
                        "required": ["domains"],
                        "description": "Which results to keep.",
                    },
                    "Sort": {
                        "anyOf": [
                            {
                                "type": "string",
                                "enum": ["relevance"],
                                "description": "Best match first.",
                            },
                            {"type": "string", "enum": ["newest"], "description": "Newest first."},
                        ],
                        "description": "Result order.",
                    },
                },
            },
            "strict": true,
        })
    );
    assert_eq!(
        definition(&r, "tag"),
        json!({
            "name": "tag",
            "description": "Weigh tags.",
            "input_schema": {
                "type": "object",
                "additionalProperties": false,
                "properties": {
                    "weights": {
                        "type": "object",
                        "additionalProperties": {
                            "type": "integer",
                            "format": "uint32",
                            "minimum": 0,
                        },
                        "description": "Weight per tag.",
                    },
                    "extra": {"description": "Anything else."},
                },
                "required": ["weights", "extra"],
            },
        })
    );
    assert_eq!(
        definition(&r, "tree"),
        json!({
            "name": "tree",
            "description": "Draw a tree.",
            "input_schema": {
                "type": "object",
                "additionalProperties": false,
                "properties": {
                    "root": {"$ref": "#/$defs/Node", "description": "The root node."},
                    "shape": {"$ref": "#/$defs/Shape", "description": "The frame's shape."},
                },
                "required": ["root", "shape"],
                "$defs": {
                    "Node": {
                        "type": "object",
                        "properties": {
                            "name": {"type": "string", "description": "The node's name."},
                            "children": {
                                "type": "array",
                                "items": {"$ref": "#/$defs/Node"},
                                "description": "Its children.",
                            },
                        },
                        "required": ["name", "children"],
                        "description": "A tree node.",
                    },
                    "Shape": {
                        "oneOf": [
                            {
                                "type": "object",
                                "properties": {
                                    "kind": {"type": "string", "const": "circle"},
                                    "radius": {"type": "number", "format": "double"},
                                },
                                "required": ["kind", "radius"],
                                "description": "A circle.",
                            },
                            {
                                "type": "object",
                                "properties": {
                                    "kind": {"type": "string", "const": "square"},
                                    "side": {"type": "number", "format": "double"},
                                },
                                "required": ["kind", "side"],
                                "description": "A square.",
                            },
                        ],
                        "description": "A shape.",
                    },
                },
            },
        })
    );
    assert_eq!(
        definition(&r, "numbers"),
        json!({
            "name": "numbers",
            "description": "Summarise numbers.",
            "input_schema": {
                "type": "object",
                "additionalProperties": false,
                "properties": {
                    "small": {"type": "integer", "description": "A small number."},
                    "offset": {"type": "integer", "description": "An offset."},
                    "retries": {"type": "integer", "description": "How often to retry."},
                },
                "required": ["small", "offset"],
            },
            "strict": true,
        })
    );
}

#[test]
fn golden_gemini() {
    let r = Rendered::new(&kit(), Provider::Gemini);
    assert_eq!(
        definition(&r, "reset_tools"),
        json!({
            "name": "reset_tools",
            "description": RESET_TOOLS_DESCRIPTION,
            "parametersJsonSchema": {
                "type": "object",
                "properties": {
                    "web": {"type": "boolean", "description": "Searching the web."},
                    "data": {"type": "boolean", "description": "Working with data."},
                },
                "required": ["web", "data"],
                "additionalProperties": false,
            },
        })
    );
    assert_eq!(
        definition(&r, "ping"),
        json!({"name": "ping", "description": "Check that the service answers."})
    );
    assert_eq!(
        definition(&r, "search"),
        json!({
            "name": "search",
            "description": "Search the web.",
            "parametersJsonSchema": {
                "type": "object",
                "additionalProperties": false,
                "properties": {
                    "query": {"type": "string", "description": "What to search for."},
                    "limit": {
                        "type": ["integer", "null"],
                        "format": "uint32",
                        "minimum": 0,
                        "description": "How many results.",
                    },
                    "filter": {
                        "anyOf": [{"$ref": "#/$defs/Filter"}, {"type": "null"}],
                        "description": "Which results to keep.",
                    },
                },
                "required": ["query"],
                "$defs": {
                    "Filter": {
                        "type": "object",
                        "additionalProperties": false,
                        "properties": {
                            "max_age_days": {
                                "type": ["integer", "null"],
                                "format": "uint16",
                                "minimum": 0,
                                "maximum": 65535,
                                "description": "Only results newer than this many days.",
                            },
                            "domains": {
                                "type": "array",
                                "items": {"type": "string"},
                                "description": "Domains to search.",
                            },
                            "sort": {
                                "anyOf": [{"$ref": "#/$defs/Sort"}, {"type": "null"}],
                                "description": "How to order the results.",
                            },
                        },
                        "required": ["domains"],
                        "description": "Which results to keep.",
                    },
                    "Sort": {
                        "oneOf": [
                            {
                                "type": "string",
                                "const": "relevance",
                                "description": "Best match first.",
                            },
                            {"type": "string", "const": "newest", "description": "Newest first."},
                        ],
                        "description": "Result order.",
                    },
                },
            },
        })
    );
    assert_eq!(
        definition(&r, "tag"),
        json!({
            "name": "tag",
            "description": "Weigh tags.",
            "parametersJsonSchema": {
                "type": "object",
                "additionalProperties": false,
                "properties": {
                    "weights": {
                        "type": "object",
                        "additionalProperties": {
                            "type": "integer",
                            "format": "uint32",
                            "minimum": 0,
                        },
                        "description": "Weight per tag.",
                    },
                    "extra": {"description": "Anything else."},
                },
                "required": ["weights", "extra"],
            },
        })
    );
    assert_eq!(
        definition(&r, "tree"),
        json!({
            "name": "tree",
            "description": "Draw a tree.",
            "parametersJsonSchema": {
                "type": "object",
                "additionalProperties": false,
                "properties": {
                    "root": {"$ref": "#/$defs/Node", "description": "The root node."},
                    "shape": {"$ref": "#/$defs/Shape", "description": "The frame's shape."},
                },
                "required": ["root", "shape"],
                "$defs": {
                    "Node": {
                        "type": "object",
                        "properties": {
                            "name": {"type": "string", "description": "The node's name."},
                            "children": {
                                "type": "array",
                                "items": {"$ref": "#/$defs/Node"},
                                "description": "Its children.",
                            },
                        },
                        "required": ["name", "children"],
                        "description": "A tree node.",
                    },
                    "Shape": {
                        "oneOf": [
                            {
                                "type": "object",
                                "properties": {
                                    "kind": {"type": "string", "const": "circle"},
                                    "radius": {"type": "number", "format": "double"},
                                },
                                "required": ["kind", "radius"],
                                "description": "A circle.",
                            },
                            {
                                "type": "object",
                                "properties": {
                                    "kind": {"type": "string", "const": "square"},
                                    "side": {"type": "number", "format": "double"},
                                },
                                "required": ["kind", "side"],
                                "description": "A square.",
                            },
                        ],
                        "description": "A shape.",
                    },
                },
            },
        })
    );
    assert_eq!(
        definition(&r, "numbers"),
        json!({
            "name": "numbers",
            "description": "Summarise numbers.",
            "parametersJsonSchema": {
                "type": "object",
                "additionalProperties": false,
                "properties": {
                    "small": {
                        "type": "integer",
                        "format": "uint8",
                        "minimum": 0,
                        "maximum": 255,
                        "description": "A small number.",
                    },
                    "offset": {"type": "integer", "format": "int64", "description": "An offset."},
                    "retries": {
                        "type": "integer",
                        "format": "uint8",
                        "minimum": 0,
                        "maximum": 255,
                        "description": "How often to retry.",
                        "default": 0,
                    },
                },
                "required": ["small", "offset"],
            },
        })
    );
}

#[test]
fn golden_gemini_legacy() {
    let r = Rendered::new(&kit(), Provider::GeminiLegacy);
    assert_eq!(
        definition(&r, "reset_tools"),
        json!({
            "name": "reset_tools",
            "description": RESET_TOOLS_DESCRIPTION,
            "parameters": {
                "type": "object",
                "properties": {
                    "web": {"type": "boolean", "description": "Searching the web."},
                    "data": {"type": "boolean", "description": "Working with data."},
                },
                "required": ["web", "data"],
            },
        })
    );
    assert_eq!(
        definition(&r, "ping"),
        json!({"name": "ping", "description": "Check that the service answers."})
    );
    assert_eq!(
        definition(&r, "search"),
        json!({
            "name": "search",
            "description": "Search the web.",
            "parameters": {
                "type": "object",
                "properties": {
                    "query": {"type": "string", "description": "What to search for."},
                    "limit": {
                        "type": "integer",
                        "description": "How many results.",
                        "nullable": true,
                        "minimum": 0,
                    },
                    "filter": {
                        "type": "object",
                        "description": "Which results to keep.",
                        "nullable": true,
                        "properties": {
                            "max_age_days": {
                                "type": "integer",
                                "description": "Only results newer than this many days.",
                                "nullable": true,
                                "minimum": 0,
                                "maximum": 65535,
                            },
                            "domains": {
                                "type": "array",
                                "description": "Domains to search.",
                                "items": {"type": "string"},
                            },
                            "sort": {
                                "type": "string",
                                "description": "How to order the results. `relevance`: Best match first. `newest`: Newest first.",
                                "nullable": true,
                                "enum": ["relevance", "newest"],
                            },
                        },
                        "required": ["domains"],
                    },
                },
                "required": ["query"],
            },
        })
    );
    assert_eq!(
        definition(&r, "tag"),
        json!({
            "name": "tag",
            "description": "Weigh tags.",
            "parameters": {
                "type": "object",
                "properties": {
                    "weights": {"type": "object", "description": "Weight per tag."},
                    "extra": {"type": "object", "description": "Anything else."},
                },
                "required": ["weights", "extra"],
            },
        })
    );
    assert_eq!(
        definition(&r, "tree"),
        json!({
            "name": "tree",
            "description": "Draw a tree.",
            "parameters": {
                "type": "object",
                "properties": {
                    "root": {
                        "type": "object",
                        "description": "The root node.",
                        "properties": {
                            "name": {"type": "string", "description": "The node's name."},
                            "children": {
                                "type": "array",
                                "description": "Its children.",
                                "items": {"type": "object", "description": "A tree node."},
                            },
                        },
                        "required": ["name", "children"],
                    },
                    "shape": {
                        "type": "object",
                        "description": "The frame's shape.",
                        "anyOf": [
                            {
                                "type": "object",
                                "description": "A circle.",
                                "properties": {
                                    "kind": {"type": "string", "enum": ["circle"]},
                                    "radius": {"type": "number", "format": "double"},
                                },
                                "required": ["kind", "radius"],
                            },
                            {
                                "type": "object",
                                "description": "A square.",
                                "properties": {
                                    "kind": {"type": "string", "enum": ["square"]},
                                    "side": {"type": "number", "format": "double"},
                                },
                                "required": ["kind", "side"],
                            },
                        ],
                    },
                },
                "required": ["root", "shape"],
            },
        })
    );
    assert_eq!(
        definition(&r, "numbers"),
        json!({
            "name": "numbers",
            "description": "Summarise numbers.",
            "parameters": {
                "type": "object",
                "properties": {
                    "small": {
                        "type": "integer",
                        "description": "A small number.",
                        "minimum": 0,
                        "maximum": 255,
                    },
                    "offset": {"type": "integer", "format": "int64", "description": "An offset."},
                    "retries": {
                        "type": "integer",
                        "description": "How often to retry.",
                        "minimum": 0,
                        "maximum": 255,
                    },
                },
                "required": ["small", "offset"],
            },
        })
    );
}

#[test]
fn golden_mcp() {
    let r = Rendered::new(&kit(), Provider::Mcp);
    assert_eq!(
        definition(&r, "reset_tools"),
        json!({
            "name": "reset_tools",
            "description": RESET_TOOLS_DESCRIPTION,
            "inputSchema": {
                "type": "object",
                "properties": {
                    "web": {"type": "boolean", "description": "Searching the web."},
                    "data": {"type": "boolean", "description": "Working with data."},
                },
                "required": ["web", "data"],
                "additionalProperties": false,
            },
            "annotations": {
                "readOnlyHint": false,
                "destructiveHint": false,
                "idempotentHint": true,
                "openWorldHint": false,
            },
        })
    );
    assert_eq!(
        definition(&r, "ping"),
        json!({
            "name": "ping",
            "description": "Check that the service answers.",
            "inputSchema": {"type": "object", "additionalProperties": false},
        })
    );
    assert_eq!(
        definition(&r, "search"),
        json!({
            "name": "search",
            "description": "Search the web.",
            "inputSchema": {
                "type": "object",
                "additionalProperties": false,
                "properties": {
                    "query": {"type": "string", "description": "What to search for."},
                    "limit": {
                        "type": ["integer", "null"],
                        "format": "uint32",
                        "minimum": 0,
                        "description": "How many results.",
                    },
                    "filter": {
                        "anyOf": [{"$ref": "#/$defs/Filter"}, {"type": "null"}],
                        "description": "Which results to keep.",
                    },
                },
                "required": ["query"],
                "$defs": {
                    "Filter": {
                        "type": "object",
                        "additionalProperties": false,
                        "properties": {
                            "max_age_days": {
                                "type": ["integer", "null"],
                                "format": "uint16",
                                "minimum": 0,
                                "maximum": 65535,
                                "description": "Only results newer than this many days.",
                            },
                            "domains": {
                                "type": "array",
                                "items": {"type": "string"},
                                "description": "Domains to search.",
                            },
                            "sort": {
                                "anyOf": [{"$ref": "#/$defs/Sort"}, {"type": "null"}],
                                "description": "How to order the results.",
                            },
                        },
                        "required": ["domains"],
                        "description": "Which results to keep.",
                    },
                    "Sort": {
                        "oneOf": [
                            {
                                "type": "string",
                                "const": "relevance",
                                "description": "Best match first.",
                            },
                            {"type": "string", "const": "newest", "description": "Newest first."},
                        ],
                        "description": "Result order.",
                    },
                },
            },
            "outputSchema": {
                "type": "object",
                "properties": {"result": {"type": "array", "items": {"type": "string"}}},
                "required": ["result"],
                "additionalProperties": false,
            },
            "annotations": {"readOnlyHint": true, "openWorldHint": true},
        })
    );
    assert_eq!(
        definition(&r, "tag"),
        json!({
            "name": "tag",
            "description": "Weigh tags.",
            "inputSchema": {
                "type": "object",
                "additionalProperties": false,
                "properties": {
                    "weights": {
                        "type": "object",
                        "additionalProperties": {
                            "type": "integer",
                            "format": "uint32",
                            "minimum": 0,
                        },
                        "description": "Weight per tag.",
                    },
                    "extra": {"description": "Anything else."},
                },
                "required": ["weights", "extra"],
            },
            "outputSchema": {
                "type": "object",
                "properties": {"result": {"type": "integer", "format": "uint", "minimum": 0}},
                "required": ["result"],
                "additionalProperties": false,
            },
            "annotations": {"idempotentHint": true},
        })
    );
    assert_eq!(
        definition(&r, "tree"),
        json!({
            "name": "tree",
            "description": "Draw a tree.",
            "inputSchema": {
                "type": "object",
                "additionalProperties": false,
                "properties": {
                    "root": {"$ref": "#/$defs/Node", "description": "The root node."},
                    "shape": {"$ref": "#/$defs/Shape", "description": "The frame's shape."},
                },
                "required": ["root", "shape"],
                "$defs": {
                    "Node": {
                        "type": "object",
                        "properties": {
                            "name": {"type": "string", "description": "The node's name."},
                            "children": {
                                "type": "array",
                                "items": {"$ref": "#/$defs/Node"},
                                "description": "Its children.",
                            },
                        },
                        "required": ["name", "children"],
                        "description": "A tree node.",
                    },
                    "Shape": {
                        "oneOf": [
                            {
                                "type": "object",
                                "properties": {
                                    "kind": {"type": "string", "const": "circle"},
                                    "radius": {"type": "number", "format": "double"},
                                },
                                "required": ["kind", "radius"],
                                "description": "A circle.",
                            },
                            {
                                "type": "object",
                                "properties": {
                                    "kind": {"type": "string", "const": "square"},
                                    "side": {"type": "number", "format": "double"},
                                },
                                "required": ["kind", "side"],
                                "description": "A square.",
                            },
                        ],
                        "description": "A shape.",
                    },
                },
            },
            "annotations": {"destructiveHint": false},
        })
    );
    assert_eq!(
        definition(&r, "numbers"),
        json!({
            "name": "numbers",
            "description": "Summarise numbers.",
            "inputSchema": {
                "type": "object",
                "additionalProperties": false,
                "properties": {
                    "small": {
                        "type": "integer",
                        "format": "uint8",
                        "minimum": 0,
                        "maximum": 255,
                        "description": "A small number.",
                    },
                    "offset": {"type": "integer", "format": "int64", "description": "An offset."},
                    "retries": {
                        "type": "integer",
                        "format": "uint8",
                        "minimum": 0,
                        "maximum": 255,
                        "description": "How often to retry.",
                        "default": 0,
                    },
                },
                "required": ["small", "offset"],
            },
            "outputSchema": {
                "type": "object",
                "properties": {
                    "count": {
                        "type": "integer",
                        "format": "uint32",
                        "minimum": 0,
                        "description": "How many numbers.",
                    },
                    "mean": {"type": "number", "format": "double", "description": "Their mean."},
                },
                "required": ["count", "mean"],
                "description": "Summary statistics.",
            },
        })
    );
}
