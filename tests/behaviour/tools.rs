//! `#[tool]` through the public API: schemas, descriptions, typed and JSON calls.

use serde_json::json;
use toolgroup::prelude::*;
use toolgroup::{Tool, args::Arguments, meta::ToolAnnotations};

/// Search the web and return the top results.
///
/// # Arguments
///
/// * `limit` - How many results (default 5).
#[tool]
async fn web_search(
    /// What to search for.
    query: String,
    limit: Option<u8>,
) -> Result<Vec<String>, String> {
    if query.is_empty() {
        return Err("the query is empty".to_owned());
    }
    Ok((1..=limit.unwrap_or(5))
        .map(|i| format!("{query} #{i}"))
        .collect())
}

#[tool(
    name = "add-numbers",
    description = "Add two numbers.",
    read_only,
    idempotent = true,
    destructive = false,
    timeout = "2s"
)]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// Ping the server.
#[tool]
fn ping() -> &'static str {
    "pong"
}

/// Forget everything.
#[tool]
fn forget() {}

/// Report the tool's own name and call id.
#[tool]
fn whoami(ctx: ToolContext<'_>, greeting: String) -> String {
    format!(
        "{greeting} from {} ({})",
        ctx.tool(),
        ctx.call_id().unwrap_or("no id")
    )
}

/// Search arguments.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct Query {
    /// The terms.
    terms: Vec<String>,
    /// Match all terms.
    #[serde(default)]
    all: bool,
}

/// Count the terms of a query.
#[tool]
fn count_terms(#[args] q: Query) -> usize {
    if q.all {
        q.terms.len()
    } else {
        q.terms.len().min(1)
    }
}

/// Shout (a plain `fn` with its own `inline` attribute, which `#[tool]` keeps: it adds
/// `#[inline]` only to a function without one, so this compiles without a conflict).
#[tool]
#[inline(never)]
fn shout(text: String) -> String {
    text.to_uppercase()
}

/// Whisper (its own `inline` under `cfg_attr`, which `#[tool]` also keeps as the only one).
#[tool]
#[cfg_attr(all(), inline(never))]
fn whisper(text: String) -> String {
    text.to_lowercase()
}

#[test]
fn the_function_stays_callable() {
    assert_eq!(add(2, 3), 5);
    assert_eq!(ping(), "pong");
    forget();
    assert_eq!(shout("a".to_owned()), "A");
    assert_eq!(whisper("A".to_owned()), "a");
}

#[test]
fn metadata() {
    let info = <web_search as Tool>::INFO;
    assert_eq!(info.name, "web_search");
    assert_eq!(
        info.description,
        "Search the web and return the top results."
    );
    assert_eq!(info.annotations, ToolAnnotations::NONE);
    assert_eq!(info.timeout, None);

    let info = <add as Tool>::INFO;
    assert_eq!(info.name, "add-numbers");
    assert_eq!(info.description, "Add two numbers.");
    assert_eq!(
        info.annotations,
        ToolAnnotations {
            read_only: Some(true),
            destructive: Some(false),
            idempotent: Some(true),
            open_world: None,
        }
    );
    assert_eq!(info.timeout, Some(std::time::Duration::from_secs(2)));
}

#[test]
fn input_schemas() {
    assert_eq!(
        *<web_search as Tool>::INFO.input_schema(),
        json!({
            "type": "object",
            "properties": {
                "query": {"type": "string", "description": "What to search for."},
                "limit": {
                    "type": ["integer", "null"],
                    "format": "uint8",
                    "minimum": 0,
                    "maximum": 255,
                    "description": "How many results (default 5)."
                }
            },
            "required": ["query"],
            "additionalProperties": false
        })
    );
    assert_eq!(
        *<ping as Tool>::INFO.input_schema(),
        json!({"type": "object", "additionalProperties": false})
    );
    // `ToolContext` is injected, not part of the schema.
    assert_eq!(
        *<whoami as Tool>::INFO.input_schema(),
        json!({
            "type": "object",
            "properties": {"greeting": {"type": "string"}},
            "required": ["greeting"],
            "additionalProperties": false
        })
    );
    assert_eq!(
        *<count_terms as Tool>::INFO.input_schema(),
        json!({
            "type": "object",
            "properties": {
                "terms": {"type": "array", "items": {"type": "string"}, "description": "The terms."},
                "all": {"type": "boolean", "default": false, "description": "Match all terms."}
            },
            "required": ["terms"],
            "additionalProperties": false
        })
    );
}

#[test]
fn schemas_are_built_once() {
    let a = <web_search as Tool>::INFO.input_schema() as *const _;
    let b = <web_search as Tool>::INFO.input_schema() as *const _;
    assert_eq!(a, b);
}

#[test]
fn output_schemas() {
    assert_eq!(
        <web_search as Tool>::INFO.output_schema(),
        Some(&json!({"type": "array", "items": {"type": "string"}}))
    );
    assert_eq!(
        <add as Tool>::INFO.output_schema(),
        Some(&json!({"type": "integer", "format": "int64"}))
    );
    assert_eq!(<ping as Tool>::INFO.output_schema(), None);
    assert_eq!(<forget as Tool>::INFO.output_schema(), None);
}

#[tokio::test]
async fn typed_calls() {
    let ctx = ToolContext::detached::<web_search>();
    let args = WebSearchArgs {
        query: "rust".to_owned(),
        limit: Some(2),
    };
    let r = <web_search as Tool>::call(&(), ctx, args).await;
    assert!(!r.is_error);
    assert_eq!(r.structured_content, Some(json!(["rust #1", "rust #2"])));
    assert_eq!(r.text_joined(), r#"["rust #1","rust #2"]"#);

    let args = WebSearchArgs {
        query: String::new(),
        limit: None,
    };
    let r = <web_search as Tool>::call(&(), ctx, args).await;
    assert!(r.is_error);
    assert_eq!(r.text_joined(), "the query is empty");
    assert_eq!(r.structured_content, None);
}

#[tool_group(
    name = "every_tool",
    description = "Every tool of this file.",
    tools = [web_search, add, ping, forget, whoami, count_terms, pair, shout, whisper]
)]
struct EveryTool;

#[toolkit]
struct Kit {
    #[basic]
    every_tool: EveryTool,
}

/// Calls `T` through a toolkit, as a model would, with the call id `call-1`.
async fn erased<T: Tool<State = ()>>(args: Arguments<'_>) -> CallResult {
    let kit = Toolkit::new(Kit {
        every_tool: EveryTool,
    });
    let mut session = kit.session();
    let cx = CallContext::new().with_call_id("call-1");
    kit.call_with(&mut session, T::INFO.name, args, &cx).await
}

#[tokio::test]
async fn json_calls() {
    let r = erased::<web_search>(r#"{"query": "q", "limit": 1}"#.into()).await;
    assert_eq!(r.structured_content, Some(json!(["q #1"])));
    let r = erased::<add>(Arguments::Value(&json!({"a": 2, "b": 40}))).await;
    assert_eq!(r.structured_content, Some(json!(42)));
    let r = erased::<ping>("".into()).await;
    assert_eq!((r.text_joined().as_str(), r.is_error), ("pong", false));
    let r = erased::<forget>("{}".into()).await;
    assert_eq!((r.content.len(), r.is_error), (0, false));
    let r = erased::<whoami>(r#"{"greeting": "hi"}"#.into()).await;
    assert_eq!(r.text_joined(), "hi from whoami (call-1)");
    let r = erased::<count_terms>(r#"{"terms": ["a", "b"], "all": true}"#.into()).await;
    assert_eq!(r.structured_content, Some(json!(2)));
    let r = erased::<shout>(r#"{"text": "hi"}"#.into()).await;
    assert_eq!((r.text_joined().as_str(), r.is_error), ("HI", false));
    let r = erased::<whisper>(r#"{"text": "HI"}"#.into()).await;
    assert_eq!((r.text_joined().as_str(), r.is_error), ("hi", false));
}

#[tokio::test]
async fn argument_errors_name_the_path_not_the_value() {
    let cases = [
        (
            r#"{"query": 12345}"#,
            "invalid argument `query`: expected a string, got an integer",
        ),
        (
            r#"{"query": "x", "limit": 300}"#,
            "invalid argument `limit`: expected an integer from 0 to 255, got an integer outside that range or set",
        ),
        (
            r#"{"limit": 1}"#,
            "invalid arguments: missing field `query`",
        ),
        (
            r#"{"query": "x", "secret": "hunter2"}"#,
            "unknown field `secret`",
        ),
        (
            r#"["x"]"#,
            "the arguments must be a JSON object matching the tool's parameters, got an array",
        ),
        (
            r#"{"query": "x""#,
            "the arguments are not valid JSON (EOF while parsing an object at line 1 column 13)",
        ),
    ];
    for (input, expected) in cases {
        let r = erased::<web_search>(input.into()).await;
        assert!(r.is_error, "{input}");
        let text = r.text_joined();
        assert!(text.contains(expected), "{input}: {text}");
        assert!(
            !text.contains("12345") && !text.contains("300") && !text.contains("hunter2"),
            "{text}"
        );
    }
    let r = erased::<count_terms>(r#"{"terms": [1]}"#.into()).await;
    assert_eq!(
        r.text_joined(),
        "`count_terms` was not run: invalid argument `terms[0]`: expected a string, got an integer"
    );
}

/// A parameter named like its function.
#[tool]
fn pair(pair: (u8, String)) -> String {
    format!("{}{}", pair.0, pair.1)
}

#[tokio::test]
async fn a_parameter_may_share_the_functions_name() {
    let r = erased::<pair>(r#"{"pair": [1, "a"]}"#.into()).await;
    assert_eq!(r.text_joined(), "1a");
}
