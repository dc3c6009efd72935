//! [`RemoteTools`]: the client's handle, listing and calling the remote tools, and keeping
//! the remote groups.

use std::fmt;
use std::sync::Arc;

use serde_json::{Map, Value};
use tokio::sync::watch;
use toolgroup_core::{CallResult, args::Arguments};

use super::call::{Call, Names, cancelled, no_longer_listed, unknown_tool};
use super::connection::Inner;
use super::error::RemoteError;
use super::list::{HiddenGroup, RemoteGroup, RemoteTool, ToolList};
use super::options::CallOptions;
use super::server::RemoteServer;
use super::validate;

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
            .field("groups", &list.groups.len())
            .finish_non_exhaustive()
    }
}

impl RemoteTools {
    /// Connect to `server` and list every page of its tools; when it declares the
    /// `io.modelcontextprotocol/groups` extension, every page of its groups too, and each
    /// group's contents (see the [module docs](super#remote-groups)).
    ///
    /// # Errors
    ///
    /// The child process could not be started, the server could not be reached or did not
    /// complete the handshake, listing the tools (or the groups) failed, or all this took
    /// longer than the connect timeout. A group whose `groups/get` fails is hidden, not an
    /// error.
    pub async fn connect(server: RemoteServer) -> Result<Self, RemoteError> {
        let inner = Inner::connect(server).await?;
        Ok(RemoteTools { inner })
    }

    /// The server's settings.
    pub fn server(&self) -> &RemoteServer {
        &self.inner.server
    }

    /// The current top-level tools (what `tools/list` returns), in the server's order. The
    /// tools of the server's groups are in [`groups`](Self::groups).
    pub fn tools(&self) -> Arc<Vec<RemoteTool>> {
        self.inner.list.borrow().tools.clone()
    }

    /// Whether the server declared the `io.modelcontextprotocol/groups` extension when the
    /// client last connected (always `false` for a client built
    /// [without it](RemoteServer::with_groups_extension)).
    pub fn declares_groups(&self) -> bool {
        self.inner.list.borrow().declares_groups
    }

    /// The server's groups, with their instructions and tools, in the server's order; the
    /// hidden ones are in [`hidden_groups`](Self::hidden_groups). Empty when the server does
    /// not declare the extension.
    pub fn groups(&self) -> Arc<Vec<RemoteGroup>> {
        self.inner.list.borrow().groups.clone()
    }

    /// The server's groups that the client does not offer, and why: their `groups/get`
    /// failed or timed out, or the server broke one of the extension's rules for them.
    pub fn hidden_groups(&self) -> Arc<Vec<HiddenGroup>> {
        self.inner.list.borrow().hidden_groups.clone()
    }

    /// The version of the current lists (see [`ToolList::version`]).
    pub fn version(&self) -> u64 {
        self.inner.list.borrow().version
    }

    /// A receiver that sees every new list of tools or groups (`changed().await` wakes on the
    /// next one).
    pub fn watch(&self) -> watch::Receiver<ToolList> {
        self.inner.list.subscribe()
    }

    /// Whether the connection is up (as far as the client knows: a dead HTTP server is
    /// noticed at the next request).
    pub async fn is_connected(&self) -> bool {
        self.inner.is_connected().await
    }

    /// Drop the current connection and connect again now (ignoring the backoff), listing
    /// the tools and groups again.
    ///
    /// # Errors
    ///
    /// As for [`connect`](Self::connect); the next call then waits for the backoff.
    pub async fn reconnect(&self) -> Result<(), RemoteError> {
        self.inner.reconnect().await
    }

    /// Call the remote tool `name` (its name on the server) with `arguments` (a JSON object,
    /// as text or a value). See [`call_with`](Self::call_with).
    pub async fn call<'a>(&self, name: &str, arguments: impl Into<Arguments<'a>>) -> CallResult {
        self.call_with(name, arguments, CallOptions::new()).await
    }

    /// Call the remote tool `name` with `arguments` and per-call options (cancellation,
    /// progress, timeout, user input).
    ///
    /// Never panics nor fails: every problem is an error result (see the
    /// [module docs](super)). A tool neither in [`tools`](Self::tools) nor in one of the
    /// [`groups`](Self::groups), or arguments that do not fit its input schema, are refused
    /// without contacting the server. A group's tool is called like a top-level one: the
    /// extension's groups guide discovery, they do not gate calls.
    pub async fn call_with<'a>(
        &self,
        name: &str,
        arguments: impl Into<Arguments<'a>>,
        options: CallOptions<'_>,
    ) -> CallResult {
        let names = Names {
            remote: name,
            shown: name,
        };
        self.call_as(names, arguments.into(), options).await
    }

    /// Call the remote tool `names.remote`; error texts name it `names.shown`, the name the
    /// caller (a model, through a [`Remote`](super::Remote) group) knows it by.
    pub(super) async fn call_as(
        &self,
        names: Names<'_>,
        arguments: Arguments<'_>,
        options: CallOptions<'_>,
    ) -> CallResult {
        let name = names.shown;
        let list = self.inner.list.borrow().clone();
        let Some(tool) = list.find(names.remote) else {
            return if names.shown == names.remote {
                unknown_tool(name, list.all_tools())
            } else {
                no_longer_listed(name, &self.inner.server.label)
            };
        };
        let arguments = match arguments.parse::<Map<String, Value>>() {
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
        let call = Call {
            conn: &conn,
            names,
            timeout: options.timeout.unwrap_or(self.inner.server.call_timeout),
            cancel: &cancel,
            progress: options.progress,
            asker: self
                .inner
                .server
                .user_input
                .as_ref()
                .or(options.user_input.as_ref()),
        };
        self.inner.send(&call, arguments).await
    }
}
