//! Approval over MCP: `RequireApproval::new(ElicitationApprover::new())` asks the user through
//! the client with an `elicitation/create` yes/no form. Driven by rmcp's own client over an
//! in-process stream (the user's answer scripted in its elicitation handler), and by the
//! official Python SDK's `elicitation_callback` over Streamable HTTP (skipped without
//! `MCP_VENV`).

use crate::python;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CancelledNotificationParam, ClientCapabilities, ClientConfig,
    ElicitRequestParams, ElicitResult, ElicitationAction, ErrorData, ProtocolVersion, RequestId,
};
use rmcp::service::{NotificationContext, RequestContext, RunningService};
use rmcp::{ClientHandler, ClientLifecycleMode, ClientServiceExt, RoleClient, ServiceExt};
use serde_json::{Value, json};
use toolgroup::policy::RequireApproval;
use toolgroup::prelude::*;
use toolgroup::{Session, Toolkit};
use toolgroup_mcp::{ElicitationApprover, McpServer, Mode};

/// The paths `delete_file` deleted, in every test of this process (each test uses its own).
static DELETED: Mutex<Vec<String>> = Mutex::new(Vec::new());

fn deleted(path: &str) -> bool {
    DELETED.lock().unwrap().iter().any(|p| p == path)
}

/// Delete a file.
#[tool(destructive)]
fn delete_file(
    /// The file to delete.
    path: String,
) -> String {
    DELETED.lock().unwrap().push(path.clone());
    format!("deleted {path}")
}

/// Whether a file was deleted.
#[tool(read_only)]
fn was_deleted(
    /// The file.
    path: String,
) -> bool {
    deleted(&path)
}

#[tool_group(name = "files", description = "Managing files.", tools = [delete_file, was_deleted])]
struct Files;

#[toolkit]
struct Kit {
    #[basic]
    files: Files,
}

fn toolkit(policy: RequireApproval<ElicitationApprover>) -> Toolkit<Kit> {
    Toolkit::new(Kit { files: Files }).with_policy(policy)
}

fn asking() -> RequireApproval<ElicitationApprover> {
    RequireApproval::new(ElicitationApprover::new())
}

// --- the client side ---------------------------------------------------------------------

/// What the scripted user does with the form.
#[derive(Clone)]
enum Answer {
    /// Accept the form with this content.
    Accept(Value),
    Decline,
    Cancel,
    /// Never answer.
    Never,
}

/// A client whose user answers every form the same way, keeping what it was asked and which
/// of its requests the server cancelled.
#[derive(Clone)]
struct User {
    /// Whether the client declares the `elicitation` capability.
    capable: bool,
    answer: Answer,
    asked: Arc<Mutex<Vec<(RequestId, ElicitRequestParams)>>>,
    cancelled: Arc<Mutex<Vec<CancelledNotificationParam>>>,
}

impl User {
    fn new(answer: Answer) -> Self {
        User {
            capable: true,
            answer,
            asked: Arc::default(),
            cancelled: Arc::default(),
        }
    }

    fn without_elicitation() -> Self {
        User {
            capable: false,
            ..User::new(Answer::Accept(json!({"approve": true})))
        }
    }

    fn asked(&self) -> Vec<(RequestId, ElicitRequestParams)> {
        self.asked.lock().unwrap().clone()
    }
}

impl ClientHandler for User {
    fn get_info(&self) -> ClientConfig {
        let mut info = ClientConfig::default();
        if self.capable {
            info.capabilities = ClientCapabilities::builder().enable_elicitation().build();
        }
        info
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        self.asked.lock().unwrap().push((context.id, request));
        match &self.answer {
            Answer::Accept(content) => {
                Ok(ElicitResult::new(ElicitationAction::Accept).with_content(content.clone()))
            }
            Answer::Decline => Ok(ElicitResult::new(ElicitationAction::Decline)),
            Answer::Cancel => Ok(ElicitResult::new(ElicitationAction::Cancel)),
            Answer::Never => std::future::pending().await,
        }
    }

    async fn on_cancelled(
        &self,
        params: CancelledNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        self.cancelled.lock().unwrap().push(params);
    }
}

type Client = RunningService<RoleClient, User>;

async fn connect_with(
    policy: RequireApproval<ElicitationApprover>,
    user: User,
    lifecycle: ClientLifecycleMode,
) -> Client {
    let server = McpServer::new(toolkit(policy), Mode::Mask);
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    let handler = server.handler_with(Session::new());
    tokio::spawn(async move {
        if let Ok(running) = handler.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    user.serve_with_lifecycle(client_io, lifecycle)
        .await
        .expect("the client connects")
}

async fn connect(user: User) -> Client {
    connect_with(asking(), user, ClientLifecycleMode::Initialize).await
}

/// Call `tool` with `{"path": path}`: (is_error, the text).
async fn call(client: &Client, tool: &'static str, path: &str) -> (bool, String) {
    let params = CallToolRequestParams::new(tool)
        .with_arguments(json!({ "path": path }).as_object().unwrap().clone());
    let r = client.call_tool(params).await.expect("tools/call");
    let text = r
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect::<Vec<_>>()
        .join("\n");
    (r.is_error == Some(true), text)
}

// --- the form ----------------------------------------------------------------------------

#[tokio::test]
async fn the_user_is_asked_with_a_yes_no_form_naming_the_tool_and_its_arguments() {
    let user = User::new(Answer::Accept(json!({"approve": true})));
    let client = connect(user.clone()).await;
    call(&client, "delete_file", "/rust/form").await;
    let asked = user.asked();
    assert_eq!(asked.len(), 1, "{asked:?}");
    let ElicitRequestParams::FormElicitationParams {
        message,
        requested_schema,
        ..
    } = &asked[0].1
    else {
        panic!("a form, not {:?}", asked[0].1);
    };
    assert_eq!(
        message,
        "Allow the tool `delete_file` (group `files`) to run? It is marked destructive.\nArguments: {\"path\":\"/rust/form\"}"
    );
    assert_eq!(
        serde_json::to_value(requested_schema).unwrap(),
        json!({
            "type": "object",
            "properties": {"approve": {
                "type": "boolean",
                "title": "Approve",
                "description": "Run `delete_file` now",
            }},
            "required": ["approve"],
        })
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_tool_that_needs_no_approval_runs_without_asking() {
    let user = User::new(Answer::Decline);
    let client = connect(user.clone()).await;
    assert_eq!(
        call(&client, "was_deleted", "/rust/nothing").await,
        (false, "false".to_owned())
    );
    assert!(user.asked().is_empty());
    client.cancel().await.unwrap();
}

// --- the user's answer -------------------------------------------------------------------

#[tokio::test]
async fn the_users_yes_runs_the_tool() {
    let client = connect(User::new(Answer::Accept(json!({"approve": true})))).await;
    assert_eq!(
        call(&client, "delete_file", "/rust/yes").await,
        (false, "deleted /rust/yes".to_owned())
    );
    assert!(deleted("/rust/yes"));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn approve_false_refuses_the_call() {
    let client = connect(User::new(Answer::Accept(json!({"approve": false})))).await;
    assert_eq!(
        call(&client, "delete_file", "/rust/no").await,
        (
            true,
            "`delete_file` was not run: denied by policy: not approved: the user did not approve running `delete_file`".to_owned()
        )
    );
    assert!(!deleted("/rust/no"));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn declining_the_form_refuses_the_call() {
    let client = connect(User::new(Answer::Decline)).await;
    assert_eq!(
        call(&client, "delete_file", "/rust/decline").await,
        (
            true,
            "`delete_file` was not run: denied by policy: not approved: the user declined to run `delete_file`".to_owned()
        )
    );
    assert!(!deleted("/rust/decline"));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn dismissing_the_form_refuses_the_call() {
    let client = connect(User::new(Answer::Cancel)).await;
    assert_eq!(
        call(&client, "delete_file", "/rust/cancel").await,
        (
            true,
            "`delete_file` was not run: denied by policy: not approved: the user dismissed the approval request for `delete_file`".to_owned()
        )
    );
    assert!(!deleted("/rust/cancel"));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn an_accepted_form_without_a_boolean_answer_refuses_the_call() {
    let client = connect(User::new(Answer::Accept(json!({"approve": "yes"})))).await;
    assert_eq!(
        call(&client, "delete_file", "/rust/garbled").await,
        (
            true,
            "`delete_file` was not run: denied by policy: not approved: the approval request failed: the answer's field `approve` must be a boolean, not a string".to_owned()
        )
    );
    assert!(!deleted("/rust/garbled"));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn no_answer_within_the_timeout_refuses_the_call_and_cancels_the_form() {
    let user = User::new(Answer::Never);
    let policy = asking().timeout(Duration::from_millis(200));
    let client = connect_with(policy, user.clone(), ClientLifecycleMode::Initialize).await;
    assert_eq!(
        call(&client, "delete_file", "/rust/late").await,
        (
            true,
            "`delete_file` was not run: denied by policy: not approved: no answer within 200ms"
                .to_owned()
        )
    );
    assert!(!deleted("/rust/late"));
    let asked = user.asked();
    assert_eq!(asked.len(), 1, "{asked:?}");
    for _ in 0..200 {
        if !user.cancelled.lock().unwrap().is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let cancelled = user.cancelled.lock().unwrap().clone();
    assert_eq!(cancelled.len(), 1, "{cancelled:?}");
    assert_eq!(cancelled[0].request_id.as_ref(), Some(&asked[0].0));
    client.cancel().await.unwrap();
}

// --- when the user cannot be asked -------------------------------------------------------

#[tokio::test]
async fn a_client_without_the_elicitation_capability_gets_a_clear_refusal() {
    let user = User::without_elicitation();
    let client = connect(user.clone()).await;
    assert_eq!(
        call(&client, "delete_file", "/rust/incapable").await,
        (
            true,
            "`delete_file` was not run: denied by policy: not approved: this client cannot show the user a form (no elicitation capability)"
                .to_owned()
        )
    );
    assert!(user.asked().is_empty());
    assert!(!deleted("/rust/incapable"));
    client.cancel().await.unwrap();
}

/// On 2026-07-28 the server may not send requests during a call: the call answers
/// `input_required` with the form, rmcp's client asks its user and calls again with the
/// answer and the sealed `requestState`, and the tool runs then.
#[tokio::test]
async fn a_2026_client_is_asked_through_an_input_request() {
    let user = User::new(Answer::Accept(json!({"approve": true})));
    let modern = ClientLifecycleMode::Discover {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
    };
    let client = connect_with(asking(), user.clone(), modern).await;
    assert_eq!(
        call(&client, "delete_file", "/rust/modern").await,
        (false, "deleted /rust/modern".to_owned())
    );
    assert_eq!(user.asked().len(), 1);
    assert!(deleted("/rust/modern"));
    client.cancel().await.unwrap();
}

/// SEP-2322: no input request the client did not declare it can fulfil.
#[tokio::test]
async fn a_2026_client_without_elicitation_is_not_sent_a_form() {
    let user = User::without_elicitation();
    let modern = ClientLifecycleMode::Discover {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
    };
    let client = connect_with(asking(), user.clone(), modern).await;
    assert_eq!(
        call(&client, "delete_file", "/rust/modern-incapable").await,
        (
            true,
            "`delete_file` was not run: denied by policy: not approved: this client cannot show the user a form (no elicitation capability)"
                .to_owned()
        )
    );
    assert!(user.asked().is_empty());
    assert!(!deleted("/rust/modern-incapable"));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_2026_client_whose_user_declines_is_refused() {
    let user = User::new(Answer::Decline);
    let modern = ClientLifecycleMode::Discover {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
    };
    let client = connect_with(asking(), user.clone(), modern).await;
    assert_eq!(
        call(&client, "delete_file", "/rust/modern-declined").await,
        (
            true,
            "`delete_file` was not run: denied by policy: not approved: the user declined to run `delete_file`"
                .to_owned()
        )
    );
    assert_eq!(user.asked().len(), 1);
    assert!(!deleted("/rust/modern-declined"));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn outside_mcp_the_approver_refuses_with_a_clear_reason() {
    let kit = toolkit(asking());
    let mut session = Session::new();
    let r = kit
        .call(
            &mut session,
            "delete_file",
            &json!({"path": "/rust/direct"}),
        )
        .await;
    assert!(r.is_error, "{r:?}");
    assert_eq!(
        r.text_joined(),
        "`delete_file` was not run: denied by policy: not approved: there is no user to ask: this call did not come through an MCP client"
    );
    assert!(!deleted("/rust/direct"));
}

// --- the official Python SDK -------------------------------------------------------------

/// `tests/mcp_interop/elicitation.py` against this toolkit over Streamable HTTP (legacy
/// sessions on: a server-to-client request needs one), with the venv `.ci/run` creates;
/// skipped without `MCP_VENV`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_sdk_answers_the_approval_form() {
    if !python::run_script(
        McpServer::new(toolkit(asking()), Mode::Mask),
        "elicitation.py",
    )
    .await
    {
        return;
    }
    assert!(deleted("/python/accept"));
    assert!(!deleted("/python/decline"));
    assert!(!deleted("/python/incapable"));
}

/// An approved retry's `requestState` is good for one use (SEP-2322: state that must be
/// consumed at most once): the same retry sent again is `-32602` and deletes nothing more,
/// and so are two replays sent at once.
#[tokio::test]
async fn an_approved_retry_cannot_be_replayed() {
    use rmcp::model::CallToolResponse;
    let user = User::new(Answer::Accept(json!({"approve": true})));
    let modern = ClientLifecycleMode::Discover {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
    };
    let client = connect_with(asking(), user, modern).await;
    let path = "/rust/replayed";
    let params = || {
        CallToolRequestParams::new("delete_file")
            .with_arguments(json!({ "path": path }).as_object().unwrap().clone())
    };
    let first = client
        .peer()
        .call_tool_once(params())
        .await
        .expect("tools/call");
    let CallToolResponse::InputRequired(input) = first else {
        panic!("not an input request: {first:?}");
    };
    let state = input.request_state.expect("a request state");
    let key = input
        .input_requests
        .expect("input requests")
        .keys()
        .next()
        .cloned()
        .unwrap();
    let mut responses = std::collections::BTreeMap::new();
    responses.insert(
        key,
        json!({"action": "accept", "content": {"approve": true}}),
    );
    let retry = || {
        params()
            .with_input_responses(responses.clone())
            .with_request_state(state.clone())
    };
    let ran = |response: &CallToolResponse| matches!(response, CallToolResponse::Complete(r) if r.is_error != Some(true));
    let approved = client.peer().call_tool_once(retry()).await.expect("retry");
    assert!(ran(&approved), "{approved:?}");
    let runs = || {
        DELETED
            .lock()
            .unwrap()
            .iter()
            .filter(|p| *p == path)
            .count()
    };
    assert_eq!(runs(), 1);
    for _ in 0..2 {
        let replay = client
            .peer()
            .call_tool_once(retry())
            .await
            .expect_err("a replayed retry");
        let text = replay.to_string();
        assert!(text.contains("already used"), "{text}");
        assert!(text.contains("-32602"), "{text}");
        assert!(!text.contains(&state), "the state is echoed");
    }
    let (a, b) = tokio::join!(
        client.peer().call_tool_once(retry()),
        client.peer().call_tool_once(retry())
    );
    assert!(a.is_err() && b.is_err());
    assert_eq!(runs(), 1, "the tool ran once");
    client.cancel().await.unwrap();
}
