//! One connection's life: opening it (spawn or reach, handshake, list the tools and the
//! groups), reconnecting with backoff, forgetting a lost one, and publishing the lists.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use rmcp::service::RunningService;
use rmcp::{Peer, RoleClient};
use tokio::sync::watch;
use tokio::time::Instant;

use super::convert;
use super::error::{RemoteError, seconds};
use super::groups::{self, Groups};
use super::handler::Handler;
use super::handshake;
use super::input::Callers;
use super::list::{RemoteTool, ToolList};
use super::progress::Progress;
use super::server::RemoteServer;

pub(super) struct Connection {
    pub(super) service: RunningService<RoleClient, Handler>,
    /// Where the calls on this connection receive their progress reports.
    pub(super) progress: Arc<Progress>,
    /// The calls in flight on this connection, with their askers.
    pub(super) callers: Arc<Callers>,
    pub(super) generation: u64,
}

impl Connection {
    pub(super) fn is_open(&self) -> bool {
        !self.service.is_closed() && !self.service.peer().is_transport_closed()
    }
}

/// What one listing found: the top-level tools, and the groups when the server declares the
/// extension.
pub(super) struct Listing {
    tools: Vec<RemoteTool>,
    groups: Option<Groups>,
}

/// The first half of a listing, bounded as a whole: the tools and `groups/list`.
type Lists = (Vec<RemoteTool>, Option<Vec<groups::Entry>>);

struct State {
    conn: Option<Arc<Connection>>,
    /// Failed connection attempts since the last success.
    failures: u32,
    /// No attempt before this instant.
    retry_at: Option<Instant>,
    /// Why the last connection ended or the last attempt failed.
    last_error: String,
}

/// What the clones of one [`RemoteTools`](super::RemoteTools) share.
pub(super) struct Inner {
    pub(super) server: RemoteServer,
    state: tokio::sync::Mutex<State>,
    pub(super) list: watch::Sender<ToolList>,
    relist_gate: tokio::sync::Mutex<()>,
    generation: AtomicU64,
}

impl Inner {
    /// Connect to `server` and list every page of its tools.
    pub(super) async fn connect(server: RemoteServer) -> Result<Arc<Self>, RemoteError> {
        let inner = Arc::new(Inner {
            server,
            state: tokio::sync::Mutex::new(State {
                conn: None,
                failures: 0,
                retry_at: None,
                last_error: String::new(),
            }),
            list: watch::Sender::new(ToolList::empty()),
            relist_gate: tokio::sync::Mutex::new(()),
            generation: AtomicU64::new(0),
        });
        let mut state = inner.state.lock().await;
        let (conn, listing) = inner.open().await?;
        state.conn = Some(conn);
        inner.list.send_modify(|list| set(list, listing));
        drop(state);
        Ok(inner)
    }

    /// Whether the current connection is up.
    pub(super) async fn is_connected(&self) -> bool {
        let state = self.state.lock().await;
        state.conn.as_ref().is_some_and(|c| c.is_open())
    }

    /// Drop the current connection and connect again now, ignoring the backoff.
    pub(super) async fn reconnect(self: &Arc<Self>) -> Result<(), RemoteError> {
        let mut state = self.state.lock().await;
        state.conn = None;
        match self.open().await {
            Ok((conn, listing)) => {
                self.connected(&mut state, conn);
                self.publish(listing);
                Ok(())
            }
            Err(e) => {
                self.attempt_failed(&mut state, &e);
                Err(e)
            }
        }
    }

    /// Spawn or reach the server, handshake, list every tool and (when the server declares
    /// the extension) every group, within the connect timeout; then fetch each group.
    async fn open(self: &Arc<Self>) -> Result<(Arc<Connection>, Listing), RemoteError> {
        let server = &self.server;
        let generation = self.generation.fetch_add(1, Ordering::Relaxed) + 1;
        let inner = Arc::downgrade(self);
        let callers = Arc::new(Callers::default());
        let handler = || {
            let inner = inner.clone();
            Handler::new(
                server.groups_extension,
                server.user_input.clone(),
                callers.clone(),
                move |peer| {
                    // The notification is handled on its own task, but the re-list waits for
                    // responses that this connection's loop delivers: run it apart, never
                    // inline.
                    if let Some(inner) = inner.upgrade() {
                        tokio::spawn(async move { inner.relist(peer).await });
                    }
                },
            )
        };
        let progress = Arc::new(Progress::default());
        let label = || server.label.clone();
        let connect = async {
            let service = handshake::start(server, handler, &progress).await?;
            let lists = self.lists(service.peer()).await?;
            Ok::<_, RemoteError>((service, lists))
        };
        let (service, lists) = tokio::time::timeout(server.connect_timeout, connect)
            .await
            .map_err(|_| RemoteError::Timeout {
                server: label(),
                after: server.connect_timeout,
            })??;
        // Each `groups/get` has the call timeout: a slow group is hidden, not the connection
        // refused.
        let listing = self.fetch(service.peer(), lists).await;
        tracing::debug!(
            server = %server.label,
            tools = listing.tools.len(),
            groups = listing.groups.as_ref().map(|g| g.groups.len()),
            "connected to the MCP server"
        );
        let conn = Arc::new(Connection {
            service,
            progress,
            callers,
            generation,
        });
        Ok((conn, listing))
    }

    /// Every page of `tools/list`, and of `groups/list` when the server declared the
    /// extension.
    async fn lists(&self, peer: &Peer<RoleClient>) -> Result<Lists, RemoteError> {
        let tools = peer.list_all_tools().await.map_err(|e| RemoteError::List {
            server: self.server.label.clone(),
            source: Arc::new(e),
        })?;
        let tools = tools.into_iter().map(convert::tool).collect();
        if !self.server.groups_extension || !groups::declared(peer) {
            return Ok((tools, None));
        }
        let entries = groups::list(peer, self.server.call_timeout)
            .await
            .map_err(|source| RemoteError::ListGroups {
                server: self.server.label.clone(),
                source,
            })?;
        Ok((tools, Some(entries)))
    }

    /// `groups/get` for each listed group, and the extension's rules checked.
    async fn fetch(&self, peer: &Peer<RoleClient>, (tools, entries): Lists) -> Listing {
        let groups = match entries {
            Some(entries) => {
                let groups = groups::fetch(peer, entries, &tools, self.server.call_timeout).await;
                for hidden in &groups.hidden {
                    tracing::warn!(
                        server = %self.server.label,
                        group = %crate::echo(&hidden.name, 64),
                        reason = %hidden.reason,
                        "a remote group is hidden"
                    );
                }
                Some(groups)
            }
            None => None,
        };
        Listing { tools, groups }
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
    pub(super) async fn connection(self: &Arc<Self>) -> Result<Arc<Connection>, String> {
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
            Ok((conn, listing)) => {
                tracing::info!(server = %self.server.label, "reconnected to the MCP server");
                self.connected(&mut state, conn.clone());
                self.publish(listing);
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
    pub(super) async fn lost(&self, generation: u64, why: &str) {
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

    /// Replace the lists if they changed, bumping the version.
    fn publish(&self, listing: Listing) {
        self.list.send_if_modified(|list| {
            let version = list.version;
            let mut new = list.clone();
            set(&mut new, listing);
            if new == *list {
                return false;
            }
            *list = new;
            list.version = version + 1;
            true
        });
    }

    /// List every tool and group again (after `notifications/tools/list_changed` or
    /// `notifications/groups/list_changed`: both, since the extension's rules span both
    /// lists).
    async fn relist(self: Arc<Self>, peer: Peer<RoleClient>) {
        let _gate = self.relist_gate.lock().await;
        match tokio::time::timeout(self.server.call_timeout, self.lists(&peer)).await {
            Ok(Ok(lists)) => {
                let listing = self.fetch(&peer, lists).await;
                self.publish(listing);
            }
            Ok(Err(error)) => {
                tracing::warn!(server = %self.server.label, %error, "listing again failed; keeping the previous lists");
            }
            Err(_) => {
                tracing::warn!(server = %self.server.label, "listing again timed out; keeping the previous lists");
            }
        }
    }
}

/// `list` with `listing`'s tools and groups (the version unchanged).
fn set(list: &mut ToolList, listing: Listing) {
    list.tools = Arc::new(listing.tools);
    list.declares_groups = listing.groups.is_some();
    let groups = listing.groups.unwrap_or_default();
    list.groups = Arc::new(groups.groups);
    list.hidden_groups = Arc::new(groups.hidden);
}
