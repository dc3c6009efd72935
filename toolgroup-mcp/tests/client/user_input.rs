//! A remote server asking the user: the multi-round-trip `input_required` answers of
//! `tools/call` (SEP-2322, from the `odd_server` example over stdio) and `elicitation/create`
//! requests (MCP 2025-11-25, from an rmcp server and from the official Python SDK's; skipped
//! without `MCP_VENV`: the SDK's server sends neither tasks nor `input_required` on a
//! 2025-11-25 session, so only its elicitation is tested); who answers, and the requests the
//! client refuses.

use std::sync::{Arc, Mutex};

use serde_json::{Map, Value, json};
use toolgroup::context::{Answer, AskError, Asker, Question, UserInput};
use toolgroup_core::BoxFuture;
use toolgroup_mcp::client::{CallOptions, RemoteServer, RemoteTools, Stderr};

use super::support::{example, python, python_script};
use super::task_server;
use super::{PATIENCE, err_text, ok_text};

/// Answers every question with one answer, and keeps the questions.
pub struct Scripted {
    answer: Result<Answer, AskError>,
    questions: Arc<Mutex<Vec<Question>>>,
}

type Questions = Arc<Mutex<Vec<Question>>>;

impl Scripted {
    pub fn new(answer: Result<Answer, AskError>) -> (Self, Questions) {
        let questions = Questions::default();
        let asker = Scripted {
            answer,
            questions: questions.clone(),
        };
        (asker, questions)
    }

    /// Accepts with `content` (an object).
    pub fn accepting(content: Value) -> (Self, Questions) {
        let Value::Object(content) = content else {
            unreachable!()
        };
        Self::new(Ok(Answer::Accepted(content)))
    }
}

impl Asker for Scripted {
    fn ask<'a>(&'a self, question: &'a Question) -> BoxFuture<'a, Result<Answer, AskError>> {
        self.questions.lock().unwrap().push(question.clone());
        Box::pin(std::future::ready(self.answer.clone()))
    }
}

fn ada() -> UserInput {
    UserInput::new(Scripted::accepting(json!({"name": "Ada"})).0)
}

async fn connect(server: RemoteServer) -> RemoteTools {
    RemoteTools::connect(server.with_label("asker"))
        .await
        .expect("the server answers")
}

/// The `odd_server` example over stdio: a server process of its own per connection.
pub fn odd() -> RemoteServer {
    let exe = example(&["-p", "toolgroup-mcp"], "odd_server");
    RemoteServer::stdio(exe, Vec::<String>::new()).with_stderr(Stderr::Discard)
}

/// What the odd server saw: `rounds` and `cancelled`.
pub async fn record(remote: &RemoteTools) -> Value {
    serde_json::from_str(&ok_text(&remote.call("record", &json!({})).await)).unwrap()
}

/// Wait until the odd server saw `tasks/cancel` for `id`.
pub async fn cancelled_on(remote: &RemoteTools, id: &str) {
    tokio::time::timeout(PATIENCE, async {
        while !record(remote).await["cancelled"]
            .as_array()
            .unwrap()
            .contains(&json!(id))
        {
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    })
    .await
    .expect("the task was cancelled");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn input_required_is_answered_and_the_call_sent_again_with_its_state() {
    let (asker, questions) = Scripted::accepting(json!({"name": "Ada", "ok": false}));
    let remote = connect(odd().with_user_input(UserInput::new(asker))).await;
    let result = remote.call("form", &json!({})).await;
    assert_eq!(ok_text(&result), "hello Ada (state round-1)");
    assert_eq!(record(&remote).await["rounds"], 2);
    assert_eq!(questions.lock().unwrap()[0].message(), "Who is asking?");

    // The call's own asker, when the server has none; a declined form goes back as such.
    let remote = connect(odd()).await;
    let (asker, _) = Scripted::new(Ok(Answer::Declined));
    let options = CallOptions::new().with_user_input(UserInput::new(asker));
    let result = remote.call_with("form", &json!({}), options).await;
    assert_eq!(ok_text(&result), "the user chose decline (state round-1)");

    // The server's asker comes first.
    let remote = connect(odd().with_user_input(ada())).await;
    let (asker, questions) = Scripted::new(Ok(Answer::Dismissed));
    let options = CallOptions::new().with_user_input(UserInput::new(asker));
    let result = remote.call_with("form", &json!({}), options).await;
    assert_eq!(ok_text(&result), "hello Ada (state round-1)");
    assert!(questions.lock().unwrap().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn input_that_cannot_be_given_is_a_clean_error_result() {
    let remote = connect(odd().with_user_input(ada())).await;
    assert_eq!(
        err_text(&remote.call("forever", &json!({})).await),
        "`forever` did not finish: the MCP server `asker` still asked for input after 10 rounds. Retrying is unlikely to help."
    );
    assert_eq!(record(&remote).await["rounds"], 10);
    assert_eq!(
        err_text(&remote.call("sampling", &json!({})).await),
        "`sampling` did not finish: the MCP server `asker` asked this client to sample a language model (`sampling/createMessage`), which it does not do."
    );
    assert_eq!(
        err_text(&remote.call("weird_input", &json!({})).await),
        "`weird_input` did not finish: the MCP server `asker` asked this client to answer a request it does not know (`weird/\\u{1b}[31mthing`), which it does not do."
    );

    // An answer that does not fit the form, and a user that cannot be reached.
    let mut wrong = Map::new();
    wrong.insert("name".to_owned(), json!(7));
    let (asker, _) = Scripted::new(Ok(Answer::Accepted(wrong)));
    let options = CallOptions::new().with_user_input(UserInput::new(asker));
    let remote = connect(odd()).await;
    assert_eq!(
        err_text(&remote.call_with("form", &json!({}), options).await),
        "`form` did not finish: asking the user for the MCP server `asker` failed: the answer does not fit the form: the answer's field `name` must be a string, not a number."
    );
    let (asker, _) = Scripted::new(Err(AskError::NoUser(
        "the client shows no forms".to_owned(),
    )));
    let options = CallOptions::new().with_user_input(UserInput::new(asker));
    assert_eq!(
        err_text(&remote.call_with("form", &json!({}), options).await),
        "`form` did not finish: the MCP server `asker` asked for the user's input (\"Who is asking?\"), and this client has no way to ask its user (the client shows no forms)."
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_elicitation_request_is_answered_by_the_servers_or_the_calls_asker() {
    let (url, _) = task_server::start().await;
    let remote = connect(RemoteServer::http(&url).with_user_input(ada())).await;
    assert_eq!(
        ok_text(&remote.call("elicit", &json!({})).await),
        "hello Ada"
    );

    let remote = connect(RemoteServer::http(&url)).await;
    let (asker, questions) = Scripted::accepting(json!({"name": "Grace"}));
    let options = CallOptions::new().with_user_input(UserInput::new(asker));
    let result = remote.call_with("elicit", &json!({}), options).await;
    assert_eq!(ok_text(&result), "hello Grace");
    assert_eq!(questions.lock().unwrap().len(), 1);

    // Nobody to ask: the server's request fails, with the reason.
    let refused = ok_text(&remote.call("elicit", &json!({})).await);
    assert!(
        refused.starts_with("refused: ")
            && refused.contains(
                "this client has no way to ask its user: neither the connection nor the call in flight has a `UserInput`"
            ),
        "{refused}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_sdks_elicitation_is_answered() {
    let Some(python) = python() else { return };
    let server = RemoteServer::stdio(&python, [python_script()])
        .with_label("python")
        .with_stderr(Stderr::Discard)
        .with_user_input(ada());
    let remote = connect(server).await;
    let result = remote.call("ask", &json!({})).await;
    assert_eq!(ok_text(&result), "hello Ada");
    // Declined, and nobody to ask (the SDK turns the error into an `isError` result).
    let (asker, _) = Scripted::new(Ok(Answer::Declined));
    let server = RemoteServer::stdio(&python, [python_script()])
        .with_label("python")
        .with_stderr(Stderr::Discard)
        .with_user_input(UserInput::new(asker));
    let remote = connect(server).await;
    assert_eq!(
        ok_text(&remote.call("ask", &json!({})).await),
        "the user chose decline"
    );
    let server = RemoteServer::stdio(&python, [python_script()])
        .with_label("python")
        .with_stderr(Stderr::Discard);
    let remote = connect(server).await;
    let refused = err_text(&remote.call("ask", &json!({})).await);
    assert!(refused.contains("no way to ask its user"), "{refused}");
}
