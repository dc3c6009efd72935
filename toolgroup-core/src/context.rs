//! What a call carries besides its name and arguments: who it is for (per-call data), who
//! listens to its progress and its log messages, and how to cancel it.
//!
//! # Per-call data: a type map, like axum's `Extension`
//!
//! The application attaches request-scoped values to a call ([`CallContext::with_extension`]):
//! the end user, the tenant, a database handle, the HTTP request's parts when serving over MCP.
//! A tool receives one by taking an [`Extension<T>`] parameter (or reads any of them from its
//! [`ToolContext`]); such a parameter is injected, never part of the tool's schema. A call that
//! lacks the value ends as an error result naming the missing type - the tool does not run.
//!
//! Why a type map ([`http::Extensions`]) and not a typed context on the toolkit: the values
//! are per *call*, and different parts of one application add different ones (an auth layer
//! adds the principal, the MCP server adds the HTTP request's parts, the application adds its
//! database handle). A type parameter on the toolkit would force one struct on all of them,
//! and every tool of every group to name it. State that lives as long as the toolkit belongs
//! in the group itself (fields of a `#[tool_group]` impl's `self`): that is the counterpart
//! of axum's `State`, checked at compile time. The cost of the type map is that "this call
//! has no `UserId`" can only be found at run time; it is reported as an error result.
//!
//! # Log messages
//!
//! A tool logs through its context ([`ToolContext::log`], or the handle
//! [`ToolContext::logger`]) at one of MCP's eight levels ([`LogLevel`], syslog's). Where the
//! message goes is the caller's choice, not the tool's: a caller that observes the call's
//! log ([`CallContext::on_log`]) receives every message (the MCP server turns them into
//! `notifications/message` at or above the level the client asked for); without an observer,
//! each message is a `tracing` event naming the tool, so a tool's log is never lost and never
//! needs a second code path for tests or for other providers.

use std::any::type_name;
use std::fmt;
use std::future::Future;
use std::sync::Arc;

pub use http::Extensions;
pub use tokio_util::sync::CancellationToken;

use crate::result::{CallResult, Content};

mod ask;
mod log;

pub use ask::{Answer, AskError, Asker, Question, UserInput};
use log::trace;
pub use log::{LogEvent, LogFn, LogLevel, Logger, UnknownLogLevel};

/// Observes progress reports and partial output while a call runs.
pub type ProgressFn = dyn Fn(&ProgressEvent<'_>) + Send + Sync;

/// The caller's side of one call: its id, per-call data, a progress observer and a
/// cancellation token. Pass it to [`Toolkit::call_with`](crate::Toolkit::call_with) or
/// [`Toolkit::call_batch_with`](crate::Toolkit::call_batch_with).
///
/// ```
/// use toolgroup::CallContext;
/// use toolgroup::context::CancellationToken;
///
/// #[derive(Clone)]
/// struct UserId(u64);
///
/// let token = CancellationToken::new();
/// let cx = CallContext::new()
///     .with_call_id("call_1")
///     .with_extension(UserId(7))
///     .on_progress(|event| println!("{}: {:?}", event.tool, event.progress))
///     .on_log(|event| println!("{} [{}] {}", event.tool, event.level, event.message))
///     .with_cancellation(token.clone());
/// assert_eq!(cx.extensions().get::<UserId>().map(|u| u.0), Some(7));
/// ```
#[derive(Clone, Default)]
#[non_exhaustive]
pub struct CallContext {
    id: Option<String>,
    extensions: Extensions,
    observers: Observers,
    cancel: Option<CancellationToken>,
    /// This call's choice of first-use activation (`None`: the toolkit's).
    first_use: Option<bool>,
}

impl CallContext {
    /// An empty context: no id, no data, no observer, not cancellable.
    pub fn new() -> Self {
        Self::default()
    }

    /// The provider's id for the call (passed to the tool, the policy and the layers).
    #[must_use]
    pub fn with_call_id(mut self, id: impl Into<String>) -> Self {
        self.id = Some(id.into());
        self
    }

    /// Add one value of per-call data (replacing a previous value of the same type).
    #[must_use]
    pub fn with_extension<T: Clone + Send + Sync + 'static>(mut self, value: T) -> Self {
        self.extensions.insert(value);
        self
    }

    /// Replace the per-call data with `extensions` (the observers and the token stay: they
    /// are not per-call data).
    #[must_use]
    pub fn with_extensions(mut self, extensions: Extensions) -> Self {
        self.extensions = extensions;
        self
    }

    /// Observe progress reports and partial output of the running tool. The observer runs on
    /// the tool's task, inside the call: keep it short (send to a channel for real work). A
    /// panic in it is contained like a panic in the tool.
    #[must_use]
    pub fn on_progress(
        mut self,
        observer: impl Fn(&ProgressEvent<'_>) + Send + Sync + 'static,
    ) -> Self {
        self.observers.progress = Some(Arc::new(observer));
        self
    }

    /// Observe the tool's log messages ([`ToolContext::log`]): each one reaches `observer`
    /// instead of becoming a `tracing` event. Like the progress observer, it runs on the
    /// tool's task, inside the call: keep it short; a panic in it is contained like a panic in
    /// the tool. Call [`LogEvent::trace`] from it for the messages it does not forward.
    #[must_use]
    pub fn on_log(mut self, observer: impl Fn(&LogEvent<'_>) + Send + Sync + 'static) -> Self {
        self.observers.log = Some(Arc::new(observer));
        self
    }

    /// Cancel the call when `token` is cancelled: the call ends as an error result, the tool's
    /// future is dropped, and tools that check [`ToolContext::is_cancelled`] in blocking or
    /// long-running work can stop early.
    #[must_use]
    pub fn with_cancellation(mut self, token: CancellationToken) -> Self {
        self.cancel = Some(token);
        self
    }

    /// Whether a call of a tool of an inactive group activates the group and runs, for
    /// this call, whatever the toolkit's
    /// [`with_first_use_activation`](crate::Toolkit::with_first_use_activation) says. An
    /// MCP server chooses per client this way.
    #[must_use]
    pub fn with_first_use_activation(mut self, on: bool) -> Self {
        self.first_use = Some(on);
        self
    }

    /// This call's choice of first-use activation, if it makes one.
    pub(crate) fn first_use(&self) -> Option<bool> {
        self.first_use
    }

    /// The call's id.
    pub fn call_id(&self) -> Option<&str> {
        self.id.as_deref()
    }

    /// The per-call data.
    pub fn extensions(&self) -> &Extensions {
        &self.extensions
    }

    /// The per-call data, to add or remove values.
    pub fn extensions_mut(&mut self) -> &mut Extensions {
        &mut self.extensions
    }

    /// The cancellation token, if the call is cancellable.
    pub fn cancellation(&self) -> Option<&CancellationToken> {
        self.cancel.as_ref()
    }

    pub(crate) fn observers(&self) -> Option<&Observers> {
        self.observers.any().then_some(&self.observers)
    }

    /// Whether anything here needs the slow path (the id alone does not).
    pub(crate) fn is_plain(&self) -> bool {
        !self.observers.any() && self.cancel.is_none()
    }
}

impl fmt::Debug for CallContext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CallContext")
            .field("id", &self.id)
            .field("extensions", &self.extensions)
            .field(
                "progress",
                &self.observers.progress.as_ref().map(|_| "observer"),
            )
            .field("log", &self.observers.log.as_ref().map(|_| "observer"))
            .field("cancel", &self.cancel)
            .finish()
    }
}

/// What a running tool reports.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Progress {
    /// Work done so far: `done` out of `total` (when known), with an optional message.
    /// Forwarded by MCP servers as `notifications/progress`.
    Step {
        /// Work done so far (increases with each report).
        done: f64,
        /// The total, when known.
        total: Option<f64>,
        /// A short human-readable message.
        message: Option<String>,
    },
    /// A piece of partial output, before the final result (which is unchanged by it).
    Partial(Content),
}

/// One progress report, as an observer sees it.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct ProgressEvent<'a> {
    /// The tool reporting.
    pub tool: &'static str,
    /// The call's id, if the caller gave one.
    pub call_id: Option<&'a str>,
    /// What it reports.
    pub progress: &'a Progress,
}

/// Per-call facts and services a tool can ask for.
///
/// A `#[tool]` parameter whose type is `ToolContext` (by value or by reference) is filled in
/// by the runtime and does not appear in the tool's schema.
///
/// ```
/// use toolgroup::prelude::*;
///
/// #[derive(Clone)]
/// struct Tenant(String);
///
/// /// Count to `n`, reporting progress, stopping early when cancelled.
/// #[tool]
/// async fn count(
///     /// Where to stop.
///     n: u32,
///     ctx: ToolContext<'_>,
/// ) -> String {
///     let tenant = ctx.extension::<Tenant>().map_or("nobody", |t| t.0.as_str());
///     ctx.logger().info(format_args!("counting to {n} for {tenant}"));
///     for i in 0..n {
///         if ctx.is_cancelled() {
///             return format!("stopped at {i} for {tenant}");
///         }
///         ctx.report(f64::from(i + 1), Some(f64::from(n)), None);
///     }
///     format!("counted to {n} for {tenant}")
/// }
/// ```
#[derive(Clone, Copy)]
pub struct ToolContext<'a> {
    tool: &'static str,
    group: &'static str,
    call_id: Option<&'a str>,
    extensions: Option<&'a Extensions>,
    observers: Option<&'a Observers>,
    cancel: Option<&'a CancellationToken>,
}

/// The caller's observers of a running tool (progress, log), kept beside the per-call data,
/// never in it: a layer that rewrites the data cannot drop them. A tool's context holds one
/// thin pointer to them.
#[derive(Clone, Default)]
pub(crate) struct Observers {
    pub(crate) progress: Option<Arc<ProgressFn>>,
    pub(crate) log: Option<Arc<LogFn>>,
}

impl Observers {
    fn any(&self) -> bool {
        self.progress.is_some() || self.log.is_some()
    }
}

impl<'a> ToolContext<'a> {
    pub(crate) fn new(
        tool: &'static str,
        group: &'static str,
        call_id: Option<&'a str>,
        extensions: Option<&'a Extensions>,
        observers: Option<&'a Observers>,
        cancel: Option<&'a CancellationToken>,
    ) -> Self {
        ToolContext {
            tool,
            group,
            call_id,
            extensions,
            observers,
            cancel,
        }
    }

    /// The tool being called.
    pub fn tool(&self) -> &'static str {
        self.tool
    }

    /// The group the tool belongs to (empty for a detached context).
    pub fn group(&self) -> &'static str {
        self.group
    }

    /// The provider's id for this call, when the caller gave one.
    pub fn call_id(&self) -> Option<&'a str> {
        self.call_id
    }

    /// A value of per-call data, if the caller provided one of type `T`.
    pub fn extension<T: Send + Sync + 'static>(&self) -> Option<&'a T> {
        self.extensions?.get::<T>()
    }

    /// All per-call data, if the caller provided any.
    pub fn extensions(&self) -> Option<&'a Extensions> {
        self.extensions
    }

    /// Report progress: `done` of `total` (when known), with an optional message. Does
    /// nothing when nobody observes the call.
    pub fn report(&self, done: f64, total: Option<f64>, message: Option<&str>) {
        if let Some(observer) = self.progress() {
            let progress = Progress::Step {
                done,
                total,
                message: message.map(str::to_owned),
            };
            observer(&self.event(&progress));
        }
    }

    /// Stream a piece of partial output to the observer (the final result is unchanged).
    pub fn partial(&self, content: Content) {
        if let Some(observer) = self.progress() {
            observer(&self.event(&Progress::Partial(content)));
        }
    }

    /// Whether anyone observes progress (to skip building reports nobody reads).
    pub fn is_observed(&self) -> bool {
        self.progress().is_some()
    }

    /// Log `message` at `level`: to the caller's log observer ([`CallContext::on_log`]; over
    /// MCP, a `notifications/message` when the client asked for that level), else as a
    /// `tracing` event naming the tool (see [`LogEvent::trace`]). Never fails: a message
    /// nobody wants is dropped.
    ///
    /// ```
    /// use toolgroup::context::LogLevel;
    /// use toolgroup::prelude::*;
    ///
    /// /// Fetch a page.
    /// #[tool]
    /// async fn fetch(
    ///     /// The page.
    ///     url: String,
    ///     ctx: ToolContext<'_>,
    /// ) -> String {
    ///     ctx.log(LogLevel::Debug, format_args!("fetching {url}"));
    ///     if !url.starts_with("https://") {
    ///         ctx.logger().warning("not over HTTPS");
    ///     }
    ///     format!("fetched {url}")
    /// }
    /// ```
    pub fn log(&self, level: LogLevel, message: impl fmt::Display) {
        match self.observers.and_then(|o| o.log.as_deref()) {
            Some(observer) => {
                let message = message.to_string();
                observer(&LogEvent {
                    tool: self.tool,
                    group: self.group,
                    call_id: self.call_id,
                    level,
                    message: &message,
                });
            }
            None => trace(self.tool, self.group, self.call_id, level, &message),
        }
    }

    /// A logging handle with one method per level (`ctx.logger().info(..)`), to keep or to
    /// pass to helpers that do not need the whole context.
    pub fn logger(&self) -> Logger<'a> {
        Logger { ctx: *self }
    }

    /// Whether the caller observes the log; without an observer, messages become `tracing`
    /// events (which the subscriber may still filter out).
    pub fn is_log_observed(&self) -> bool {
        self.observers.is_some_and(|o| o.log.is_some())
    }

    fn progress(&self) -> Option<&'a ProgressFn> {
        self.observers.and_then(|o| o.progress.as_deref())
    }

    fn event<'p>(&self, progress: &'p Progress) -> ProgressEvent<'p>
    where
        'a: 'p,
    {
        ProgressEvent {
            tool: self.tool,
            call_id: self.call_id,
            progress,
        }
    }

    /// Whether the caller cancelled the call. Check it in blocking or long-running work; an
    /// async tool is also stopped at its next `.await` (its future is dropped).
    pub fn is_cancelled(&self) -> bool {
        self.cancel.is_some_and(CancellationToken::is_cancelled)
    }

    /// The call's cancellation token, if the caller made the call cancellable (clone it into
    /// spawned or blocking work).
    pub fn cancellation_token(&self) -> Option<&'a CancellationToken> {
        self.cancel
    }

    /// Ask the user behind the client `question`, and wait for the answer.
    ///
    /// The call's caller decides how the user is reached ([`UserInput`]): served over MCP, a
    /// form the client shows (an `elicitation/create` request, an input request of a
    /// multi-round-trip call on MCP 2026-07-28, or a task's `input_required` status). On
    /// 2026-07-28 without a task, the first unanswered question stops the tool, and the tool
    /// runs again from the start once the client brings the answer: ask before changing
    /// anything.
    ///
    /// ```
    /// use toolgroup::context::{Answer, Question};
    /// use toolgroup::prelude::*;
    ///
    /// /// Delete a branch, once the user agrees.
    /// #[tool]
    /// async fn delete_branch(ctx: ToolContext<'_>, name: String) -> Result<String, String> {
    ///     let question = Question::confirm(format!("Delete `{name}`?"), "delete", "Delete");
    ///     match ctx.ask(question).await {
    ///         Ok(answer) if answer.is_yes("delete") => Ok(format!("deleted {name}")),
    ///         Ok(_) => Ok("the user kept the branch".to_owned()),
    ///         Err(e) => Err(e.to_string()),
    ///     }
    /// }
    /// ```
    pub async fn ask(&self, question: Question) -> Result<Answer, AskError> {
        match self.extension::<UserInput>() {
            Some(input) => input.ask(&question).await,
            None => Err(AskError::NoUser(ask::NO_USER.to_owned())),
        }
    }

    /// Completes when the call is cancelled; never, if it cannot be.
    pub fn cancelled(&self) -> impl Future<Output = ()> + Send + 'a {
        let token = self.cancel;
        async move {
            match token {
                Some(token) => token.cancelled().await,
                None => std::future::pending().await,
            }
        }
    }
}

impl fmt::Debug for ToolContext<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolContext")
            .field("tool", &self.tool)
            .field("group", &self.group)
            .field("call_id", &self.call_id)
            .field("extensions", &self.extensions)
            .field("observed", &self.progress().is_some())
            .field("log_observed", &self.is_log_observed())
            .field("cancellable", &self.cancel.is_some())
            .finish()
    }
}

/// A tool parameter filled from the call's per-call data (like axum's `Extension`): the
/// value of type `T` the caller attached with [`CallContext::with_extension`] (or a layer
/// inserted). Not part of the tool's schema. When the call has no `T`, the tool does not run
/// and the result is an error naming `T`.
///
/// ```
/// use toolgroup::prelude::*;
///
/// #[derive(Clone)]
/// struct UserId(u64);
///
/// /// Show the caller's orders.
/// #[tool]
/// fn my_orders(Extension(user): Extension<UserId>) -> String {
///     format!("orders of user {}", user.0)
/// }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Extension<T>(pub T);

/// The error result of a tool whose `Extension<T>` the caller did not provide.
pub(crate) fn missing_extension<T>(tool: &str) -> CallResult {
    CallResult::error(format!(
        "`{tool}` was not run: it needs per-call data of type `{}`, and this call does not carry one (the application must attach it to the call)",
        type_name::<T>()
    ))
}
