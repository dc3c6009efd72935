//! The catalog: the library API (`Toolkit::catalog`, Markdown and JSON, for any toolkit) and
//! the example that prints it (Markdown, JSON, JSON definitions per provider).

#[allow(dead_code)]
#[path = "../../examples/catalog.rs"]
mod example;

use serde_json::{Value, json};
use toolgroup::prelude::*;

fn args(a: &[&str]) -> Vec<String> {
    a.iter().map(|s| (*s).to_owned()).collect()
}

#[test]
fn markdown_lists_every_group_with_instructions_and_parameters() {
    let md = example::run(&[]).unwrap();
    let lines: Vec<&str> = md.lines().collect();
    for expected in [
        "# Tool catalog",
        "## `reset_tools`",
        "| `web_search` | boolean | yes | Searching the web. |",
        "## Basic tools: `notes` (always active)",
        "### `note_write`",
        "| `text` | string | yes | The text to write. |",
        "## Group `web_search`",
        "Instructions, given when the group is activated: Cite the URL of every result you use.",
        "### `web_search`",
        "Hints: read-only, open world.",
        "## Group `scraping`",
        "### `page_fetch`",
        "| `url` | string | yes | The page's URL (http or https). |",
    ] {
        assert!(lines.contains(&expected), "missing {expected:?} in\n{md}");
    }
}

#[test]
fn every_provider_gets_every_tool() {
    let expected = ["reset_tools", "note_write", "web_search", "page_fetch"];
    for (provider, name_of) in [
        ("openai-chat", "/function/name"),
        ("openai-responses", "/name"),
        ("anthropic", "/name"),
        ("gemini", "/name"),
        ("mcp", "/name"),
    ] {
        let out = example::run(&args(&["--provider", provider])).unwrap();
        let json: Value = serde_json::from_str(&out).unwrap();
        // Gemini wraps its declarations in one `Tool` object.
        let tools = json
            .pointer("/0/functionDeclarations")
            .and_then(Value::as_array)
            .or_else(|| json.as_array())
            .unwrap_or_else(|| panic!("{provider}: {json}"));
        let names: Vec<&str> = tools
            .iter()
            .filter_map(|t| t.pointer(name_of)?.as_str())
            .collect();
        assert_eq!(names, expected, "{provider}");
    }
}

#[test]
fn bad_arguments_give_the_usage() {
    let err = example::run(&args(&["--provider", "openai"])).unwrap_err();
    assert!(
        err.contains("usage: catalog [--provider <openai-chat|"),
        "{err}"
    );
    assert!(
        example::run(&args(&["--frobnicate"]))
            .unwrap_err()
            .starts_with("usage: catalog")
    );
}

#[test]
fn the_example_prints_the_catalog_json() {
    let out = example::run(&args(&["--json"])).unwrap();
    let json: Value = serde_json::from_str(&out).unwrap();
    let groups: Vec<&str> = json["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["name"].as_str().unwrap())
        .collect();
    assert_eq!(groups, ["notes", "web_search", "scraping"]);
    assert_eq!(json["reset_tools"]["name"], "reset_tools");
    let fetch = &json["groups"][2]["tools"][0];
    assert_eq!(fetch["name"], "page_fetch");
    assert_eq!(fetch["timeout_ms"], 10_000);
    assert_eq!(
        fetch["annotations"],
        json!({"read_only": true, "open_world": true})
    );
}

/// A toolkit unlike the quickstart's: a stateful group, Markdown in descriptions, a
/// parameter description with `|` and line breaks, no parameters, structured output.
mod other {
    use std::sync::atomic::{AtomicU64, Ordering};

    use toolgroup::prelude::*;

    /// A structured reading.
    #[derive(serde::Serialize, schemars::JsonSchema)]
    pub struct Reading {
        /// The value.
        pub value: u64,
    }

    /// Read the counter.
    #[tool(read_only, idempotent, timeout = "2m")]
    pub fn counter_read() -> Reading {
        Reading { value: 1 }
    }

    /// Always-on clock tools.
    #[tool_group(name = "clock", description = "Telling the time.", tools = [counter_read])]
    pub struct Clock;

    pub struct Counter(pub AtomicU64);

    #[tool_group(
        name = "counter",
        description = "A shared counter.",
        instructions = "Count only what the user asks for."
    )]
    impl Counter {
        /// Add to the counter.
        #[tool(destructive = false)]
        fn counter_add(
            &self,
            /// How much to add:
            /// a | separated
            /// amount.
            by: u64,
            /// An optional label.
            label: Option<String>,
        ) -> String {
            let total = self.0.fetch_add(by, Ordering::SeqCst) + by;
            format!("{} {total}", label.unwrap_or_default())
        }
    }

    #[toolkit]
    pub struct Kit {
        #[basic]
        pub clock: Clock,
        pub counter: Counter,
    }
}

fn other_kit() -> Toolkit<other::Kit> {
    Toolkit::new(other::Kit {
        clock: other::Clock,
        counter: other::Counter(Default::default()),
    })
}

#[test]
fn markdown_of_any_toolkit() {
    let md = other_kit().catalog().to_markdown();
    let lines: Vec<&str> = md.lines().collect();
    for expected in [
        "# Tool catalog",
        "## `reset_tools`",
        "| `counter` | boolean | yes | A shared counter. |",
        "## Basic tools: `clock` (always active)",
        "### `counter_read`",
        "Hints: read-only, idempotent.",
        "Timeout: 2 min.",
        "No parameters.",
        "Returns: object.",
        "## Group `counter`",
        "Instructions, given when the group is activated: Count only what the user asks for.",
        "### `counter_add`",
        "Hints: not destructive.",
        "| `by` | integer | yes | How much to add: a \\| separated amount. |",
        "| `label` | string | no | An optional label. |",
        "Returns: string.",
    ] {
        if expected == "Returns: string." {
            // Text outputs have no output schema.
            assert!(
                !lines.contains(&expected),
                "unexpected {expected:?} in\n{md}"
            );
            continue;
        }
        assert!(lines.contains(&expected), "missing {expected:?} in\n{md}");
    }
    // The groups in declaration order, each tool under its group.
    let at = |s: &str| md.find(s).unwrap();
    assert!(at("## `reset_tools`") < at("## Basic tools: `clock`"));
    assert!(at("## Basic tools: `clock`") < at("### `counter_read`"));
    assert!(at("### `counter_read`") < at("## Group `counter`"));
    assert!(at("## Group `counter`") < at("### `counter_add`"));
    // `Display` is the Markdown.
    assert_eq!(other_kit().catalog().to_string(), md);
}

#[test]
fn json_of_any_toolkit() {
    let kit = other_kit();
    let value = kit.catalog().to_value();
    let clock = &value["groups"][0]["tools"][0];
    assert_eq!(
        value["groups"][0],
        json!({
            "name": "clock",
            "description": "Telling the time.",
            "instructions": null,
            "basic": true,
            "tools": [{
                "name": "counter_read",
                "description": "Read the counter.",
                "input_schema": clock["input_schema"],
                "output_schema": clock["output_schema"],
                "annotations": {"read_only": true, "idempotent": true},
                "timeout_ms": 120_000,
            }],
        })
    );
    assert_eq!(clock["input_schema"]["type"], "object");
    assert_eq!(
        clock["output_schema"]["properties"]["value"]["type"],
        "integer"
    );
    let counter = &value["groups"][1];
    assert_eq!(
        counter["instructions"],
        "Count only what the user asks for."
    );
    assert_eq!(counter["basic"], false);
    let add = &counter["tools"][0];
    assert_eq!(add["annotations"], json!({"destructive": false}));
    assert_eq!(add["timeout_ms"], Value::Null);
    assert_eq!(add["output_schema"], Value::Null);
    assert_eq!(add["input_schema"]["required"], json!(["by"]));
    // The schemas are the canonical ones the definitions carry.
    let definition = kit
        .all_definitions()
        .find(|d| d.name == "counter_add")
        .unwrap();
    assert_eq!(add["input_schema"], definition.input_schema);
    assert_eq!(
        value["reset_tools"]["input_schema"],
        kit.reset_definition().unwrap().input_schema
    );
    // The text form is the same value, pretty-printed.
    let text = kit.catalog().to_json();
    assert!(text.ends_with("}\n"));
    assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), value);
}

#[test]
fn without_reset_tools_the_catalog_has_none() {
    let kit = other_kit().with_reset_tools(false);
    let md = kit.catalog().to_markdown();
    assert!(!md.contains("reset_tools"), "{md}");
    assert!(md.contains("## Group `counter`"), "{md}");
    let value = kit.catalog().to_value();
    assert!(value.get("reset_tools").is_none(), "{value}");
    assert_eq!(value["groups"].as_array().unwrap().len(), 2);
}
