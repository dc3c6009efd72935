//! `toolgroup::testing::exercise` against toolkits with known faults (each must be reported
//! with the arguments that trigger it) and against this repository's example toolkits (which
//! must report nothing), and its generator checked against the `jsonschema` crate.
// Each example includes `examples/support/*.rs` as its own modules, as a standalone example
// must, and the tests include the examples.
#![allow(clippy::duplicate_mod)]

#[path = "common/mod.rs"]
mod common;

// `charts` reaches the quickstart's groups as `super::agent`: the copy `common` compiled.
use common::quickstart as agent;
#[path = "../examples/support/charts.rs"]
mod charts;
#[allow(dead_code)]
#[path = "../examples/support/fleet.rs"]
mod fleet;
#[allow(dead_code)]
#[path = "../examples/skills.rs"]
mod skills_example;

#[path = "testing/faults.rs"]
mod faults;
#[path = "testing/remote.rs"]
mod remote;
#[path = "testing/shapes.rs"]
mod shapes;

use std::time::Duration;

use serde_json::Value;
use toolgroup::CallOutcome;
use toolgroup::testing::{
    Failure, FailureKind, MutationKind, Rng, exercise, generate_valid, mutations,
};

use faults::{FaultsGroup, faults};

/// The one failure of `tool` (there must be exactly one of that kind).
fn only<'r>(failures: &'r [Failure], tool: &str, kind: FailureKind) -> &'r Failure {
    let found: Vec<&Failure> = failures
        .iter()
        .filter(|f| f.tool() == tool && f.kind() == kind)
        .collect();
    assert_eq!(found.len(), 1, "one {kind} of `{tool}` in {failures:#?}");
    found[0]
}

fn arguments(failure: &Failure) -> Value {
    serde_json::from_str(failure.arguments()).expect("the arguments are JSON")
}

#[tokio::test]
async fn each_fault_is_reported_with_the_arguments_that_trigger_it() {
    let toolkit = faults();
    let report = exercise(&toolkit)
        .seed(7)
        .timeout(Duration::from_millis(100))
        .run()
        .await;
    let failures = report.failures();

    // A panic on one input: `people` = 0.
    let split = failures
        .iter()
        .find(|f| f.tool() == "split")
        .expect("split's panic");
    assert_eq!(split.kind(), FailureKind::Panic);
    assert_eq!(split.group(), Some("risky"));
    assert_eq!(arguments(split)["people"], 0);
    assert!(
        failures
            .iter()
            .filter(|f| f.tool() == "split")
            .all(|f| f.kind() == FailureKind::Panic && arguments(f)["people"] == 0)
    );

    // A panic on a control character.
    let shout: Vec<&Failure> = failures.iter().filter(|f| f.tool() == "shout").collect();
    assert!(!shout.is_empty());
    for failure in &shout {
        assert_eq!(failure.kind(), FailureKind::Panic);
        let text = arguments(failure)["text"].as_str().unwrap().to_owned();
        assert!(text.chars().any(char::is_control), "{text:?}");
    }

    // An argument type narrower than its schema: valid arguments refused.
    let lookup: Vec<&Failure> = failures.iter().filter(|f| f.tool() == "lookup").collect();
    assert!(!lookup.is_empty());
    for failure in &lookup {
        assert_eq!(failure.kind(), FailureKind::ValidArgumentsRefused);
        let code = arguments(failure)["code"].as_str().unwrap().to_owned();
        assert!(!faults::is_code(&code), "{code:?}");
        assert!(
            failure.detail().contains("invalid argument `code`"),
            "{}",
            failure.detail()
        );
    }

    // A tool that hangs, without a timeout of its own: the exercise's bound; with one: the
    // toolkit's. Each is called once with valid arguments, then no more.
    let hang = only(failures, "hang", FailureKind::Timeout);
    assert_eq!(hang.arguments(), "{}");
    assert!(hang.detail().contains("100ms"), "{}", hang.detail());
    let hang_own = only(failures, "hang_briefly", FailureKind::Timeout);
    assert!(
        hang_own.detail().contains("timed out after 30ms"),
        "{}",
        hang_own.detail()
    );
    assert_eq!(report.tool("hang").unwrap().valid_calls(), 1);
    assert_eq!(
        report
            .tool("hang_briefly")
            .unwrap()
            .count(CallOutcome::Timeout),
        1
    );

    // A bound in the schema that nothing checks: an out-of-range mutation reaches the tool.
    let tag = failures
        .iter()
        .find(|f| f.tool() == "tag")
        .expect("tag's unchecked bound");
    assert_eq!(tag.kind(), FailureKind::InvalidArgumentsReachedTool);
    assert_eq!(tag.mutation(), Some(MutationKind::OutOfRange));
    assert_eq!(arguments(tag)["text"].as_str().unwrap().chars().count(), 6);
    assert!(
        tag.detail().contains("the call's outcome was `ok`"),
        "{}",
        tag.detail()
    );

    // A schema the generator cannot make a value for.
    let chain = only(failures, "chain", FailureKind::Unsupported);
    assert!(
        chain.detail().contains("`$ref` cycle"),
        "{}",
        chain.detail()
    );
    assert_eq!(report.tool("chain").unwrap().valid_calls(), 0);
    assert_eq!(report.tool("chain").unwrap().invalid_calls(), 2);

    // A 10 MB answer and a tool that changes global state are not failures.
    for tool in ["big", "count"] {
        assert!(
            failures.iter().all(|f| f.tool() != tool),
            "{tool}: {failures:#?}"
        );
        assert_eq!(report.tool(tool).unwrap().valid_calls(), 8);
    }
    assert!(report.tool("count").unwrap().invalid_calls() >= 8 * 4);

    // Nothing else, and each failure replays.
    let tools = [
        "split",
        "shout",
        "lookup",
        "hang",
        "hang_briefly",
        "tag",
        "chain",
    ];
    assert!(failures.iter().all(|f| tools.contains(&f.tool())));
    for failure in failures.iter().filter(|f| f.kind() == FailureKind::Panic) {
        let mut session = toolkit.session();
        session.activate(FaultsGroup::Risky);
        let replayed = toolkit
            .call(&mut session, failure.tool(), failure.arguments())
            .await;
        assert_eq!(replayed.outcome(), CallOutcome::Panic);
    }
}

#[tokio::test]
async fn the_summary_names_each_failure_and_the_seed() {
    let toolkit = faults();
    let report = exercise(&toolkit)
        .seed(7)
        .groups([FaultsGroup::Risky])
        .run()
        .await;
    let summary = report.to_string();
    assert!(
        summary.starts_with("exercise (seed 7, 8 cases per tool): "),
        "{summary}"
    );
    assert!(
        summary.contains("- panic: `split` (group `risky`) with {"),
        "{summary}"
    );
    assert!(
        summary.contains("- valid_arguments_refused: `lookup`"),
        "{summary}"
    );
    assert!(
        summary.ends_with("the same arguments again: `exercise(&toolkit).seed(7)`"),
        "{summary}"
    );
    let panic = std::panic::catch_unwind(|| report.assert_ok()).expect_err("failures");
    assert_eq!(panic.downcast_ref::<String>(), Some(&summary));
}

#[tokio::test]
async fn groups_limits_the_switchable_groups() {
    let toolkit = faults();
    let report = exercise(&toolkit)
        .groups([FaultsGroup::Risky])
        .cases(2)
        .run()
        .await;
    let tools: Vec<&str> = report.tools().iter().map(|t| t.tool()).collect();
    assert_eq!(tools, ["big", "count", "split", "shout", "lookup", "tag"]);
    assert_eq!(report.cases(), 2);
    assert_eq!(
        report.calls(),
        report.tools().iter().map(|t| t.calls()).sum::<usize>()
    );
}

#[tokio::test]
async fn the_same_seed_gives_the_same_report_and_another_seed_other_arguments() {
    let toolkit = faults();
    let run = |seed| {
        exercise(&toolkit)
            .seed(seed)
            .groups([FaultsGroup::Risky])
            .run()
    };
    let (first, again, other) = (run(11).await, run(11).await, run(12).await);
    assert_eq!(first, again);
    assert_eq!(first.seed(), 11);
    let args = |r: &toolgroup::testing::Report| -> Vec<String> {
        r.failures()
            .iter()
            .map(|f| f.arguments().to_owned())
            .collect()
    };
    assert_ne!(args(&first), args(&other));

    // The same tool's generator: the same values for a seed, others for another.
    let schema = &toolkit.definition("split").unwrap().input_schema;
    let draw = |seed| {
        let mut rng = Rng::new(seed);
        (0..8)
            .map(|_| generate_valid(schema, &mut rng).unwrap())
            .collect::<Vec<_>>()
    };
    assert_eq!(draw(1), draw(1));
    assert_ne!(draw(1), draw(2));
}

#[tokio::test]
async fn the_example_toolkits_report_nothing() {
    exercise(&common::toolkit()).run().await.assert_ok();
    exercise(&charts::toolkit()).run().await.assert_ok();
    exercise(&fleet::toolkit()).run().await.assert_ok();
    exercise(&skills_example::office()).run().await.assert_ok();
    let report = exercise(&common::toolkit()).cases(3).run().await;
    let tools: Vec<&str> = report.tools().iter().map(|t| t.tool()).collect();
    assert_eq!(
        tools,
        [
            "note_write",
            "web_search",
            "page_fetch",
            "db_insert",
            "db_count"
        ]
    );
    assert!(report.tools().iter().all(|t| t.valid_calls() == 3));
}

/// The provider tests' zoo of argument shapes (unions, tuples, sets, maps, recursion, deep
/// nesting, a whole-arguments enum): only the tool with a `pattern` is reported, as
/// unsupported; the bounds its schema states but nothing checks go untested with it.
#[tokio::test]
async fn the_zoo_of_shapes_reports_only_what_it_cannot_generate() {
    let toolkit = shapes::zoo::kit();
    let report = exercise(&toolkit).seed(3).cases(16).run().await;
    let failures: Vec<(&str, FailureKind)> = report
        .failures()
        .iter()
        .map(|f| (f.tool(), f.kind()))
        .collect();
    assert_eq!(
        failures,
        [("constrained", FailureKind::Unsupported)],
        "{report}"
    );
    assert!(report.failures()[0].detail().contains("a `pattern`"));
    // `command` takes an enum as its whole arguments: only its object variants are drawn.
    assert_eq!(report.tool("command").unwrap().valid_calls(), 16);
    assert_eq!(report.tool("command").unwrap().count(CallOutcome::Ok), 16);
}

#[tokio::test]
async fn panic_details_put_the_panic_message_in_the_report() {
    let toolkit = faults().with_panic_details(true);
    let report = exercise(&toolkit)
        .seed(7)
        .groups([FaultsGroup::Risky])
        .run()
        .await;
    let split = only_first(report.failures(), "split");
    assert!(
        split.detail().contains("attempt to divide by zero"),
        "{}",
        split.detail()
    );
}

#[tokio::test]
async fn groups_are_activated_without_reset_tools_when_it_is_hidden() {
    let toolkit = faults().with_reset_tools(false);
    let report = exercise(&toolkit)
        .seed(7)
        .groups([FaultsGroup::Risky])
        .run()
        .await;
    assert_eq!(
        only_first(report.failures(), "split").kind(),
        FailureKind::Panic
    );
}

#[tokio::test]
async fn a_group_whose_activation_is_refused_is_skipped() {
    let toolkit = faults().with_policy(|request: &toolgroup::policy::PolicyRequest<'_>| {
        match request.arguments {
            toolgroup::args::Arguments::Text(text) if text.contains("slow") => {
                toolgroup::policy::Decision::deny("not today")
            }
            _ => toolgroup::policy::Decision::Allow,
        }
    });
    let report = exercise(&toolkit)
        .seed(7)
        .groups([FaultsGroup::Slow])
        .run()
        .await;
    assert_eq!(
        report.skipped(),
        [
            "group `slow`: `reset_tools` answered denied (`reset_tools` was not run: denied by policy: not today)"
        ]
    );
    let tools: Vec<&str> = report.tools().iter().map(|t| t.tool()).collect();
    assert_eq!(tools, ["big", "count"]);
    assert!(report.is_ok());
    assert!(report.to_string().contains("- not exercised: group `slow`"));
}

fn only_first<'r>(failures: &'r [Failure], tool: &str) -> &'r Failure {
    failures
        .iter()
        .find(|f| f.tool() == tool)
        .unwrap_or_else(|| panic!("a failure of `{tool}` in {failures:#?}"))
}

#[test]
fn without_a_tokio_timer_nothing_is_called() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let toolkit = faults();
    let report = runtime.block_on(exercise(&toolkit).run());
    assert_eq!(report.failures().len(), 1);
    assert_eq!(report.failures()[0].kind(), FailureKind::NoTimer);
    assert_eq!(report.calls(), 0);
}

#[tokio::test]
async fn tools_found_at_run_time_get_valid_arguments_only() {
    let toolkit = remote::site();
    let report = exercise(&toolkit).seed(5).run().await;
    let pick = only_first(report.failures(), "pick");
    assert_eq!(pick.kind(), FailureKind::Panic);
    assert_eq!(pick.group(), Some("remote"));
    assert_eq!(arguments(pick)["n"], 0);
    assert!(report.failures().iter().all(|f| f.tool() == "pick"));
    for tool in report.tools() {
        assert_eq!((tool.valid_calls(), tool.invalid_calls()), (8, 0));
    }
}

/// Every tool input schema of the test toolkits.
fn schemas() -> Vec<(&'static str, Value)> {
    fn of<R: toolgroup::Registry>(kit: &toolgroup::Toolkit<R>) -> Vec<(&'static str, Value)> {
        kit.all_definitions()
            .filter(|d| d.group.is_some())
            .map(|d| (d.name, d.input_schema.clone()))
            .collect()
    }
    let mut all = of(&faults());
    all.extend(of(&shapes::zoo::kit()));
    all.extend(of(&common::toolkit()));
    all.extend(of(&charts::toolkit()));
    all.extend(of(&fleet::toolkit()));
    all.extend(of(&skills_example::office()));
    all.extend(of(&remote::site()));
    all
}

/// Draws values for `schema` with many seeds and checks them, and their mutations, with the
/// `jsonschema` crate: every value valid (formats checked too), every mutation but the
/// not-JSON text invalid. Returns the mutation kinds seen, or why the schema is unsupported.
fn cross_check(
    tool: &str,
    schema: &Value,
) -> Result<std::collections::BTreeSet<MutationKind>, toolgroup::testing::Unsupported> {
    let strict = jsonschema::draft202012::options()
        .should_validate_formats(true)
        .build(schema)
        .unwrap();
    let plain = jsonschema::draft202012::new(schema).unwrap();
    let mut kinds = std::collections::BTreeSet::new();
    for seed in 0..40 {
        let mut rng = Rng::new(seed);
        let value = generate_valid(schema, &mut rng)?;
        let errors: Vec<String> = strict.iter_errors(&value).map(|e| e.to_string()).collect();
        assert!(
            errors.is_empty(),
            "{tool}: {value} is not valid: {errors:?}"
        );
        for mutation in mutations(schema, &value, &mut rng) {
            kinds.insert(mutation.kind());
            match serde_json::from_str::<Value>(mutation.arguments()) {
                Ok(mutated) => {
                    assert_ne!(mutation.kind(), MutationKind::NotJson);
                    assert!(
                        !plain.is_valid(&mutated),
                        "{tool}: the {} mutation {mutated} of {value} is valid",
                        mutation.kind()
                    );
                }
                Err(_) => assert_eq!(mutation.kind(), MutationKind::NotJson),
            }
        }
    }
    Ok(kinds)
}

/// The generator and the mutations agree with the `jsonschema` crate over every tool of the
/// test toolkits, so the generator cannot drift from what `schemars` emits.
#[test]
fn generated_values_and_mutations_agree_with_jsonschema() {
    // The tools whose schemas the generator does not support, and why.
    let unsupported = [("chain", "`$ref` cycle"), ("constrained", "`pattern`")];
    let mut kinds_seen = std::collections::BTreeSet::new();
    for (tool, schema) in schemas() {
        match cross_check(tool, &schema) {
            Ok(kinds) => kinds_seen.extend(kinds),
            Err(e) => {
                let (_, why) = unsupported
                    .iter()
                    .find(|(t, _)| *t == tool)
                    .unwrap_or_else(|| panic!("`{tool}` unsupported: {e}"));
                assert!(e.to_string().contains(why), "{tool}: {e}");
            }
        }
    }
    assert_eq!(kinds_seen.len(), MutationKind::ALL.len(), "{kinds_seen:?}");
}

/// Keywords `schemars` emits only when asked (or never), written by hand: formats, exclusive
/// bounds, `multipleOf`, `propertyNames`, `minProperties`, `uniqueItems` over few values,
/// `const`, `allOf`, OpenAPI's `nullable`; and what the generator refuses, with its reason.
#[test]
fn hand_written_schemas_agree_with_jsonschema() {
    let object = |property: Value| {
        serde_json::json!({
            "type": "object",
            "properties": {"v": property},
            "required": ["v"],
            "additionalProperties": false,
        })
    };
    let formats = [
        "date-time",
        "date",
        "time",
        "partial-date-time",
        "partial-time",
        "uuid",
        "email",
        "uri",
        "hostname",
        "ipv4",
        "ipv6",
        "ip",
    ];
    let mut supported: Vec<Value> = formats
        .iter()
        .map(|f| object(serde_json::json!({"type": "string", "format": f})))
        .collect();
    supported.extend([
        object(serde_json::json!({"type": "integer", "exclusiveMinimum": -3, "exclusiveMaximum": 4})),
        object(serde_json::json!({"type": "integer", "minimum": -100, "maximum": 100, "multipleOf": 7})),
        object(serde_json::json!({"type": "number", "exclusiveMinimum": 0.5, "maximum": 0.75})),
        object(serde_json::json!({"type": "number", "multipleOf": 5, "maximum": 40})),
        object(serde_json::json!({"type": "string", "minLength": 3, "maxLength": 4})),
        object(serde_json::json!({"type": "array", "items": {"enum": [1, 2, 3]}, "uniqueItems": true, "minItems": 1, "maxItems": 3})),
        object(serde_json::json!({"type": "object", "propertyNames": {"enum": ["a", "b", "c"]}, "additionalProperties": {"type": "boolean"}, "minProperties": 1})),
        object(serde_json::json!({"const": {"kind": "fixed"}})),
        object(serde_json::json!({"allOf": [{"type": "string", "maxLength": 2}]})),
        object(serde_json::json!({"type": "string", "nullable": true, "x-order": 1})),
        object(serde_json::json!({"type": ["string", "integer", "null"], "minimum": 10, "maxLength": 0})),
        object(serde_json::json!({"type": "array", "prefixItems": [{"type": "boolean"}, {"type": "null"}], "items": false})),
    ]);
    for schema in &supported {
        if let Err(e) = cross_check("hand-written", schema) {
            panic!("{schema}: {e}");
        }
    }
    let refused = [
        (
            object(serde_json::json!({"type": "string", "pattern": "^a+$"})),
            "`pattern`",
        ),
        (
            object(serde_json::json!({"type": "string", "format": "duration"})),
            "the string format `duration`",
        ),
        (
            object(serde_json::json!({"not": {"type": "null"}})),
            "the keyword `not`",
        ),
        (
            object(serde_json::json!({"type": "integer", "minimum": 5, "maximum": 4})),
            "no integer meets",
        ),
        (
            object(serde_json::json!({"type": "number", "multipleOf": 0.1})),
            "a fractional `multipleOf`",
        ),
        (
            object(serde_json::json!({"allOf": [{"type": "string"}, {"maxLength": 3}]})),
            "an `allOf` of more than one",
        ),
        (
            object(serde_json::json!({"$ref": "#/$defs/missing"})),
            "not a local reference",
        ),
        (object(serde_json::json!(false)), "allows no value"),
    ];
    for (schema, why) in refused {
        let e = generate_valid(&schema, &mut Rng::new(1)).unwrap_err();
        assert!(e.to_string().contains(why), "{schema}: {e}");
        assert_eq!(e.at(), "/properties/v");
    }
}
