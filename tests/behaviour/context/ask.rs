//! Asking the user mid-call: `ToolContext::ask` through the `UserInput` the caller attaches,
//! a call without one, and an asker that fails.

use std::sync::{Arc, Mutex};

use serde_json::{Map, json};
use toolgroup::BoxFuture;
use toolgroup::context::{Answer, AskError, Asker, Question, UserInput};
use toolgroup::prelude::*;

/// Rename a file, once the user agrees and picks the new name.
#[tool]
async fn rename_file(ctx: ToolContext<'_>, path: String) -> Result<String, String> {
    let question = Question::new(format!("Rename `{path}`?"))
        .boolean("rename", "Rename it")
        .string("to", "The new name")
        .optional("to");
    match ctx.ask(question).await {
        Ok(answer) if answer.is_yes("rename") => {
            let to = answer
                .get("to")
                .and_then(|v| v.as_str())
                .unwrap_or("renamed");
            Ok(format!("renamed {path} to {to}"))
        }
        Ok(Answer::Declined) => Ok(format!("kept {path}: the user declined")),
        Ok(_) => Ok(format!("kept {path}")),
        Err(e) => Err(e.to_string()),
    }
}

#[tool_group(name = "files", description = "File tools.", tools = [rename_file])]
struct Files;

#[toolkit]
struct Kit {
    #[basic]
    files: Files,
}

/// Answers every question with a set answer, and keeps the questions it was asked.
struct Scripted {
    answer: Result<Answer, AskError>,
    asked: Arc<Mutex<Vec<(String, serde_json::Value)>>>,
}

impl Asker for Scripted {
    fn ask<'a>(&'a self, question: &'a Question) -> BoxFuture<'a, Result<Answer, AskError>> {
        self.asked
            .lock()
            .unwrap()
            .push((question.message().to_owned(), question.schema()));
        Box::pin(async move { self.answer.clone() })
    }
}

async fn call_with(
    answer: Result<Answer, AskError>,
) -> (CallResult, Vec<(String, serde_json::Value)>) {
    let toolkit = Toolkit::new(Kit { files: Files });
    let asked = Arc::new(Mutex::new(Vec::new()));
    let cx = CallContext::new().with_extension(UserInput::new(Scripted {
        answer,
        asked: asked.clone(),
    }));
    let mut session = toolkit.session();
    let result = toolkit
        .call_with(&mut session, "rename_file", &json!({"path": "a.txt"}), &cx)
        .await;
    let asked = asked.lock().unwrap().clone();
    (result, asked)
}

fn accepted(v: serde_json::Value) -> Answer {
    let map: Map<_, _> = v.as_object().cloned().unwrap();
    Answer::Accepted(map)
}

#[tokio::test]
async fn a_tool_asks_through_the_callers_asker() {
    let (result, asked) = call_with(Ok(accepted(json!({"rename": true, "to": "b.txt"})))).await;
    assert!(!result.is_error, "{}", result.text_joined());
    assert_eq!(result.text_joined(), "renamed a.txt to b.txt");
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0].0, "Rename `a.txt`?");
    assert_eq!(
        asked[0].1,
        json!({"type": "object", "properties": {
            "rename": {"type": "boolean", "title": "Rename it"},
            "to": {"type": "string", "title": "The new name"}},
            "required": ["rename"]})
    );
}

#[tokio::test]
async fn declined_and_dismissed_answers_reach_the_tool() {
    let (result, _) = call_with(Ok(Answer::Declined)).await;
    assert_eq!(result.text_joined(), "kept a.txt: the user declined");
    let (result, _) = call_with(Ok(Answer::Dismissed)).await;
    assert_eq!(result.text_joined(), "kept a.txt");
    let (result, _) = call_with(Ok(accepted(json!({"rename": false})))).await;
    assert_eq!(result.text_joined(), "kept a.txt");
}

#[tokio::test]
async fn an_asker_that_fails_gives_the_tool_its_error() {
    let (result, _) = call_with(Err(AskError::Failed("the client went away".to_owned()))).await;
    assert!(result.is_error);
    assert_eq!(
        result.text_joined(),
        "asking the user failed: the client went away"
    );
}

#[tokio::test]
async fn a_call_without_user_input_has_no_user_to_ask() {
    let toolkit = Toolkit::new(Kit { files: Files });
    let mut session = toolkit.session();
    let result = toolkit
        .call(&mut session, "rename_file", &json!({"path": "a.txt"}))
        .await;
    assert!(result.is_error);
    assert!(
        result
            .text_joined()
            .starts_with("there is no user to ask: this call came without a way to reach its user"),
        "{}",
        result.text_joined()
    );
}
