//! Whether a call would reach its tool, asked before it runs: the policy's verdict alone.

use serde_json::Value;

use super::Toolkit;
use super::messages;
use super::run::contained;
use crate::args::Arguments;
use crate::context::CallContext;
use crate::policy::{Decision, PolicyRequest};
use crate::registry::Registry;
use crate::result::CallResult;
use crate::session::Session;

impl<R: Registry> Toolkit<R> {
    /// Whether a call of `name` with `arguments` would reach its tool: `name` is a tool
    /// available in `session`, and the toolkit's policy allows the call (asked with `cx`'s
    /// per-call data, so an approver can ask the user now). `Err` is what the call would
    /// answer instead. Nothing runs and nothing changes.
    ///
    /// An MCP server asks it before it hands a client a task, so that approval comes before
    /// the task, as the tasks extension prefers. The call itself asks the policy again: a
    /// policy that asks the user gets the same answer the second time from the MCP server's
    /// asker, which keeps the answers of the call.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use serde_json::json;
    /// use toolgroup::policy::Decision;
    /// use toolgroup::prelude::*;
    ///
    /// /// Delete a file.
    /// #[tool(destructive)]
    /// fn delete_file(path: String) -> String {
    ///     format!("deleted {path}")
    /// }
    ///
    /// #[tool_group(name = "files", description = "Files.", tools = [delete_file])]
    /// struct Files;
    ///
    /// #[toolkit]
    /// struct Kit {
    ///     #[basic]
    ///     files: Files,
    /// }
    ///
    /// let toolkit = Toolkit::new(Kit { files: Files })
    ///     .with_policy(|_: &toolgroup::policy::PolicyRequest<'_>| Decision::deny("read-only day"));
    /// let session = toolkit.session();
    /// let refused = toolkit
    ///     .admit(&session, "delete_file", &json!({"path": "a"}), &CallContext::new())
    ///     .await
    ///     .unwrap_err();
    /// assert_eq!(refused.text_joined(), "`delete_file` was not run: denied by policy: read-only day");
    /// # });
    /// ```
    pub async fn admit(
        &self,
        session: &Session<R>,
        name: &str,
        arguments: &Value,
        cx: &CallContext,
    ) -> Result<(), CallResult> {
        let Some(resolved) = self.resolve(session, name) else {
            return Err(self
                .unentitled(name)
                .unwrap_or_else(|| self.unknown_tool(session, name)));
        };
        if resolved.is_inactive_tool() {
            let group = resolved.group().map_or("", |g| g.name);
            return Err(self.inactive(resolved.tool(), group));
        }
        let Some(policy) = &self.policy else {
            return Ok(());
        };
        let request = PolicyRequest {
            tool: resolved.tool(),
            group: resolved.group().map(|g| g.name),
            annotations: resolved.annotations(),
            arguments: Arguments::Value(arguments),
            call_id: cx.call_id(),
            extensions: Some(cx.extensions()),
        };
        match contained(|| policy.check(&request)).await {
            Ok(Decision::Allow) => Ok(()),
            Ok(Decision::Deny(reason)) => Err(messages::denied(resolved.tool(), &reason)),
            Err(panic) => Err(messages::panicked_around(
                resolved.tool(),
                "policy",
                &panic,
                self.panic_details,
            )),
        }
    }
}
