//! `tools/call` as a task, and `tasks/get`, `tasks/update`, `tasks/cancel` (the Tasks
//! extension, SEP-2663; see `crate::tasks`).

use std::sync::Arc;
use std::sync::atomic::AtomicUsize;

use rmcp::RoleServer;
use rmcp::model::{
    CallToolResponse, CancelTaskParams, ClientCapabilities, CreateTaskResult, ErrorData,
    GetTaskParams, GetTaskResult, ServerCapabilities, TASKS_EXTENSION_ID, TaskPayload,
    UpdateTaskParams,
};
use rmcp::service::RequestContext;
use serde_json::{Map, Value};
use toolgroup_core::context::{Progress, UserInput};
use toolgroup_core::meta::TaskSupport;
use toolgroup_core::{CallContext, CallOutcome, Registry, Resolved, Session, Toolkit};

use super::{Handler, is_2026_or_later};
use crate::tasks::run::{TaskAsker, Tasks, error_object};

/// A toolkit a detached task owns: the server's, or the one a principal is entitled to.
pub(super) enum OwnedKit<R: Registry> {
    Shared(Arc<Toolkit<R>>),
    Entitled(Box<Toolkit<R>>),
}

impl<R: Registry> std::ops::Deref for OwnedKit<R> {
    type Target = Toolkit<R>;
    fn deref(&self) -> &Toolkit<R> {
        match self {
            OwnedKit::Shared(toolkit) => toolkit,
            OwnedKit::Entitled(toolkit) => toolkit,
        }
    }
}

impl<R: Registry> Handler<R> {
    /// The owner of the tasks a request starts, by what the server already tells clients
    /// apart by for their active groups: the request's principal; else, over HTTP, its key
    /// ([`McpServer::with_key`](crate::McpServer::with_key)), else its protocol session
    /// (`Mcp-Session-Id`); else (stdio, any in-process transport) the connection. A stateless
    /// HTTP request with none of them has no identity: its tasks are anyone's who has the id
    /// (128 random bits). Another owner's task is an unknown task, as a wrong id is.
    fn task_owner(&self, ctx: &RequestContext<RoleServer>) -> String {
        if let Some(principal) = super::call::principal(ctx) {
            return format!("principal:{principal}");
        }
        #[cfg(feature = "http")]
        if let Some(parts) = ctx.extensions.get::<http::request::Parts>() {
            if let Some(key) = self.shared.key.as_ref().and_then(|key| key(parts)) {
                return format!("key:{key}");
            }
            return match parts
                .headers
                .get("mcp-session-id")
                .and_then(|v| v.to_str().ok())
            {
                Some(session) => format!("session:{session}"),
                None => String::new(),
            };
        }
        let connection = self.connection.id.get_or_init(crate::random::new_id);
        format!("connection:{connection}")
    }
}

/// A status message of a progress report: its message, with its count.
fn status(done: f64, total: Option<f64>, message: Option<&str>) -> String {
    let count = super::call::progress_count(done, total);
    match message {
        Some(message) => format!("{message} ({count})"),
        None => count,
    }
}

/// SEP-2663: tasks only for a 2026-07-28 request (not under 2025-11-25) that declared the
/// extension on that request.
fn declares_tasks(ctx: &RequestContext<RoleServer>) -> bool {
    is_2026_or_later(ctx)
        && ctx
            .client_capabilities()
            .is_some_and(|caps| caps.supports_tasks())
}

/// `-32021` for a call that can only run as a task, from a request that cannot take one.
fn missing_extension<T>() -> Result<T, ErrorData> {
    Err(ErrorData::missing_required_client_capability(
        ClientCapabilities::builder().enable_tasks().build(),
    ))
}

impl<R: Registry> Handler<R> {
    /// Declare the tasks extension when a tool may run as a task (rmcp answers `tasks/*`
    /// with `-32601` otherwise).
    pub(super) fn declare_tasks(&self, capabilities: &mut ServerCapabilities) {
        let toolkit = &self.shared.toolkit;
        let session = Session::new();
        let capable = toolkit.all_definitions().any(|def| {
            toolkit
                .resolve(&session, def.name)
                .is_some_and(|r| r.task_support() != TaskSupport::Forbidden)
        });
        if capable {
            capabilities
                .extensions
                .get_or_insert_with(Default::default)
                .insert(TASKS_EXTENSION_ID.to_owned(), Map::new());
        }
    }

    fn tasks(&self) -> &Arc<Tasks> {
        &self.shared.tasks
    }

    /// A call of a tool that may run as a task: `Some` task (or `-32021`) when the request
    /// declared the extension on 2026-07-28 (or the tool requires it), `None` to run it as
    /// any call.
    pub(super) async fn as_task(
        &self,
        resolved: &Resolved,
        session: Session<R>,
        name: &str,
        arguments: &Value,
        ctx: &RequestContext<RoleServer>,
    ) -> Option<Result<CallToolResponse, ErrorData>> {
        let support = resolved.task_support();
        if support == TaskSupport::Forbidden {
            return None;
        }
        if !declares_tasks(ctx) {
            return (support == TaskSupport::Required).then(missing_extension);
        }
        Some(self.start(session, name, arguments, ctx).await)
    }

    /// A task-capable tool of an inactive group, called on first use: its group is
    /// activated where the session lives (as the call's first use would), then the call runs
    /// as a task, or is refused with `-32021` when it requires one. `None`: an ordinary first
    /// use.
    pub(super) async fn first_use_task(
        &self,
        place: &super::Place<R>,
        mode: crate::Mode,
        resolved: &Resolved,
        name: &str,
        arguments: &Value,
        ctx: &RequestContext<RoleServer>,
    ) -> Option<Result<CallToolResponse, ErrorData>> {
        use super::Place;
        let support = resolved.task_support();
        if support == TaskSupport::Forbidden || !self.served(resolved).activates() {
            return None;
        }
        if !declares_tasks(ctx) {
            return (support == TaskSupport::Required).then(missing_extension);
        }
        let group = resolved.group()?.name;
        let activated = |session: &Session<R>| {
            let names = session.active_names().chain([group]);
            Session::<R>::restore(names).unwrap_or(*session)
        };
        let session = match place {
            Place::Fixed(_) => return None,
            Place::NoKey => activated(&Session::new()),
            Place::Local => {
                let _gate = self.connection.reset_gate.lock().await;
                let before = self.local_session();
                let session = activated(&before);
                self.set_local_session(&before, session);
                // Under rules: a use, and the cap applies (infallible for the connection).
                let _ = self
                    .lifecycle_task(place, &self.kit(ctx), &before, &session, name)
                    .await;
                session
            }
            Place::Keyed(_) if self.keyed_rules() => {
                let (before, session) = match self.load(place).await {
                    Ok(s) => (s, activated(&s)),
                    Err(e) => {
                        return Some(Ok(Self::error_result(format!(
                            "`{name}` was not run: the active groups could not be loaded: {e}"
                        ))));
                    }
                };
                let kit = self.kit(ctx);
                if let Err(e) = self
                    .lifecycle_task(place, &kit, &before, &session, name)
                    .await
                {
                    return Some(Ok(Self::error_result(format!(
                        "`{name}` was not run: the active groups could not be saved: {e}. Nothing was changed."
                    ))));
                }
                session
            }
            Place::Keyed(key) => {
                let session = match self.load(place).await {
                    Ok(s) => activated(&s),
                    Err(e) => {
                        return Some(Ok(Self::error_result(format!(
                            "`{name}` was not run: the active groups could not be loaded: {e}"
                        ))));
                    }
                };
                let names = session.active_names().map(str::to_owned).collect();
                if let Err(e) = self.shared.store.save(key, names).await {
                    return Some(Ok(Self::error_result(format!(
                        "`{name}` was not run: the active groups could not be saved: {e}. Nothing was changed."
                    ))));
                }
                session
            }
        };
        if mode == crate::Mode::List && !matches!(place, Place::NoKey) {
            // Best effort: a client that went away does not need the notification.
            let _ = ctx.peer.notify_tool_list_changed().await;
        }
        Some(self.start(session, name, arguments, ctx).await)
    }

    async fn start(
        &self,
        session: Session<R>,
        name: &str,
        arguments: &Value,
        ctx: &RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let tasks = self.tasks().clone();
        let kit = match self.kit(ctx) {
            super::entitled::Kit::Shared(_) => OwnedKit::Shared(self.shared.toolkit.clone()),
            super::entitled::Kit::Entitled(toolkit) => OwnedKit::Entitled(toolkit),
        };
        #[cfg_attr(not(feature = "http"), allow(unused_mut))]
        let mut cx = CallContext::new();
        #[cfg(feature = "http")]
        if let Some(parts) = ctx.extensions.get::<http::request::Parts>() {
            cx.extensions_mut().extend(parts.extensions.clone());
            cx.extensions_mut().insert(parts.clone());
        }
        // Approval before the task (SEP-2663 prefers input requests resolved before a task
        // is handed out): the policy is asked now, through the request's input requests.
        let mut preflight = cx.clone().with_call_id(ctx.id.to_string());
        preflight
            .extensions_mut()
            .insert(crate::input::user_input(ctx));
        let admitted = kit.admit(&session, name, arguments, &preflight);
        match crate::input::until_unanswered(ctx, admitted).await {
            Ok(Ok(())) => {}
            Ok(Err(refusal)) => return self.to_mcp(name, refusal),
            Err(input) => return Ok(input),
        }
        // The answers the client brought, so the call's policy is not asked twice.
        let answered = ctx
            .extensions
            .get::<crate::input::RoundTrip>()
            .map(crate::input::RoundTrip::answers)
            .unwrap_or_default();
        let (record, token) = tasks.create(&self.task_owner(ctx)).await.map_err(|e| {
            ErrorData::internal_error(format!("the task could not be kept: {e}"), None)
        })?;
        let seed = CreateTaskResult::new(record.task.task.clone());
        let id = record.id().to_owned();
        let record = Arc::new(tokio::sync::Mutex::new(record));
        let mut cx = cx.with_call_id(id.clone()).with_cancellation(token.clone());
        cx.extensions_mut().insert(UserInput::new(TaskAsker {
            tasks: tasks.clone(),
            record: record.clone(),
            asked: AtomicUsize::new(0),
            answered,
        }));
        let handler = self.clone();
        let name = name.to_owned();
        let arguments = arguments.clone();
        tokio::spawn(async move {
            let (sender, mut receiver) = tokio::sync::mpsc::unbounded_channel();
            let cx = cx.on_progress(move |event| {
                if let Progress::Step {
                    done,
                    total,
                    message,
                } = event.progress
                {
                    let _ = sender.send(status(*done, *total, message.as_deref()));
                }
            });
            let call = async {
                let mut session = session;
                let result = kit.call_with(&mut session, &name, &arguments, &cx).await;
                drop(cx);
                result
            };
            let updates = async {
                while let Some(message) = receiver.recv().await {
                    let mut record = record.lock().await;
                    if matches!(record.task.payload, TaskPayload::Working) {
                        tasks
                            .set(&mut record, TaskPayload::Working, Some(message))
                            .await;
                    }
                }
            };
            // A cancel may reach another replica: this one reads it from the store.
            let watch = async {
                loop {
                    tokio::time::sleep(tasks.poll).await;
                    if tasks.cancel_requested(&id).await {
                        token.cancel();
                    }
                }
            };
            let ran = async { tokio::join!(call, updates).0 };
            let payload = tokio::select! {
                result = ran => {
                    if result.outcome() == CallOutcome::Cancelled {
                        TaskPayload::Cancelled
                    } else {
                        let completed = match handler.to_mcp(&name, result) {
                            Ok(CallToolResponse::Complete(done)) => serde_json::to_value(done).ok(),
                            _ => None,
                        };
                        match completed {
                            Some(Value::Object(result)) => TaskPayload::Completed { result },
                            _ => TaskPayload::Failed {
                                error: error_object(&ErrorData::internal_error(
                                    "the tool's result could not be written",
                                    None,
                                )),
                            },
                        }
                    }
                }
                () = watch => unreachable!("the watch never ends"),
                () = tokio::time::sleep(tasks.ttl) => TaskPayload::Failed {
                    error: error_object(&ErrorData::internal_error(
                        "the task expired: its time to live elapsed before it ended",
                        None,
                    )),
                },
            };
            let mut record = record.lock().await;
            tasks.set(&mut record, payload, None).await;
            tasks.finished(&id);
        });
        Ok(CallToolResponse::Task(seed))
    }

    /// `tasks/get`.
    pub(super) async fn get_task_of(
        &self,
        params: GetTaskParams,
        ctx: &RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        let record = self
            .tasks()
            .find(&params.task_id, &self.task_owner(ctx))
            .await?;
        Ok(GetTaskResult::new(record.task))
    }

    /// `tasks/cancel`: an empty acknowledgement; a task that ended stays as it ended.
    pub(super) async fn cancel_task_of(
        &self,
        params: CancelTaskParams,
        ctx: &RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let record = self
            .tasks()
            .find(&params.task_id, &self.task_owner(ctx))
            .await?;
        if record.task.status().is_terminal() {
            return Ok(());
        }
        self.tasks().stop_here(record.id());
        self.tasks()
            .store
            .cancel(record.id())
            .await
            .map_err(|e| ErrorData::internal_error(format!("the task store failed: {e}"), None))
    }

    /// `tasks/update`: the user's answers, for the questions the task is waiting on (others
    /// are ignored, as the SEP says).
    pub(super) async fn update_task_of(
        &self,
        params: UpdateTaskParams,
        ctx: &RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let record = self
            .tasks()
            .find(&params.task_id, &self.task_owner(ctx))
            .await?;
        let TaskPayload::InputRequired { input_requests } = &record.task.payload else {
            return Ok(());
        };
        let outstanding: Map<String, Value> = params
            .input_responses
            .into_iter()
            .filter(|(key, _)| input_requests.contains_key(key))
            .collect();
        if outstanding.is_empty() {
            return Ok(());
        }
        self.tasks()
            .store
            .answer(record.id(), &outstanding)
            .await
            .map_err(|e| ErrorData::internal_error(format!("the task store failed: {e}"), None))
    }
}
