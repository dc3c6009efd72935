//! Golden definitions: every tool of the golden toolkit, rendered for every provider as the
//! request's `tools` value (`tests/golden/definitions/<provider>.json`), and how a golden
//! mismatch reads. One set of goldens serves both key orders (see `support/golden.rs`).
//! Refresh with `TOOLGROUP_BLESS=1 cargo test -p toolgroup --test providers` (without the
//! `preserve_order` feature) and review the diff.

use crate::support::*;

#[test]
fn golden_definitions_of_every_provider() {
    let kit = kit();
    for &provider in Provider::ALL {
        let rendered = Rendered::new(&kit, provider);
        assert_golden(
            &format!("definitions/{}", provider.name()),
            &rendered.all_tools_json(),
        );
    }
}

#[test]
fn the_goldens_cover_every_tool() {
    // The golden toolkit's tools, `reset_tools` first: a golden file that lost a tool fails
    // the comparison above, this pins what the toolkit holds.
    let kit = kit();
    let names: Vec<&str> = kit.all_definitions().map(|d| d.name).collect();
    assert_eq!(
        names,
        ["reset_tools", "ping", "search", "tag", "tree", "numbers"]
    );
}

/// A golden that no longer matches fails naming each differing JSON path, and key order
/// alone is no difference.
#[test]
fn a_mismatch_names_the_paths_that_differ() {
    let one: Value = serde_json::from_str(r#"{"a": 1, "b": [{"x": 1, "y": 2}]}"#).expect("JSON");
    let other: Value = serde_json::from_str(r#"{"b": [{"y": 2, "x": 1}], "a": 1}"#).expect("JSON");
    assert_eq!(golden_mismatch(&one, &other, false), None);

    let golden: Value = serde_json::from_str(
        &std::fs::read_to_string(golden_path("deferred/openai-responses")).expect("the golden"),
    )
    .expect("JSON");
    let mut changed = golden.clone();
    let input = changed[2]["input"].as_array_mut().expect("the input");
    let at = input
        .iter()
        .position(|i| i["type"] == "function_call" && i["name"] == "search")
        .expect("the search call");
    input[at]
        .as_object_mut()
        .expect("an item")
        .remove("namespace")
        .expect("a namespace");
    changed[0]["model"] = json!("gpt-4");
    changed[0]["extra"] = json!(true);
    let report = golden_mismatch(&golden, &changed, false).expect("a mismatch");
    assert_eq!(
        report.lines().collect::<Vec<_>>(),
        [
            r#"  $[0].model: expected "gpt-5.4", got "gpt-4""#.to_owned(),
            "  $[0].extra: not in the golden: true".to_owned(),
            format!(r#"  $[2].input[{at}].namespace: only in the golden: "search""#),
        ]
    );
}

/// A `preserve_order` build lists a strict schema's `required` in parameter order, the
/// default build alphabetically: the goldens compare it as a set there, and only there.
#[test]
fn required_is_compared_as_a_set_only_when_asked() {
    let sorted = json!({"required": ["data", "web"], "enum": ["a", "b"]});
    let declared = json!({"required": ["web", "data"], "enum": ["a", "b"]});
    assert_eq!(golden_mismatch(&sorted, &declared, true), None);
    let report = golden_mismatch(&sorted, &declared, false).expect("ordered");
    assert!(
        report.contains(r#"$.required[0]: expected "data", got "web""#),
        "{report}"
    );
    let other = json!({"required": ["web", "data"], "enum": ["b", "a"]});
    let report = golden_mismatch(&sorted, &other, true).expect("enum stays ordered");
    assert!(report.contains("$.enum[0]"), "{report}");
    let missing = json!({"required": ["web"], "enum": ["a", "b"]});
    let report = golden_mismatch(&sorted, &missing, true).expect("a missing name");
    assert!(report.contains("$.required: expected"), "{report}");
}
