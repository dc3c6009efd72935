//! How to reach a remote MCP server: [`RemoteServer`], its endpoint, timeouts and backoff.

use std::collections::HashMap;
use std::ffi::OsString;
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use toolgroup_core::context::UserInput;

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

/// How the client starts its MCP session: which protocol revision it asks for
/// ([`RemoteServer::with_protocol`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Protocol {
    /// The `initialize` handshake, for the revisions up to 2025-11-25 (the default): every
    /// current server accepts it. Elicitation comes as `elicitation/create` requests, list
    /// changes as `notifications/tools/list_changed`, and no server runs a call as a task
    /// (SEP-2663 tasks need 2026-07-28).
    #[default]
    Initialize,
    /// MCP 2026-07-28 when the server speaks it: `server/discover`, then no session
    /// handshake, the client's capabilities sent in each request's `_meta`; else the
    /// `initialize` handshake, as [`Initialize`](Self::Initialize). See the
    /// [module docs](super#protocol-revisions) for what changes.
    V2026_07_28,
}

#[derive(Clone)]
pub(super) enum Endpoint {
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
    pub(super) endpoint: Endpoint,
    pub(super) label: String,
    pub(super) call_timeout: Duration,
    pub(super) connect_timeout: Duration,
    pub(super) groups_extension: bool,
    pub(super) user_input: Option<UserInput>,
    pub(super) protocol: Protocol,
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
            .field("groups_extension", &self.groups_extension)
            .field("user_input", &self.user_input.is_some())
            .field("protocol", &self.protocol)
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
            groups_extension: true,
            user_input: None,
            protocol: Protocol::Initialize,
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
    #[must_use]
    pub fn with_label(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }

    /// The server's name in error messages and logs.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// How long a call may go without news from the server, once sent, before it is
    /// cancelled and answers an error result (default
    /// [`DEFAULT_CALL_TIMEOUT`](Self::DEFAULT_CALL_TIMEOUT)). The wait starts again at each
    /// `notifications/progress` for the call, at each change of its task's status or status
    /// message, and after each answer from the user; so a call that keeps reporting may run
    /// longer (cancel it to stop it), and the time the user takes to answer does not count.
    /// Also bounds a re-list. A reconnection before the call is bounded by the connect
    /// timeout instead.
    #[must_use]
    pub fn with_call_timeout(mut self, timeout: Duration) -> Self {
        self.call_timeout = timeout;
        self
    }

    /// How long connecting may take: spawning or reaching the server, the handshake and
    /// listing every tool (default [`DEFAULT_CONNECT_TIMEOUT`](Self::DEFAULT_CONNECT_TIMEOUT)).
    #[must_use]
    pub fn with_connect_timeout(mut self, timeout: Duration) -> Self {
        self.connect_timeout = timeout;
        self
    }

    /// The wait after a failed reconnection (`initial`, doubling after each further failure,
    /// at most `max`). The first reconnection after a lost connection is immediate.
    #[must_use]
    pub fn with_backoff(mut self, initial: Duration, max: Duration) -> Self {
        self.backoff_initial = initial;
        self.backoff_max = max.max(initial);
        self
    }

    /// Whether the client declares the `io.modelcontextprotocol/groups` extension (default
    /// `true`; see the [module docs](super#remote-groups)). With `false` the client
    /// does not declare it and fetches no group: a server that has the extension then lists
    /// every tool at the top level, as it does for any client without it, and
    /// [`Remote::new`](super::Remote::new) serves them all.
    #[must_use]
    pub fn with_groups_extension(mut self, on: bool) -> Self {
        self.groups_extension = on;
        self
    }

    /// Who answers this server's questions to the user (see the
    /// [module docs](super#user-input)): its `elicitation/create` requests, and the
    /// elicitation forms of a call's input requests and of its task's `input_required`
    /// status, for every call on this connection. Without it, a call's own
    /// [`UserInput`](super::CallOptions::with_user_input) answers (a
    /// [`Remote`](super::Remote) group's calls pass on their calling tool's), and a
    /// question nobody can answer fails the call with an error result.
    #[must_use]
    pub fn with_user_input(mut self, user_input: UserInput) -> Self {
        self.user_input = Some(user_input);
        self
    }

    /// How the client starts its session (default [`Protocol::Initialize`]).
    /// [`Protocol::V2026_07_28`] asks for MCP 2026-07-28 through `server/discover`, and falls
    /// back to `initialize` when the server does not support it (see the
    /// [module docs](super#protocol-revisions)): on 2026-07-28 a server may run a call as a
    /// task and asks the user through input requests.
    ///
    /// ```
    /// use toolgroup_mcp::client::{Protocol, RemoteServer};
    ///
    /// let server = RemoteServer::http("http://127.0.0.1:8000/mcp").with_protocol(Protocol::V2026_07_28);
    /// ```
    #[must_use]
    pub fn with_protocol(mut self, protocol: Protocol) -> Self {
        self.protocol = protocol;
        self
    }

    /// An environment variable for the child process (stdio; ignored over HTTP).
    #[must_use]
    pub fn with_env(mut self, key: impl Into<OsString>, value: impl Into<OsString>) -> Self {
        if let Endpoint::Stdio { env, .. } = &mut self.endpoint {
            env.push((key.into(), value.into()));
        }
        self
    }

    /// The child process's working directory (stdio; ignored over HTTP).
    #[must_use]
    pub fn with_current_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        if let Endpoint::Stdio { dir: d, .. } = &mut self.endpoint {
            *d = Some(dir.into());
        }
        self
    }

    /// What becomes of the child's standard error (stdio; ignored over HTTP).
    #[must_use]
    pub fn with_stderr(mut self, stderr: Stderr) -> Self {
        if let Endpoint::Stdio { stderr: s, .. } = &mut self.endpoint {
            *s = stderr;
        }
        self
    }

    /// A bearer token sent as `Authorization: Bearer TOKEN` (HTTP; ignored over stdio).
    #[must_use]
    pub fn with_bearer_token(mut self, token: impl Into<String>) -> Self {
        if let Endpoint::Http { bearer, .. } = &mut self.endpoint {
            *bearer = Some(token.into());
        }
        self
    }

    /// A header sent with every request (HTTP; ignored over stdio).
    #[must_use]
    pub fn with_header(mut self, name: http::HeaderName, value: http::HeaderValue) -> Self {
        if let Endpoint::Http { headers, .. } = &mut self.endpoint {
            headers.insert(name, value);
        }
        self
    }

    pub(super) fn backoff(&self, failures: u32) -> Duration {
        let factor = 2u32.saturating_pow(failures.saturating_sub(1).min(31));
        self.backoff_initial
            .saturating_mul(factor)
            .min(self.backoff_max)
    }
}
