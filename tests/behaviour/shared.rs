//! The traits an application implements, used as applications hold their values: a policy,
//! an asker and a source of run-time tools shared through an `Arc` (one value for several
//! toolkits, or for a toolkit and the code that keeps its state), or boxed as a trait object
//! that configuration picks at run time.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use serde_json::json;
use toolgroup::context::{Answer, AskError, Asker, Question, UserInput};
use toolgroup::dynamic::{Dynamic, DynamicTool, DynamicTools, ToolSet};
use toolgroup::policy::{Decision, Policy, PolicyRequest};
use toolgroup::prelude::*;
use toolgroup::{BoxFuture, ToolDefinition};

/// Delete a file, once the user agrees.
#[tool(destructive)]
async fn delete_file(ctx: ToolContext<'_>, path: String) -> String {
    let question = Question::confirm(format!("Delete `{path}`?"), "delete", "Delete");
    match ctx.ask(question).await {
        Ok(answer) if answer.is_yes("delete") => format!("deleted {path}"),
        Ok(_) => format!("kept {path}"),
        Err(e) => format!("could not ask: {e}"),
    }
}

#[tool_group(name = "files", description = "File tools.", tools = [delete_file])]
struct Files;

#[tool_group(name = "remote", description = "Tools of a server.", dynamic)]
struct Remote;

/// A source of run-time tools whose list the application replaces while toolkits run.
struct Source {
    set: Mutex<Arc<ToolSet>>,
    calls: AtomicUsize,
}

impl Source {
    fn new(names: &[&str]) -> Self {
        let source = Source {
            set: Mutex::new(Arc::new(ToolSet::new(Vec::new()))),
            calls: AtomicUsize::new(0),
        };
        source.replace(names);
        source
    }

    fn replace(&self, names: &[&str]) {
        let tools: Vec<DynamicTool> = names
            .iter()
            .map(|name| DynamicTool::new(*name, "A remote tool.", json!({"type": "object"})))
            .collect();
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
        _ctx: ToolContext<'a>,
        _arguments: toolgroup::args::Arguments<'a>,
    ) -> BoxFuture<'a, CallResult> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        Box::pin(async move { CallResult::text(format!("{} ran", tool.name)) })
    }

    fn instructions(&self) -> Option<String> {
        Some("The server is read-only.".to_owned())
    }
}

#[toolkit]
struct SharedKit {
    #[basic]
    files: Files,
    remote: Dynamic<Remote, Arc<Source>>,
}

#[toolkit]
struct BoxedKit {
    #[basic]
    files: Files,
    remote: Dynamic<Remote, Box<dyn DynamicTools>>,
}

fn shared_kit(source: &Arc<Source>) -> Toolkit<SharedKit> {
    Toolkit::new(SharedKit {
        files: Files,
        remote: Dynamic::new(source.clone()),
    })
}

fn boxed_kit(source: Box<dyn DynamicTools>) -> Toolkit<BoxedKit> {
    Toolkit::new(BoxedKit {
        files: Files,
        remote: Dynamic::new(source),
    })
}

/// Refuses destructive tools, and counts the calls it was asked about.
#[derive(Default)]
struct NoDeletes {
    asked: AtomicUsize,
}

impl Policy for NoDeletes {
    fn check<'a>(&'a self, request: &'a PolicyRequest<'a>) -> BoxFuture<'a, Decision> {
        self.asked.fetch_add(1, Ordering::SeqCst);
        Box::pin(async move {
            if request.annotations.destructive == Some(true) {
                Decision::deny("deleting is off")
            } else {
                Decision::Allow
            }
        })
    }
}

const DENIED: &str = "`delete_file` was not run: denied by policy: deleting is off";

async fn delete(kit: &Toolkit<impl toolgroup::Registry>, cx: &CallContext) -> CallResult {
    let mut session = kit.session();
    kit.call_with(&mut session, "delete_file", &json!({"path": "a.txt"}), cx)
        .await
}

#[tokio::test]
async fn one_policy_shared_by_two_toolkits_denies_on_both() {
    let policy = Arc::new(NoDeletes::default());
    let source = Arc::new(Source::new(&["ping"]));
    let first = shared_kit(&source).with_policy(policy.clone());
    let second = shared_kit(&source).with_policy(policy.clone());
    for kit in [&first, &second] {
        let result = delete(kit, &CallContext::new()).await;
        assert!(result.is_error);
        assert_eq!(result.text_joined(), DENIED);
    }
    assert_eq!(policy.asked.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn a_policy_picked_at_run_time_is_boxed_or_shared_as_a_trait_object() {
    let source = Arc::new(Source::new(&["ping"]));
    let pick = |strict: bool| -> Box<dyn Policy> {
        if strict {
            Box::new(NoDeletes::default())
        } else {
            Box::new(|_: &PolicyRequest<'_>| Decision::Allow)
        }
    };
    let result = delete(
        &shared_kit(&source).with_policy(pick(true)),
        &CallContext::new(),
    )
    .await;
    assert_eq!(result.text_joined(), DENIED);
    let result = delete(
        &shared_kit(&source).with_policy(pick(false)),
        &CallContext::new(),
    )
    .await;
    // Allowed: the tool ran, and found no user to ask.
    assert!(
        result.text_joined().starts_with("could not ask: "),
        "{}",
        result.text_joined()
    );

    let shared: Arc<dyn Policy> = Arc::from(pick(true));
    let result = delete(
        &shared_kit(&source).with_policy(shared),
        &CallContext::new(),
    )
    .await;
    assert_eq!(result.text_joined(), DENIED);
}

/// Agrees to every question, and counts them.
#[derive(Default)]
struct Yes {
    asked: AtomicUsize,
}

impl Asker for Yes {
    fn ask<'a>(&'a self, question: &'a Question) -> BoxFuture<'a, Result<Answer, AskError>> {
        self.asked.fetch_add(1, Ordering::SeqCst);
        let mut content = serde_json::Map::new();
        let field = question.schema()["required"][0]
            .as_str()
            .unwrap()
            .to_owned();
        content.insert(field, json!(true));
        Box::pin(async move { Ok(Answer::Accepted(content)) })
    }
}

#[tokio::test]
async fn one_asker_shared_by_the_calls_of_a_user_interface() {
    let asker = Arc::new(Yes::default());
    let kit = shared_kit(&Arc::new(Source::new(&["ping"])));
    for _ in 0..2 {
        let cx = CallContext::new().with_extension(UserInput::new(asker.clone()));
        assert_eq!(delete(&kit, &cx).await.text_joined(), "deleted a.txt");
    }
    assert_eq!(asker.asked.load(Ordering::SeqCst), 2);

    let boxed: Box<dyn Asker> = Box::new(Yes::default());
    let cx = CallContext::new().with_extension(UserInput::new(boxed));
    assert_eq!(delete(&kit, &cx).await.text_joined(), "deleted a.txt");
}

#[tokio::test]
async fn one_source_shared_by_two_toolkits_serves_both_and_its_changes_reach_both() {
    let source = Arc::new(Source::new(&["ping"]));
    let first = shared_kit(&source);
    let second = shared_kit(&source);
    for kit in [&first, &second] {
        let mut session = kit.session();
        let answer = kit
            .call(&mut session, "reset_tools", &json!({"remote": true}))
            .await;
        assert!(
            answer.text_joined().contains("The server is read-only."),
            "the source's instructions: {}",
            answer.text_joined()
        );
        let result = kit.call(&mut session, "ping", &json!({})).await;
        assert_eq!(result.text_joined(), "ping ran");
    }
    assert_eq!(source.calls.load(Ordering::SeqCst), 2);

    source.replace(&["ping", "pong"]);
    for kit in [&first, &second] {
        let mut session = kit.session();
        session.activate(SharedKitGroup::Remote);
        let names: Vec<_> = kit.definitions(&session).map(|d| d.name).collect();
        assert_eq!(names, ["reset_tools", "delete_file", "ping", "pong"]);
    }
}

#[tokio::test]
async fn a_boxed_source_serves_its_tools_and_instructions() {
    let kit = boxed_kit(Box::new(Source::new(&["ping"])));
    let mut session = kit.session();
    let answer = kit
        .call(&mut session, "reset_tools", &json!({"remote": true}))
        .await;
    assert!(
        answer.text_joined().contains("The server is read-only."),
        "{}",
        answer.text_joined()
    );
    let result = kit.call(&mut session, "ping", &json!({})).await;
    assert_eq!(result.text_joined(), "ping ran");
}
