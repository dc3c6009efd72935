//! The client side (feature `client`): the tools of a remote MCP server, listed, kept up to
//! date and called, with every failure as an error result a model can act on.
//!
//! ```no_run
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! use std::time::Duration;
//! use toolgroup_mcp::client::{RemoteServer, RemoteTools};
//!
//! let server = RemoteServer::stdio("uvx", ["mcp-server-git"])
//!     .with_call_timeout(Duration::from_secs(30));
//! let remote = RemoteTools::connect(server).await?;
//! for tool in remote.tools().iter() {
//!     println!("{}: {}", tool.name, tool.description.as_deref().unwrap_or(""));
//! }
//! let result = remote
//!     .call("git_status", &serde_json::json!({"repo_path": "."}))
//!     .await;
//! println!("{}", result.text_joined());
//! # Ok(()) }
//! ```
//!
//! # What it does
//!
//! - **Listing**: [`RemoteTools::connect`] lists every page of `tools/list`;
//!   [`tools`](RemoteTools::tools) is the current list. On
//!   `notifications/tools/list_changed` the client lists every page again; when the list
//!   differs, [`version`](RemoteTools::version) increases and [`watch`](RemoteTools::watch)
//!   receivers wake up.
//! - **Calls** ([`RemoteTools::call`], [`call_with`](RemoteTools::call_with)) never fail
//!   with a Rust error and never panic: a remote `isError` result is an error result with the
//!   server's content; a protocol error, a timeout, a server that crashed or cannot be
//!   reached, a tool that is not listed, and arguments that do not fit the tool's input
//!   schema are each an error result saying what happened and whether to retry.
//! - **Arguments** are checked before sending: a JSON object, with the schema's `required`
//!   properties, the `type` of listed properties and array items, `enum` values, and no
//!   unknown property when `additionalProperties` is `false`, in nested objects too. Other
//!   keywords (`$ref`, `anyOf`, formats, ranges) are left to the server. Problems name the
//!   argument's path, never its value.
//! - **Content**: text, image, audio, embedded resources and resource links become
//!   [`Content`](toolgroup_core::Content) blocks (through MCP's JSON, which both sides
//!   share); structured content is kept.
//! - **Cancellation and progress**: a [`CancellationToken`] in [`CallOptions`] cancels the
//!   remote request (`notifications/cancelled`), as does a timeout or dropping the call's
//!   future; the server's `notifications/progress` for the call go to a callback.
//! - **Reconnecting**: when the connection is lost (the child process exited, HTTP requests
//!   fail), the failing call answers an error result and the next call reconnects: at once
//!   the first time, then with exponential backoff between failed attempts
//!   ([`RemoteServer::with_backoff`]); calls made while waiting answer an error result that
//!   says when the next attempt is. A new connection lists the tools again (and bumps the
//!   version if they changed). [`RemoteTools::reconnect`] reconnects now.
//! - **Names**: [`expose_names`] validates remote names against the provider-safe pattern
//!   and applies a prefix, reporting every problem.
//!
//! The client uses the `initialize` handshake (protocol revisions up to 2025-11-25), which
//! every current server accepts and over which servers send `list_changed` on their own.
//! It offers no sampling, roots or elicitation: a tool that asks the user for input
//! (`input_required`) or starts a task answers an error result.
//!
//! # HTTPS
//!
//! The HTTP transport is rmcp's reqwest client, built without TLS so that this feature adds
//! no TLS stack: plain `http://` URLs work as they are. For `https://`, enable reqwest's TLS in
//! your own `Cargo.toml` (Cargo unifies features): `reqwest = { version = "0.13",
//! default-features = false, features = ["rustls"] }`.

mod convert;
mod handler;
mod names;
mod remote;
mod validate;

use std::collections::HashMap;
use std::ffi::OsString;
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use rmcp::model::{
    CallToolRequest, CallToolRequestParams, CancelledNotificationParam, ClientRequest,
    ProgressToken, RequestId, ServerResult,
};
use rmcp::service::{PeerRequestOptions, RunningService, ServiceError};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use rmcp::{Peer, RoleClient, ServiceExt as _};
use serde_json::{Map, Value};
use tokio::sync::watch;
use tokio::time::Instant;
pub use tokio_util::sync::CancellationToken;
use toolgroup_core::{CallResult, args::Arguments, meta::ToolAnnotations};

use handler::Handler;
pub use names::{
    ExposedName, ExposedNames, MAX_TOOL_NAME_LEN, NameProblem, expose_names, is_valid_tool_name,
};
pub use remote::Remote;

/// What becomes of a stdio server's standard error.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Stderr {
    /// The child writes to this process's standard error (the default: a server's logs and
    /// crash messages stay visible).
    #[default]
    Inherit,
    /// Discarded.
    Discard,
}

#[derive(Clone)]
enum Endpoint {
    Stdio {
        program: OsString,
        args: Vec<OsString>,
        env: Vec<(OsString, OsString)>,
        dir: Option<PathBuf>,
        stderr: Stderr,
    },
    Http {
        url: String,
        bearer: Option<String>,
        headers: HashMap<http::HeaderName, http::HeaderValue>,
    },
}

/// How to reach a remote MCP server, and the client's timeouts and backoff.
///
/// ```
/// use std::time::Duration;
/// use toolgroup_mcp::client::RemoteServer;
///
/// let files = RemoteServer::stdio("npx", ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"])
///     .with_env("NODE_ENV", "production");
/// let search = RemoteServer::http("http://127.0.0.1:8000/mcp")
///     .with_bearer_token("secret")
///     .with_call_timeout(Duration::from_secs(20))
///     .with_backoff(Duration::from_millis(500), Duration::from_secs(60));
/// assert_eq!(search.label(), "http://127.0.0.1:8000/mcp");
/// ```
#[derive(Clone)]
pub struct RemoteServer {
    endpoint: Endpoint,
    label: String,
    call_timeout: Duration,
    connect_timeout: Duration,
    backoff_initial: Duration,
    backoff_max: Duration,
}

impl fmt::Debug for RemoteServer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // No token nor header values: they are often credentials.
        f.debug_struct("RemoteServer")
            .field("label", &self.label)
            .field("call_timeout", &self.call_timeout)
            .field("connect_timeout", &self.connect_timeout)
            .field("backoff_initial", &self.backoff_initial)
            .field("backoff_max", &self.backoff_max)
            .finish_non_exhaustive()
    }
}

impl RemoteServer {
    /// The default time a call may take: 60 seconds.
    pub const DEFAULT_CALL_TIMEOUT: Duration = Duration::from_secs(60);
    /// The default time to connect (spawn or reach the server, handshake, list the tools):
    /// 30 seconds.
    pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(30);
    /// The default wait after the first failed reconnection: 1 second (it doubles after each
    /// failure).
    pub const DEFAULT_BACKOFF_INITIAL: Duration = Duration::from_secs(1);
    /// The default longest wait between reconnection attempts: 30 seconds.
    pub const DEFAULT_BACKOFF_MAX: Duration = Duration::from_secs(30);

    fn new(endpoint: Endpoint, label: String) -> Self {
        RemoteServer {
            endpoint,
            label,
            call_timeout: Self::DEFAULT_CALL_TIMEOUT,
            connect_timeout: Self::DEFAULT_CONNECT_TIMEOUT,
            backoff_initial: Self::DEFAULT_BACKOFF_INITIAL,
            backoff_max: Self::DEFAULT_BACKOFF_MAX,
        }
    }

    /// A server run as a child process speaking MCP on its stdin and stdout. Its stderr is
    /// inherited (see [`with_stderr`](Self::with_stderr)); it is killed when the
    /// connection is dropped, and spawned again to reconnect.
    pub fn stdio(
        program: impl Into<OsString>,
        args: impl IntoIterator<Item = impl Into<OsString>>,
    ) -> Self {
        let program = program.into();
        let label = program.to_string_lossy().into_owned();
        RemoteServer::new(
            Endpoint::Stdio {
                program,
                args: args.into_iter().map(Into::into).collect(),
                env: Vec::new(),
                dir: None,
                stderr: Stderr::Inherit,
            },
            label,
        )
    }

    /// A server at a Streamable HTTP endpoint (`http://host:port/mcp`).
    pub fn http(url: impl Into<String>) -> Self {
        let url = url.into();
        RemoteServer::new(
            Endpoint::Http {
                url: url.clone(),
                bearer: None,
                headers: HashMap::new(),
            },
            url,
        )
    }

    /// How the server is named in error messages and logs (default: the program or the URL).
    pub fn with_label(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }

    /// The server's name in error messages and logs.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// How long a call may wait for its answer, once sent, before it is cancelled and
    /// answers an error result (default [`DEFAULT_CALL_TIMEOUT`](Self::DEFAULT_CALL_TIMEOUT));
    /// also bounds a re-list. A reconnection before the call is bounded by the connect
    /// timeout instead.
    pub fn with_call_timeout(mut self, timeout: Duration) -> Self {
        self.call_timeout = timeout;
        self
    }

    /// How long connecting may take: spawning or reaching the server, the handshake and
    /// listing every tool (default [`DEFAULT_CONNECT_TIMEOUT`](Self::DEFAULT_CONNECT_TIMEOUT)).
    pub fn with_connect_timeout(mut self, timeout: Duration) -> Self {
        self.connect_timeout = timeout;
        self
    }

    /// The wait after a failed reconnection (`initial`, doubling after each further failure,
    /// at most `max`). The first reconnection after a lost connection is immediate.
    pub fn with_backoff(mut self, initial: Duration, max: Duration) -> Self {
        self.backoff_initial = initial;
        self.backoff_max = max.max(initial);
        self
    }

    /// An environment variable for the child process (stdio; ignored over HTTP).
    pub fn with_env(mut self, key: impl Into<OsString>, value: impl Into<OsString>) -> Self {
        if let Endpoint::Stdio { env, .. } = &mut self.endpoint {
            env.push((key.into(), value.into()));
        }
        self
    }

    /// The child process's working directory (stdio; ignored over HTTP).
    pub fn with_current_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        if let Endpoint::Stdio { dir: d, .. } = &mut self.endpoint {
            *d = Some(dir.into());
        }
        self
    }

    /// What becomes of the child's standard error (stdio; ignored over HTTP).
    pub fn with_stderr(mut self, stderr: Stderr) -> Self {
        if let Endpoint::Stdio { stderr: s, .. } = &mut self.endpoint {
            *s = stderr;
        }
        self
    }

    /// A bearer token sent as `Authorization: Bearer TOKEN` (HTTP; ignored over stdio).
    pub fn with_bearer_token(mut self, token: impl Into<String>) -> Self {
        if let Endpoint::Http { bearer, .. } = &mut self.endpoint {
            *bearer = Some(token.into());
        }
        self
    }

    /// A header sent with every request (HTTP; ignored over stdio).
    pub fn with_header(mut self, name: http::HeaderName, value: http::HeaderValue) -> Self {
        if let Endpoint::Http { headers, .. } = &mut self.endpoint {
            headers.insert(name, value);
        }
        self
    }

    fn backoff(&self, failures: u32) -> Duration {
        let factor = 2u32.saturating_pow(failures.saturating_sub(1).min(31));
        self.backoff_initial
            .saturating_mul(factor)
            .min(self.backoff_max)
    }
}

/// Why connecting to a remote server failed.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RemoteError {
    /// The child process could not be started.
    Spawn {
        /// The server's label.
        server: String,
        /// The operating system's error.
        detail: String,
    },
    /// The server could not be reached, or the MCP handshake failed.
    Handshake {
        /// The server's label.
        server: String,
        /// What went wrong.
        detail: String,
    },
    /// Listing the tools failed.
    List {
        /// The server's label.
        server: String,
        /// What went wrong.
        detail: String,
    },
    /// Connecting took longer than the connect timeout.
    Timeout {
        /// The server's label.
        server: String,
        /// The timeout.
        after: Duration,
    },
}

impl fmt::Display for RemoteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RemoteError::Spawn { server, detail } => {
                write!(
                    f,
                    "the MCP server `{server}` could not be started: {detail}"
                )
            }
            RemoteError::Handshake { server, detail } => {
                write!(
                    f,
                    "the MCP server `{server}` could not be reached: {detail}"
                )
            }
            RemoteError::List { server, detail } => {
                write!(
                    f,
                    "the MCP server `{server}` did not list its tools: {detail}"
                )
            }
            RemoteError::Timeout { server, after } => write!(
                f,
                "the MCP server `{server}` did not connect and list its tools within {}",
                seconds(*after)
            ),
        }
    }
}

impl std::error::Error for RemoteError {}

/// One tool of the remote server, as listed.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct RemoteTool {
    /// The tool's name on the server (not validated: see [`expose_names`]).
    pub name: String,
    /// A title for people: the tool's `title`, else its annotations' `title`.
    pub title: Option<String>,
    /// What the tool does.
    pub description: Option<String>,
    /// The JSON Schema of its arguments (an object schema).
    pub input_schema: Value,
    /// The JSON Schema of its structured output, if it has one.
    pub output_schema: Option<Value>,
    /// Its hints (`readOnlyHint`...).
    pub annotations: ToolAnnotations,
}

/// The remote tools at one moment: what [`RemoteTools::watch`] receivers see.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ToolList {
    /// Starts at 0 with the list read on connect; increases by one each time the list
    /// changes (after `notifications/tools/list_changed` or a reconnection).
    pub version: u64,
    /// The tools, in the server's order.
    pub tools: Arc<Vec<RemoteTool>>,
}

/// A remote progress report's receiver: `(progress, total, message)`, as MCP's
/// `notifications/progress` carries them (the signature of `ToolContext::report`).
pub type ProgressFn<'a> = &'a (dyn Fn(f64, Option<f64>, Option<&str>) + Send + Sync);

/// Per-call options for [`RemoteTools::call_with`].
#[derive(Clone, Default)]
#[non_exhaustive]
pub struct CallOptions<'a> {
    cancellation: Option<CancellationToken>,
    progress: Option<ProgressFn<'a>>,
    timeout: Option<Duration>,
}

impl fmt::Debug for CallOptions<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CallOptions")
            .field("cancellation", &self.cancellation)
            .field("progress", &self.progress.is_some())
            .field("timeout", &self.timeout)
            .finish()
    }
}

impl<'a> CallOptions<'a> {
    /// No option: the server's call timeout, no cancellation, progress ignored.
    pub fn new() -> Self {
        Self::default()
    }

    /// Cancel the call (and the remote request) when `token` is cancelled.
    pub fn with_cancellation(mut self, token: CancellationToken) -> Self {
        self.cancellation = Some(token);
        self
    }

    /// Receive the server's progress reports for this call, in order, on the calling task,
    /// before the call returns.
    pub fn with_progress(mut self, progress: ProgressFn<'a>) -> Self {
        self.progress = Some(progress);
        self
    }

    /// This call's timeout instead of the server's
    /// [`call timeout`](RemoteServer::with_call_timeout).
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }
}

struct Connection {
    service: RunningService<RoleClient, Handler>,
    generation: u64,
}

impl Connection {
    fn is_open(&self) -> bool {
        !self.service.is_closed() && !self.service.peer().is_transport_closed()
    }
}

struct State {
    conn: Option<Arc<Connection>>,
    /// Failed connection attempts since the last success.
    failures: u32,
    /// No attempt before this instant.
    retry_at: Option<Instant>,
    /// Why the last connection ended or the last attempt failed.
    last_error: String,
}

pub(crate) struct Inner {
    server: RemoteServer,
    state: tokio::sync::Mutex<State>,
    list: watch::Sender<ToolList>,
    relist_gate: tokio::sync::Mutex<()>,
    generation: AtomicU64,
}

/// A live connection to a remote MCP server: its tools, kept up to date, and calls to them.
/// Cheap to clone (clones share the connection); the connection closes when the last clone
/// is dropped, and a stdio child is then killed by a task on the Tokio runtime (so drop the
/// last clone inside the runtime, as rmcp requires of its child-process transport).
#[derive(Clone)]
pub struct RemoteTools {
    inner: Arc<Inner>,
}

impl fmt::Debug for RemoteTools {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = self.inner.list.borrow();
        f.debug_struct("RemoteTools")
            .field("server", &self.inner.server.label)
            .field("version", &list.version)
            .field("tools", &list.tools.len())
            .finish_non_exhaustive()
    }
}

impl RemoteTools {
    /// Connect to `server` and list every page of its tools.
    ///
    /// # Errors
    ///
    /// The child process could not be started, the server could not be reached or did not
    /// complete the handshake, listing failed, or all this took longer than the connect
    /// timeout.
    pub async fn connect(server: RemoteServer) -> Result<Self, RemoteError> {
        let inner = Arc::new(Inner {
            server,
            state: tokio::sync::Mutex::new(State {
                conn: None,
                failures: 0,
                retry_at: None,
                last_error: String::new(),
            }),
            list: watch::Sender::new(ToolList {
                version: 0,
                tools: Arc::new(Vec::new()),
            }),
            relist_gate: tokio::sync::Mutex::new(()),
            generation: AtomicU64::new(0),
        });
        let mut state = inner.state.lock().await;
        let (conn, tools) = inner.open().await?;
        state.conn = Some(conn);
        inner.list.send_modify(|list| list.tools = Arc::new(tools));
        drop(state);
        Ok(RemoteTools { inner })
    }

    /// The server's settings.
    pub fn server(&self) -> &RemoteServer {
        &self.inner.server
    }

    /// The current tools, in the server's order.
    pub fn tools(&self) -> Arc<Vec<RemoteTool>> {
        self.inner.list.borrow().tools.clone()
    }

    /// The version of the current list (see [`ToolList::version`]).
    pub fn version(&self) -> u64 {
        self.inner.list.borrow().version
    }

    /// A receiver that sees every new list (`changed().await` wakes on the next one).
    pub fn watch(&self) -> watch::Receiver<ToolList> {
        self.inner.list.subscribe()
    }

    /// Whether the connection is up (as far as the client knows: a dead HTTP server is
    /// noticed at the next request).
    pub async fn is_connected(&self) -> bool {
        let state = self.inner.state.lock().await;
        state.conn.as_ref().is_some_and(|c| c.is_open())
    }

    /// Drop the current connection and connect again now (ignoring the backoff), listing
    /// the tools again.
    ///
    /// # Errors
    ///
    /// As for [`connect`](Self::connect); the next call then waits for the backoff.
    pub async fn reconnect(&self) -> Result<(), RemoteError> {
        let mut state = self.inner.state.lock().await;
        state.conn = None;
        match self.inner.open().await {
            Ok((conn, tools)) => {
                self.inner.connected(&mut state, conn);
                self.inner.publish(tools);
                Ok(())
            }
            Err(e) => {
                self.inner.attempt_failed(&mut state, &e);
                Err(e)
            }
        }
    }

    /// Call the remote tool `name` (its name on the server) with `arguments` (a JSON object,
    /// as text or a value). See [`call_with`](Self::call_with).
    pub async fn call<'a>(&self, name: &str, arguments: impl Into<Arguments<'a>>) -> CallResult {
        self.call_with(name, arguments, CallOptions::new()).await
    }

    /// Call the remote tool `name` with `arguments` and per-call options (cancellation,
    /// progress, timeout).
    ///
    /// Never panics nor fails: every problem is an error result (see the
    /// [module docs](self)). A tool not in [`tools`](Self::tools), or arguments that do not
    /// fit its input schema, are refused without contacting the server.
    pub async fn call_with<'a>(
        &self,
        name: &str,
        arguments: impl Into<Arguments<'a>>,
        options: CallOptions<'_>,
    ) -> CallResult {
        let list = self.inner.list.borrow().clone();
        let Some(tool) = list.tools.iter().find(|t| t.name == name) else {
            return unknown_tool(name, &list.tools);
        };
        let arguments = match arguments.into().parse::<Map<String, Value>>() {
            Ok(a) => a,
            Err(e) => return CallResult::error(format!("`{name}` was not run: {e}")),
        };
        if let Err(e) = validate::check(&tool.input_schema, &arguments) {
            return CallResult::error(format!("`{name}` was not run: {e}"));
        }
        let cancel = options.cancellation.clone().unwrap_or_default();
        let conn = tokio::select! {
            conn = self.inner.connection() => conn,
            () = cancel.cancelled() => return cancelled(name),
        };
        let conn = match conn {
            Ok(conn) => conn,
            Err(why) => return CallResult::error(format!("`{name}` was not run: {why}")),
        };
        let timeout = options.timeout.unwrap_or(self.inner.server.call_timeout);
        self.inner
            .send(&conn, name, arguments, timeout, &cancel, options.progress)
            .await
    }
}

/// A sent request: unless [`finish`](Self::finish)ed, dropping it sends
/// `notifications/cancelled` (on its own task, so that the caller returns at once: after a
/// cancellation, a timeout, or when the call's future itself is dropped); either way it stops
/// routing the request's progress.
struct InFlight {
    conn: Arc<Connection>,
    id: Option<RequestId>,
    token: Option<ProgressToken>,
    reason: &'static str,
}

impl InFlight {
    /// The request is answered: nothing to cancel.
    fn finish(&mut self) {
        self.id = None;
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        if let Some(token) = self.token.take() {
            self.conn.service.service().unsubscribe(&token);
        }
        if let Some(id) = self.id.take()
            && let Ok(runtime) = tokio::runtime::Handle::try_current()
        {
            let peer = self.conn.service.peer().clone();
            let reason = self.reason.to_owned();
            // Best effort: a server that went away needs no cancellation.
            runtime.spawn(async move {
                let _ = peer
                    .notify_cancelled(CancelledNotificationParam::new(Some(id), Some(reason)))
                    .await;
            });
        }
    }
}

enum Outcome {
    Response(Box<Result<ServerResult, ServiceError>>),
    Cancelled,
    TimedOut,
}

impl Inner {
    /// Spawn or reach the server, handshake and list every tool, within the connect timeout.
    async fn open(self: &Arc<Self>) -> Result<(Arc<Connection>, Vec<RemoteTool>), RemoteError> {
        let server = &self.server;
        let generation = self.generation.fetch_add(1, Ordering::Relaxed) + 1;
        let handler = Handler::new(Arc::downgrade(self));
        let label = || server.label.clone();
        let handshake = |e: &dyn fmt::Display| RemoteError::Handshake {
            server: label(),
            detail: e.to_string(),
        };
        let connect = async {
            let service = match &server.endpoint {
                Endpoint::Stdio {
                    program,
                    args,
                    env,
                    dir,
                    stderr,
                } => {
                    let mut command = tokio::process::Command::new(program);
                    command
                        .args(args)
                        .envs(env.iter().cloned())
                        .kill_on_drop(true);
                    if let Some(dir) = dir {
                        command.current_dir(dir);
                    }
                    let stderr = match stderr {
                        Stderr::Inherit => std::process::Stdio::inherit(),
                        Stderr::Discard => std::process::Stdio::null(),
                    };
                    let (transport, _) = TokioChildProcess::builder(command)
                        .stderr(stderr)
                        .spawn()
                        .map_err(|e| RemoteError::Spawn {
                            server: label(),
                            detail: e.to_string(),
                        })?;
                    handler.serve(transport).await.map_err(|e| handshake(&e))?
                }
                Endpoint::Http {
                    url,
                    bearer,
                    headers,
                } => {
                    let mut config = StreamableHttpClientTransportConfig::with_uri(url.as_str())
                        .custom_headers(headers.clone());
                    if let Some(token) = bearer {
                        config = config.auth_header(token.clone());
                    }
                    let transport = StreamableHttpClientTransport::from_config(config);
                    handler.serve(transport).await.map_err(|e| handshake(&e))?
                }
            };
            let tools = service
                .peer()
                .list_all_tools()
                .await
                .map_err(|e| RemoteError::List {
                    server: label(),
                    detail: e.to_string(),
                })?;
            Ok::<_, RemoteError>((service, tools))
        };
        let (service, tools) = tokio::time::timeout(server.connect_timeout, connect)
            .await
            .map_err(|_| RemoteError::Timeout {
                server: label(),
                after: server.connect_timeout,
            })??;
        tracing::debug!(server = %server.label, tools = tools.len(), "connected to the MCP server");
        let conn = Arc::new(Connection {
            service,
            generation,
        });
        Ok((conn, tools.into_iter().map(convert::tool).collect()))
    }

    fn connected(&self, state: &mut State, conn: Arc<Connection>) {
        state.conn = Some(conn);
        state.failures = 0;
        state.retry_at = None;
    }

    fn attempt_failed(&self, state: &mut State, error: &RemoteError) -> Duration {
        state.failures = state.failures.saturating_add(1);
        let delay = self.server.backoff(state.failures);
        state.retry_at = Some(Instant::now() + delay);
        state.last_error = error.to_string();
        tracing::warn!(server = %self.server.label, %error, retry_in = ?delay, "reconnecting to the MCP server failed");
        delay
    }

    /// The open connection, reconnecting first when it was lost and the backoff allows.
    async fn connection(self: &Arc<Self>) -> Result<Arc<Connection>, String> {
        let mut state = self.state.lock().await;
        if let Some(conn) = &state.conn {
            if conn.is_open() {
                return Ok(conn.clone());
            }
            state.conn = None;
            state.last_error = "the connection closed".to_owned();
        }
        if let Some(at) = state.retry_at {
            let now = Instant::now();
            if at > now {
                return Err(format!(
                    "the MCP server `{}` is unreachable ({}); the client tries to reconnect in {}. Retry later",
                    self.server.label,
                    state.last_error,
                    seconds(at - now)
                ));
            }
        }
        match self.open().await {
            Ok((conn, tools)) => {
                tracing::info!(server = %self.server.label, "reconnected to the MCP server");
                self.connected(&mut state, conn.clone());
                self.publish(tools);
                Ok(conn)
            }
            Err(e) => {
                let delay = self.attempt_failed(&mut state, &e);
                Err(format!(
                    "{e}; the client tries to reconnect again in {}. Retry later",
                    seconds(delay)
                ))
            }
        }
    }

    /// The connection `generation` failed: forget it, so that the next call reconnects.
    async fn lost(&self, generation: u64, why: &str) {
        let mut state = self.state.lock().await;
        if state
            .conn
            .as_ref()
            .is_some_and(|c| c.generation == generation)
        {
            tracing::warn!(server = %self.server.label, why, "lost the connection to the MCP server");
            state.conn = None;
            state.failures = 0;
            state.retry_at = None;
            state.last_error = why.to_owned();
        }
    }

    /// Replace the list if it changed, bumping the version.
    fn publish(&self, tools: Vec<RemoteTool>) {
        self.list.send_if_modified(|list| {
            if *list.tools == tools {
                return false;
            }
            list.version += 1;
            list.tools = Arc::new(tools);
            true
        });
    }

    /// List every tool again (after `notifications/tools/list_changed`).
    pub(crate) async fn relist(self: Arc<Self>, peer: Peer<RoleClient>) {
        let _gate = self.relist_gate.lock().await;
        match tokio::time::timeout(self.server.call_timeout, peer.list_all_tools()).await {
            Ok(Ok(tools)) => self.publish(tools.into_iter().map(convert::tool).collect()),
            Ok(Err(error)) => {
                tracing::warn!(server = %self.server.label, %error, "re-listing the tools failed; keeping the previous list");
            }
            Err(_) => {
                tracing::warn!(server = %self.server.label, "re-listing the tools timed out; keeping the previous list");
            }
        }
    }

    /// Send one `tools/call` and wait for its answer, the cancellation or the timeout.
    async fn send(
        &self,
        conn: &Arc<Connection>,
        name: &str,
        arguments: Map<String, Value>,
        timeout: Duration,
        cancel: &CancellationToken,
        progress: Option<ProgressFn<'_>>,
    ) -> CallResult {
        let request = ClientRequest::CallToolRequest(CallToolRequest::new(
            CallToolRequestParams::new(name.to_owned()).with_arguments(arguments),
        ));
        let handle = match conn
            .service
            .peer()
            .send_request_with_option(request, PeerRequestOptions::no_options())
            .await
        {
            Ok(handle) => handle,
            Err(e) => return self.failed(conn, name, e, false).await,
        };
        let mut receiver =
            progress.map(|_| conn.service.service().subscribe(&handle.progress_token));
        let mut in_flight = InFlight {
            conn: conn.clone(),
            id: Some(handle.id.clone()),
            token: receiver.as_ref().map(|_| handle.progress_token.clone()),
            reason: "the caller stopped waiting",
        };
        let response = handle.await_response();
        tokio::pin!(response);
        let deadline = tokio::time::sleep(timeout);
        tokio::pin!(deadline);
        let report = |p: rmcp::model::ProgressNotificationParam| {
            if let Some(progress) = progress {
                progress(p.progress, p.total, p.message.as_deref());
            }
        };
        let outcome = loop {
            tokio::select! {
                biased;
                r = &mut response => break Outcome::Response(Box::new(r)),
                () = cancel.cancelled() => break Outcome::Cancelled,
                () = &mut deadline => break Outcome::TimedOut,
                Some(p) = async {
                    match receiver.as_mut() {
                        Some(r) => r.recv().await,
                        None => std::future::pending().await,
                    }
                } => report(p),
            }
        };
        if let Some(receiver) = receiver.as_mut() {
            while let Ok(p) = receiver.try_recv() {
                report(p);
            }
        }
        match outcome {
            Outcome::Response(response) => {
                in_flight.finish();
                match *response {
                    Ok(result) => answer(name, result),
                    Err(e) => self.failed(conn, name, e, true).await,
                }
            }
            Outcome::Cancelled => {
                in_flight.reason = "cancelled by the application";
                cancelled(name)
            }
            Outcome::TimedOut => {
                in_flight.reason = "timed out";
                CallResult::error(format!(
                    "`{name}` timed out after {} and was cancelled on the MCP server `{}`; it may have had some effect. You may retry, perhaps with a smaller request.",
                    seconds(timeout),
                    self.server.label
                ))
            }
        }
    }

    /// The error result of a request that failed; a lost connection is forgotten.
    async fn failed(
        &self,
        conn: &Connection,
        name: &str,
        error: ServiceError,
        sent: bool,
    ) -> CallResult {
        let server = &self.server.label;
        match error {
            ServiceError::McpError(e) => CallResult::error(format!(
                "`{name}` failed: the MCP server `{server}` refused the call (JSON-RPC error {}): {}. Check the tool's name and arguments before retrying.",
                e.code.0,
                crate::echo(&e.message, 500)
            )),
            ServiceError::TransportSend(_) | ServiceError::TransportClosed => {
                let detail = crate::echo(&error.to_string(), 300);
                self.lost(conn.generation, &detail).await;
                let ran = if sent {
                    "the tool may or may not have run"
                } else {
                    "the call was not sent"
                };
                CallResult::error(format!(
                    "`{name}` failed: the connection to the MCP server `{server}` was lost ({detail}); {ran}. The client reconnects at the next call: you may retry."
                ))
            }
            ServiceError::Cancelled { reason } => CallResult::error(format!(
                "`{name}` was cancelled by the MCP server `{server}`{}",
                reason
                    .map(|r| format!(": {}", crate::echo(&r, 300)))
                    .unwrap_or_default()
            )),
            ServiceError::Timeout { timeout } => CallResult::error(format!(
                "`{name}` timed out after {} on the MCP server `{server}`. You may retry.",
                seconds(timeout)
            )),
            other => CallResult::error(format!(
                "`{name}` failed: the MCP server `{server}` answered something this client does not understand ({}). Retrying is unlikely to help.",
                crate::echo(&other.to_string(), 300)
            )),
        }
    }
}

/// The call's result from the server's answer.
fn answer(name: &str, result: ServerResult) -> CallResult {
    match result {
        ServerResult::CallToolResult(result) => convert::result(result),
        // `{}` (no content) parses as an empty result.
        ServerResult::EmptyResult(_) => CallResult::empty(),
        ServerResult::CustomResult(custom) => {
            match serde_json::from_value::<rmcp::model::CallToolResult>(custom.0) {
                Ok(result) => convert::result(result),
                Err(_) => CallResult::error(format!(
                    "`{name}` failed: the MCP server answered with something that is not a tool result. Retrying is unlikely to help."
                )),
            }
        }
        ServerResult::InputRequiredResult(_) => CallResult::error(format!(
            "`{name}` did not finish: it asked for input from the user, which this client cannot provide."
        )),
        ServerResult::CreateTaskResult(_) => CallResult::error(format!(
            "`{name}` did not finish: the MCP server started it as a background task, which this client does not follow."
        )),
        _ => CallResult::error(format!(
            "`{name}` failed: the MCP server answered with something that is not a tool result. Retrying is unlikely to help."
        )),
    }
}

fn cancelled(name: &str) -> CallResult {
    CallResult::error(format!(
        "`{name}` was cancelled by the application before it finished"
    ))
}

fn unknown_tool(name: &str, tools: &[RemoteTool]) -> CallResult {
    let mut text = format!(
        "unknown tool `{}`: the MCP server does not list it.",
        crate::echo(name, 64)
    );
    if let Some(guess) = crate::did_you_mean(name, tools.iter().map(|t| t.name.as_str())) {
        text.push_str(&format!(" Did you mean `{guess}`?"));
    }
    CallResult::error(text)
}

/// A duration for people: `1.5 s`, `30 s`, `250 ms`.
fn seconds(d: Duration) -> String {
    if d < Duration::from_secs(1) {
        format!("{} ms", d.as_millis())
    } else if d.subsec_millis() == 0 {
        format!("{} s", d.as_secs())
    } else {
        format!("{:.1} s", d.as_secs_f64())
    }
}
