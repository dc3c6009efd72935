//! The catalog example: Markdown for people, JSON definitions per provider.

#[allow(dead_code)]
#[path = "../examples/catalog.rs"]
mod catalog;

use serde_json::Value;

fn args(a: &[&str]) -> Vec<String> {
    a.iter().map(|s| (*s).to_owned()).collect()
}

#[test]
fn markdown_lists_every_group_with_instructions_and_parameters() {
    let md = catalog::run(&[]).unwrap();
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
        let out = catalog::run(&args(&["--provider", provider])).unwrap();
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
    let err = catalog::run(&args(&["--provider", "openai"])).unwrap_err();
    assert!(
        err.contains("usage: catalog [--provider <openai-chat|"),
        "{err}"
    );
    assert!(
        catalog::run(&args(&["--frobnicate"]))
            .unwrap_err()
            .starts_with("usage: catalog")
    );
}
