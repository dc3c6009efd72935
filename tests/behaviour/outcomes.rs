//! How a call ended, matched by the caller of `Toolkit::call` without an audit and without
//! parsing text (`CallResult::outcome`); one resolution of a name (`Toolkit::resolve`); what a
//! session is (its groups) and how a new state reaches it.

use std::time::Duration;

use toolgroup::context::CancellationToken;
use toolgroup::middleware::{ToolRequest, ToolResponse};
use toolgroup::policy::{Decision, PolicyRequest};
use toolgroup::prelude::*;
use toolgroup::{CallOutcome, Content, ToolKind};

/// Answers.
#[tool]
fn answer(
    /// A number.
    n: u32,
) -> u32 {
    n
}

/// Fails.
#[tool]
fn fails() -> Result<String, String> {
    Err("no luck".to_owned())
}

/// Panics.
#[tool]
fn breaks() -> String {
    panic!("a bug")
}

/// Takes its time.
#[tool(timeout = "20ms")]
async fn slow() -> String {
    tokio::time::sleep(Duration::from_secs(60)).await;
    "late".to_owned()
}

/// Waits until cancelled.
#[tool]
async fn wait() -> String {
    std::future::pending::<()>().await;
    unreachable!()
}

/// Always refused by the policy.
#[tool]
fn forbidden() -> String {
    "ran".to_owned()
}

/// A tool of a switchable group.
#[tool]
fn extra() -> String {
    "extra".to_owned()
}

#[tool_group(
    name = "core",
    description = "Core tools.",
    tools = [answer, fails, breaks, slow, wait, forbidden]
)]
struct Core;

#[tool_group(name = "more", description = "More tools.", tools = [extra])]
struct More;

#[toolkit]
struct Kit {
    #[basic]
    core: Core,
    more: More,
}

fn kit() -> Toolkit<Kit> {
    Toolkit::new(Kit {
        core: Core,
        more: More,
    })
    .with_policy(|request: &PolicyRequest<'_>| match request.tool {
        "forbidden" => Decision::deny("not today"),
        _ => Decision::Allow,
    })
}

#[tokio::test]
async fn every_outcome_is_matchable_without_an_audit() {
    let kit = kit();
    let mut s = kit.session();
    let cases: [(&str, &str, CallOutcome); 9] = [
        ("answer", r#"{"n": 1}"#, CallOutcome::Ok),
        ("fails", "{}", CallOutcome::ToolError),
        ("answer", r#"{"n": "one"}"#, CallOutcome::InvalidArguments),
        ("answer", "not json", CallOutcome::InvalidArguments),
        ("no_such_tool", "{}", CallOutcome::UnknownTool),
        ("extra", "{}", CallOutcome::InactiveGroup),
        ("forbidden", "{}", CallOutcome::Denied),
        ("breaks", "{}", CallOutcome::Panic),
        ("slow", "{}", CallOutcome::Timeout),
    ];
    for (tool, arguments, expected) in cases {
        let result = kit.call(&mut s, tool, arguments).await;
        assert_eq!(result.outcome(), expected, "{tool} {arguments}");
        assert_eq!(result.is_error, expected != CallOutcome::Ok, "{tool}");
    }
    let refused = kit.call(&mut s, "reset_tools", r#"{"mroe": true}"#).await;
    assert_eq!(refused.outcome(), CallOutcome::Refused);
    let accepted = kit.call(&mut s, "reset_tools", r#"{"more": true}"#).await;
    assert_eq!(accepted.outcome(), CallOutcome::Ok);
    assert_eq!(
        kit.call(&mut s, "extra", "{}").await.outcome(),
        CallOutcome::Ok
    );
}

#[tokio::test]
async fn a_cancelled_call_says_so() {
    let kit = kit();
    let mut s = kit.session();
    let token = CancellationToken::new();
    let cx = CallContext::new().with_cancellation(token.clone());
    let call = kit.call_with(&mut s, "wait", "{}", &cx);
    let cancel = async {
        tokio::time::sleep(Duration::from_millis(10)).await;
        token.cancel();
    };
    let (result, ()) = tokio::join!(call, cancel);
    assert_eq!(result.outcome(), CallOutcome::Cancelled);
}

#[tokio::test]
async fn outcomes_are_the_same_on_the_fast_and_the_full_path() {
    // No policy: the plain calls take the fast path.
    let kit = Toolkit::new(Kit {
        core: Core,
        more: More,
    });
    let mut s = kit.session();
    for (tool, arguments, expected) in [
        ("answer", r#"{"n": 1}"#, CallOutcome::Ok),
        ("fails", "{}", CallOutcome::ToolError),
        ("answer", "[]", CallOutcome::InvalidArguments),
        ("breaks", "{}", CallOutcome::Panic),
        ("extra", "{}", CallOutcome::InactiveGroup),
        ("nope", "{}", CallOutcome::UnknownTool),
        ("reset_tools", "{}", CallOutcome::Ok),
        ("reset_tools", r#"{"x": 1}"#, CallOutcome::Refused),
    ] {
        let result = kit.call(&mut s, tool, arguments).await;
        assert_eq!(result.outcome(), expected, "{tool} {arguments}");
    }
}

#[test]
fn an_outcome_follows_what_a_layer_made_of_the_result() {
    let ok = CallResult::text("fine");
    assert_eq!(ok.outcome(), CallOutcome::Ok);
    let mut flipped = ok.clone();
    flipped.is_error = true;
    assert_eq!(flipped.outcome(), CallOutcome::ToolError);
    // Equality is what the model reads: the outcome is not part of it, nor of the JSON.
    let error = CallResult::error("fine");
    assert_eq!(flipped, error);
    let json = serde_json::to_value(&error).unwrap();
    assert_eq!(
        json,
        serde_json::json!({"content": [{"type": "text", "text": "fine"}], "isError": true})
    );
    let back: CallResult = serde_json::from_value(json).unwrap();
    assert_eq!(back.outcome(), CallOutcome::ToolError);
}

#[test]
fn a_name_is_resolved_once_with_everything_a_caller_asks() {
    let kit = kit();
    let mut s = kit.session();
    let answer = kit.resolve(&s, "answer").unwrap();
    assert_eq!(answer.kind(), ToolKind::Tool);
    assert_eq!(answer.tool(), "answer");
    assert_eq!(answer.group().map(|g| g.name), Some("core"));
    assert!(answer.is_available());
    assert!(!answer.changes_session());

    let extra = kit.resolve(&s, "extra").unwrap();
    assert!(!extra.is_available());
    s.activate(KitGroup::More);
    assert!(kit.resolve(&s, "extra").unwrap().is_available());

    let reset = kit.resolve(&s, "reset_tools").unwrap();
    assert_eq!(reset.kind(), ToolKind::ResetTools);
    assert!(reset.group().is_none());
    assert!(reset.changes_session());

    assert!(kit.resolve(&s, "answr").is_none());
    // Skill tools exist only in a toolkit with skills.
    assert!(kit.resolve(&s, "Skill").is_none());
    // Without `reset_tools` exposed, the name is no tool.
    let hidden = Toolkit::new(Kit {
        core: Core,
        more: More,
    })
    .with_reset_tools(false);
    assert!(hidden.resolve(&s, "reset_tools").is_none());
    assert_eq!(
        kit.is_available(&s, "extra"),
        kit.resolve(&s, "extra").unwrap().is_available()
    );
}

/// A layer that answers `reset_tools` itself, as a layer never should: the session must not
/// change, whatever its answer says.
#[derive(Clone)]
struct AnswersResets<S>(S);

impl<S> tower::Service<ToolRequest> for AnswersResets<S>
where
    S: tower::Service<ToolRequest, Response = ToolResponse>,
    S::Future: Send + 'static,
{
    type Response = ToolResponse;
    type Error = S::Error;
    type Future = toolgroup::BoxFuture<'static, Result<ToolResponse, S::Error>>;

    fn poll_ready(
        &mut self,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Result<(), Self::Error>> {
        self.0.poll_ready(cx)
    }

    fn call(&mut self, request: ToolRequest) -> Self::Future {
        if request.changes_session() {
            let answer = CallResult::text("Active groups: every one of them");
            return Box::pin(async move { Ok(ToolResponse::new(answer)) });
        }
        Box::pin(self.0.call(request))
    }
}

#[tokio::test]
async fn only_the_toolkit_hands_back_a_new_state() {
    let kit = Toolkit::new(Kit {
        core: Core,
        more: More,
    })
    .layer(tower::layer::layer_fn(AnswersResets));
    let mut s = kit.session();
    let r = kit.call(&mut s, "reset_tools", r#"{"more": true}"#).await;
    assert!(!r.is_error);
    assert_eq!(s, kit.session(), "a layer's own answer changes no session");

    // Through a layer that maps the result, the state the toolkit left is applied.
    let mapped = Toolkit::new(Kit {
        core: Core,
        more: More,
    })
    .layer(tower::util::MapResponseLayer::new(|r: ToolResponse| {
        r.map_result(|mut result| {
            result.content.push(Content::text("(seen by a layer)"));
            result
        })
    }));
    let mut s = mapped.session();
    let r = mapped
        .call(&mut s, "reset_tools", r#"{"more": true}"#)
        .await;
    assert_eq!(r.outcome(), CallOutcome::Ok);
    assert!(s.is_active(KitGroup::More));
}

#[test]
fn a_session_parses_from_a_list_and_names_every_unknown_group() {
    let s: Session<Kit> = " more , ".parse().unwrap();
    assert!(s.is_active(KitGroup::More));
    assert_eq!("".parse::<Session<Kit>>().unwrap(), Session::new());
    let e = "mroe,basic,x".parse::<Session<Kit>>().unwrap_err();
    assert_eq!(e.unknown, ["mroe", "basic", "x"]);
    assert_eq!(e.known, ["more"]);
    assert_eq!(e.suggestion("mroe"), Some("more"));
    assert_eq!(
        e.to_string(),
        "unknown group `mroe` (did you mean `more`?); unknown group `basic`; unknown group `x`. The groups are `more`"
    );
    // The same error for one name, from the group enum.
    let one = "mroe".parse::<KitGroup>().unwrap_err();
    assert_eq!(one.unknown, ["mroe"]);
    assert_eq!(
        serde_json::from_value::<Session<Kit>>(serde_json::json!(["x"]))
            .unwrap_err()
            .to_string(),
        "unknown group `x`. The groups are `more`"
    );
}
