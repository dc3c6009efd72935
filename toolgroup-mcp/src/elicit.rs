//! Approval over MCP: ask the user on the other side of the client, with an
//! `elicitation/create` yes/no form.

use std::fmt::Write as _;

use rmcp::model::{
    BooleanSchema, CancelledNotificationParam, ClientResult, ElicitRequest, ElicitRequestParams,
    ElicitationAction, ElicitationSchema, ProtocolVersion, RequestId, ServerRequest,
};
use rmcp::service::{PeerRequestOptions, RequestContext};
use rmcp::{Peer, RoleServer};
use toolgroup_core::BoxFuture;
use toolgroup_core::args::Arguments;
use toolgroup_core::policy::{Decision, Policy, PolicyRequest};

/// The MCP client of the request a call serves: per-call data the handler attaches to every
/// `tools/call`, so an approver can ask that client's user.
#[derive(Clone)]
pub(crate) struct RequestClient {
    peer: Peer<RoleServer>,
    /// The request speaks 2026-07-28 or later, which forbids server-to-client requests.
    modern: bool,
}

impl RequestClient {
    pub(crate) fn of(ctx: &RequestContext<RoleServer>) -> Self {
        RequestClient {
            peer: ctx.peer.clone(),
            modern: ctx
                .protocol_version()
                .is_some_and(|v| v.as_str() >= ProtocolVersion::V_2026_07_28.as_str()),
        }
    }

    /// Whether the client declared it can show a form (`elicitation`, with `form` or with
    /// neither mode, which means form).
    fn can_ask(&self) -> bool {
        self.peer
            .peer_info()
            .and_then(|info| info.capabilities.elicitation.clone())
            .is_some_and(|e| e.form.is_some() || e.url.is_none())
    }
}

/// A [`Policy`] that asks the user through the MCP client: an `elicitation/create` request
/// with a yes/no form, so a tool served over MCP that needs approval waits for the user's
/// answer.
///
/// Use it inside [`RequireApproval`](toolgroup_core::policy::RequireApproval) (which decides
/// which calls need approval: tools marked `destructive`, and any it names) and serve the
/// toolkit with [`McpServer`](crate::McpServer):
///
/// ```
/// use std::time::Duration;
/// use toolgroup::policy::RequireApproval;
/// use toolgroup::prelude::*;
/// use toolgroup_mcp::{ElicitationApprover, McpServer, Mode};
///
/// /// Delete a file.
/// #[tool(destructive)]
/// async fn delete_file(path: String) -> String {
///     format!("deleted {path}")
/// }
///
/// #[tool_group(name = "files", description = "File tools.", tools = [delete_file])]
/// struct Files;
///
/// #[toolkit]
/// struct Kit {
///     #[basic]
///     files: Files,
/// }
///
/// let toolkit = Toolkit::new(Kit { files: Files }).with_policy(
///     RequireApproval::new(ElicitationApprover::new()).timeout(Duration::from_secs(300)),
/// );
/// let server = McpServer::new(toolkit, Mode::Mask);
/// // server.serve_stdio(...) or server.serve_http(...): a `delete_file` call now waits
/// // for the user's yes.
/// # let _ = server;
/// ```
///
/// The form's message names the tool, its group and its arguments (as JSON, cut to 500
/// characters, control characters escaped); its one field, `approve`, is a required boolean.
/// The call runs when the user accepts the form with `approve` true. Otherwise it is refused
/// with a reason the model reads, as an error result: "`delete_file` was not run: denied by
/// policy: not approved: " and one of
///
/// | what happened | the reason |
/// |---|---|
/// | the user answered `approve: false` | the user did not approve running `delete_file` |
/// | the user declined the form | the user declined to run `delete_file` |
/// | the user dismissed the form | the user dismissed the approval request for `delete_file` |
/// | the client did not declare the `elicitation` capability (or only its `url` mode) | this client cannot ask the user for approval (no elicitation capability) |
/// | the request speaks MCP 2026-07-28 or later | that revision forbids requests from the server to the client, so the user cannot be asked during the call |
/// | the call did not come through an MCP server (a direct `Toolkit::call`) | there is no user to ask: this call did not come through an MCP client |
/// | the client answered with an error, or went away | the approval request failed: ... |
///
/// The approver waits as long as the user takes: set
/// [`RequireApproval::timeout`](toolgroup_core::policy::RequireApproval::timeout) to give up
/// (the call is then refused as unanswered). When the call stops waiting (that timeout, or
/// the call being cancelled) the client gets `notifications/cancelled` for the request, so it
/// can close the form.
///
/// Over Streamable HTTP the request goes on the `tools/call`'s own response stream, so the
/// client must be able to answer it: a client with a protocol session (revisions up to
/// 2025-11-25) can; a stateless request has no initialization, hence no declared capability,
/// and is refused as above.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct ElicitationApprover {}

impl ElicitationApprover {
    /// An approver that asks the user through the request's MCP client.
    pub fn new() -> Self {
        ElicitationApprover {}
    }
}

/// Most of the arguments shown to the user.
const ARGUMENTS_SHOWN: usize = 500;

/// The form's message: the tool, its group, whether it is marked destructive, its arguments.
fn message(request: &PolicyRequest<'_>) -> String {
    let mut text = format!("Allow the tool `{}`", request.tool);
    if let Some(group) = request.group {
        let _ = write!(text, " (group `{group}`)");
    }
    text.push_str(" to run?");
    if request.annotations.destructive == Some(true) {
        text.push_str(" It is marked destructive.");
    }
    let arguments = match request.arguments {
        Arguments::Text(t) if t.trim().is_empty() => "{}".to_owned(),
        Arguments::Text(t) => t.to_owned(),
        Arguments::Value(v) => v.to_string(),
    };
    let _ = write!(
        text,
        "\nArguments: {}",
        toolgroup_core::__private::echo(&arguments, ARGUMENTS_SHOWN)
    );
    text
}

fn form(tool: &str) -> ElicitationSchema {
    ElicitationSchema::builder()
        .required_bool_with("approve", |b: BooleanSchema| {
            b.title("Approve").description(format!("Run `{tool}` now"))
        })
        .build()
        .expect("a one-field elicitation schema is valid")
}

/// Tells the client the request is no longer awaited, unless it was answered.
struct CancelOnDrop {
    peer: Peer<RoleServer>,
    id: Option<RequestId>,
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        let (Some(id), Ok(runtime)) = (self.id.take(), tokio::runtime::Handle::try_current())
        else {
            return;
        };
        let peer = self.peer.clone();
        runtime.spawn(async move {
            let reason = "the call no longer waits for the approval".to_owned();
            // Best effort: a client that went away has no form to close.
            let _ = peer
                .notify_cancelled(CancelledNotificationParam::new(Some(id), Some(reason)))
                .await;
        });
    }
}

async fn ask(client: &RequestClient, request: &PolicyRequest<'_>) -> Decision {
    let tool = request.tool;
    if client.modern {
        return Decision::deny(
            "this client speaks MCP 2026-07-28, which forbids requests from the server to the client, so the user cannot be asked for approval during the call",
        );
    }
    if !client.can_ask() {
        return Decision::deny(
            "this client cannot ask the user for approval (no elicitation capability)",
        );
    }
    let params = ElicitRequestParams::FormElicitationParams {
        meta: None,
        message: message(request),
        requested_schema: form(tool),
    };
    let failed = |e: &dyn std::fmt::Display| {
        Decision::deny(format!("the approval request to the client failed: {e}"))
    };
    let handle = match client
        .peer
        .send_request_with_option(
            ServerRequest::ElicitRequest(ElicitRequest::new(params)),
            PeerRequestOptions::no_options(),
        )
        .await
    {
        Ok(handle) => handle,
        Err(e) => return failed(&e),
    };
    let mut guard = CancelOnDrop {
        peer: client.peer.clone(),
        id: Some(handle.id.clone()),
    };
    let answer = handle.await_response().await;
    guard.id = None;
    let result = match answer {
        Ok(ClientResult::ElicitResult(result)) => result,
        Ok(_) => return failed(&"the client's answer is not an elicitation result"),
        Err(e) => return failed(&e),
    };
    match result.action {
        ElicitationAction::Accept => match result.content.as_ref().and_then(|c| c.get("approve")) {
            Some(serde_json::Value::Bool(true)) => Decision::Allow,
            Some(serde_json::Value::Bool(false)) => {
                Decision::deny(format!("the user did not approve running `{tool}`"))
            }
            _ => Decision::deny(format!(
                "the client accepted the approval request for `{tool}` without a boolean `approve` answer"
            )),
        },
        ElicitationAction::Decline => Decision::deny(format!("the user declined to run `{tool}`")),
        ElicitationAction::Cancel => Decision::deny(format!(
            "the user dismissed the approval request for `{tool}`"
        )),
        _ => Decision::deny(format!(
            "the client gave an unknown answer to the approval request for `{tool}`"
        )),
    }
}

impl Policy for ElicitationApprover {
    fn check<'a>(&'a self, request: &'a PolicyRequest<'a>) -> BoxFuture<'a, Decision> {
        Box::pin(async move {
            match request.extension::<RequestClient>() {
                Some(client) => ask(client, request).await,
                None => Decision::deny(
                    "there is no user to ask: this call did not come through an MCP client",
                ),
            }
        })
    }
}
