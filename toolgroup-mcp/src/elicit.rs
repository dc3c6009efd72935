//! Approval over MCP: ask the user on the other side of the client a yes/no question,
//! through the call's [`UserInput`] (see `input` for how each revision is asked).

use std::fmt::Write as _;

use toolgroup_core::BoxFuture;
use toolgroup_core::args::Arguments;
use toolgroup_core::context::{Answer, AskError, Question, UserInput};
use toolgroup_core::policy::{Decision, Policy, PolicyRequest};

/// A [`Policy`] that asks the user through the MCP client, with a yes/no form, so a tool
/// served over MCP that needs approval waits for the user's answer. How the form reaches
/// the user depends on the request's revision: an `elicitation/create` request during the
/// call up to 2025-11-25; on 2026-07-28, an input request (the call answers
/// `resultType: "input_required"`, and runs once the client calls again with the user's
/// answer); inside a task, the task's `input_required` status.
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
/// | the client did not declare the `elicitation` capability (or only its `url` mode) | this client cannot show the user a form (no elicitation capability) |
/// | the call did not come through an MCP server (a direct `Toolkit::call`) | there is no user to ask: this call did not come through an MCP client |
/// | the client answered with an error, something that does not fit the form, or went away | the approval request failed: ... |
///
/// The approver waits as long as the user takes: set
/// [`RequireApproval::timeout`](toolgroup_core::policy::RequireApproval::timeout) to give up
/// (the call is then refused as unanswered). When the call stops waiting (that timeout, or
/// the call being cancelled) the client gets `notifications/cancelled` for the request, so it
/// can close the form.
///
/// Over Streamable HTTP up to 2025-11-25, the request goes on the `tools/call`'s own
/// response stream, so the client must be able to answer it: a client with a protocol
/// session can; a stateless request has no initialization, hence no declared capability,
/// and is refused as above. A 2026-07-28 client declares `elicitation` in the request's
/// `_meta`, and needs no stream: the question comes back as the call's answer.
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

/// The question: the message, and one required boolean, `approve`.
fn question(request: &PolicyRequest<'_>) -> Question {
    Question::confirm(message(request), "approve", "Approve")
        .describe("approve", format!("Run `{}` now", request.tool))
}

async fn ask(input: &UserInput, request: &PolicyRequest<'_>) -> Decision {
    let tool = request.tool;
    match input.ask(&question(request)).await {
        Ok(Answer::Accepted(content)) => match content.get("approve") {
            Some(serde_json::Value::Bool(true)) => Decision::Allow,
            _ => Decision::deny(format!("the user did not approve running `{tool}`")),
        },
        Ok(Answer::Declined) => Decision::deny(format!("the user declined to run `{tool}`")),
        Ok(Answer::Dismissed) => Decision::deny(format!(
            "the user dismissed the approval request for `{tool}`"
        )),
        Ok(_) => Decision::deny(format!(
            "the client gave an unknown answer to the approval request for `{tool}`"
        )),
        Err(AskError::NoUser(reason)) => Decision::deny(reason),
        Err(AskError::Failed(reason)) => {
            Decision::deny(format!("the approval request failed: {reason}"))
        }
        Err(e) => Decision::deny(format!("the approval request failed: {e}")),
    }
}

impl Policy for ElicitationApprover {
    fn check<'a>(&'a self, request: &'a PolicyRequest<'a>) -> BoxFuture<'a, Decision> {
        Box::pin(async move {
            match request.extension::<UserInput>() {
                Some(input) => ask(input, request).await,
                None => Decision::deny(
                    "there is no user to ask: this call did not come through an MCP client",
                ),
            }
        })
    }
}
