//! Running one `tools/call` with the MCP request's context, and what is wrong with the
//! params of one rmcp could not read.

use rmcp::RoleServer;
use rmcp::model::{CallToolRequestParams, ProgressNotificationParam};
use rmcp::service::RequestContext;
use serde_json::Value;
use toolgroup_core::context::Progress;
use toolgroup_core::{CallContext, CallResult, Registry, Session, Toolkit};

/// Run one tool call with the MCP request's context:
///
/// - the JSON-RPC request id is the call's id;
/// - cancellation: `ctx.ct` fires on `notifications/cancelled` and when a stateless HTTP
///   client goes away; the toolkit then drops the tool's future and answers an error result;
/// - progress: when the request has a progress token, each `ToolContext::report` of the tool
///   becomes a `notifications/progress`, sent in order and before the result (partial output
///   has no MCP notification and is not forwarded);
/// - log: each `ToolContext::log` the client asked for becomes a `notifications/message`,
///   in order and before the result (see `logging` for which);
/// - HTTP: the request's `http::request::Parts` are per-call data (a tool takes
///   `Extension<http::request::Parts>`), and so is every value in the request's own
///   extensions (what an axum or tower auth layer inserted, such as the principal).
pub(super) async fn forward_call<R: Registry>(
    toolkit: &Toolkit<R>,
    session: &mut Session<R>,
    name: &str,
    arguments: &Value,
    ctx: &RequestContext<RoleServer>,
) -> CallResult {
    let mut cx = CallContext::new()
        .with_id(ctx.id.to_string())
        .with_cancellation(ctx.ct.clone());
    #[cfg(feature = "http")]
    if let Some(parts) = ctx.extensions.get::<http::request::Parts>() {
        cx.extensions_mut().extend(parts.extensions.clone());
        cx.extensions_mut().insert(parts.clone());
    }
    cx.extensions_mut()
        .insert(crate::elicit::RequestClient::of(ctx));
    let (mut cx, logs) = crate::logging::forward(cx, ctx);
    let Some(token) = ctx.meta.get_progress_token() else {
        let call = async move {
            let result = toolkit.call_with(session, name, arguments, &cx).await;
            drop(cx);
            result
        };
        return tokio::join!(call, logs).0;
    };
    let (sender, mut receiver) = tokio::sync::mpsc::unbounded_channel();
    cx = cx.on_progress(move |event| {
        if let Progress::Step {
            done,
            total,
            message,
        } = event.progress
        {
            let _ = sender.send((*done, *total, message.clone()));
        }
    });
    let peer = ctx.peer.clone();
    let forward = async move {
        while let Some((done, total, message)) = receiver.recv().await {
            let mut param = ProgressNotificationParam::new(token.clone(), done);
            if let Some(total) = total {
                param = param.with_total(total);
            }
            if let Some(message) = message {
                param = param.with_message(message);
            }
            // A client that went away needs no progress.
            if peer.notify_progress(param).await.is_err() {
                break;
            }
        }
    };
    let call = async move {
        let result = toolkit.call_with(session, name, arguments, &cx).await;
        // The observer (and its sender) goes with the context: the forwarding loop ends
        // once it has sent every report.
        drop(cx);
        result
    };
    let (result, (), ()) = tokio::join!(call, forward, logs);
    result
}

/// What is wrong with the params of a `tools/call` that rmcp could not read.
pub(super) fn tools_call_problem(params: Option<&Value>) -> String {
    let kind = crate::json_kind;
    let Some(Value::Object(params)) = params else {
        return "invalid params: `tools/call` needs `params`, an object with the tool's `name` and its `arguments`".to_owned();
    };
    let Some(Value::String(name)) = params.get("name") else {
        return "invalid params: `tools/call` needs the tool's `name`, a string".to_owned();
    };
    let name = crate::echo(name, 64);
    match params.get("arguments") {
        Some(arguments) if !arguments.is_object() && !arguments.is_null() => format!(
            "invalid params: the `arguments` of `{name}` must be an object of the tool's arguments by name, not {}",
            kind(arguments)
        ),
        _ => match serde_json::from_value::<CallToolRequestParams>(Value::Object(params.clone())) {
            Err(e) => format!("invalid params of `tools/call` for `{name}`: {e}"),
            Ok(_) => format!("invalid params of `tools/call` for `{name}`"),
        },
    }
}
