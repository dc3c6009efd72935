//! Groups whose tools are found at run time, through the public `dynamic` API: an in-process
//! source of tools (what any application can write; the MCP `Remote` group is another).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use toolgroup::dynamic::{Dynamic, DynamicTool, DynamicTools, ToolSet};
use toolgroup::prelude::*;
use toolgroup::provider::{AllowMode, Provider, Rendered};
use toolgroup::{BoxFuture, ToolDefinition, policy::Decision, policy::PolicyRequest};

/// Take a note.
#[tool]
fn take_note(
    /// The note.
    text: String,
) -> String {
    format!("noted: {text}")
}

/// A local tool named like one of the sources' tools.
#[tool]
fn lookup(
    /// What.
    key: String,
) -> String {
    format!("local lookup of {key}")
}

#[tool_group(name = "notes", description = "Notes.", tools = [take_note, lookup])]
struct Notes;

#[tool_group(
    name = "files",
    description = "Read files on a server.",
    instructions = "Paths are relative to the project root.",
    dynamic
)]
struct Files;

#[tool_group(name = "search", description = "Search a corpus on a server.", dynamic)]
struct Search;

/// An in-process source: its tool list can be replaced while the toolkit runs.
struct Source {
    group: &'static str,
    set: Mutex<Arc<ToolSet>>,
    calls: AtomicUsize,
}

impl Source {
    fn new(group: &'static str, tools: Vec<DynamicTool>) -> Self {
        Source {
            group,
            set: Mutex::new(Arc::new(ToolSet::new(tools))),
            calls: AtomicUsize::new(0),
        }
    }

    fn replace(&self, tools: Vec<DynamicTool>) {
        *self.set.lock().unwrap() = Arc::new(ToolSet::new(tools));
    }
}

impl DynamicTools for Source {
    fn tools(&self) -> Arc<ToolSet> {
        self.set.lock().unwrap().clone()
    }

    fn call<'a>(
        &'a self,
        tool: &'static ToolDefinition,
        ctx: toolgroup::ToolContext<'a>,
        arguments: toolgroup::args::Arguments<'a>,
    ) -> BoxFuture<'a, CallResult> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        let arguments: Value = match arguments {
            toolgroup::args::Arguments::Text(text) => {
                serde_json::from_str(text).unwrap_or(Value::Null)
            }
            toolgroup::args::Arguments::Value(value) => value.clone(),
        };
        Box::pin(async move {
            match tool.name {
                "read_file" => CallResult::text(format!(
                    "{} of {} (group {}, call {:?})",
                    arguments["path"].as_str().unwrap_or("?"),
                    self.group,
                    ctx.group(),
                    ctx.call_id()
                )),
                "fail" => CallResult::error("the server says: no such corpus"),
                "explode" => panic!("the source broke"),
                "slow" => {
                    tokio::time::sleep(Duration::from_secs(30)).await;
                    CallResult::text("late")
                }
                other => CallResult::text(format!("{other} ran")),
            }
        })
    }
}

fn object(properties: Value) -> Value {
    json!({"type": "object", "properties": properties})
}

fn files_tools() -> Vec<DynamicTool> {
    vec![
        DynamicTool::new(
            "read_file",
            "Read a file.",
            json!({
                "type": "object",
                "properties": {"path": {"type": "string"}},
                "required": ["path"],
            }),
        ),
        DynamicTool::new("explode", "Break.", object(json!({}))),
        DynamicTool::new("slow", "Take long.", object(json!({}))),
        // Taken by the local `notes` group: hidden, the local tool keeps its name.
        DynamicTool::new("lookup", "Remote lookup.", object(json!({}))),
        DynamicTool::new("bad name!", "Not a provider-safe name.", object(json!({}))),
        // Gemini refuses a leading digit, so every provider's rule does.
        DynamicTool::new("1tool", "Starts with a digit.", object(json!({}))),
        DynamicTool::new("reset_tools", "Shadowing attempt.", object(json!({}))),
    ]
}

fn search_tools() -> Vec<DynamicTool> {
    vec![
        DynamicTool::new("query", "Search.", object(json!({"q": {"type": "string"}}))),
        DynamicTool::new("fail", "Always fails.", object(json!({}))),
        // Taken by `files`, declared earlier: hidden here.
        DynamicTool::new("read_file", "Another read_file.", object(json!({}))),
    ]
}

#[toolkit]
struct Kit {
    #[basic]
    notes: Notes,
    files: Dynamic<Files, Source>,
    search: Dynamic<Search, Source>,
}

fn kit() -> Toolkit<Kit> {
    Toolkit::new(Kit {
        notes: Notes,
        files: Dynamic::new(Source::new("files", files_tools())),
        search: Dynamic::new(Source::new("search", search_tools())),
    })
}

fn names(kit: &Toolkit<Kit>, session: &Session<Kit>) -> Vec<&'static str> {
    kit.definitions(session).map(|d| d.name).collect()
}

#[tokio::test]
async fn only_active_groups_tools_are_listed_and_reset_tools_switches_them() {
    let kit = kit();
    let mut session = kit.session();
    assert_eq!(
        names(&kit, &session),
        ["reset_tools", "take_note", "lookup"]
    );
    // The reset schema has one boolean per group, remote ones included.
    let schema = &kit.reset_definition().unwrap().input_schema;
    assert_eq!(schema["required"], json!(["files", "search"]));

    let answer = kit
        .call(
            &mut session,
            "reset_tools",
            r#"{"files": true, "search": false}"#,
        )
        .await;
    assert!(!answer.is_error, "{}", answer.text_joined());
    assert!(
        answer
            .text_joined()
            .contains("Paths are relative to the project root."),
        "the remote group's instructions are given: {}",
        answer.text_joined()
    );
    assert_eq!(
        names(&kit, &session),
        [
            "reset_tools",
            "take_note",
            "lookup",
            "read_file",
            "explode",
            "slow"
        ]
    );
    kit.call(
        &mut session,
        "reset_tools",
        r#"{"files": false, "search": true}"#,
    )
    .await;
    assert_eq!(
        names(&kit, &session),
        ["reset_tools", "take_note", "lookup", "query", "fail"]
    );
}

#[tokio::test]
async fn calls_reach_the_source_with_the_context() {
    let kit = kit();
    let mut session = kit.session();
    session.activate(KitGroup::Files);
    let context = toolgroup::CallContext::new().with_call_id("call-7");
    let result = kit
        .call_with(&mut session, "read_file", r#"{"path": "a.txt"}"#, &context)
        .await;
    assert!(!result.is_error, "{}", result.text_joined());
    assert_eq!(
        result.text_joined(),
        r#"a.txt of files (group files, call Some("call-7"))"#
    );
    assert_eq!(kit.group_of("read_file").unwrap().name, "files");
    assert_eq!(
        kit.definition("read_file").unwrap().description,
        "Read a file."
    );
}

#[tokio::test]
async fn an_inactive_remote_tool_is_not_run_and_the_answer_names_its_group() {
    let kit = kit();
    let mut session = kit.session();
    let result = kit.call(&mut session, "query", r#"{"q": "x"}"#).await;
    assert!(result.is_error);
    assert!(
        result.text_joined().contains("the group `search`"),
        "{}",
        result.text_joined()
    );
    assert_eq!(
        kit.registry().search.source().calls.load(Ordering::SeqCst),
        0
    );
}

#[tokio::test]
async fn a_remote_error_a_panic_and_a_timeout_are_error_results() {
    let kit = kit().with_default_timeout(Duration::from_millis(50));
    let mut session = kit.session();
    session.activate_all();
    let failed = kit.call(&mut session, "fail", "{}").await;
    assert!(failed.is_error);
    assert_eq!(failed.text_joined(), "the server says: no such corpus");

    let panicked = kit.call(&mut session, "explode", "{}").await;
    assert!(panicked.is_error);
    assert!(
        panicked.text_joined().contains("`explode`"),
        "{}",
        panicked.text_joined()
    );

    let slow = kit.call(&mut session, "slow", "{}").await;
    assert!(slow.is_error);
    assert!(
        slow.text_joined().contains("timed out") || slow.text_joined().contains("time"),
        "{}",
        slow.text_joined()
    );
    // The rest of the toolkit keeps working.
    let ok = kit
        .call(&mut session, "read_file", r#"{"path": "b"}"#)
        .await;
    assert!(!ok.is_error, "{}", ok.text_joined());
    let local = kit
        .call(&mut session, "take_note", r#"{"text": "hi"}"#)
        .await;
    assert_eq!(local.text_joined(), "noted: hi");
}

#[tokio::test]
async fn clashing_and_invalid_names_are_hidden_with_a_reason_never_overwritten() {
    let kit = kit();
    let mut session = kit.session();
    session.activate_all();
    // The local tool keeps its name.
    let local = kit.call(&mut session, "lookup", r#"{"key": "k"}"#).await;
    assert_eq!(local.text_joined(), "local lookup of k");
    // `reset_tools` is the toolkit's own.
    let reset = kit
        .call(
            &mut session,
            "reset_tools",
            r#"{"files": true, "search": true}"#,
        )
        .await;
    assert!(!reset.is_error, "{}", reset.text_joined());
    // The earlier group keeps `read_file`.
    let read = kit
        .call(&mut session, "read_file", r#"{"path": "x"}"#)
        .await;
    assert!(
        read.text_joined().contains("of files"),
        "{}",
        read.text_joined()
    );

    let invalid = "its name is invalid: a tool name is 1 to 64 ASCII letters, digits, `_` or `-`, \
                   starting with a letter or `_` (the rule every provider accepts)"
        .to_owned();
    let hidden: Vec<(&str, &str, String)> = kit
        .hidden_tools()
        .into_iter()
        .map(|h| (h.group, h.name, h.reason))
        .collect();
    assert_eq!(
        hidden,
        [
            (
                "files",
                "lookup",
                "the name is taken by the compiled-in tool of group `notes`".to_owned()
            ),
            ("files", "bad name!", invalid.clone()),
            ("files", "1tool", invalid),
            (
                "files",
                "reset_tools",
                "`reset_tools` is the toolkit's own tool".to_owned()
            ),
            (
                "search",
                "read_file",
                "the name is taken by a tool of group `files`, declared earlier".to_owned()
            ),
        ]
    );
    for name in ["bad name!", "1tool"] {
        let bad = kit.call(&mut session, name, "{}").await;
        assert!(bad.is_error);
        assert!(
            bad.text_joined().starts_with("unknown tool"),
            "{}",
            bad.text_joined()
        );
    }
}

#[tokio::test]
async fn a_changed_tool_list_is_seen_by_the_next_listing_and_call() {
    let kit = kit();
    let mut session = kit.session();
    session.activate(KitGroup::Search);
    assert!(names(&kit, &session).contains(&"query"));
    kit.registry()
        .search
        .source()
        .replace(vec![DynamicTool::new(
            "summarize",
            "Summarize.",
            object(json!({})),
        )]);
    assert_eq!(
        names(&kit, &session),
        ["reset_tools", "take_note", "lookup", "summarize"]
    );
    let gone = kit.call(&mut session, "query", r#"{"q": "x"}"#).await;
    assert!(gone.is_error);
    assert!(
        gone.text_joined().starts_with("unknown tool"),
        "{}",
        gone.text_joined()
    );
    let new = kit.call(&mut session, "summarize", "{}").await;
    assert_eq!(new.text_joined(), "summarize ran");
    // The clash with `files` is gone with the old list.
    assert!(kit.hidden_tools().iter().all(|h| h.group == "files"));
}

#[tokio::test]
async fn policies_and_layers_apply_to_remote_tools() {
    let kit = kit()
        .with_policy(|request: &PolicyRequest<'_>| {
            if request.tool == "query" {
                Decision::deny("queries need approval")
            } else {
                Decision::Allow
            }
        })
        .layer(toolgroup::middleware::MaxResultSizeLayer::new(10));
    let mut session = kit.session();
    session.activate_all();
    let denied = kit.call(&mut session, "query", r#"{"q": "x"}"#).await;
    assert!(denied.is_error);
    assert!(
        denied.text_joined().contains("queries need approval"),
        "{}",
        denied.text_joined()
    );
    assert_eq!(
        kit.registry().search.source().calls.load(Ordering::SeqCst),
        0
    );
    // The layer sees the remote result (longer than 10 bytes) and cuts it.
    let capped = kit
        .call(&mut session, "read_file", r#"{"path": "long path"}"#)
        .await;
    assert!(
        capped
            .text_joined()
            .starts_with("long path \n[the result was cut: 10 of 43 bytes"),
        "{}",
        capped.text_joined()
    );
}

#[test]
fn renderers_and_the_mask_mode_include_remote_tools() {
    let kit = kit();
    let mut session = kit.session();
    session.activate(KitGroup::Files);
    let openai = Rendered::new(&kit, Provider::OpenAiChat);
    let listed = openai.tools_value(&session);
    let listed: Vec<&str> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        listed,
        [
            "reset_tools",
            "take_note",
            "lookup",
            "read_file",
            "explode",
            "slow"
        ]
    );
    let all = openai.all_tools_value();
    assert_eq!(all.as_array().unwrap().len(), 3 + 3 + 2);
    let allowed = openai
        .allowed_tools_value(&session, AllowMode::Auto)
        .unwrap();
    assert!(allowed.to_string().contains("\"read_file\""), "{allowed}");
    assert!(!allowed.to_string().contains("\"query\""), "{allowed}");

    // A remote schema that cannot be strict falls back, with the reason available.
    assert_eq!(
        openai.strictness("read_file"),
        Some(toolgroup::provider::Strictness::Strict)
    );
    // `q` may be omitted but not null: OpenAI's strict mode cannot say that.
    let loose = openai.strictness("query").unwrap();
    let toolgroup::provider::Strictness::Fallback(why) = &loose else {
        panic!("{loose:?}")
    };
    assert_eq!(why.path, "/properties/q");
    // Said in JSON Schema terms: the schema did not come from a Rust type.
    assert_eq!(
        why.reason,
        "may be omitted but cannot be null (a property outside `required` whose type does not allow `null`); OpenAI strict mode requires every property, optional ones as a union with null"
    );
    // Anthropic's strict mode takes an optional property that cannot be null as it is.
    let anthropic = Rendered::new(&kit, Provider::AnthropicStrict);
    assert_eq!(
        anthropic.strictness("query"),
        Some(toolgroup::provider::Strictness::Strict)
    );
    assert_eq!(openai.strictness("no_such_tool"), None);
    let mcp = Rendered::new(&kit, Provider::Mcp).tools_value(&session);
    let read_file = &mcp.as_array().unwrap()[3];
    assert_eq!(read_file["name"], "read_file");
    assert_eq!(
        read_file["inputSchema"]["properties"]["path"]["type"],
        "string"
    );
}

#[test]
fn a_rendering_reads_the_sources_at_each_listing() {
    let kit = kit();
    let mut session = kit.session();
    session.activate(KitGroup::Search);
    let rendered = Rendered::new(&kit, Provider::Mcp);
    let names_of = |tools: Value| -> Vec<String> {
        tools
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_owned())
            .collect()
    };
    // The toolkit configured again is another toolkit, but the sources are the same: a
    // tool set found after rendering shows in the rendering as in the toolkit's listing.
    let kit = kit.with_reset_tools(false);
    kit.registry()
        .search
        .source()
        .replace(vec![DynamicTool::new("grep", "Grep.", object(json!({})))]);
    assert_eq!(names(&kit, &session), ["take_note", "lookup", "grep"]);
    assert_eq!(
        names_of(rendered.tools_value(&session)),
        ["reset_tools", "take_note", "lookup", "grep"]
    );
    let all = names_of(rendered.all_tools_value());
    assert!(all.iter().any(|n| n == "grep"), "{all:?}");
    assert!(!all.iter().any(|n| n == "query"), "{all:?}");
    assert!(rendered.strictness("grep").is_some());
    assert_eq!(rendered.strictness("query"), None);
}

#[test]
fn the_catalog_lists_remote_tools_under_their_group() {
    let kit = kit();
    let catalog = kit.catalog().to_value();
    let files = &catalog["groups"][1];
    assert_eq!(files["name"], "files");
    assert_eq!(
        files["instructions"],
        "Paths are relative to the project root."
    );
    let tools: Vec<&str> = files["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(tools, ["read_file", "explode", "slow"]);
    assert!(kit.catalog().to_markdown().contains("### `read_file`"));
}
