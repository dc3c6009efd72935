//! A destructive tool waits for a human's yes: the approval flow with a scripted approver.
//!
//! ```sh
//! cargo run --example approval
//! ```
//!
//! The toolkit's policy is [`RequireApproval`]: tools marked `destructive` (and the tools named
//! with `.tool(...)`) ask the application's approver (a [`Policy`]) first. The approver here answers from
//! a script and takes too long once; a real one would ask its user interface. A refusal or a
//! timeout reaches the model as an error result with the reason, and the tool does not run.
//! The per-call data (who asks) reaches both the approver and the tools.

use std::collections::VecDeque;
use std::sync::Mutex;
use std::time::Duration;

use toolgroup::prelude::*;
use toolgroup::{
    BoxFuture, policy::Decision, policy::Policy, policy::PolicyRequest, policy::RequireApproval,
};

/// Who the agent acts for (per-call data).
#[derive(Debug, Clone)]
struct User(&'static str);

/// List the files.
#[tool(read_only)]
fn list_files(Extension(user): Extension<User>) -> String {
    format!("{}'s files: notes.txt, draft.md", user.0)
}

/// Delete a file.
#[tool(destructive)]
fn delete_file(
    /// The file to delete.
    name: String,
    Extension(user): Extension<User>,
) -> String {
    format!("deleted {name} for {}", user.0)
}

#[tool_group(name = "files", description = "Managing files.", tools = [list_files, delete_file])]
struct Files;

#[toolkit]
struct Assistant {
    #[basic]
    files: Files,
}

/// What the scripted human answers, in order: yes, no, and then no answer in time.
enum Answer {
    Yes,
    No(&'static str),
    Late,
}

/// Answers approval requests from a script, printing each question.
struct ScriptedHuman {
    answers: Mutex<VecDeque<Answer>>,
    log: std::sync::Arc<Mutex<Vec<String>>>,
}

impl Policy for ScriptedHuman {
    fn check<'a>(&'a self, request: &'a PolicyRequest<'a>) -> BoxFuture<'a, Decision> {
        Box::pin(async move {
            let who = request.extension::<User>().map_or("someone", |u| u.0);
            self.log.lock().unwrap().push(format!(
                "  approver: may the agent run `{}` for {who}?",
                request.tool
            ));
            let answer = self.answers.lock().unwrap().pop_front();
            match answer {
                Some(Answer::Yes) => Decision::Allow,
                Some(Answer::No(reason)) => Decision::deny(reason),
                Some(Answer::Late) | None => {
                    tokio::time::sleep(Duration::from_secs(3600)).await;
                    Decision::Allow
                }
            }
        })
    }
}

/// Runs the scripted conversation and returns its transcript.
pub async fn run() -> String {
    let human = ScriptedHuman {
        answers: Mutex::new(VecDeque::from([
            Answer::Yes,
            Answer::No("keep that one"),
            Answer::Late,
        ])),
        log: std::sync::Arc::default(),
    };
    let log = human.log.clone();
    let toolkit = Toolkit::new(Assistant { files: Files })
        .with_policy(RequireApproval::new(human).timeout(Duration::from_millis(200)));
    let mut session = toolkit.session();
    let cx = CallContext::new().with_extension(User("ada"));

    let mut out = Vec::new();
    for (name, arguments) in [
        ("list_files", "{}"),
        ("delete_file", r#"{"name": "draft.md"}"#),
        ("delete_file", r#"{"name": "notes.txt"}"#),
        ("delete_file", r#"{"name": "notes.txt"}"#),
    ] {
        out.push(format!("model calls {name} {arguments}"));
        let result = toolkit.call_with(&mut session, name, arguments, &cx).await;
        out.append(&mut log.lock().unwrap());
        let status = if result.is_error { "error" } else { "ok" };
        out.push(format!("  {status}: {}", result.text_joined()));
    }
    out.join("\n")
}

#[tokio::main(flavor = "current_thread")]
#[allow(dead_code)]
async fn main() {
    println!("{}", run().await);
}
