//! The tools of the suite's tasks scenarios (the `io.modelcontextprotocol/tasks` extension,
//! SEP-2663): a tool declared `task = "optional"` runs as a task for a 2026-07-28 request
//! that declares the extension, and as any call otherwise; `task = "required"` refuses a
//! request that does not declare it with `-32021`.
//!
//! Not here: `test_tool_with_task`, whose first round asks the user a question of the tool's
//! own before the task exists (a tool's questions are asked inside its task, as the task's
//! `input_required` status; only the call's policy is asked before the task starts).

use std::time::Duration;

use toolgroup::context::Question;
use toolgroup::prelude::*;

/// The longest `slow_compute` runs.
const MAX_SECONDS: u64 = 600;

/// Greet `name` (never a task).
#[tool(read_only)]
fn greet(name: String) -> String {
    format!("Hello, {name}!")
}

/// Work for `seconds` seconds (at most 600), reporting each second, then answer. As a task it
/// ends `cancelled` on `tasks/cancel`.
#[tool(read_only, task = "optional")]
async fn slow_compute(
    ctx: ToolContext<'_>,
    /// How long to work, in seconds (0: answer at once).
    seconds: u64,
    /// A label, repeated in the answer.
    label: Option<String>,
) -> Result<String, String> {
    if seconds > MAX_SECONDS {
        return Err(format!(
            "`seconds` is {seconds}; this tool works {MAX_SECONDS} seconds at most"
        ));
    }
    for done in 0..seconds {
        ctx.report(done as f64, Some(seconds as f64), Some("computing"));
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    let label = label.as_deref().unwrap_or("unlabelled");
    Ok(format!("computed `{label}` in {seconds} s"))
}

/// Work for a second, then fail with an error result (a tool error: the task ends
/// `completed`, its result `isError`).
#[tool(read_only, task = "required")]
async fn failing_job() -> Result<String, String> {
    tokio::time::sleep(Duration::from_secs(1)).await;
    Err("the job failed, as this tool always does".to_owned())
}

/// Panic. The toolkit contains a tool's panic as an error result, so the task ends
/// `completed` with `isError`, not `failed`.
#[tool(read_only, task = "optional")]
async fn protocol_error_job() -> String {
    panic!("protocol_error_job always panics")
}

/// Ask the user to confirm deleting `filename` (nothing is deleted).
#[tool(task = "optional")]
async fn confirm_delete(ctx: ToolContext<'_>, filename: String) -> Result<String, String> {
    let question = Question::confirm(format!("Delete `{filename}`?"), "confirm", "Delete");
    let answer = ctx.ask(question).await.map_err(|e| e.to_string())?;
    Ok(if answer.is_yes("confirm") {
        format!("deleted `{filename}`")
    } else {
        format!("kept `{filename}`")
    })
}

/// Ask the user two questions at once.
#[tool(read_only, task = "optional")]
async fn multi_input(ctx: ToolContext<'_>) -> Result<String, String> {
    let form = |message: &str| {
        Question::new(message)
            .string("name", "Name")
            .boolean("confirm", "Confirm")
    };
    let (first, second) = tokio::join!(
        ctx.ask(form("The first item's name?")),
        ctx.ask(form("The second item's name?"))
    );
    let name = |answer: Result<toolgroup::context::Answer, _>| -> Result<String, String> {
        let answer = answer.map_err(|e: toolgroup::context::AskError| e.to_string())?;
        Ok(answer
            .get("name")
            .and_then(|v| v.as_str())
            .unwrap_or("-")
            .to_owned())
    };
    Ok(format!("{} and {}", name(first)?, name(second)?))
}

#[tool_group(
    name = "tasks",
    description = "The tools of the suite's tasks scenarios.",
    tools = [greet, slow_compute, failing_job, protocol_error_job, confirm_delete, multi_input]
)]
pub struct Tasks;
