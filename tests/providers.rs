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
use toolgroup::{GroupId, Registry};

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

// The zoo's types exist for their schemas: the tools never read most of their fields.
#[allow(dead_code)]
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
            "input_schema": {"type": "object", "additionalProperties": false, "properties": {}},
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

// ---------------------------------------------------------------------------------------
// Which tools are strict, and why the others are not.
// ---------------------------------------------------------------------------------------

const MAP_REASON: &str = "is an object with free-form keys (a map such as `HashMap<String, _>`); strict mode needs every property declared";

fn table(rows: &[(&'static str, &str)]) -> Vec<(&'static str, String)> {
    rows.iter().map(|(n, s)| (*n, (*s).to_owned())).collect()
}

#[test]
fn strictness_of_each_tool() {
    let kit = kit();
    let openai = table(&[
        ("reset_tools", "strict"),
        ("ping", "strict"),
        ("search", "strict"),
        (
            "tag",
            &format!("fallback: `/properties/weights` {MAP_REASON}"),
        ),
        ("tree", "strict"),
        (
            "numbers",
            "fallback: `/properties/retries` may be omitted but cannot be null (a `#[serde(default)]` field that is not an `Option`); OpenAI strict mode requires every property, optional ones as a union with null",
        ),
    ]);
    assert_eq!(
        strictness_table(&Rendered::new(&kit, Provider::OpenAiChat)),
        openai
    );
    assert_eq!(
        strictness_table(&Rendered::new(&kit, Provider::OpenAiResponses)),
        openai
    );
    assert_eq!(
        strictness_table(&Rendered::new(&kit, Provider::AnthropicStrict)),
        table(&[
            ("reset_tools", "strict"),
            ("ping", "strict"),
            ("search", "strict"),
            (
                "tag",
                &format!("fallback: `/properties/weights` {MAP_REASON}")
            ),
            (
                "tree",
                "fallback: `/$defs/Node` is recursive (the type contains itself); Anthropic strict mode does not support recursive schemas",
            ),
            ("numbers", "strict"),
        ])
    );
    for provider in [
        Provider::Anthropic,
        Provider::Gemini,
        Provider::GeminiLegacy,
        Provider::Mcp,
    ] {
        let rendered = Rendered::new(&kit, provider);
        assert!(
            rendered
                .entries()
                .all(|e| *e.strictness == Strictness::NotApplicable),
            "{provider}"
        );
    }
}

#[test]
fn strictness_of_more_argument_shapes() {
    let zoo = zoo::kit();
    let prefix = |who: &str| {
        format!(
            "fallback: `/properties/both` uses `prefixItems`, which {who} strict mode does not support"
        )
    };
    let not_object = |who: &str| {
        format!(
            "fallback: the schema has a root that is not `\"type\": \"object\"`, which {who} strict mode requires"
        )
    };
    let any_value = "fallback: `/properties/items/items` accepts any JSON value (a `serde_json::Value`); strict mode needs a typed schema";
    assert_eq!(
        strictness_table(&Rendered::new(&zoo, Provider::OpenAiChat)),
        table(&[
            ("set", "strict"),
            ("pair", &prefix("OpenAI")),
            ("maybe", "strict"),
            (
                "btree",
                &format!("fallback: `/properties/map` {MAP_REASON}")
            ),
            ("enums", "strict"),
            ("flat", "strict"),
            ("scalars", "strict"),
            ("constrained", "strict"),
            ("values", any_value),
            ("linked", "strict"),
            (
                "deep",
                "fallback: the schema nests objects 13 levels deep; OpenAI strict mode allows 10"
            ),
            ("command", &not_object("OpenAI")),
        ])
    );
    assert_eq!(
        strictness_table(&Rendered::new(&zoo, Provider::AnthropicStrict)),
        table(&[
            ("set", "strict"),
            ("pair", &prefix("Anthropic")),
            ("maybe", "strict"),
            (
                "btree",
                &format!("fallback: `/properties/map` {MAP_REASON}")
            ),
            ("enums", "strict"),
            ("flat", "strict"),
            ("scalars", "strict"),
            ("constrained", "strict"),
            ("values", any_value),
            (
                "linked",
                "fallback: `/$defs/Link` is recursive (the type contains itself); Anthropic strict mode does not support recursive schemas",
            ),
            ("deep", "strict"),
            ("command", &not_object("Anthropic")),
        ])
    );
}

#[test]
fn constraints_and_formats_in_strict_schemas() {
    let zoo = zoo::kit();
    let constrained = |provider| {
        let def = definition(&Rendered::new(&zoo, provider), "constrained");
        let def = if provider == Provider::OpenAiChat {
            def["function"].clone()
        } else {
            def
        };
        let key = if provider == Provider::OpenAiChat {
            "parameters"
        } else {
            "input_schema"
        };
        def[key]["properties"].clone()
    };
    // OpenAI: lengths, patterns, ranges, item counts and the `uri` format are dropped.
    assert_eq!(
        constrained(Provider::OpenAiChat),
        json!({
            "name": {"type": "string", "description": "A name."},
            "count": {"type": "integer", "description": "A count."},
            "email": {"type": "string", "format": "email", "description": "An email address."},
            "url": {"type": "string", "description": "A web address."},
            "rgb": {"type": "array", "items": {"type": "integer"}, "description": "Three bytes."},
            "words": {"type": "array", "items": {"type": "string"}, "description": "At least one word."},
        })
    );
    // Anthropic keeps `uri` and a `minItems` of 0 or 1, not a `minItems` of 3.
    assert_eq!(
        constrained(Provider::AnthropicStrict),
        json!({
            "name": {"type": "string", "description": "A name."},
            "count": {"type": "integer", "description": "A count."},
            "email": {"type": "string", "format": "email", "description": "An email address."},
            "url": {"type": "string", "format": "uri", "description": "A web address."},
            "rgb": {"type": "array", "items": {"type": "integer"}, "description": "Three bytes."},
            "words": {"type": "array", "items": {"type": "string"}, "minItems": 1, "description": "At least one word."},
        })
    );
}

#[test]
fn a_non_strict_tool_keeps_its_full_schema() {
    let kit = kit();
    let tag = kit
        .all_definitions()
        .find(|d| d.name == "tag")
        .expect("tag");
    let rendered = definition(&Rendered::new(&kit, Provider::OpenAiResponses), "tag");
    assert_eq!(rendered["strict"], json!(false));
    // Only the `true` subschema of `serde_json::Value` is spelled as `{}` (here it carries a
    // description, so nothing changes at all).
    assert_eq!(rendered["parameters"], tag.input_schema);
}

// ---------------------------------------------------------------------------------------
// Anthropic's per-request budgets of strict tools.
// ---------------------------------------------------------------------------------------

mod budget {
    use super::*;

    macro_rules! simple_tools {
        ($($name:ident),*) => {$(
            /// A tool with one required parameter.
            #[tool]
            pub fn $name(x: u8) -> u8 {
                x
            }
        )*};
    }
    simple_tools!(
        t01, t02, t03, t04, t05, t06, t07, t08, t09, t10, t11, t12, t13, t14, t15, t16, t17, t18,
        t19, t20, t21
    );

    #[tool_group(
        name = "many",
        description = "Many tools.",
        tools = [t01, t02, t03, t04, t05, t06, t07, t08, t09, t10, t11, t12, t13, t14, t15, t16, t17, t18, t19, t20, t21]
    )]
    pub struct Many;

    #[toolkit]
    pub struct ManyKit {
        #[basic]
        pub many: Many,
    }

    macro_rules! optional_tools {
        ($($name:ident: $($p:ident),*;)*) => {$(
            /// A tool with optional parameters that are not unions.
            #[tool]
            pub fn $name($(#[serde(default)] $p: u8),*) -> u32 {
                0 $(+ u32::from($p))*
            }
        )*};
    }
    optional_tools! {
        opt_a: a, b, c, d, e;
        opt_b: a, b, c, d, e;
        opt_c: a, b, c, d, e;
        opt_d: a, b, c, d, e;
        opt_e: a, b, c, d, e;
        opt_f: a, b, c, d;
    }

    #[tool_group(name = "optional", description = "Optional parameters.", tools = [opt_a, opt_b, opt_c, opt_d, opt_e, opt_f])]
    pub struct Optional;

    #[toolkit]
    pub struct OptionalKit {
        #[basic]
        pub optional: Optional,
    }

    macro_rules! union_tools {
        ($($name:ident),*) => {$(
            /// A tool with five `Option` parameters: optional, and unions with null.
            #[tool]
            pub fn $name(a: Option<u8>, b: Option<u8>, c: Option<u8>, d: Option<u8>, e: Option<u8>) -> usize {
                [a, b, c, d, e].iter().flatten().count()
            }
        )*};
    }
    union_tools!(uni_a, uni_b, uni_c, uni_d);

    #[tool_group(name = "unions", description = "Union parameters.", tools = [uni_a, uni_b, uni_c, uni_d])]
    pub struct Unions;

    #[toolkit]
    pub struct UnionKit {
        #[basic]
        pub unions: Unions,
    }
}

fn fallbacks<R: Registry>(rendered: &Rendered<R>) -> Vec<(&'static str, String)> {
    strictness_table(rendered)
        .into_iter()
        .filter(|(_, s)| s != "strict")
        .collect()
}

#[test]
fn anthropic_strict_budgets_are_spent_in_listing_order() {
    let many = Toolkit::new(budget::ManyKit { many: budget::Many });
    let rendered = Rendered::new(&many, Provider::AnthropicStrict);
    assert_eq!(rendered.len(), 21);
    assert_eq!(
        fallbacks(&rendered),
        table(&[(
            "t21",
            "fallback: the schema would pass Anthropic's per-request limit of 20 strict tools, used up by the strict tools listed before it",
        )])
    );
    assert_eq!(ANTHROPIC_MAX_STRICT_TOOLS, 20);

    let optional = Toolkit::new(budget::OptionalKit {
        optional: budget::Optional,
    });
    let rendered = Rendered::new(&optional, Provider::AnthropicStrict);
    // 4 x 5 optional parameters fit in 24; a fifth tool of 5 does not; one of 4 still fits.
    assert_eq!(
        fallbacks(&rendered),
        table(&[(
            "opt_e",
            "fallback: the schema would pass Anthropic's per-request limit of 24 optional parameters across strict tools, used up by the strict tools listed before it",
        )])
    );
    assert_eq!(ANTHROPIC_MAX_STRICT_OPTIONAL_PARAMS, 24);

    let unions = Toolkit::new(budget::UnionKit {
        unions: budget::Unions,
    });
    let rendered = Rendered::new(&unions, Provider::AnthropicStrict);
    assert_eq!(
        fallbacks(&rendered),
        table(&[(
            "uni_d",
            "fallback: the schema would pass Anthropic's per-request limit of 16 union-typed parameters across strict tools, used up by the strict tools listed before it",
        )])
    );
    assert_eq!(ANTHROPIC_MAX_STRICT_UNION_PARAMS, 16);

    // OpenAI has no such budget.
    assert!(fallbacks(&Rendered::new(&many, Provider::OpenAiChat)).is_empty());
}

// ---------------------------------------------------------------------------------------
// The strict-mode rules, checked on every object of every schema marked strict. The checks
// are written from the providers' published strict-mode rules (OpenAI's structured outputs,
// Anthropic's strict tool use), independently of the renderer's code.
// ---------------------------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Rules {
    OpenAi,
    Anthropic,
}

/// Keywords neither strict mode accepts (numeric and length constraints included: OpenAI's
/// list of unsupported keywords and Anthropic's "no numeric or length constraints").
const NEVER_IN_STRICT: &[&str] = &[
    "allOf",
    "not",
    "if",
    "then",
    "else",
    "dependentRequired",
    "dependentSchemas",
    "oneOf",
    "default",
    "patternProperties",
    "unevaluatedProperties",
    "unevaluatedItems",
    "propertyNames",
    "minProperties",
    "maxProperties",
    "uniqueItems",
    "contains",
    "minContains",
    "maxContains",
    "prefixItems",
    "minLength",
    "maxLength",
    "pattern",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "maxItems",
];

fn allowed_formats(rules: Rules) -> &'static [&'static str] {
    match rules {
        Rules::OpenAi => &[
            "date-time",
            "time",
            "date",
            "duration",
            "email",
            "hostname",
            "ipv4",
            "ipv6",
            "uuid",
        ],
        Rules::Anthropic => &[
            "date-time",
            "time",
            "date",
            "duration",
            "email",
            "hostname",
            "uri",
            "ipv4",
            "ipv6",
            "uuid",
        ],
    }
}

fn pointer<'a>(root: &'a Value, reference: &str) -> Option<&'a Value> {
    root.pointer(reference.strip_prefix('#')?)
}

/// Every violation of `rules` in a strict schema.
fn strict_violations(rules: Rules, root: &Value) -> Vec<String> {
    let mut problems = Vec::new();
    if root.get("type") != Some(&json!("object")) {
        problems.push("root: not `\"type\": \"object\"`".to_owned());
    }
    if root.get("anyOf").is_some() {
        problems.push("root: `anyOf` at the root".to_owned());
    }
    check_node(rules, root, root, "", true, &mut problems);
    if rules == Rules::Anthropic
        && let Some(cycle) = find_cycle(root)
    {
        problems.push(format!("{cycle}: recursive"));
    }
    problems
}

fn check_node(
    rules: Rules,
    node: &Value,
    root: &Value,
    path: &str,
    is_root: bool,
    problems: &mut Vec<String>,
) {
    let Value::Object(map) = node else {
        problems.push(format!("{path}: a boolean schema"));
        return;
    };
    if let Some(reference) = map.get("$ref") {
        if map.len() > 1 {
            problems.push(format!("{path}: `$ref` with sibling keywords"));
        }
        if reference.as_str().and_then(|r| pointer(root, r)).is_none() {
            problems.push(format!("{path}: `$ref` to nothing"));
        }
        return;
    }
    for key in map.keys() {
        if NEVER_IN_STRICT.contains(&key.as_str()) || (key == "$defs" && !is_root) {
            problems.push(format!("{path}: `{key}`"));
        }
    }
    match (rules, map.get("minItems")) {
        (_, None) => {}
        (Rules::Anthropic, Some(n)) if *n == json!(0) || *n == json!(1) => {}
        (_, Some(n)) => problems.push(format!("{path}: `minItems` {n}")),
    }
    if let Some(format) = map.get("format")
        && !format
            .as_str()
            .is_some_and(|f| allowed_formats(rules).contains(&f))
    {
        problems.push(format!("{path}: format {format}"));
    }
    let types: Vec<&str> = match map.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    if types.is_empty() && !map.contains_key("anyOf") && !map.contains_key("enum") {
        problems.push(format!("{path}: no type"));
    }
    if types.contains(&"object") {
        if map.get("additionalProperties") != Some(&json!(false)) {
            problems.push(format!("{path}: not `additionalProperties: false`"));
        }
        let properties: BTreeSet<&str> = match map.get("properties") {
            Some(Value::Object(p)) => p.keys().map(String::as_str).collect(),
            _ => {
                problems.push(format!("{path}: no `properties`"));
                BTreeSet::new()
            }
        };
        let required: Vec<&str> = map
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let required_set: BTreeSet<&str> = required.iter().copied().collect();
        if required_set.len() != required.len() {
            problems.push(format!("{path}: duplicate `required` names"));
        }
        match rules {
            Rules::OpenAi if required_set != properties => {
                problems.push(format!("{path}: `required` is not every property"));
            }
            Rules::Anthropic if !required_set.is_subset(&properties) => {
                problems.push(format!("{path}: `required` names an undeclared property"));
            }
            _ => {}
        }
    }
    if types.contains(&"array") && !map.get("items").is_some_and(Value::is_object) {
        problems.push(format!("{path}: an array without an item schema"));
    }
    if let Some(Value::Object(props)) = map.get("properties") {
        for (name, sub) in props {
            check_node(
                rules,
                sub,
                root,
                &format!("{path}/properties/{name}"),
                false,
                problems,
            );
        }
    }
    if let Some(items) = map.get("items") {
        check_node(
            rules,
            items,
            root,
            &format!("{path}/items"),
            false,
            problems,
        );
    }
    if let Some(Value::Array(members)) = map.get("anyOf") {
        for (i, sub) in members.iter().enumerate() {
            check_node(
                rules,
                sub,
                root,
                &format!("{path}/anyOf/{i}"),
                false,
                problems,
            );
        }
    }
    if is_root && let Some(Value::Object(defs)) = map.get("$defs") {
        for (name, sub) in defs {
            check_node(rules, sub, root, &format!("/$defs/{name}"), false, problems);
        }
    }
}

/// A reference cycle reachable from the root, if any.
fn find_cycle(root: &Value) -> Option<String> {
    fn refs(node: &Value, out: &mut Vec<String>) {
        match node {
            Value::Object(map) => {
                for (key, value) in map {
                    if key == "$ref" {
                        out.extend(value.as_str().map(str::to_owned));
                    } else if key != "$defs" {
                        refs(value, out);
                    }
                }
            }
            Value::Array(items) => items.iter().for_each(|i| refs(i, out)),
            _ => {}
        }
    }
    fn visit(at: &str, root: &Value, path: &mut Vec<String>) -> Option<String> {
        if path.iter().any(|p| p == at) {
            return Some(at.to_owned());
        }
        let mut next = Vec::new();
        refs(pointer(root, at)?, &mut next);
        path.push(at.to_owned());
        let found = next.iter().find_map(|n| visit(n, root, path));
        path.pop();
        found
    }
    visit("#", root, &mut Vec::new())
}

/// (optional properties, union-typed schemas) of a schema, counted as Anthropic's limits read.
fn anthropic_costs(root: &Value) -> (usize, usize) {
    fn walk(node: &Value, optional: &mut usize, unions: &mut usize) {
        let Value::Object(map) = node else { return };
        if map.contains_key("anyOf") || map.get("type").is_some_and(Value::is_array) {
            *unions += 1;
        }
        if let Some(Value::Object(props)) = map.get("properties") {
            let required = map
                .get("required")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            *optional += props
                .keys()
                .filter(|k| !required.contains(&json!(k)))
                .count();
        }
        for (key, value) in map {
            match (key.as_str(), value) {
                ("properties" | "$defs", Value::Object(subs)) => {
                    subs.values().for_each(|s| walk(s, optional, unions))
                }
                ("anyOf", Value::Array(subs)) => {
                    subs.iter().for_each(|s| walk(s, optional, unions))
                }
                ("items", sub) => walk(sub, optional, unions),
                _ => {}
            }
        }
    }
    let (mut optional, mut unions) = (0, 0);
    walk(root, &mut optional, &mut unions);
    (optional, unions)
}

#[test]
fn the_strict_rule_checks_catch_violations() {
    let fine = json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": false});
    assert_eq!(
        strict_violations(Rules::OpenAi, &fine),
        Vec::<String>::new()
    );
    let open = json!({"type": "object", "properties": {"a": {"type": "string", "minLength": 1}}, "required": []});
    assert_eq!(
        strict_violations(Rules::OpenAi, &open),
        [
            ": not `additionalProperties: false`",
            ": `required` is not every property",
            "/properties/a: `minLength`",
        ]
    );
    let recursive = json!({
        "type": "object", "properties": {"n": {"$ref": "#/$defs/N"}}, "required": ["n"], "additionalProperties": false,
        "$defs": {"N": {"type": "object", "properties": {"next": {"$ref": "#/$defs/N"}}, "required": ["next"], "additionalProperties": false}},
    });
    assert_eq!(
        strict_violations(Rules::OpenAi, &recursive),
        Vec::<String>::new()
    );
    assert_eq!(
        strict_violations(Rules::Anthropic, &recursive),
        vec!["#/$defs/N: recursive".to_owned()]
    );
    let sibling = json!({"type": "object", "properties": {"n": {"$ref": "#/$defs/N", "description": "d"}}, "required": ["n"], "additionalProperties": false, "$defs": {"N": {"type": "string"}}});
    assert_eq!(
        strict_violations(Rules::Anthropic, &sibling),
        vec!["/properties/n: `$ref` with sibling keywords".to_owned()]
    );
}

#[test]
fn strict_rules_hold_on_every_schema_marked_strict() {
    let kit = kit();
    let zoo = zoo::kit();
    // How many schemas each provider marks strict across the four toolkits.
    for (provider, rules, expected) in [
        (Provider::OpenAiChat, Rules::OpenAi, 15),
        (Provider::OpenAiResponses, Rules::OpenAi, 15),
        (Provider::AnthropicStrict, Rules::Anthropic, 19),
    ] {
        let listings = [
            Rendered::new(&kit, provider).all_tools_value(),
            Rendered::new(&zoo, provider).all_tools_value(),
            Rendered::new(
                &Toolkit::new(budget::OptionalKit {
                    optional: budget::Optional,
                }),
                provider,
            )
            .all_tools_value(),
            Rendered::new(
                &Toolkit::new(budget::UnionKit {
                    unions: budget::Unions,
                }),
                provider,
            )
            .all_tools_value(),
        ];
        let mut checked = 0;
        for listing in &listings {
            let mut spent = (0, 0, 0);
            for found in schemas_of(provider, listing)
                .into_iter()
                .filter(|f| f.strict)
            {
                let problems = strict_violations(rules, &found.schema);
                assert!(
                    problems.is_empty(),
                    "{provider} `{}` {}: {problems:#?}",
                    found.tool,
                    found.field
                );
                let (optional, unions) = anthropic_costs(&found.schema);
                spent = (spent.0 + 1, spent.1 + optional, spent.2 + unions);
                checked += 1;
            }
            if rules == Rules::Anthropic {
                assert!(spent.0 <= ANTHROPIC_MAX_STRICT_TOOLS, "{spent:?}");
                assert!(spent.1 <= ANTHROPIC_MAX_STRICT_OPTIONAL_PARAMS, "{spent:?}");
                assert!(spent.2 <= ANTHROPIC_MAX_STRICT_UNION_PARAMS, "{spent:?}");
            }
        }
        assert_eq!(checked, expected, "{provider}: strict schemas checked");
    }
}

// ---------------------------------------------------------------------------------------
// Validity against the JSON Schema 2020-12 meta-schema.
//
// The `jsonschema` crate would add some thirty crates (and a TLS stack with its default
// features) to the lock file for one test, so this is a small evaluator of exactly the
// keywords the official meta-schema documents use (below, verbatim from json-schema.org),
// which panics on any other keyword rather than ignoring it. `$dynamicRef: "#meta"` resolves
// to the top meta-schema, which is its meaning when validation starts there (as here).
// ---------------------------------------------------------------------------------------

mod meta {
    use std::collections::HashMap;

    use serde_json::Value;

    const ROOT: &str = "https://json-schema.org/draft/2020-12/schema";

    /// The 2020-12 meta-schema and its seven vocabulary meta-schemas.
    const DOCUMENTS: [&str; 8] = [
        r##"{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://json-schema.org/draft/2020-12/schema","$vocabulary":{"https://json-schema.org/draft/2020-12/vocab/core":true,"https://json-schema.org/draft/2020-12/vocab/applicator":true,"https://json-schema.org/draft/2020-12/vocab/unevaluated":true,"https://json-schema.org/draft/2020-12/vocab/validation":true,"https://json-schema.org/draft/2020-12/vocab/meta-data":true,"https://json-schema.org/draft/2020-12/vocab/format-annotation":true,"https://json-schema.org/draft/2020-12/vocab/content":true},"$dynamicAnchor":"meta","title":"Core and Validation specifications meta-schema","allOf":[{"$ref":"meta/core"},{"$ref":"meta/applicator"},{"$ref":"meta/unevaluated"},{"$ref":"meta/validation"},{"$ref":"meta/meta-data"},{"$ref":"meta/format-annotation"},{"$ref":"meta/content"}],"type":["object","boolean"],"$comment":"This meta-schema also defines keywords that have appeared in previous drafts in order to prevent incompatible extensions as they remain in common use.","properties":{"definitions":{"$comment":"\"definitions\" has been replaced by \"$defs\".","type":"object","additionalProperties":{"$dynamicRef":"#meta"},"deprecated":true,"default":{}},"dependencies":{"$comment":"\"dependencies\" has been split and replaced by \"dependentSchemas\" and \"dependentRequired\" in order to serve their differing semantics.","type":"object","additionalProperties":{"anyOf":[{"$dynamicRef":"#meta"},{"$ref":"meta/validation#/$defs/stringArray"}]},"deprecated":true,"default":{}},"$recursiveAnchor":{"$comment":"\"$recursiveAnchor\" has been replaced by \"$dynamicAnchor\".","$ref":"meta/core#/$defs/anchorString","deprecated":true},"$recursiveRef":{"$comment":"\"$recursiveRef\" has been replaced by \"$dynamicRef\".","$ref":"meta/core#/$defs/uriReferenceString","deprecated":true}}}"##,
        r##"{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://json-schema.org/draft/2020-12/meta/core","$vocabulary":{"https://json-schema.org/draft/2020-12/vocab/core":true},"$dynamicAnchor":"meta","title":"Core vocabulary meta-schema","type":["object","boolean"],"properties":{"$id":{"$ref":"#/$defs/uriReferenceString","$comment":"Non-empty fragments not allowed.","pattern":"^[^#]*#?$"},"$schema":{"$ref":"#/$defs/uriString"},"$ref":{"$ref":"#/$defs/uriReferenceString"},"$anchor":{"$ref":"#/$defs/anchorString"},"$dynamicRef":{"$ref":"#/$defs/uriReferenceString"},"$dynamicAnchor":{"$ref":"#/$defs/anchorString"},"$vocabulary":{"type":"object","propertyNames":{"$ref":"#/$defs/uriString"},"additionalProperties":{"type":"boolean"}},"$comment":{"type":"string"},"$defs":{"type":"object","additionalProperties":{"$dynamicRef":"#meta"}}},"$defs":{"anchorString":{"type":"string","pattern":"^[A-Za-z_][-A-Za-z0-9._]*$"},"uriString":{"type":"string","format":"uri"},"uriReferenceString":{"type":"string","format":"uri-reference"}}}"##,
        r##"{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://json-schema.org/draft/2020-12/meta/applicator","$vocabulary":{"https://json-schema.org/draft/2020-12/vocab/applicator":true},"$dynamicAnchor":"meta","title":"Applicator vocabulary meta-schema","type":["object","boolean"],"properties":{"prefixItems":{"$ref":"#/$defs/schemaArray"},"items":{"$dynamicRef":"#meta"},"contains":{"$dynamicRef":"#meta"},"additionalProperties":{"$dynamicRef":"#meta"},"properties":{"type":"object","additionalProperties":{"$dynamicRef":"#meta"},"default":{}},"patternProperties":{"type":"object","additionalProperties":{"$dynamicRef":"#meta"},"propertyNames":{"format":"regex"},"default":{}},"dependentSchemas":{"type":"object","additionalProperties":{"$dynamicRef":"#meta"},"default":{}},"propertyNames":{"$dynamicRef":"#meta"},"if":{"$dynamicRef":"#meta"},"then":{"$dynamicRef":"#meta"},"else":{"$dynamicRef":"#meta"},"allOf":{"$ref":"#/$defs/schemaArray"},"anyOf":{"$ref":"#/$defs/schemaArray"},"oneOf":{"$ref":"#/$defs/schemaArray"},"not":{"$dynamicRef":"#meta"}},"$defs":{"schemaArray":{"type":"array","minItems":1,"items":{"$dynamicRef":"#meta"}}}}"##,
        r##"{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://json-schema.org/draft/2020-12/meta/unevaluated","$vocabulary":{"https://json-schema.org/draft/2020-12/vocab/unevaluated":true},"$dynamicAnchor":"meta","title":"Unevaluated applicator vocabulary meta-schema","type":["object","boolean"],"properties":{"unevaluatedItems":{"$dynamicRef":"#meta"},"unevaluatedProperties":{"$dynamicRef":"#meta"}}}"##,
        r##"{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://json-schema.org/draft/2020-12/meta/validation","$vocabulary":{"https://json-schema.org/draft/2020-12/vocab/validation":true},"$dynamicAnchor":"meta","title":"Validation vocabulary meta-schema","type":["object","boolean"],"properties":{"type":{"anyOf":[{"$ref":"#/$defs/simpleTypes"},{"type":"array","items":{"$ref":"#/$defs/simpleTypes"},"minItems":1,"uniqueItems":true}]},"const":true,"enum":{"type":"array","items":true},"multipleOf":{"type":"number","exclusiveMinimum":0},"maximum":{"type":"number"},"exclusiveMaximum":{"type":"number"},"minimum":{"type":"number"},"exclusiveMinimum":{"type":"number"},"maxLength":{"$ref":"#/$defs/nonNegativeInteger"},"minLength":{"$ref":"#/$defs/nonNegativeIntegerDefault0"},"pattern":{"type":"string","format":"regex"},"maxItems":{"$ref":"#/$defs/nonNegativeInteger"},"minItems":{"$ref":"#/$defs/nonNegativeIntegerDefault0"},"uniqueItems":{"type":"boolean","default":false},"maxContains":{"$ref":"#/$defs/nonNegativeInteger"},"minContains":{"$ref":"#/$defs/nonNegativeInteger","default":1},"maxProperties":{"$ref":"#/$defs/nonNegativeInteger"},"minProperties":{"$ref":"#/$defs/nonNegativeIntegerDefault0"},"required":{"$ref":"#/$defs/stringArray"},"dependentRequired":{"type":"object","additionalProperties":{"$ref":"#/$defs/stringArray"}}},"$defs":{"nonNegativeInteger":{"type":"integer","minimum":0},"nonNegativeIntegerDefault0":{"$ref":"#/$defs/nonNegativeInteger","default":0},"simpleTypes":{"enum":["array","boolean","integer","null","number","object","string"]},"stringArray":{"type":"array","items":{"type":"string"},"uniqueItems":true,"default":[]}}}"##,
        r##"{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://json-schema.org/draft/2020-12/meta/meta-data","$vocabulary":{"https://json-schema.org/draft/2020-12/vocab/meta-data":true},"$dynamicAnchor":"meta","title":"Meta-data vocabulary meta-schema","type":["object","boolean"],"properties":{"title":{"type":"string"},"description":{"type":"string"},"default":true,"deprecated":{"type":"boolean","default":false},"readOnly":{"type":"boolean","default":false},"writeOnly":{"type":"boolean","default":false},"examples":{"type":"array","items":true}}}"##,
        r##"{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://json-schema.org/draft/2020-12/meta/format-annotation","$vocabulary":{"https://json-schema.org/draft/2020-12/vocab/format-annotation":true},"$dynamicAnchor":"meta","title":"Format vocabulary meta-schema for annotation results","type":["object","boolean"],"properties":{"format":{"type":"string"}}}"##,
        r##"{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://json-schema.org/draft/2020-12/meta/content","$vocabulary":{"https://json-schema.org/draft/2020-12/vocab/content":true},"$dynamicAnchor":"meta","title":"Content vocabulary meta-schema","type":["object","boolean"],"properties":{"contentEncoding":{"type":"string"},"contentMediaType":{"type":"string"},"contentSchema":{"$dynamicRef":"#meta"}}}"##,
    ];

    pub struct Validator {
        documents: HashMap<String, Value>,
    }

    impl Validator {
        pub fn new() -> Self {
            let documents = DOCUMENTS
                .iter()
                .map(|text| {
                    let doc: Value = serde_json::from_str(text).expect("a meta-schema document");
                    (doc["$id"].as_str().expect("an $id").to_owned(), doc)
                })
                .collect();
            Validator { documents }
        }

        /// Every place where `schema` is not a valid 2020-12 schema.
        pub fn errors(&self, schema: &Value) -> Vec<String> {
            let mut errors = Vec::new();
            self.eval(schema, &self.documents[ROOT], ROOT, "", &mut errors);
            // The vocabularies repeat some checks (`type` in each): report each failure once.
            let mut seen = std::collections::HashSet::new();
            errors.retain(|e| seen.insert(e.clone()));
            errors
        }

        fn resolve(&self, base: &str, reference: &str) -> (&Value, String) {
            let (doc, fragment) = reference.split_once('#').unwrap_or((reference, ""));
            let uri = if doc.is_empty() {
                base.to_owned()
            } else {
                format!(
                    "{}{doc}",
                    &base[..=base.rfind('/').expect("an absolute base")]
                )
            };
            let document = &self.documents[&uri];
            let target = if fragment.is_empty() {
                document
            } else {
                document
                    .pointer(fragment)
                    .unwrap_or_else(|| panic!("no {fragment} in {uri}"))
            };
            (target, uri)
        }

        fn eval(
            &self,
            instance: &Value,
            schema: &Value,
            base: &str,
            path: &str,
            errors: &mut Vec<String>,
        ) {
            let map = match schema {
                Value::Bool(true) => return,
                Value::Bool(false) => {
                    return errors.push(format!("{path}: no value is allowed here"));
                }
                Value::Object(map) => map,
                _ => panic!("not a schema: {schema}"),
            };
            let base = map.get("$id").and_then(Value::as_str).unwrap_or(base);
            for (keyword, value) in map {
                match keyword.as_str() {
                    "$schema" | "$id" | "$vocabulary" | "$dynamicAnchor" | "$comment" | "$defs"
                    | "title" | "description" | "default" | "deprecated" | "format" => {}
                    "$ref" => {
                        let (target, uri) =
                            self.resolve(base, value.as_str().expect("a reference"));
                        self.eval(instance, target, &uri, path, errors);
                    }
                    "$dynamicRef" => {
                        assert_eq!(
                            value, "#meta",
                            "the only dynamic reference of the meta-schema"
                        );
                        self.eval(instance, &self.documents[ROOT], ROOT, path, errors);
                    }
                    "allOf" => {
                        for sub in value.as_array().expect("a list") {
                            self.eval(instance, sub, base, path, errors);
                        }
                    }
                    "anyOf" => {
                        let passes = value.as_array().expect("a list").iter().any(|sub| {
                            let mut inner = Vec::new();
                            self.eval(instance, sub, base, path, &mut inner);
                            inner.is_empty()
                        });
                        if !passes {
                            errors.push(format!("{path}: matches no `anyOf` alternative"));
                        }
                    }
                    "type" => {
                        let fits = |t: &Value| match t.as_str().expect("a type name") {
                            "object" => instance.is_object(),
                            "array" => instance.is_array(),
                            "string" => instance.is_string(),
                            "boolean" => instance.is_boolean(),
                            "null" => instance.is_null(),
                            "number" => instance.is_number(),
                            "integer" => instance.as_f64().is_some_and(|n| n.fract() == 0.0),
                            other => panic!("unknown type {other}"),
                        };
                        let ok = match value {
                            Value::Array(types) => types.iter().any(fits),
                            single => fits(single),
                        };
                        if !ok {
                            errors.push(format!("{path}: not of type {value}"));
                        }
                    }
                    "enum" => {
                        if !value.as_array().expect("a list").contains(instance) {
                            errors.push(format!("{path}: not one of {value}"));
                        }
                    }
                    "properties" => {
                        if let Value::Object(object) = instance {
                            for (name, sub) in value.as_object().expect("an object") {
                                if let Some(member) = object.get(name) {
                                    self.eval(member, sub, base, &format!("{path}/{name}"), errors);
                                }
                            }
                        }
                    }
                    "additionalProperties" => {
                        assert!(
                            !map.contains_key("patternProperties"),
                            "not used by the meta-schema"
                        );
                        if let Value::Object(object) = instance {
                            let declared = map.get("properties").and_then(Value::as_object);
                            for (name, member) in object {
                                if !declared.is_some_and(|d| d.contains_key(name)) {
                                    self.eval(
                                        member,
                                        value,
                                        base,
                                        &format!("{path}/{name}"),
                                        errors,
                                    );
                                }
                            }
                        }
                    }
                    "propertyNames" => {
                        if let Value::Object(object) = instance {
                            for name in object.keys() {
                                let key = Value::String(name.clone());
                                self.eval(
                                    &key,
                                    value,
                                    base,
                                    &format!("{path}/{name} (name)"),
                                    errors,
                                );
                            }
                        }
                    }
                    "items" => {
                        if let Value::Array(items) = instance {
                            for (i, item) in items.iter().enumerate() {
                                self.eval(item, value, base, &format!("{path}/{i}"), errors);
                            }
                        }
                    }
                    "minItems" => {
                        let min = value.as_u64().expect("a count") as usize;
                        if instance.as_array().is_some_and(|a| a.len() < min) {
                            errors.push(format!("{path}: fewer than {min} items"));
                        }
                    }
                    "uniqueItems" => {
                        if value == true
                            && let Value::Array(items) = instance
                        {
                            let repeated = items
                                .iter()
                                .enumerate()
                                .any(|(i, a)| items[..i].contains(a));
                            if repeated {
                                errors.push(format!("{path}: repeated items"));
                            }
                        }
                    }
                    "minimum" => {
                        if instance
                            .as_f64()
                            .is_some_and(|n| n < value.as_f64().expect("a number"))
                        {
                            errors.push(format!("{path}: below {value}"));
                        }
                    }
                    "exclusiveMinimum" => {
                        if instance
                            .as_f64()
                            .is_some_and(|n| n <= value.as_f64().expect("a number"))
                        {
                            errors.push(format!("{path}: not above {value}"));
                        }
                    }
                    "pattern" => {
                        if let Value::String(s) = instance
                            && !matches_pattern(value.as_str().expect("a pattern"), s)
                        {
                            errors.push(format!("{path}: does not match {value}"));
                        }
                    }
                    other => panic!("the meta-schema evaluator does not know `{other}`"),
                }
            }
        }
    }

    /// The two patterns of the meta-schema, matched by hand (no regex engine here).
    fn matches_pattern(pattern: &str, s: &str) -> bool {
        match pattern {
            // `$id`: no fragment, except an empty one.
            "^[^#]*#?$" => s.find('#').is_none_or(|i| i == s.len() - 1),
            // `$anchor` and `$dynamicAnchor`.
            "^[A-Za-z_][-A-Za-z0-9._]*$" => {
                let mut chars = s.chars();
                chars
                    .next()
                    .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                    && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_'))
            }
            other => panic!("the meta-schema evaluator does not know the pattern {other}"),
        }
    }
}

#[test]
fn the_meta_schema_check_accepts_valid_and_rejects_invalid_schemas() {
    let validator = meta::Validator::new();
    for valid in [
        json!(true),
        json!({}),
        json!({"type": ["integer", "null"], "minimum": 0, "format": "uint32"}),
        json!({"$id": "https://example.com/s#", "$anchor": "_a-1.b", "$defs": {"x": false}, "$ref": "#/$defs/x"}),
        json!({"properties": {"a": {"anyOf": [{"const": 1}, {"enum": [null]}]}}, "required": ["a"], "x-custom": 1}),
        json!({"type": "object", "nullable": true, "properties": {}}),
    ] {
        assert_eq!(validator.errors(&valid), Vec::<String>::new(), "{valid}");
    }
    for (invalid, error) in [
        (json!(3), ": not of type [\"object\",\"boolean\"]"),
        (
            json!({"type": "strin"}),
            "/type: matches no `anyOf` alternative",
        ),
        (json!({"type": []}), "/type: matches no `anyOf` alternative"),
        (json!({"required": "a"}), "/required: not of type \"array\""),
        (json!({"required": ["a", "a"]}), "/required: repeated items"),
        (
            json!({"properties": {"a": 5}}),
            "/properties/a: not of type [\"object\",\"boolean\"]",
        ),
        (
            json!({"properties": {"a": {"properties": {"b": {"type": 1}}}}}),
            "/properties/a/properties/b/type: matches no `anyOf` alternative",
        ),
        (json!({"minLength": -1}), "/minLength: below 0"),
        (
            json!({"maxItems": 1.5}),
            "/maxItems: not of type \"integer\"",
        ),
        (
            json!({"items": [{"type": "string"}]}),
            "/items: not of type [\"object\",\"boolean\"]",
        ),
        (json!({"anyOf": []}), "/anyOf: fewer than 1 items"),
        (json!({"enum": 3}), "/enum: not of type \"array\""),
        (json!({"multipleOf": 0}), "/multipleOf: not above 0"),
        (
            json!({"$defs": {"a": "b"}}),
            "/$defs/a: not of type [\"object\",\"boolean\"]",
        ),
        (
            json!({"additionalProperties": {"format": 3}}),
            "/additionalProperties/format: not of type \"string\"",
        ),
        (
            json!({"$anchor": "1a"}),
            "/$anchor: does not match \"^[A-Za-z_][-A-Za-z0-9._]*$\"",
        ),
        (json!({"$id": "a#b"}), "/$id: does not match \"^[^#]*#?$\""),
        (
            json!({"dependentRequired": {"a": [1]}}),
            "/dependentRequired/a/0: not of type \"string\"",
        ),
    ] {
        assert_eq!(
            validator.errors(&invalid),
            vec![error.to_owned()],
            "{invalid}"
        );
    }
}

/// Every schema a provider rendering contains, canonical schemas included.
fn every_schema() -> Vec<(String, Value)> {
    let mut out = Vec::new();
    let kit = kit();
    let zoo = zoo::kit();
    for definition in kit.all_definitions().chain(zoo.all_definitions()) {
        out.push((
            format!("canonical {}", definition.name),
            definition.input_schema.clone(),
        ));
        if let Some(output) = &definition.output_schema {
            out.push((
                format!("canonical output {}", definition.name),
                output.clone(),
            ));
        }
    }
    for provider in Provider::ALL {
        for listing in [
            Rendered::new(&kit, *provider).all_tools_value(),
            Rendered::new(&zoo, *provider).all_tools_value(),
        ] {
            for found in schemas_of(*provider, &listing) {
                out.push((
                    format!("{provider} {} {}", found.tool, found.field),
                    found.schema,
                ));
            }
        }
    }
    out
}

#[test]
fn every_produced_schema_is_valid_json_schema_2020_12() {
    let validator = meta::Validator::new();
    let schemas = every_schema();
    // 18 tools x 2 canonical entries at most, then every provider's schemas.
    assert!(schemas.len() > 150, "{}", schemas.len());
    for (label, schema) in &schemas {
        assert_eq!(
            validator.errors(schema),
            Vec::<String>::new(),
            "{label}: {schema}"
        );
    }
}

// ---------------------------------------------------------------------------------------
// Delivery: the list mode, the mask mode and its allow-lists.
// ---------------------------------------------------------------------------------------

fn names_in(provider: Provider, tools: &Value) -> Vec<String> {
    let definitions = match provider {
        Provider::Gemini | Provider::GeminiLegacy => &tools[0]["functionDeclarations"],
        _ => tools,
    };
    let name = |d: &Value| {
        d.get("function").unwrap_or(d)["name"]
            .as_str()
            .expect("a name")
            .to_owned()
    };
    definitions
        .as_array()
        .expect("a list")
        .iter()
        .map(name)
        .collect()
}

#[test]
fn the_list_mode_lists_the_session_s_tools() {
    let kit = kit();
    let fresh = kit.session();
    let mut web = kit.session();
    web.activate(KitGroup::Web);
    for provider in Provider::ALL {
        let rendered = Rendered::new(&kit, *provider);
        let listed = |session: &Session<Kit>| {
            let names = names_in(*provider, &rendered.tools_value(&kit, session));
            let expected: Vec<String> = kit
                .definitions(session)
                .map(|d| d.name.to_owned())
                .collect();
            assert_eq!(names, expected, "{provider}");
            names
        };
        assert_eq!(listed(&fresh), ["reset_tools", "ping"]);
        assert_eq!(listed(&web), ["reset_tools", "ping", "search"]);
        assert_eq!(
            listed(&all_active()),
            ["reset_tools", "ping", "search", "tag", "tree", "numbers"]
        );
        // Every group active lists exactly what the mask mode always sends.
        assert_eq!(
            rendered.tools_json(&kit, &all_active()),
            rendered.all_tools_json(),
            "{provider}"
        );
        // Listing concatenates pre-rendered pieces into one buffer sized for the whole list:
        // it never grows, so nothing is rendered or reallocated per tool.
        let listing = rendered.tools_json(&kit, &web);
        assert_eq!(
            listing.capacity(),
            rendered.all_tools_json().len(),
            "{provider}"
        );
        // The pre-rendered piece of a tool is what the listing contains.
        assert!(listing.contains(rendered.get("search").expect("search").json.get()));
    }
}

#[test]
fn the_list_envelopes() {
    let kit = kit();
    let session = kit.session();
    let ping = |provider| definition(&Rendered::new(&kit, provider), "ping");
    let reset = |provider| definition(&Rendered::new(&kit, provider), "reset_tools");
    assert_eq!(
        Rendered::new(&kit, Provider::Gemini).tools_value(&kit, &session),
        json!([{"functionDeclarations": [reset(Provider::Gemini), ping(Provider::Gemini)]}])
    );
    for provider in [
        Provider::OpenAiChat,
        Provider::OpenAiResponses,
        Provider::Anthropic,
        Provider::Mcp,
    ] {
        assert_eq!(
            Rendered::new(&kit, provider).tools_value(&kit, &session),
            json!([reset(provider), ping(provider)])
        );
    }
}

/// A toolkit with no basic tool, used without `reset_tools`: a new session has no tool.
#[toolkit]
struct Bare {
    web: Web,
}

#[test]
fn no_tool_at_all() {
    let bare = Toolkit::new(Bare { web: Web }).with_reset_tools(false);
    let session = bare.session();
    for provider in Provider::ALL {
        let rendered = Rendered::new(&bare, *provider);
        assert_eq!(rendered.tools_json(&bare, &session), "[]", "{provider}");
    }
    let allowed =
        |provider, mode| Rendered::new(&bare, provider).allowed_tools_value(&bare, &session, mode);
    assert_eq!(
        allowed(Provider::OpenAiChat, AllowMode::Auto),
        Some(json!("none"))
    );
    assert_eq!(
        allowed(Provider::OpenAiResponses, AllowMode::Required),
        Some(json!("none"))
    );
    assert_eq!(
        allowed(Provider::Gemini, AllowMode::Auto),
        Some(json!({"functionCallingConfig": {"mode": "NONE"}}))
    );
}

#[test]
fn the_mask_mode_sends_every_tool_and_an_allow_list() {
    let kit = kit();
    let mut session = kit.session();
    session.activate(KitGroup::Data);
    let allowed =
        |provider, mode| Rendered::new(&kit, provider).allowed_tools_value(&kit, &session, mode);
    let chat_tools = json!([
        {"type": "function", "function": {"name": "reset_tools"}},
        {"type": "function", "function": {"name": "ping"}},
        {"type": "function", "function": {"name": "tag"}},
        {"type": "function", "function": {"name": "tree"}},
        {"type": "function", "function": {"name": "numbers"}},
    ]);
    assert_eq!(
        allowed(Provider::OpenAiChat, AllowMode::Auto),
        Some(
            json!({"type": "allowed_tools", "allowed_tools": {"mode": "auto", "tools": chat_tools}})
        )
    );
    assert_eq!(
        allowed(Provider::OpenAiChat, AllowMode::Required),
        Some(
            json!({"type": "allowed_tools", "allowed_tools": {"mode": "required", "tools": chat_tools}})
        )
    );
    let responses_tools = json!([
        {"type": "function", "name": "reset_tools"},
        {"type": "function", "name": "ping"},
        {"type": "function", "name": "tag"},
        {"type": "function", "name": "tree"},
        {"type": "function", "name": "numbers"},
    ]);
    assert_eq!(
        allowed(Provider::OpenAiResponses, AllowMode::Auto),
        Some(json!({"type": "allowed_tools", "mode": "auto", "tools": responses_tools}))
    );
    assert_eq!(
        allowed(Provider::OpenAiResponses, AllowMode::Required),
        Some(json!({"type": "allowed_tools", "mode": "required", "tools": responses_tools}))
    );
    let names = json!(["reset_tools", "ping", "tag", "tree", "numbers"]);
    for provider in [Provider::Gemini, Provider::GeminiLegacy] {
        assert_eq!(
            allowed(provider, AllowMode::Auto),
            Some(
                json!({"functionCallingConfig": {"mode": "VALIDATED", "allowedFunctionNames": names}})
            )
        );
        assert_eq!(
            allowed(provider, AllowMode::Required),
            Some(json!({"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": names}}))
        );
    }
    for provider in [
        Provider::Anthropic,
        Provider::AnthropicStrict,
        Provider::Mcp,
    ] {
        assert_eq!(allowed(provider, AllowMode::Auto), None, "{provider}");
    }
    // The tool array itself does not depend on the session.
    for provider in Provider::ALL {
        let rendered = Rendered::new(&kit, *provider);
        assert_eq!(
            names_in(*provider, &rendered.all_tools_value()),
            ["reset_tools", "ping", "search", "tag", "tree", "numbers"]
        );
    }
}

#[test]
#[should_panic(expected = "render them from the toolkit they serve")]
fn definitions_rendered_from_another_toolkit_are_refused() {
    let with_reset = kit();
    let rendered = Rendered::new(&with_reset, Provider::OpenAiChat);
    let without_reset = kit().with_reset_tools(false);
    let _ = rendered.tools_json(&without_reset, &without_reset.session());
}

#[test]
fn renderings_are_shared_across_threads() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<Rendered<Kit>>();
    send_sync::<DecodeError>();
    send_sync::<NotStrict>();
}

#[test]
fn provider_names() {
    for provider in Provider::ALL {
        assert_eq!(provider.name().parse::<Provider>(), Ok(*provider));
        assert_eq!(provider.to_string(), provider.name());
    }
    let unknown = "openai".parse::<Provider>().expect_err("not a provider");
    assert_eq!(
        unknown.to_string(),
        "unknown provider `openai`; expected one of `openai-chat`, `openai-responses`, `anthropic`, `anthropic-strict`, `gemini`, `gemini-legacy`, `mcp`"
    );
    assert_eq!(Provider::OpenAiChat.max_tools(), Some(128));
    assert_eq!(Provider::Gemini.max_tools(), Some(128));
    assert_eq!(Provider::Anthropic.max_tools(), None);
}

// ---------------------------------------------------------------------------------------
// The public schema transforms on their own.
// ---------------------------------------------------------------------------------------

#[test]
fn openai_strict_on_hand_written_schemas() {
    // A reference to the root is kept (OpenAI accepts recursion); its sibling is dropped.
    let schema = json!({
        "type": "object",
        "properties": {"child": {"anyOf": [{"$ref": "#", "description": "The same again."}, {"type": "null"}]}},
        "required": ["child"],
    });
    assert_eq!(
        openai_strict(&schema),
        Ok(json!({
            "type": "object",
            "properties": {"child": {"anyOf": [{"$ref": "#"}, {"type": "null"}]}},
            "required": ["child"],
            "additionalProperties": false,
        }))
    );
    assert_eq!(
        openai_strict(
            &json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/Missing"}}, "required": ["a"]})
        ),
        Err(NotStrict {
            path: "/properties/a".to_owned(),
            reason: "refers to `#/$defs/Missing`, which does not exist".to_owned(),
        })
    );
    let err = openai_strict(
        &json!({"type": "object", "properties": {"a": {"type": "string", "not": {"const": ""}}}}),
    )
    .expect_err("`not` has no strict form");
    assert_eq!(
        err.to_string(),
        "`/properties/a` uses `not`, which OpenAI strict mode does not support"
    );
    let err = anthropic_strict(&json!({"type": "object"})).expect_err("free-form");
    assert_eq!(
        err.to_string(),
        "the schema is a free-form object (no declared properties); strict mode needs every property declared"
    );
}

#[test]
fn gemini_legacy_on_hand_written_schemas() {
    let schema = json!({
        "type": "object",
        "properties": {
            "level": {"enum": [1, 2, 3], "description": "The level."},
            "mode": {"const": "fast"},
            "either": {"type": ["string", "integer", "null"]},
            "anything": true,
            "both": {"allOf": [
                {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
                {"properties": {"b": {"type": "number", "exclusiveMinimum": 0}}, "required": ["b"]},
            ]},
            "tuple": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}, {"type": "string"}], "minItems": 3},
            "list": {"type": "array"},
        },
        "additionalProperties": false,
    });
    assert_eq!(
        gemini_legacy_schema(&schema),
        json!({
            "type": "object",
            "properties": {
                "level": {"type": "integer", "description": "The level. One of: 1, 2, 3."},
                "mode": {"type": "string", "enum": ["fast"]},
                "either": {"nullable": true, "anyOf": [{"type": "string"}, {"type": "integer"}]},
                "anything": {"type": "object"},
                "both": {
                    "type": "object",
                    "properties": {"a": {"type": "string"}, "b": {"type": "number"}},
                    "required": ["a", "b"],
                },
                "tuple": {
                    "type": "array",
                    "items": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
                    "minItems": 3,
                },
                "list": {"type": "array", "items": {"type": "object"}},
            },
        })
    );
}

#[test]
fn mcp_output_schemas_are_objects() {
    let object = json!({"type": "object", "properties": {"a": {"type": "integer"}}});
    let kept = mcp_output_schema(&object);
    assert_eq!((kept.schema, kept.wrapped), (object, false));
    let list = json!({"type": "array", "items": {"$ref": "#/$defs/Item"}, "$defs": {"Item": {"type": "string"}}});
    let wrapped = mcp_output_schema(&list);
    assert!(wrapped.wrapped);
    assert_eq!(
        wrapped.schema,
        json!({
            "type": "object",
            "properties": {"result": {"type": "array", "items": {"$ref": "#/$defs/Item"}}},
            "required": ["result"],
            "additionalProperties": false,
            "$defs": {"Item": {"type": "string"}},
        })
    );
}

// ---------------------------------------------------------------------------------------
// Decoding tool calls.
// ---------------------------------------------------------------------------------------

fn text_call(id: &str, name: &str, arguments: &str) -> ToolCall {
    ToolCall::new(name, arguments).with_id(id)
}

#[test]
fn decoding_openai_chat_calls() {
    let message = json!({
        "role": "assistant",
        "content": null,
        "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "search", "arguments": "{\"query\":\"rust\"}"}},
            {"id": "call_2", "type": "function", "function": {"name": "ping", "arguments": ""}},
        ],
    });
    let expected = vec![
        text_call("call_1", "search", "{\"query\":\"rust\"}"),
        text_call("call_2", "ping", ""),
    ];
    let chat = Provider::OpenAiChat;
    assert_eq!(chat.decode_calls(&message), Ok(expected.clone()));
    assert_eq!(
        chat.decode_calls(
            &json!({"id": "chatcmpl-1", "choices": [{"index": 0, "message": message}]})
        ),
        Ok(expected.clone())
    );
    assert_eq!(chat.decode_calls(&message["tool_calls"]), Ok(expected));
    assert_eq!(
        chat.decode_calls(&json!({"role": "assistant", "content": "Hello."})),
        Ok(vec![])
    );
    assert_eq!(chat.decode_calls(&json!({"choices": []})), Ok(vec![]));
    // Some compatible servers send the arguments as an object.
    assert_eq!(
        chat.decode_calls(
            &json!([{"id": "c", "function": {"name": "search", "arguments": {"query": "x"}}}])
        ),
        Ok(vec![
            ToolCall::new("search", json!({"query": "x"})).with_id("c")
        ])
    );
    // Bad JSON arguments are no decoding error: the toolkit answers the model about them.
    assert_eq!(
        chat.decode_calls(&json!([{"id": "c", "type": "function", "function": {"name": "search", "arguments": "{oops"}}])),
        Ok(vec![text_call("c", "search", "{oops")])
    );
}

#[test]
fn decoding_openai_responses_calls() {
    let response = json!({
        "id": "resp_1",
        "output": [
            {"type": "reasoning", "id": "rs_1", "summary": []},
            {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "search", "arguments": "{\"query\":\"rust\"}"},
            {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Searching."}]},
        ],
    });
    let expected = vec![text_call("call_1", "search", "{\"query\":\"rust\"}")];
    assert_eq!(
        Provider::OpenAiResponses.decode_calls(&response),
        Ok(expected.clone())
    );
    assert_eq!(
        Provider::OpenAiResponses.decode_calls(&response["output"]),
        Ok(expected)
    );
}

#[test]
fn decoding_anthropic_calls() {
    let message = json!({
        "role": "assistant",
        "content": [
            {"type": "thinking", "thinking": "...", "signature": "s"},
            {"type": "text", "text": "Let me search."},
            {"type": "tool_use", "id": "toolu_1", "name": "search", "input": {"query": "rust"}},
            {"type": "tool_use", "id": "toolu_2", "name": "ping", "input": {}},
        ],
        "stop_reason": "tool_use",
    });
    let expected = vec![
        ToolCall::new("search", json!({"query": "rust"})).with_id("toolu_1"),
        ToolCall::new("ping", json!({})).with_id("toolu_2"),
    ];
    assert_eq!(
        Provider::Anthropic.decode_calls(&message),
        Ok(expected.clone())
    );
    assert_eq!(
        Provider::AnthropicStrict.decode_calls(&message["content"]),
        Ok(expected)
    );
    assert_eq!(
        Provider::Anthropic.decode_calls(&json!({"role": "user", "content": "Hi"})),
        Ok(vec![])
    );
}

#[test]
fn decoding_gemini_calls() {
    let response = json!({
        "candidates": [{
            "content": {
                "role": "model",
                "parts": [
                    {"text": "Searching."},
                    {"functionCall": {"name": "search", "args": {"query": "rust"}}},
                    {"functionCall": {"id": "fc_2", "name": "ping"}},
                ],
            },
            "finishReason": "STOP",
        }],
    });
    let expected = vec![
        ToolCall::new("search", json!({"query": "rust"})),
        ToolCall::new("ping", json!({})).with_id("fc_2"),
    ];
    assert_eq!(
        Provider::Gemini.decode_calls(&response),
        Ok(expected.clone())
    );
    assert_eq!(
        Provider::Gemini.decode_calls(&response["candidates"][0]["content"]),
        Ok(expected.clone())
    );
    assert_eq!(
        Provider::GeminiLegacy.decode_calls(&response["candidates"][0]["content"]["parts"]),
        Ok(expected)
    );
    // A candidate stopped before any content.
    assert_eq!(
        Provider::Gemini.decode_calls(&json!({"candidates": [{"finishReason": "SAFETY"}]})),
        Ok(vec![])
    );
    assert_eq!(
        Provider::Gemini.decode_calls(&json!([{"function_call": {"name": "ping", "args": {}}}])),
        Ok(vec![ToolCall::new("ping", json!({}))])
    );
}

#[test]
fn decoding_mcp_calls() {
    let request = json!({
        "jsonrpc": "2.0",
        "id": 7,
        "method": "tools/call",
        "params": {"name": "search", "arguments": {"query": "rust"}},
    });
    assert_eq!(
        Provider::Mcp.decode_calls(&request),
        Ok(vec![
            ToolCall::new("search", json!({"query": "rust"})).with_id("7")
        ])
    );
    assert_eq!(
        Provider::Mcp.decode_calls(&request["params"]),
        Ok(vec![ToolCall::new("search", json!({"query": "rust"}))])
    );
    assert_eq!(
        Provider::Mcp.decode_calls(&json!({"name": "ping"})),
        Ok(vec![ToolCall::new("ping", json!({}))])
    );
}

#[test]
fn malformed_payloads_are_named_errors() {
    let cases: &[(Provider, Value, &str)] = &[
        (
            Provider::OpenAiChat,
            json!(42),
            "malformed OpenAI Chat Completions tool-call payload: the payload: expected an assistant message, a response or a list of tool calls, found a number",
        ),
        (
            Provider::OpenAiChat,
            json!({"tool_calls": "search"}),
            "malformed OpenAI Chat Completions tool-call payload: tool_calls: expected a list, found a string",
        ),
        (
            Provider::OpenAiChat,
            json!({"tool_calls": [{"id": "a", "function": {"name": "x", "arguments": "{}"}}, {"id": "b", "function": {"arguments": "{}"}}]}),
            "malformed OpenAI Chat Completions tool-call payload: tool_calls[1].function.name: expected a tool name (a non-empty string), found nothing",
        ),
        (
            Provider::OpenAiChat,
            json!({"tool_calls": [{"id": "a", "function": {"name": "x", "arguments": 5}}]}),
            "malformed OpenAI Chat Completions tool-call payload: tool_calls[0].function.arguments: expected the arguments as a JSON string, found a number",
        ),
        (
            Provider::OpenAiChat,
            json!({"tool_calls": [{"function": {"name": "x", "arguments": "{}"}}]}),
            "malformed OpenAI Chat Completions tool-call payload: tool_calls[0].id: expected a string, found nothing",
        ),
        (
            Provider::OpenAiChat,
            json!({"tool_calls": [{"id": "a", "type": "custom", "custom": {"name": "x", "input": ""}}]}),
            "malformed OpenAI Chat Completions tool-call payload: tool_calls[0].type: expected \"function\" (other tool types are not toolkit tools), found a string",
        ),
        (
            Provider::OpenAiChat,
            json!({"choices": [{"message": null}]}),
            "malformed OpenAI Chat Completions tool-call payload: choices[0].message: expected an object, found null",
        ),
        (
            Provider::OpenAiResponses,
            json!({"output": {"type": "function_call"}}),
            "malformed OpenAI Responses tool-call payload: output: expected a list, found an object",
        ),
        (
            Provider::OpenAiResponses,
            json!([{"type": "function_call", "name": "x", "arguments": "{}"}]),
            "malformed OpenAI Responses tool-call payload: [0].call_id: expected a string, found nothing",
        ),
        (
            Provider::Anthropic,
            json!({"content": [{"type": "tool_use", "id": "t", "name": "x", "input": "{}"}]}),
            "malformed Anthropic tool-call payload: content[0].input: expected the arguments as an object, found a string",
        ),
        (
            Provider::Anthropic,
            json!({"content": [{"type": "tool_use", "name": "x", "input": {}}]}),
            "malformed Anthropic tool-call payload: content[0].id: expected a string, found nothing",
        ),
        (
            Provider::Anthropic,
            json!([{"text": "no type"}]),
            "malformed Anthropic tool-call payload: [0].type: expected a string, found nothing",
        ),
        (
            Provider::Gemini,
            json!({"candidates": {"content": {}}}),
            "malformed Gemini tool-call payload: candidates: expected a list of candidates, found an object",
        ),
        (
            Provider::Gemini,
            json!({"parts": [{"functionCall": {"name": "x", "args": [1]}}]}),
            "malformed Gemini tool-call payload: parts[0].functionCall.args: expected the arguments as an object, found an array",
        ),
        (
            Provider::Gemini,
            json!({"parts": [{"functionCall": {"name": ""}}]}),
            "malformed Gemini tool-call payload: parts[0].functionCall.name: expected a tool name (a non-empty string), found a string",
        ),
        (
            Provider::Mcp,
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
            "malformed MCP tool-call payload: method: expected \"tools/call\", found a string",
        ),
        (
            Provider::Mcp,
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call"}),
            "malformed MCP tool-call payload: params: expected an object, found nothing",
        ),
        (
            Provider::Mcp,
            json!({"name": "x", "arguments": [1, 2]}),
            "malformed MCP tool-call payload: arguments: expected the arguments as an object, found an array",
        ),
    ];
    for (provider, payload, message) in cases {
        let error: DecodeError = provider.decode_calls(payload).expect_err(message);
        assert_eq!(error.to_string(), *message, "{payload}");
    }
}

/// Arbitrary JSON, its object keys drawn mostly from the fields the decoders read.
fn arbitrary_json() -> impl proptest::strategy::Strategy<Value = Value> {
    use proptest::prelude::*;
    let words = prop::sample::select(vec![
        "tool_calls",
        "function",
        "name",
        "arguments",
        "id",
        "type",
        "choices",
        "message",
        "output",
        "call_id",
        "function_call",
        "content",
        "tool_use",
        "input",
        "candidates",
        "parts",
        "functionCall",
        "args",
        "method",
        "tools/call",
        "params",
        "x",
    ]);
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        words.clone().prop_map(Value::from),
    ];
    leaf.prop_recursive(5, 64, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((words.clone(), inner), 0..5).prop_map(|kv| Value::Object(
                kv.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()
            )),
        ]
    })
}

proptest::proptest! {
    #[test]
    fn decoding_never_panics(payload in arbitrary_json()) {
        for provider in Provider::ALL {
            match provider.decode_calls(&payload) {
                Ok(calls) => assert!(calls.iter().all(|c| !c.name.is_empty())),
                Err(e) => assert!(!e.to_string().is_empty()),
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Results back to the provider, and a whole turn.
// ---------------------------------------------------------------------------------------

async fn run(
    kit: &Toolkit<Kit>,
    session: &mut Session<Kit>,
    calls: &[ToolCall],
) -> Vec<CallResult> {
    kit.call_batch(session, calls).await
}

#[tokio::test]
async fn results_for_each_provider() {
    let kit = kit();
    let mut session = all_active::<Kit>();
    let calls = vec![
        ToolCall::new("search", r#"{"query":"rust","limit":1}"#).with_id("c1"),
        ToolCall::new("numbers", r#"{"small":0,"offset":1}"#).with_id("c2"),
        ToolCall::new("numbers", r#"{"small":2,"offset":3}"#).with_id("c3"),
        ToolCall::new("ping", "").with_id("c4"),
    ];
    let results = run(&kit, &mut session, &calls).await;
    let messages = |provider| {
        Rendered::new(&kit, provider)
            .result_messages(&calls, &results)
            .expect("ids present")
    };

    assert_eq!(
        messages(Provider::OpenAiChat),
        [
            json!({"role": "tool", "tool_call_id": "c1", "content": "[\"rust #0 (0 domains)\"]"}),
            json!({"role": "tool", "tool_call_id": "c2", "content": "Error: nothing to summarise"}),
            json!({"role": "tool", "tool_call_id": "c3", "content": "{\"count\":2,\"mean\":3.0}"}),
            json!({"role": "tool", "tool_call_id": "c4", "content": "pong"}),
        ]
    );
    assert_eq!(
        messages(Provider::OpenAiResponses),
        [
            json!({"type": "function_call_output", "call_id": "c1", "output": "[\"rust #0 (0 domains)\"]"}),
            json!({"type": "function_call_output", "call_id": "c2", "output": "Error: nothing to summarise"}),
            json!({"type": "function_call_output", "call_id": "c3", "output": "{\"count\":2,\"mean\":3.0}"}),
            json!({"type": "function_call_output", "call_id": "c4", "output": "pong"}),
        ]
    );
    assert_eq!(
        messages(Provider::Anthropic),
        [json!({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "c1", "content": [{"type": "text", "text": "[\"rust #0 (0 domains)\"]"}], "is_error": false},
            {"type": "tool_result", "tool_use_id": "c2", "content": [{"type": "text", "text": "nothing to summarise"}], "is_error": true},
            {"type": "tool_result", "tool_use_id": "c3", "content": [{"type": "text", "text": "{\"count\":2,\"mean\":3.0}"}], "is_error": false},
            {"type": "tool_result", "tool_use_id": "c4", "content": [{"type": "text", "text": "pong"}], "is_error": false},
        ]})]
    );
    assert_eq!(
        messages(Provider::Gemini),
        [json!({"role": "user", "parts": [
            {"functionResponse": {"id": "c1", "name": "search", "response": {"output": ["rust #0 (0 domains)"]}}},
            {"functionResponse": {"id": "c2", "name": "numbers", "response": {"error": "nothing to summarise"}}},
            {"functionResponse": {"id": "c3", "name": "numbers", "response": {"output": {"count": 2, "mean": 3.0}}}},
            {"functionResponse": {"id": "c4", "name": "ping", "response": {"output": "pong"}}},
        ]})]
    );
    // MCP: `search` returns a list, so its output schema and structured content are wrapped;
    // `numbers` returns an object, which stays as is.
    assert_eq!(
        messages(Provider::Mcp),
        [
            json!({"content": [{"type": "text", "text": "[\"rust #0 (0 domains)\"]"}], "structuredContent": {"result": ["rust #0 (0 domains)"]}, "isError": false}),
            json!({"content": [{"type": "text", "text": "nothing to summarise"}], "isError": true}),
            json!({"content": [{"type": "text", "text": "{\"count\":2,\"mean\":3.0}"}], "structuredContent": {"count": 2, "mean": 3.0}, "isError": false}),
            json!({"content": [{"type": "text", "text": "pong"}], "isError": false}),
        ]
    );
    // Every MCP structured content matches the declared output schema's shape.
    let mcp = Rendered::new(&kit, Provider::Mcp);
    assert_eq!(
        definition(&mcp, "search")["outputSchema"]["required"],
        json!(["result"])
    );
    assert_eq!(
        Rendered::new(&kit, Provider::Gemini).result_messages(&[], &[]),
        Ok(vec![])
    );
}

#[tokio::test]
async fn results_without_text_or_id() {
    let kit = kit();
    // A result with no content block (a tool returning `()`): Anthropic rejects empty text.
    let empty = CallResult::empty();
    let call = ToolCall::new("ping", "").with_id("t1");
    assert_eq!(
        Rendered::new(&kit, Provider::AnthropicStrict).result_message(&call, &empty),
        Ok(json!({"type": "tool_result", "tool_use_id": "t1", "is_error": false}))
    );
    assert_eq!(
        Rendered::new(&kit, Provider::Mcp).result_message(&call, &empty),
        Ok(json!({"content": [], "isError": false}))
    );
    // A structured value that is not an object, from a tool without an output schema.
    let listed = CallResult::structured(&[1, 2]);
    assert_eq!(
        Rendered::new(&kit, Provider::Mcp)
            .result_message(&ToolCall::new("reset_tools", "{}"), &listed),
        Ok(
            json!({"content": [{"type": "text", "text": "[1,2]"}], "structuredContent": {"result": [1, 2]}, "isError": false})
        )
    );
    // OpenAI and Anthropic need the call id; Gemini and MCP do without.
    let anonymous = ToolCall::new("ping", "");
    let pong = CallResult::text("pong");
    for provider in [
        Provider::OpenAiChat,
        Provider::OpenAiResponses,
        Provider::Anthropic,
    ] {
        let error: MissingCallId = Rendered::new(&kit, provider)
            .result_message(&anonymous, &pong)
            .expect_err("no id");
        assert_eq!(error.tool, "ping");
    }
    assert_eq!(
        Rendered::new(&kit, Provider::OpenAiChat)
            .result_message(&anonymous, &pong)
            .expect_err("no id")
            .to_string(),
        "the call of `ping` has no id, and OpenAI Chat Completions needs it to match the result to its call; keep the id the provider sent (`ToolCall::with_id`)"
    );
    assert_eq!(
        Rendered::new(&kit, Provider::Gemini).result_message(&anonymous, &pong),
        Ok(json!({"functionResponse": {"name": "ping", "response": {"output": "pong"}}}))
    );
}

#[test]
#[should_panic(expected = "result_messages pairs each call with its result")]
fn results_and_calls_must_pair_up() {
    let kit = kit();
    let _ = Rendered::new(&kit, Provider::OpenAiChat)
        .result_messages(&[ToolCall::new("ping", "").with_id("a")], &[]);
}

/// A scripted OpenAI Chat conversation in the mask mode: the tool array stays the same, the
/// allow-list follows `reset_tools`, and a call outside it is refused by the toolkit.
#[tokio::test]
async fn an_agent_loop_in_the_mask_mode() {
    let kit = kit();
    let openai = Rendered::new(&kit, Provider::OpenAiChat);
    let mut session = kit.session();
    let tools = openai.all_tools_json().to_owned();
    let allowed_names = |session: &Session<Kit>| -> Vec<String> {
        let choice = openai
            .allowed_tools_value(&kit, session, AllowMode::Auto)
            .expect("OpenAI has an allow-list");
        choice["allowed_tools"]["tools"]
            .as_array()
            .expect("tools")
            .iter()
            .map(|t| t["function"]["name"].as_str().expect("a name").to_owned())
            .collect()
    };
    assert_eq!(allowed_names(&session), ["reset_tools", "ping"]);

    // Turn 1: the model switches `web` on and searches in the same turn.
    let response = json!({"choices": [{"message": {"role": "assistant", "tool_calls": [
        {"id": "call_a", "type": "function", "function": {"name": "reset_tools", "arguments": "{\"web\":true,\"data\":false}"}},
        {"id": "call_b", "type": "function", "function": {"name": "search", "arguments": "{\"query\":\"rust\",\"limit\":1}"}},
    ]}}]});
    let calls = openai.decode_calls(&response).expect("well-formed");
    let results = kit.call_batch(&mut session, &calls).await;
    let messages = openai
        .result_messages(&calls, &results)
        .expect("ids present");
    assert_eq!(messages.len(), 2);
    assert_eq!(messages[0]["tool_call_id"], "call_a");
    assert!(
        messages[0]["content"]
            .as_str()
            .expect("text")
            .starts_with("Active groups: web")
    );
    assert_eq!(
        messages[1],
        json!({"role": "tool", "tool_call_id": "call_b", "content": "[\"rust #0 (0 domains)\"]"})
    );
    assert_eq!(allowed_names(&session), ["reset_tools", "ping", "search"]);
    assert_eq!(
        openai.all_tools_json(),
        tools,
        "the tool array never changes"
    );

    // Turn 2: a call to a tool of an inactive group is refused, and says so.
    let response = json!({"role": "assistant", "tool_calls": [
        {"id": "call_c", "type": "function", "function": {"name": "numbers", "arguments": "{\"small\":1,\"offset\":0}"}},
    ]});
    let calls = openai.decode_calls(&response).expect("well-formed");
    let results = kit.call_batch(&mut session, &calls).await;
    let messages = openai
        .result_messages(&calls, &results)
        .expect("ids present");
    let text = messages[0]["content"].as_str().expect("text");
    assert!(text.starts_with("Error: `numbers` was not run"), "{text}");
    assert!(text.contains("`data`"), "{text}");
}

/// Every violation of Gemini's legacy `parameters` subset (OpenAPI 3.0): no references, no
/// `additionalProperties`, no type lists, no `oneOf`, no `const`, string enums only, no
/// `$schema`, no exclusive bounds; and every schema typed, every array with items.
fn legacy_violations(node: &Value, path: &str, problems: &mut Vec<String>) {
    const KEYWORDS: &[&str] = &[
        "type",
        "format",
        "description",
        "nullable",
        "enum",
        "properties",
        "required",
        "items",
        "minItems",
        "maxItems",
        "minimum",
        "maximum",
        "anyOf",
    ];
    let Value::Object(map) = node else {
        problems.push(format!("{path}: not an object schema"));
        return;
    };
    for key in map.keys() {
        if !KEYWORDS.contains(&key.as_str()) {
            problems.push(format!("{path}: `{key}`"));
        }
    }
    match map.get("type") {
        Some(Value::String(t))
            if ["object", "array", "string", "integer", "number", "boolean"]
                .contains(&t.as_str()) => {}
        None if map.contains_key("anyOf") => {}
        other => problems.push(format!("{path}: type {other:?}")),
    }
    if let Some(values) = map.get("enum")
        && !values
            .as_array()
            .is_some_and(|v| v.iter().all(Value::is_string))
    {
        problems.push(format!("{path}: an enum of other values than strings"));
    }
    if map.get("type") == Some(&json!("array")) && !map.contains_key("items") {
        problems.push(format!("{path}: an array without items"));
    }
    if let Some(Value::Object(props)) = map.get("properties") {
        for (name, sub) in props {
            legacy_violations(sub, &format!("{path}/properties/{name}"), problems);
        }
    }
    if let Some(items) = map.get("items") {
        legacy_violations(items, &format!("{path}/items"), problems);
    }
    if let Some(Value::Array(members)) = map.get("anyOf") {
        for (i, sub) in members.iter().enumerate() {
            legacy_violations(sub, &format!("{path}/anyOf/{i}"), problems);
        }
    }
}

#[test]
fn gemini_legacy_rules_hold_on_every_schema() {
    let mut checked = 0;
    for listing in [
        Rendered::new(&kit(), Provider::GeminiLegacy).all_tools_value(),
        Rendered::new(&zoo::kit(), Provider::GeminiLegacy).all_tools_value(),
    ] {
        for found in schemas_of(Provider::GeminiLegacy, &listing) {
            let mut problems = Vec::new();
            legacy_violations(&found.schema, "", &mut problems);
            assert!(
                problems.is_empty(),
                "`{}`: {problems:#?}\n{}",
                found.tool,
                found.schema
            );
            assert_eq!(found.schema["type"], "object", "`{}`", found.tool);
            checked += 1;
        }
    }
    // Every tool but the parameterless `ping` declares parameters.
    assert_eq!(checked, 5 + 12);
    let mut problems = Vec::new();
    legacy_violations(
        &json!({"type": ["string", "null"], "oneOf": [], "enum": [1]}),
        "",
        &mut problems,
    );
    assert_eq!(
        problems,
        [
            ": `oneOf`",
            ": type Some(Array [String(\"string\"), String(\"null\")])",
            ": an enum of other values than strings"
        ]
    );
}

#[test]
fn mcp_schemas_are_object_schemas() {
    // An `#[args]` enum: the unit variant (a bare string) cannot be called, since arguments
    // are always an object, so the object root keeps the two object alternatives.
    let command = definition(&Rendered::new(&zoo::kit(), Provider::Mcp), "command");
    let schema = &command["inputSchema"];
    assert_eq!(schema["type"], "object");
    let alternatives: Vec<&Value> = schema["oneOf"]
        .as_array()
        .expect("alternatives")
        .iter()
        .collect();
    assert_eq!(alternatives.len(), 2);
    assert_eq!(alternatives[0]["required"], json!(["go"]));
    assert_eq!(alternatives[1]["required"], json!(["wait"]));

    for listing in [
        Rendered::new(&kit(), Provider::Mcp).all_tools_value(),
        Rendered::new(&zoo::kit(), Provider::Mcp).all_tools_value(),
    ] {
        for found in schemas_of(Provider::Mcp, &listing) {
            assert_eq!(
                found.schema["type"], "object",
                "`{}` {}",
                found.tool, found.field
            );
        }
    }
}
