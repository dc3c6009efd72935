//! Running one `tools/call` with the MCP request's context, and what is wrong with the
//! params of one rmcp could not read.

use std::fmt::Write as _;

use rmcp::RoleServer;
use rmcp::model::{CallToolRequestParams, ProgressNotificationParam};
use rmcp::model::{CallToolResponse, ErrorData};
use rmcp::service::RequestContext;
use serde_json::Value;
use toolgroup_core::context::Progress;
use toolgroup_core::{CallContext, CallResult, Registry, Resolved, Session, ToolKind, Toolkit};

use super::{Handler, Place};
use crate::Mode;

impl<R: Registry> Handler<R> {
    /// `-32602` for a name that is no tool this request's client was shown, with a
    /// did-you-mean and the tools it was shown.
    pub(super) fn unknown_tool(
        &self,
        toolkit: &Toolkit<R>,
        name: &str,
        mode: Mode,
        session: &Session<R>,
    ) -> ErrorData {
        let listed = self.listed(toolkit, mode, session);
        let shown = crate::echo(name, 64);
        let mut message = format!("unknown tool `{shown}`.");
        if let Some(guess) = crate::did_you_mean(name, listed.iter().map(|t| t.name.as_ref())) {
            let _ = write!(message, " Did you mean `{guess}`?");
        } else if mode == Mode::Selected
            && let Some(def) = toolkit.all_definitions().find(|d| d.name == name)
            && let Some(group) = def.group
        {
            let _ = write!(
                message,
                " It belongs to the group `{group}`, which this connection did not select."
            );
        }
        message.push_str(" The tools are ");
        for (i, t) in listed.iter().enumerate() {
            if i > 0 {
                message.push_str(", ");
            }
            let _ = write!(message, "`{}`", t.name);
        }
        if listed.is_empty() {
            message.push_str("none");
        }
        message.push('.');
        ErrorData::invalid_params(message, None)
    }

    /// `resolved` as this server runs the call: under its own first-use choice (else the
    /// toolkit's), so that [`Resolved::changes_session`] and [`Resolved::activates`] answer
    /// for it. Resolved against no active group, as the handler resolves every unselected
    /// call, a switchable group's tool is one the call may activate.
    pub(super) fn served(&self, resolved: &Resolved) -> Resolved {
        (*resolved).with_first_use_activation(self.first_use())
    }

    /// The questions and answers of a 2026-07-28 `tools/call`: none for a first call; a
    /// retry's `requestState` and `inputResponses`, verified and the state used up in the
    /// server's store (`-32602` otherwise, and nothing runs).
    pub(super) async fn round_trip(
        &self,
        request: &CallToolRequestParams,
        ctx: &RequestContext<RoleServer>,
    ) -> Result<crate::input::RoundTrip, ErrorData> {
        let arguments = Value::Object(request.arguments.clone().unwrap_or_default());
        let call = crate::input::CallBinding::new(&request.name, &arguments, principal(ctx));
        let responses = request
            .input_responses
            .as_ref()
            .map(|r| r.iter().map(|(k, v)| (k.clone(), v.clone())).collect());
        let (round, single_use) = crate::input::round_trip(
            crate::input::can_show_forms(ctx),
            &self.shared.request_state,
            call,
            request.request_state.as_deref(),
            responses.as_ref(),
        )?;
        if let Some(id) = single_use {
            // A margin past the state's own expiry: a clock step cannot reopen it.
            let ttl = crate::input::STATE_TTL * 2;
            match self.shared.store.consume(&id, ttl).await {
                Ok(true) => {}
                Ok(false) => return Err(crate::input::used_again()),
                Err(e) => {
                    return Err(ErrorData::internal_error(
                        format!(
                            "the `requestState` could not be checked against earlier uses ({e}); nothing was run, try again"
                        ),
                        None,
                    ));
                }
            }
        }
        Ok(round)
    }

    /// Whether mask mode lists `reset_tools`: the server's choice, else only without
    /// first-use activation (see `McpServer::with_reset_tools_listed`).
    pub(super) fn reset_listed(&self) -> bool {
        self.shared
            .reset_listed
            .unwrap_or_else(|| !self.first_use())
    }

    /// First-use activation for this server: its own choice, else the toolkit's.
    pub(super) fn first_use(&self) -> bool {
        self.shared
            .first_use
            .unwrap_or_else(|| self.toolkit().first_use_activation())
    }

    /// A call that changes the session (`reset_tools`, a skill load, a first use that
    /// activates a group), with its change kept where the session lives: the connection's
    /// own session, or the store under the client's key. Where it cannot be kept, a change is
    /// refused and nothing is changed; a first use runs with its group active for that call
    /// alone. `kind` is what the call's name resolved to.
    #[allow(clippy::too_many_arguments)]
    pub(super) async fn changing_call(
        &self,
        place: &Place<R>,
        mode: Mode,
        name: &str,
        arguments: &Value,
        context: &RequestContext<RoleServer>,
        kind: ToolKind,
    ) -> Result<CallToolResponse, ErrorData> {
        let toolkit = &*self.kit(context);
        let is_load = kind == ToolKind::LoadSkill;
        let is_tool = matches!(kind, ToolKind::Tool | ToolKind::DynamicTool);
        let first_use = self.first_use();
        // A first use of a group that is already active changes nothing: it runs as any call,
        // without the gate (which would hold other changes for as long as the tool runs).
        let active = |session: &Session<R>| {
            is_tool
                && toolkit
                    .resolve(session, name)
                    .is_some_and(|r| r.is_available())
        };
        let (result, changed) = match place {
            Place::Fixed(_) => unreachable!("`call_tool` answers a fixed selection itself"),
            Place::NoKey if is_load || is_tool => {
                // Nothing to keep: a load is refused if it would activate a group; a first
                // use activates its group for this call alone.
                let mut session = Session::new();
                let result =
                    match forward_call(toolkit, &mut session, name, arguments, context, first_use)
                        .await
                    {
                        Ok(result) => result,
                        Err(input) => return Ok(input),
                    };
                if is_load && session != Session::new() {
                    return Ok(Self::error_result(format!(
                        "`{name}` was not run: loading this skill would activate its group, but this server cannot keep the active groups for this client (a stateless HTTP request without a key identifying the client). Nothing was changed."
                    )));
                }
                (result, false)
            }
            Place::NoKey => {
                return Ok(Self::error_result(format!(
                    "`{name}` was not run: this server cannot keep the active groups for this client (a stateless HTTP request without a key identifying the client). Nothing was changed."
                )));
            }
            Place::Local if active(&self.local_session()) => {
                let mut session = self.local_session();
                let before = session;
                let mut result =
                    match forward_call(toolkit, &mut session, name, arguments, context, first_use)
                        .await
                    {
                        Ok(result) => result,
                        Err(input) => return Ok(input),
                    };
                let evicted = self.lifecycle_after(place, toolkit, &before, name, &mut result);
                (result, evicted)
            }
            Place::Local => {
                let _gate = self.connection.reset_gate.lock().await;
                let before = self.local_session();
                let mut session = before;
                let mut result =
                    match forward_call(toolkit, &mut session, name, arguments, context, first_use)
                        .await
                    {
                        Ok(result) => result,
                        Err(input) => return Ok(input),
                    };
                self.set_local_session(&before, session);
                let evicted = self.lifecycle_after(place, toolkit, &before, name, &mut result);
                (result, evicted || self.local_session() != before)
            }
            Place::Keyed(key) => {
                let load = || async {
                    self.load(place).await.map_err(|e| {
                        Self::error_result(format!(
                            "`{name}` was not run: the active groups could not be loaded: {e}. Nothing was changed."
                        ))
                    })
                };
                let mut before = match load().await {
                    Ok(s) => s,
                    Err(refusal) => return Ok(refusal),
                };
                // A change waits for this process's other changes under the key, then reads
                // the groups again: of two concurrent first uses, the second finds the group
                // active and delivers nothing.
                let gate = if active(&before) {
                    None
                } else {
                    let gate = self.shared.key_gates.lock(key).await;
                    before = match load().await {
                        Ok(s) => s,
                        Err(refusal) => return Ok(refusal),
                    };
                    Some(gate)
                };
                let mut session = before;
                let mut result =
                    match forward_call(toolkit, &mut session, name, arguments, context, first_use)
                        .await
                    {
                        Ok(result) => result,
                        Err(input) => return Ok(input),
                    };
                // Under rules, the call's change and its use go into the state; otherwise the
                // store keeps the active groups (not which skills were loaded): a load or a
                // first use that activates none has nothing to save.
                let save = kind == ToolKind::ResetTools && !result.is_error;
                let kept = match (self.keyed_rules(), result.is_error) {
                    (false, true) => Ok(false),
                    _ => {
                        self.keep_keyed(
                            key,
                            gate.is_some(),
                            toolkit,
                            &before,
                            &session,
                            name,
                            &mut result,
                            save,
                        )
                        .await
                    }
                };
                match kept {
                    Ok(changed) => (result, changed),
                    Err(e) => {
                        return Ok(Self::error_result(format!(
                            "`{name}` could not save the active groups: {e}. Nothing was changed."
                        )));
                    }
                }
            }
        };
        if changed && mode == Mode::List {
            // Best effort: a client that went away does not need the notification.
            let _ = context.peer.notify_tool_list_changed().await;
        }
        self.to_mcp(name, result)
    }
}

/// The subject of the request's principal, if it was authorized.
pub(super) fn principal(ctx: &RequestContext<RoleServer>) -> Option<&str> {
    #[cfg(feature = "auth")]
    if let Some(parts) = ctx.extensions.get::<http::request::Parts>() {
        return parts
            .extensions
            .get::<crate::auth::Principal>()
            .map(|p| p.subject.as_str());
    }
    let _ = ctx;
    None
}

/// Run one tool call with the MCP request's context:
///
/// - the JSON-RPC request id is the call's id;
/// - `first_use`: whether a call of a tool of an inactive group activates it (the server's
///   choice, made here for every call so that the toolkit's own does not apply unseen);
/// - cancellation: `ctx.ct` fires on `notifications/cancelled` and when a stateless HTTP
///   client goes away; the toolkit then drops the tool's future and answers an error result;
/// - progress and log: see [`forwarding`] (and `logging` for which messages);
/// - user input: the call's `UserInput` asks the client's user as its revision allows (see
///   `input`); on 2026-07-28 an unanswered question ends the call early with the
///   `InputRequiredResult` (the `Err`), which changes nothing;
/// - HTTP: the request's `http::request::Parts` are per-call data (a tool takes
///   `Extension<http::request::Parts>`), and so is every value in the request's own
///   extensions (what an axum or tower auth layer inserted, such as the principal).
pub(super) async fn forward_call<R: Registry>(
    toolkit: &Toolkit<R>,
    session: &mut Session<R>,
    name: &str,
    arguments: &Value,
    ctx: &RequestContext<RoleServer>,
    first_use: bool,
) -> Result<CallResult, CallToolResponse> {
    let mut cx = call_context(ctx, first_use);
    cx.extensions_mut().insert(crate::input::user_input(ctx));
    let run = run_call(toolkit, session, name, arguments, ctx, cx);
    // On 2026-07-28 a question without an answer ends the call: the client asks its user
    // and calls again.
    crate::input::until_unanswered(ctx, run).await
}

/// The context of a call the request `ctx` makes (see [`forward_call`]), without the user to
/// ask, which each caller decides: its id, cancellation, first-use choice, and over HTTP the
/// request's parts and extensions.
pub(super) fn call_context(ctx: &RequestContext<RoleServer>, first_use: bool) -> CallContext {
    #[cfg_attr(not(feature = "http"), allow(unused_mut))]
    let mut cx = CallContext::new()
        .with_call_id(ctx.id.to_string())
        .with_cancellation(ctx.ct.clone())
        .with_first_use_activation(first_use);
    #[cfg(feature = "http")]
    if let Some(parts) = ctx.extensions.get::<http::request::Parts>() {
        cx.extensions_mut().extend(parts.extensions.clone());
        cx.extensions_mut().insert(parts.clone());
    }
    cx
}

async fn run_call<R: Registry>(
    toolkit: &Toolkit<R>,
    session: &mut Session<R>,
    name: &str,
    arguments: &Value,
    ctx: &RequestContext<RoleServer>,
    cx: CallContext,
) -> CallResult {
    let result = forwarding(ctx, cx, Counting::Tool, async |cx| {
        toolkit.call_with(session, name, arguments, cx).await
    })
    .await;
    crate::telemetry::note_outcome(&ctx.extensions, result.outcome());
    result
}

/// How a request's progress notifications are numbered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Counting {
    /// One tool's own reports, as it made them (its numbers are its own to keep rising).
    Tool,
    /// A program's: the reports of all its calls, which may run together and each start
    /// from zero, so each notification's `progress` is the count of reports so far (the
    /// specification requires it to rise with every notification) and its message names
    /// the tool (`"fetch: 2/3"`, or the tool's own message after the name).
    #[cfg_attr(not(feature = "code-mode"), allow(dead_code))]
    Program,
}

/// A progress report's count as people read it: `2/3`, or `2` without a total.
pub(super) fn progress_count(done: f64, total: Option<f64>) -> String {
    match total {
        Some(total) => format!("{done}/{total}"),
        None => format!("{done}"),
    }
}

/// Runs `work` with the request's log messages and progress reports forwarded to the client,
/// in order and before the answer: each `ToolContext::log` the client asked for becomes a
/// `notifications/message`, and, when the request has a progress token, each
/// `ToolContext::report` a `notifications/progress` (partial output has no MCP notification
/// and is not forwarded).
pub(super) async fn forwarding<T>(
    ctx: &RequestContext<RoleServer>,
    cx: CallContext,
    counting: Counting,
    work: impl AsyncFnOnce(&CallContext) -> T,
) -> T {
    let (mut cx, logs) = crate::logging::forward(cx, ctx);
    let Some(token) = ctx.meta.get_progress_token() else {
        let call = async move {
            let result = work(&cx).await;
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
            let _ = sender.send((event.tool, *done, *total, message.clone()));
        }
    });
    let peer = ctx.peer.clone();
    let forward = async move {
        let mut sent = 0u32;
        while let Some((tool, done, total, message)) = receiver.recv().await {
            let param = match counting {
                Counting::Tool => {
                    let mut param = ProgressNotificationParam::new(token.clone(), done);
                    if let Some(total) = total {
                        param = param.with_total(total);
                    }
                    if let Some(message) = message {
                        param = param.with_message(message);
                    }
                    param
                }
                Counting::Program => {
                    sent += 1;
                    let what = message.unwrap_or_else(|| progress_count(done, total));
                    ProgressNotificationParam::new(token.clone(), f64::from(sent))
                        .with_message(format!("{tool}: {what}"))
                }
            };
            // A client that went away needs no progress.
            if peer.notify_progress(param).await.is_err() {
                break;
            }
        }
    };
    let call = async move {
        let result = work(&cx).await;
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
