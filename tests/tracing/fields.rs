//! The span's fields for calls that end well: the conventions' names, the same on the fast
//! and the full path, the content only when asked for, and what a call changed.

use std::sync::Arc;

use serde_json::json;
use toolgroup::dynamic::{Dynamic, DynamicTool, DynamicTools, ToolSet};
use toolgroup::policy::{Decision, PolicyRequest};
use toolgroup::prelude::*;
use toolgroup::{BoxFuture, ToolDefinition};

use crate::capture::{Recorded, one_span, spans};
use crate::common::*;

fn allow_all(_: &PolicyRequest<'_>) -> Decision {
    Decision::Allow
}

#[test]
fn an_ok_call_is_an_execute_tool_span_by_the_genai_conventions() {
    let span = one_span(|| async {
        let kit = toolkit();
        let mut s = kit.session();
        let cx = CallContext::new().with_call_id("call_1");
        let result = kit
            .call_with(&mut s, "note_write", r#"{"text": "a"}"#, &cx)
            .await;
        assert!(!result.is_error);
    });
    assert_eq!(span.name, "execute_tool");
    assert_eq!(
        span.keys(),
        [
            "gen_ai.operation.name",
            "gen_ai.tool.call.id",
            "gen_ai.tool.name",
            "gen_ai.tool.type",
            "otel.kind",
            "otel.name",
            "toolgroup.duration_us",
            "toolgroup.group",
            "toolgroup.outcome",
        ]
    );
    assert_eq!(span.get("otel.name"), Some("execute_tool note_write"));
    assert_eq!(span.get("otel.kind"), Some("internal"));
    assert_eq!(span.get("gen_ai.operation.name"), Some("execute_tool"));
    assert_eq!(span.get("gen_ai.tool.name"), Some("note_write"));
    assert_eq!(span.get("gen_ai.tool.call.id"), Some("call_1"));
    assert_eq!(span.get("gen_ai.tool.type"), Some("function"));
    assert_eq!(span.get("toolgroup.group"), Some("notes"));
    assert_eq!(span.get("toolgroup.outcome"), Some("ok"));
    let duration = span.get("toolgroup.duration_us").unwrap();
    assert!(duration.parse::<u64>().is_ok(), "{duration}");
}

/// The calls of [`the_fast_and_the_full_path_record_the_same_fields`].
async fn mixed_calls(kit: &Toolkit<Agent>) {
    let mut s = kit.session();
    let calls = [
        // A plain `fn` tool: the fast path runs it outright when nothing listens.
        ("note_write", r#"{"text": "a"}"#),
        ("note_write", r#"{"text": 1}"#),
        ("db_count", "{}"),
        ("nope", "{}"),
        ("reset_tools", r#"{"web_search": true}"#),
        // An `async` tool: the fast path finds it and runs it unboxed when nothing listens.
        ("web_search", r#"{"query": "rust"}"#),
        ("reset_tools", r#"{"web_serch": true}"#),
    ];
    for (tool, arguments) in calls {
        kit.call(&mut s, tool, arguments).await;
    }
    let batch = [
        ToolCall::new("note_write", json!({"text": "b"})).with_call_id("b1"),
        ToolCall::new("web_search", json!({"query": "go"})).with_call_id("b2"),
    ];
    kit.call_batch(&mut s, &batch).await;
}

fn without_duration(spans: Vec<Recorded>) -> Vec<Recorded> {
    spans
        .into_iter()
        .map(|mut span| {
            let duration = span.fields.remove("toolgroup.duration_us");
            assert!(duration.is_some(), "{span:?}");
            span
        })
        .collect()
}

#[test]
fn the_fast_and_the_full_path_record_the_same_fields() {
    // Without a policy, each call would end on the fast path if no subscriber listened.
    let fast = without_duration(spans(|| async { mixed_calls(&toolkit()).await }));
    // A policy sends every call down the full path.
    let full = without_duration(spans(|| async {
        mixed_calls(&toolkit().with_policy(allow_all)).await
    }));
    assert_eq!(fast.len(), 9);
    for (fast, full) in fast.iter().zip(&full) {
        assert_eq!(fast.name, "execute_tool");
        assert_eq!(fast.fields, full.fields);
    }
    let outcomes: Vec<_> = fast
        .iter()
        .map(|s| {
            (
                s.get("gen_ai.tool.name").unwrap(),
                s.get("toolgroup.outcome").unwrap(),
            )
        })
        .collect();
    assert_eq!(
        outcomes,
        [
            ("note_write", "ok"),
            ("note_write", "invalid_arguments"),
            ("db_count", "inactive_group"),
            ("nope", "unknown_tool"),
            ("reset_tools", "ok"),
            ("web_search", "ok"),
            ("reset_tools", "refused"),
            ("note_write", "ok"),
            ("web_search", "ok"),
        ]
    );
    let ids: Vec<_> = fast[7..]
        .iter()
        .map(|s| s.get("gen_ai.tool.call.id"))
        .collect();
    assert_eq!(ids, [Some("b1"), Some("b2")]);
}

const CONTENT: [&str; 3] = [
    "gen_ai.tool.description",
    "gen_ai.tool.call.arguments",
    "gen_ai.tool.call.result",
];

#[test]
fn the_content_is_recorded_only_when_asked_for() {
    let calls = |kit: Toolkit<Agent>| async move {
        let mut s = kit.session();
        kit.call(&mut s, "note_write", r#"{"text": "ab"}"#).await;
        kit.call(&mut s, "note_write", &json!({"text": "abc"}))
            .await;
        kit.call(&mut s, "note_write", "").await;
    };
    for span in spans(|| calls(toolkit())) {
        for field in CONTENT {
            assert_eq!(span.get(field), None, "{span:?}");
        }
    }
    assert!(!toolkit().telemetry_content());
    let kit = toolkit().with_telemetry_content(true);
    assert!(kit.telemetry_content());
    let spans = spans(|| calls(kit));
    let content: Vec<[Option<&str>; 3]> = spans
        .iter()
        .map(|span| CONTENT.map(|field| span.get(field)))
        .collect();
    let description = Some("Write a note to the agent's notebook.");
    assert_eq!(content[0][0], description);
    // The arguments as the model sent them; a parsed value written out.
    assert_eq!(content[0][1], Some(r#"{"text": "ab"}"#));
    assert_eq!(content[0][2], Some("Noted (2 characters)."));
    assert_eq!(content[1][1], Some(r#"{"text":"abc"}"#));
    assert_eq!(content[1][2], Some("Noted (3 characters)."));
    // An error result is what the model reads, too.
    assert_eq!(content[2][1], Some("{}"));
    assert!(content[2][2].unwrap().contains("`text`"), "{content:?}");
}

#[test]
fn a_name_that_is_no_tool_names_no_span() {
    let long = format!("a\nb{}", "x".repeat(100));
    let names = spans(|| async {
        let kit = toolkit().with_telemetry_content(true);
        let mut s = kit.session();
        kit.call(&mut s, "nope", "{}").await;
        kit.call(&mut s, &long, "{}").await;
    });
    assert_eq!(names[0].get("otel.name"), Some("execute_tool"));
    assert_eq!(names[0].get("gen_ai.tool.name"), Some("nope"));
    // Escaped and cut, as in the error the model reads.
    let echoed = format!("a\\nb{}…", "x".repeat(61));
    assert_eq!(names[1].get("otel.name"), Some("execute_tool"));
    assert_eq!(names[1].get("gen_ai.tool.name"), Some(echoed.as_str()));
    for span in &names {
        assert_eq!(span.get("gen_ai.tool.type"), None);
        assert_eq!(span.get("toolgroup.group"), None);
        assert_eq!(span.get("gen_ai.tool.description"), None);
        assert_eq!(span.get("error.type"), Some("unknown_tool"));
    }
}

#[test]
fn a_reset_names_the_groups_it_switched() {
    let resets = spans(|| async {
        let kit = toolkit();
        let mut s = kit.session();
        for arguments in [
            r#"{"web_search": true, "scraping": true}"#,
            r#"{"database": true}"#,
            r#"{"database": true}"#,
            r#"{"scrapping": true}"#,
            r#"{"database": false}"#,
        ] {
            kit.call(&mut s, "reset_tools", arguments).await;
        }
    });
    let changes: Vec<_> = resets
        .iter()
        .map(|span| {
            assert_eq!(span.get("otel.name"), Some("execute_tool reset_tools"));
            assert_eq!(span.get("gen_ai.tool.type"), Some("function"));
            assert_eq!(span.get("toolgroup.group"), None);
            (
                span.get("toolgroup.outcome").unwrap(),
                span.get("toolgroup.groups.activated"),
                span.get("toolgroup.groups.deactivated"),
            )
        })
        .collect();
    assert_eq!(
        changes,
        [
            ("ok", Some("web_search,scraping"), None),
            ("ok", Some("database"), Some("web_search,scraping")),
            // Nothing changed; a refused reset changes nothing.
            ("ok", None, None),
            ("refused", None, None),
            ("ok", None, Some("database")),
        ]
    );
}

#[test]
fn a_first_use_names_the_group_it_activated() {
    let span = one_span(|| async {
        let kit = toolkit().with_first_use_activation(true);
        let mut s = kit.session();
        kit.call(&mut s, "db_count", "{}").await;
    });
    assert_eq!(span.get("toolgroup.outcome"), Some("ok"));
    assert_eq!(span.get("toolgroup.groups.activated"), Some("database"));
}

/// Fetch a page.
#[tool(read_only)]
fn page_fetch(
    /// The page's URL.
    url: String,
) -> String {
    url
}

#[tool_group(
    name = "docs",
    description = "Working with documents.",
    tools = [page_fetch],
    skills = ["tests/skills/pdf-tools"]
)]
struct Docs;

#[toolkit]
struct SkillKit {
    docs: Docs,
}

#[test]
fn a_skill_load_names_the_skill_and_the_group_it_activated() {
    let loads = spans(|| async {
        let kit = Toolkit::new(SkillKit { docs: Docs }).with_skill_activation(true);
        let mut s = kit.session();
        kit.call(&mut s, "Skill", r#"{"skill": "pdf-tools"}"#).await;
        kit.call(&mut s, "Skill", r#"{"skill": "pdf-tools"}"#).await;
        kit.call(&mut s, "Skill", r#"{"skill": "pdf-toolz"}"#).await;
    });
    let got: Vec<_> = loads
        .iter()
        .map(|span| {
            assert_eq!(span.get("otel.name"), Some("execute_tool Skill"));
            (
                span.get("toolgroup.outcome").unwrap(),
                span.get("toolgroup.skill"),
                span.get("toolgroup.groups.activated"),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("ok", Some("pdf-tools"), Some("docs")),
            ("ok", Some("pdf-tools"), None),
            // The model's name for no skill is not recorded.
            ("refused", None, None),
        ]
    );
}

#[tool_group(name = "remote", description = "Tools found at run time.", dynamic)]
struct Remote;

struct Source;

impl DynamicTools for Source {
    fn tools(&self) -> Arc<ToolSet> {
        let schema = json!({"type": "object", "properties": {}});
        Arc::new(ToolSet::new([DynamicTool::new(
            "lookup", "Look up.", schema,
        )]))
    }

    fn call<'a>(
        &'a self,
        _: &'static ToolDefinition,
        _: toolgroup::ToolContext<'a>,
        _: toolgroup::args::Arguments<'a>,
    ) -> BoxFuture<'a, CallResult> {
        Box::pin(async { CallResult::text("found") })
    }
}

#[toolkit]
struct RemoteKit {
    #[basic]
    remote: Dynamic<Remote, Source>,
}

#[test]
fn a_tool_found_at_run_time_is_an_extension() {
    let span = one_span(|| async {
        let kit = Toolkit::new(RemoteKit {
            remote: Dynamic::new(Source),
        })
        .with_telemetry_content(true);
        let mut s = kit.session();
        kit.call(&mut s, "lookup", "{}").await;
    });
    assert_eq!(span.get("otel.name"), Some("execute_tool lookup"));
    assert_eq!(span.get("gen_ai.tool.type"), Some("extension"));
    assert_eq!(span.get("toolgroup.group"), Some("remote"));
    assert_eq!(span.get("gen_ai.tool.description"), Some("Look up."));
    assert_eq!(span.get("gen_ai.tool.call.result"), Some("found"));
}
