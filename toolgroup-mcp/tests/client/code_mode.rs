//! Code mode over MCP (`McpServer::with_code_mode`): `run_program` listed with the
//! declarations of what the client is shown, and its programs' calls made on the client's
//! active set, kept where that set lives. In the `client` binary, the one CI builds with
//! every feature and runs with the Python SDK's venv (`MCP_VENV`).

use std::sync::Arc;

use serde_json::json;
use toolgroup::ToolDefinition;
use toolgroup::code::Limits;
use toolgroup::dynamic::{Dynamic, DynamicTool, DynamicTools, ToolSet};
use toolgroup::prelude::*;
use toolgroup_mcp::{GroupStore, McpServer, MemoryStore, Mode};

use crate::support::{self, call, connect, names, post_as, serve_loopback, stateless, user_key};

fn server(mode: Mode) -> McpServer<support::Agent> {
    McpServer::new(support::toolkit(), mode)
        .with_first_use_activation(true)
        .with_code_mode(Limits::new())
}

#[tokio::test]
async fn the_python_sdk_runs_a_program() {
    crate::python::run_script(server(Mode::Mask), "code_mode.py").await;
}

#[tokio::test]
async fn a_program_on_a_connection_keeps_what_its_calls_switch_on() {
    let (client, _) = connect(&server(Mode::List), Session::new()).await;
    let listed = names(&client).await;
    assert!(listed.contains(&"run_program".to_owned()), "{listed:?}");
    let program = "return (await web_search.web_search({ query: 'q' })).length > 0;";
    let r = call(&client, "run_program", json!({"program": program}))
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(false), "{}", support::text(&r));
    let structured = r.structured_content.clone().unwrap();
    assert_eq!(structured["result"], json!(true), "{structured}");
    // First use from the program: the group is the connection's now, and listed.
    assert!(names(&client).await.contains(&"web_search".to_owned()));
    let tools = client.list_all_tools().await.unwrap();
    let run = tools.iter().find(|t| t.name == "run_program").unwrap();
    let description = run.description.as_deref().unwrap_or_default();
    assert!(
        description.contains("declare namespace web_search {"),
        "{description}"
    );
    assert!(
        !description.contains("declare namespace scraping {"),
        "{description}"
    );
    client.cancel().await.unwrap();
}

/// A program's calls report progress as one tool's would, under the request's token. Two
/// calls that run together each count from 1, so the notifications are numbered for the
/// whole program (the specification has `progress` rise with every one) and name the tool.
#[tokio::test]
async fn a_programs_calls_report_progress_under_the_requests_token() {
    let mut groups = Session::new();
    groups.activate(support::AgentGroup::Waiting);
    let (client, counting) = connect(&server(Mode::Mask), groups).await;
    let program = "const [a, b] = await Promise.all([waiting.count({ n: 2 }), waiting.count({ n: 3 })]); return [a, b];";
    let mut params = support::args(json!({"program": program}));
    params.name = "run_program".into();
    params.meta = Some(rmcp::model::RequestMetaObject::with_progress_token(
        rmcp::model::ProgressToken(rmcp::model::NumberOrString::String("p1".into())),
    ));
    let r = client.call_tool(params).await.unwrap();
    assert_eq!(r.is_error, Some(false), "{}", support::text(&r));
    assert_eq!(
        r.structured_content.clone().unwrap()["result"],
        json!(["counted to 2", "counted to 3"])
    );
    // Sent before the result: five reports, numbered 1 to 5, no total, each naming its tool.
    let progress = counting.progress.lock().unwrap().clone();
    let numbers: Vec<f64> = progress.iter().map(|(done, _, _)| *done).collect();
    assert_eq!(numbers, [1.0, 2.0, 3.0, 4.0, 5.0], "{progress:?}");
    assert!(
        progress.iter().all(|(_, total, _)| total.is_none()),
        "{progress:?}"
    );
    let mut messages: Vec<String> = progress.into_iter().filter_map(|(_, _, m)| m).collect();
    messages.sort();
    assert_eq!(
        messages,
        [
            "count: step 1",
            "count: step 1",
            "count: step 2",
            "count: step 2",
            "count: step 3"
        ]
    );
    // Each request numbers its own (rmcp's client gives every request a token of its own).
    let r = call(&client, "run_program", json!({"program": program}))
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(false), "{}", support::text(&r));
    let progress = counting.progress.lock().unwrap().clone();
    let numbers: Vec<f64> = progress[5..].iter().map(|(done, _, _)| *done).collect();
    assert_eq!(numbers, [1.0, 2.0, 3.0, 4.0, 5.0], "{progress:?}");
    client.cancel().await.unwrap();
}

/// Fetch `n` pages, reporting each one done with its count only (no message).
#[tool]
async fn fetch_pages(
    /// How many.
    n: u32,
    ctx: ToolContext<'_>,
) -> u32 {
    for i in 1..=n {
        ctx.report(f64::from(i), Some(f64::from(n)), None);
        tokio::task::yield_now().await;
    }
    n
}

#[tool_group(name = "pages", description = "Pages.", tools = [fetch_pages])]
struct Pages;

#[toolkit]
struct Quiet {
    pages: Pages,
}

/// A report without a message still says where the tool is: the program's notification
/// carries the tool's own count (`"fetch_pages: 2/3"`), as its `progress` is the program's.
#[tokio::test]
async fn a_programs_report_without_a_message_gives_the_tools_count() {
    let server = McpServer::new(Toolkit::new(Quiet { pages: Pages }), Mode::Mask)
        .with_code_mode(Limits::new());
    let (client, counting) = connect(&server, Session::all()).await;
    let mut params = support::args(json!({"program": "return await pages.fetch_pages({ n: 3 });"}));
    params.name = "run_program".into();
    params.meta = Some(rmcp::model::RequestMetaObject::with_progress_token(
        rmcp::model::ProgressToken(rmcp::model::NumberOrString::String("q".into())),
    ));
    let r = client.call_tool(params).await.unwrap();
    assert_eq!(r.is_error, Some(false), "{}", support::text(&r));
    let progress = counting.progress.lock().unwrap().clone();
    assert_eq!(
        progress,
        [1, 2, 3].map(|i| (f64::from(i), None, Some(format!("fetch_pages: {i}/3")))),
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_stateless_clients_program_saves_its_activation_under_its_key() {
    let store = Arc::new(MemoryStore::new());
    let url = serve_loopback(
        server(Mode::Mask)
            .with_store(store.clone())
            .with_key(user_key)
            .http_service(stateless()),
    )
    .await;
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "run_program", "arguments": {"program": "await scraping.page_fetch({ url: 'https://a' }); return 1;"}}});
    let v = post_as(&url, "ann", &body).await;
    assert_eq!(v["result"]["isError"], false, "{v}");
    assert_eq!(v["result"]["structuredContent"]["result"], 1, "{v}");
    assert_eq!(
        store.load("ann").await.unwrap(),
        Some(vec!["scraping".to_owned()])
    );
    // Bad arguments change nothing and say what is expected.
    let bad = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "run_program", "arguments": {"code": "return 1;"}}});
    let v = post_as(&url, "ann", &bad).await;
    assert_eq!(v["result"]["isError"], true, "{v}");
    assert!(v.to_string().contains("{\\\"program\\\""), "{v}");
}

/// A group whose tools are found at run time, for the listing's cache.
#[tool_group(name = "found", description = "Tools found at run time.", dynamic)]
struct Found;

struct Source(std::sync::Mutex<Arc<ToolSet>>);

impl DynamicTools for Source {
    fn tools(&self) -> Arc<ToolSet> {
        self.0.lock().unwrap().clone()
    }

    fn call<'a>(
        &'a self,
        tool: &'static ToolDefinition,
        _ctx: toolgroup::ToolContext<'a>,
        _arguments: toolgroup::args::Arguments<'a>,
    ) -> toolgroup::BoxFuture<'a, CallResult> {
        Box::pin(async move { CallResult::text(format!("{} ran", tool.name)) })
    }
}

fn found(names: &[&str]) -> Arc<ToolSet> {
    let tools: Vec<DynamicTool> = names
        .iter()
        .map(|name| {
            DynamicTool::new(
                *name,
                "A tool found at run time.",
                json!({"type": "object", "properties": {"path": {"type": "string"}}}),
            )
        })
        .collect();
    Arc::new(ToolSet::new(tools))
}

#[toolkit]
struct WithFound {
    found: Dynamic<Found, Source>,
}

/// `run_program`'s definition is made once per set of shown tools and kept: listing again
/// gives the same one, and a tool found at run time that changes is declared as it is now.
#[tokio::test]
async fn run_program_declares_the_tools_found_at_run_time_as_they_are_now() {
    let toolkit = Arc::new(Toolkit::new(WithFound {
        found: Dynamic::new(Source(std::sync::Mutex::new(found(&["read_file"])))),
    }));
    let registry = toolkit.registry();
    let source = &registry.found.source().0;
    let server = McpServer::new(toolkit.clone(), Mode::Mask).with_code_mode(Limits::new());
    let (client, _) = connect(&server, Session::new()).await;
    let description = |tools: Vec<rmcp::model::Tool>| {
        let run = tools.into_iter().find(|t| t.name == "run_program").unwrap();
        run.description.unwrap_or_default().into_owned()
    };
    let first = description(client.list_all_tools().await.unwrap());
    assert!(first.contains("read_file("), "{first}");
    assert_eq!(description(client.list_all_tools().await.unwrap()), first);

    *source.lock().unwrap() = found(&["write_file"]);
    let now = description(client.list_all_tools().await.unwrap());
    assert!(now.contains("write_file("), "{now}");
    assert!(!now.contains("read_file("), "{now}");
    // The program sees the same tools as the declarations.
    let r = call(
        &client,
        "run_program",
        json!({"program": "return await found.write_file({ path: 'a' });"}),
    )
    .await
    .unwrap();
    assert_eq!(r.is_error, Some(false), "{}", support::text(&r));
    client.cancel().await.unwrap();
}

/// Rename a file, to the name the user picks.
#[tool]
async fn rename(
    ctx: ToolContext<'_>,
    /// The file.
    path: String,
) -> Result<String, String> {
    let question =
        toolgroup::context::Question::new(format!("Rename `{path}`?")).string("to", "The new name");
    match ctx.ask(question).await {
        Ok(answer) => Ok(format!(
            "renamed {path} to {}",
            answer.get("to").and_then(|v| v.as_str()).unwrap_or("?")
        )),
        Err(e) => Err(e.to_string()),
    }
}

#[tool_group(name = "files", description = "File tools.", tools = [rename])]
struct Files;

#[toolkit]
struct FileKit {
    #[basic]
    files: Files,
}

fn file_server() -> McpServer<FileKit> {
    McpServer::new(Toolkit::new(FileKit { files: Files }), Mode::Mask).with_code_mode(Limits::new())
}

/// A client whose user names the file `b.txt` in every form.
fn answering() -> support::Counting {
    support::Counting {
        answer: json!({"to": "b.txt"}).as_object().cloned(),
        ..support::Counting::default()
    }
}

/// A program renaming `a.txt`, run by a client whose user answers `b.txt`, connected with
/// `lifecycle`: the client, its user, the result.
async fn rename_from_a_program(
    lifecycle: rmcp::ClientLifecycleMode,
) -> (
    support::Client,
    support::Counting,
    rmcp::model::CallToolResult,
) {
    let (client, user) =
        support::connect_as(&file_server(), Session::new(), lifecycle, answering()).await;
    let program = "return await files.rename({ path: 'a.txt' });";
    let r = call(&client, "run_program", json!({"program": program}))
        .await
        .unwrap();
    (client, user, r)
}

/// Up to 2025-11-25 a program's call asks the client's user during the call
/// (`elicitation/create`), as the tool's own call would.
#[tokio::test]
async fn a_programs_call_asks_the_user_on_2025_11_25() {
    let (client, user, r) = rename_from_a_program(rmcp::ClientLifecycleMode::Initialize).await;
    assert_eq!(r.is_error, Some(false), "{}", support::text(&r));
    assert_eq!(
        r.structured_content.clone().unwrap()["result"],
        json!("renamed a.txt to b.txt")
    );
    assert_eq!(*user.asked.lock().unwrap(), ["Rename `a.txt`?"]);
    client.cancel().await.unwrap();
}

/// On 2026-07-28 a question would end the request and come back with the same call, running
/// the program again: a program's call has no user to ask, is told why, and nothing is asked.
#[tokio::test]
async fn a_programs_call_cannot_ask_on_2026_07_28_and_is_told_why() {
    let (client, user, r) = rename_from_a_program(rmcp::ClientLifecycleMode::Discover {
        preferred_versions: vec![rmcp::model::ProtocolVersion::V_2026_07_28],
    })
    .await;
    assert_eq!(r.is_error, Some(true));
    let text = support::text(&r);
    assert!(
        text.contains("cannot ask the user on protocol 2026-07-28")
            && text.contains("call this tool directly"),
        "{text}"
    );
    assert!(user.asked.lock().unwrap().is_empty());
    client.cancel().await.unwrap();
}

/// `run_program`'s description of a listing of `server`.
async fn program_description(server: &McpServer<support::Agent>) -> String {
    let (client, _) = connect(server, Session::new()).await;
    let tools = client.list_all_tools().await.unwrap();
    let run = tools.iter().find(|t| t.name == "run_program").unwrap();
    let description = run.description.clone().unwrap_or_default().into_owned();
    client.cancel().await.unwrap();
    description
}

/// `run_program` declares what the listing lists: `reset_tools` only where it is listed
/// (mask mode lists it only without first-use activation, or when asked to).
#[tokio::test]
async fn run_program_declares_reset_tools_only_where_it_is_listed() {
    let reset = "declare function reset_tools(";
    let mask = program_description(&server(Mode::Mask)).await;
    assert!(mask.contains("declare namespace scraping {"), "{mask}");
    assert!(!mask.contains(reset), "{mask}");
    let listed = server(Mode::Mask).with_reset_tools_listed(true);
    assert!(program_description(&listed).await.contains(reset));
    assert!(
        program_description(&server(Mode::List))
            .await
            .contains(reset)
    );
}

/// Arguments that are not exactly `{"program": text}` run nothing, change nothing, and are
/// not echoed.
#[tokio::test]
async fn bad_run_program_arguments_are_refused_over_mcp() {
    let (client, _) = connect(&server(Mode::List), Session::new()).await;
    let before = names(&client).await;
    let switching = "await reset_tools({ web_search: true }); return 1;";
    for arguments in [
        json!({"code": "return 1;"}),
        json!({"program": 3}),
        json!({"program": switching, "secret": "s3cr3t"}),
    ] {
        let r = call(&client, "run_program", arguments.clone())
            .await
            .unwrap();
        assert_eq!(r.is_error, Some(true), "{arguments}");
        let text = support::text(&r);
        assert!(text.contains("was not run"), "{text}");
        assert!(!text.contains("s3cr3t"), "the input is not echoed: {text}");
    }
    assert_eq!(names(&client).await, before, "nothing was switched on");
    client.cancel().await.unwrap();
}
