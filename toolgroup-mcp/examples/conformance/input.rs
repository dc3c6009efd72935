//! The tools of the suite's scenarios that ask the user: the elicitation scenarios of
//! 2025-06-18 and 2025-11-25 (`elicitation/create` during the call) and the input-required
//! ones of 2026-07-28 (SEP-2322: the call answers `input_required`, the client calls again
//! with the answers). Each asks through `ToolContext::ask`; the server chooses the way by
//! the request's revision.
//!
//! Not here: the scenarios' sampling and roots requests (a tool asks the user only, with a
//! form), several questions in one round (one unanswered question ends a round), and the
//! prompt (a toolkit has no prompts).

use serde_json::Value;
use toolgroup::context::{Answer, Question};
use toolgroup::prelude::*;

/// The answer as the elicitation scenarios print it: the action, and the content if any.
fn described(answer: &Answer) -> String {
    match answer {
        Answer::Accepted(content) => {
            format!(
                "action: accept, content: {}",
                Value::Object(content.clone())
            )
        }
        Answer::Declined => "action: decline".to_owned(),
        Answer::Dismissed => "action: cancel".to_owned(),
        _ => "action: unknown".to_owned(),
    }
}

/// The text field `name` of an accepted answer.
fn text<'a>(answer: &'a Answer, name: &str) -> Option<&'a str> {
    answer.get(name).and_then(Value::as_str)
}

/// Ask the user for a user name and an e-mail address, with `message`.
#[tool(read_only)]
async fn test_elicitation(ctx: ToolContext<'_>, message: String) -> Result<String, String> {
    let question = Question::new(message)
        .string("username", "User name")
        .describe("username", "User's response")
        .string("email", "E-mail address")
        .describe("email", "User's email address");
    let answer = ctx.ask(question).await.map_err(|e| e.to_string())?;
    Ok(format!("User response: {}", described(&answer)))
}

/// Ask the user with a form whose every field has a default value (SEP-1034).
#[tool(read_only)]
async fn test_elicitation_sep1034_defaults(ctx: ToolContext<'_>) -> Result<String, String> {
    let question = Question::new("Please review your profile")
        .string("name", "Name")
        .default_value("name", "John Doe")
        .integer("age", "Age")
        .default_value("age", 30)
        .number("score", "Score")
        .default_value("score", 95.5)
        .choice("status", "Status", &["active", "inactive", "pending"])
        .default_value("status", "active")
        .boolean("verified", "Verified")
        .default_value("verified", true);
    let answer = ctx.ask(question).await.map_err(|e| e.to_string())?;
    let shown = match &answer {
        Answer::Accepted(content) => {
            format!("action=accept, content={}", Value::Object(content.clone()))
        }
        Answer::Declined => "action=decline, content={}".to_owned(),
        _ => "action=cancel, content={}".to_owned(),
    };
    Ok(format!("Elicitation completed: {shown}"))
}

/// Ask the user's name, and greet them.
#[tool(read_only)]
async fn test_input_required_result_elicitation(ctx: ToolContext<'_>) -> Result<String, String> {
    let question = Question::new("What is your name?").string("name", "Name");
    let answer = ctx.ask(question).await.map_err(|e| e.to_string())?;
    match text(&answer, "name") {
        Some(name) => Ok(format!("Hello, {name}!")),
        None => Err(format!("no name given ({})", described(&answer))),
    }
}

/// Ask for a confirmation; the answer comes back with the `requestState` the first round
/// gave, which the server verified before the tool runs again.
#[tool(read_only)]
async fn test_input_required_result_request_state(ctx: ToolContext<'_>) -> Result<String, String> {
    let answer = ctx
        .ask(Question::confirm("Please confirm", "ok", "OK"))
        .await
        .map_err(|e| e.to_string())?;
    Ok(format!(
        "state-ok: the request state was verified; confirmed: {}",
        answer.is_yes("ok")
    ))
}

/// Ask two questions, one per round: a name, then a favourite colour.
#[tool(read_only)]
async fn test_input_required_result_multi_round(ctx: ToolContext<'_>) -> Result<String, String> {
    let name = ctx
        .ask(Question::new("Step 1: What is your name?").string("name", "Name"))
        .await
        .map_err(|e| e.to_string())?;
    let color = ctx
        .ask(Question::new("Step 2: What is your favorite color?").string("color", "Color"))
        .await
        .map_err(|e| e.to_string())?;
    Ok(format!(
        "{} likes {}",
        text(&name, "name").unwrap_or("someone"),
        text(&color, "color").unwrap_or("no colour")
    ))
}

/// Ask for a confirmation; a retry whose `requestState` was altered is refused by the server.
#[tool(read_only)]
async fn test_input_required_result_tampered_state(ctx: ToolContext<'_>) -> Result<String, String> {
    let answer = ctx
        .ask(Question::confirm("Please confirm", "ok", "OK"))
        .await
        .map_err(|e| e.to_string())?;
    Ok(format!("confirmed: {}", answer.is_yes("ok")))
}

/// Ask the user a question, as far as the client declared it can be asked: the scenario's
/// client declares sampling only, so the form may not be sent to it.
#[tool(read_only)]
async fn test_input_required_result_capabilities(ctx: ToolContext<'_>) -> Result<String, String> {
    let answer = ctx
        .ask(Question::new("What is your name?").string("name", "Name"))
        .await
        .map_err(|e| e.to_string())?;
    Ok(format!("answered: {}", described(&answer)))
}

#[tool_group(
    name = "input",
    description = "The tools of the suite's scenarios that ask the user.",
    tools = [
        test_elicitation,
        test_elicitation_sep1034_defaults,
        test_input_required_result_elicitation,
        test_input_required_result_request_state,
        test_input_required_result_multi_round,
        test_input_required_result_tampered_state,
        test_input_required_result_capabilities,
    ]
)]
pub struct Input;
