//! Shared by the provider tests: the golden toolkit and the zoo of argument shapes, readers
//! of rendered definitions, the strict-mode and legacy-dialect rule checkers (written from
//! the providers' documentation, independently of the renderer's code), the JSON Schema
//! 2020-12 meta-schema check, and golden files with a bless switch.
// Each test file uses a part of this module.
#![allow(dead_code, unused_imports)]

pub use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

pub use schemars::JsonSchema;
pub use serde::{Deserialize, Serialize};
pub use serde_json::{Value, json};
pub use toolgroup::prelude::*;
pub use toolgroup::provider::{
    AllowMode, DecodeError, MissingCallId, NotStrict, Provider, Rendered, Strictness,
    anthropic_strict, gemini_legacy_schema, limits::ANTHROPIC_MAX_STRICT_OPTIONAL_PARAMS,
    limits::ANTHROPIC_MAX_STRICT_TOOLS, limits::ANTHROPIC_MAX_STRICT_UNION_PARAMS,
    mcp_output_schema, openai_strict,
};
pub use toolgroup::{Registry, registry::GroupId};

// ---------------------------------------------------------------------------------------
// Golden files.
// ---------------------------------------------------------------------------------------

/// Whether this build's `serde_json::Map` keeps insertion order (some crate in the build
/// enabled serde_json's `preserve_order`); without it, keys are sorted.
pub fn preserve_order() -> bool {
    let map: serde_json::Map<String, Value> =
        serde_json::from_str(r#"{"b": 1, "a": 2}"#).expect("valid JSON");
    map.keys().next().map(String::as_str) == Some("b")
}

/// Compare the JSON text `actual` with its golden file, or write the file when
/// `TOOLGROUP_BLESS` is set (then review the diff).
///
/// The default build's goldens are `tests/golden/<name>.json`, with sorted keys; a build with
/// serde_json's `preserve_order` (toolgroup's `preserve_order` feature) has its own,
/// `tests/golden/preserve_order/<name>.json`, in declaration order. The comparison is of the
/// exact text, pretty-printed in the build's key order, so it checks key order too.
pub fn assert_golden(name: &str, actual: &str) {
    let mut path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    if preserve_order() {
        path.push("preserve_order");
    }
    let path = path.join(format!("{name}.json"));
    let value: Value = serde_json::from_str(actual)
        .unwrap_or_else(|e| panic!("{name}: not valid JSON ({e}): {actual}"));
    let pretty = serde_json::to_string_pretty(&value).expect("a value serialises") + "\n";
    if std::env::var_os("TOOLGROUP_BLESS").is_some() {
        std::fs::create_dir_all(path.parent().expect("a parent"))
            .expect("create the golden directory");
        std::fs::write(&path, &pretty).expect("write the golden file");
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|_| {
        panic!(
            "no golden file {}; run with TOOLGROUP_BLESS=1 and review it",
            path.display()
        )
    });
    assert!(
        pretty == expected,
        "{name} changed; run with TOOLGROUP_BLESS=1 and review the diff of {}\n{pretty}",
        path.display()
    );
}

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

// ---------------------------------------------------------------------------------------
// A second toolkit with many more argument shapes, for the rule checks (no goldens).
// ---------------------------------------------------------------------------------------

// The zoo's types exist for their schemas: the tools never read most of their fields.
#[allow(dead_code)]
pub mod zoo {
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
pub struct Found {
    pub tool: String,
    /// `parameters`, `inputSchema`, `outputSchema`...
    pub field: &'static str,
    pub schema: Value,
    /// Whether the definition marks it strict.
    pub strict: bool,
}

/// Every schema of every definition in a tools array of `provider`.
pub fn schemas_of(provider: Provider, tools: &Value) -> Vec<Found> {
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

pub fn strictness_table<R: Registry>(rendered: &Rendered<R>) -> Vec<(&'static str, String)> {
    rendered
        .entries()
        .map(|e| {
            let s = match e.strictness {
                Strictness::Strict => "strict".to_owned(),
                Strictness::NotApplicable => "-".to_owned(),
                Strictness::Fallback(why) => format!("fallback: {why}"),
                other => panic!("a new kind of strictness: {other:?}"),
            };
            (e.name, s)
        })
        .collect()
}

/// One rendered definition, parsed.
pub fn definition<R: Registry>(rendered: &Rendered<R>, name: &str) -> Value {
    let tool = rendered
        .get(name)
        .unwrap_or_else(|| panic!("no tool `{name}`"));
    serde_json::from_str(tool.json.get()).expect("valid JSON")
}

// ---------------------------------------------------------------------------------------
// The strict-mode rules, checked on every object of every schema marked strict. The checks
// are written from the providers' documentation, independently of the renderer's code.
// ---------------------------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rules {
    OpenAi,
    Anthropic,
}

/// Keywords neither strict mode accepts (numeric and length constraints included: OpenAI's
/// Structured Outputs list of unsupported keywords and Anthropic's "no numeric or length
/// constraints").
pub const NEVER_IN_STRICT: &[&str] = &[
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

pub fn allowed_formats(rules: Rules) -> &'static [&'static str] {
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

pub fn pointer<'a>(root: &'a Value, reference: &str) -> Option<&'a Value> {
    root.pointer(reference.strip_prefix('#')?)
}

/// Every violation of `rules` in a strict schema.
pub fn strict_violations(rules: Rules, root: &Value) -> Vec<String> {
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

pub fn check_node(
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
pub fn find_cycle(root: &Value) -> Option<String> {
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
pub fn anthropic_costs(root: &Value) -> (usize, usize) {
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

// ---------------------------------------------------------------------------------------
// Validity against the JSON Schema 2020-12 meta-schema.
//
// The `jsonschema` crate would add some thirty crates (and a TLS stack with its default
// features) to the lock file for one test, so this is a small evaluator of exactly the
// keywords the official meta-schema documents use (below, verbatim from json-schema.org),
// which panics on any other keyword rather than ignoring it. `$dynamicRef: "#meta"` resolves
// to the top meta-schema, which is its meaning when validation starts there (as here).
// ---------------------------------------------------------------------------------------

pub mod meta {
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

/// Every schema a provider rendering contains, canonical schemas included.
pub fn every_schema() -> Vec<(String, Value)> {
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
            Rendered::new(&kit, *provider).all_tools_value(&kit),
            Rendered::new(&zoo, *provider).all_tools_value(&zoo),
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
pub fn names_in(provider: Provider, tools: &Value) -> Vec<String> {
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
pub fn text_call(id: &str, name: &str, arguments: &str) -> ToolCall {
    ToolCall::new(name, arguments).with_id(id)
}
pub async fn run(
    kit: &Toolkit<Kit>,
    session: &mut Session<Kit>,
    calls: &[ToolCall],
) -> Vec<CallResult> {
    kit.call_batch(session, calls).await
}
/// Every violation of Gemini's legacy `parameters` subset (Gemini's `Schema` reference): no references, no
/// `additionalProperties`, no type lists, no `oneOf`, no `const`, string enums only, no
/// `$schema`, no exclusive bounds; and every schema typed, every array with items.
pub fn legacy_violations(node: &Value, path: &str, problems: &mut Vec<String>) {
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
