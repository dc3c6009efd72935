//! `task = "..."` on `#[tool]`: whether an MCP client may or must run a call as a task, as
//! the tool's info, its definition and its resolved call report it. Running calls as tasks
//! is the MCP server's, tested with it.

use std::sync::Arc;

use serde_json::json;
use toolgroup::dynamic::{Dynamic, DynamicTool, DynamicTools, ToolSet};
use toolgroup::meta::TaskSupport;
use toolgroup::prelude::*;
use toolgroup::{BoxFuture, Tool};

/// Lint a file (short and synchronous: a task is allowed, not needed).
#[tool(task = "optional", read_only)]
fn lint(
    /// The file's path.
    path: String,
) -> String {
    format!("{path}: clean")
}

/// Take a note.
#[tool]
fn note(
    /// The note.
    text: String,
) -> String {
    text
}

#[tool_group(name = "checks", description = "Checking code.", tools = [lint, note])]
struct Checks;

struct Jobs;

#[tool_group(name = "jobs", description = "Long-running jobs.")]
impl Jobs {
    /// Build a target.
    #[tool(task = "required")]
    async fn build(
        &self,
        /// The target.
        target: String,
    ) -> String {
        format!("built {target}")
    }
}

#[tool_group(name = "remote", description = "Tools of a server.", dynamic)]
struct Remote;

/// One tool found at run time.
struct OneTool;

impl DynamicTools for OneTool {
    fn tools(&self) -> Arc<ToolSet> {
        Arc::new(ToolSet::new([DynamicTool::new(
            "fetch",
            "Fetch a page.",
            json!({"type": "object", "properties": {}}),
        )]))
    }

    fn call<'a>(
        &'a self,
        _tool: &'static ToolDefinition,
        _ctx: ToolContext<'a>,
        _arguments: toolgroup::args::Arguments<'a>,
    ) -> BoxFuture<'a, CallResult> {
        Box::pin(async { CallResult::text("fetched") })
    }
}

#[toolkit]
struct Kit {
    #[basic]
    checks: Checks,
    jobs: Jobs,
    remote: Dynamic<Remote, OneTool>,
}

fn kit() -> Toolkit<Kit> {
    Toolkit::new(Kit {
        checks: Checks,
        jobs: Jobs,
        remote: Dynamic::new(OneTool),
    })
}

#[test]
fn the_attribute_reaches_the_tool_info() {
    assert_eq!(<lint as Tool>::INFO.task, TaskSupport::Optional);
    assert_eq!(<note as Tool>::INFO.task, TaskSupport::Forbidden);
    let jobs = kit();
    let jobs = jobs.groups().iter().find(|g| g.name == "jobs").unwrap();
    assert_eq!(jobs.tools[0].name, "build");
    assert_eq!(jobs.tools[0].task, TaskSupport::Required);
}

#[test]
fn definitions_and_resolved_calls_report_it_by_name() {
    let toolkit = kit();
    let session = toolkit.session();
    for (name, task) in [
        ("lint", TaskSupport::Optional),
        ("build", TaskSupport::Required),
        ("note", TaskSupport::Forbidden),
        // The builtins and the tools found at run time never run as tasks.
        ("reset_tools", TaskSupport::Forbidden),
        ("fetch", TaskSupport::Forbidden),
    ] {
        let definition = toolkit.definition(name).unwrap();
        assert_eq!(definition.task, task, "{name}");
        // Resolved in a session where `build` and `fetch` are inactive: what the tool
        // allows does not depend on the session.
        let resolved = toolkit.resolve(&session, name).unwrap();
        assert_eq!(resolved.task_support(), task, "{name}");
    }
    let listed: Vec<_> = toolkit
        .definitions(&session)
        .map(|d| (d.name, d.task))
        .collect();
    assert_eq!(
        listed,
        [
            ("reset_tools", TaskSupport::Forbidden),
            ("lint", TaskSupport::Optional),
            ("note", TaskSupport::Forbidden),
        ]
    );
}

#[test]
fn the_wire_words_are_mcps() {
    assert_eq!(TaskSupport::default(), TaskSupport::Forbidden);
    assert_eq!(TaskSupport::Forbidden.as_str(), "forbidden");
    assert_eq!(TaskSupport::Optional.as_str(), "optional");
    assert_eq!(TaskSupport::Required.as_str(), "required");
}

#[tokio::test]
async fn a_tool_that_allows_tasks_is_still_called_plainly() {
    let toolkit = kit();
    let mut session = toolkit.session();
    let lint = toolkit
        .call(&mut session, "lint", r#"{"path": "src/lib.rs"}"#)
        .await;
    assert_eq!(lint.text_joined(), "src/lib.rs: clean");
    toolkit
        .call(
            &mut session,
            "reset_tools",
            r#"{"jobs": true, "remote": false}"#,
        )
        .await;
    let build = toolkit
        .call(&mut session, "build", r#"{"target": "docs"}"#)
        .await;
    assert_eq!(build.text_joined(), "built docs");
}
