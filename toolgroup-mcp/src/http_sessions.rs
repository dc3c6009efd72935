//! Protocol sessions of the Streamable HTTP endpoint (2025-11-25 clients), hibernated when
//! idle.
//!
//! rmcp keeps each session as a worker task, a serving task and their channels: about 94 KB
//! however idle it is, until its keep-alive (five minutes) ends it and the client has to
//! initialize again. Here rmcp's own [`LocalSessionManager`] does that work, with a table
//! beside it. A session with no answer or stream open for [`IdleSessions`]' delay is
//! hibernated: rmcp's worker and the handler are dropped, and what the session needs to go
//! on is kept: the client's `initialize` parameters (as JSON) and the handler's state of the
//! connection (its active groups, log level and task identity). Its next request restores it
//! through rmcp's own restore path ([`SessionStore`] and
//! [`SessionManager::restore_session`]: a new handler, the `initialize` handshake replayed),
//! so the client sees the same session. A hibernated session is forgotten after
//! [`IdleSessions::forget_after`], or at once on `DELETE`.

use std::any::Any;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::{Duration, Instant};

use futures_core::Stream;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::WorkerTransport;
use rmcp::transport::common::server_side_http::ServerSseMessage;
use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionManager, LocalSessionManagerError, LocalSessionWorker,
};
use rmcp::transport::streamable_http_server::session::store::{
    SessionState, SessionStore, SessionStoreError,
};
use rmcp::transport::streamable_http_server::{RestoreOutcome, SessionId, SessionManager};

/// What the HTTP endpoint does with protocol sessions that sit idle (2025-11-25 clients;
/// 2026-07-28 requests have no session). Set with
/// [`McpServer::with_idle_sessions`](crate::McpServer::with_idle_sessions).
///
/// By default a session with no request in flight and no stream open for 30 seconds is
/// hibernated: it then holds about 1 KB instead of the ~94 KB of a live rmcp session, and
/// its next request restores it (a new handler, the `initialize` handshake replayed inside
/// the server, about what opening a session costs). The client sees nothing of it: same
/// session id, same active groups, log level and tasks. A hibernated session is forgotten
/// after an hour unused; its client then gets `404 Not Found` and initializes again, as the
/// MCP specification has clients do.
///
/// A session holding a stream open (a client listening for notifications on `GET`, an answer
/// being streamed, a request the server asks the user about) is never idle.
///
/// Where the endpoint's config already has rmcp's `session_store` (sessions shared by
/// replicas), the client's `initialize` parameters go there too, and a session hibernated on
/// one replica can be restored on another, with fresh connection state there (the active
/// groups start from the server's defaults).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IdleSessions {
    hibernate_after: Option<Duration>,
    forget_after: Duration,
}

impl Default for IdleSessions {
    fn default() -> Self {
        IdleSessions {
            hibernate_after: Some(Duration::from_secs(30)),
            forget_after: Duration::from_secs(3600),
        }
    }
}

impl IdleSessions {
    /// Hibernate a session once it has been idle for `idle` (at least 100 ms), and forget it
    /// an hour later (see [`forget_after`](Self::forget_after)).
    pub fn hibernate_after(idle: Duration) -> Self {
        IdleSessions {
            hibernate_after: Some(idle.max(Duration::from_millis(100))),
            ..IdleSessions::default()
        }
    }

    /// Never hibernate: every session stays live, as in a plain rmcp server (whose worker
    /// ends a session after five minutes without a message).
    pub fn never() -> Self {
        IdleSessions {
            hibernate_after: None,
            ..IdleSessions::default()
        }
    }

    /// Forget a hibernated session once it has gone unused for `unused` in all (default one
    /// hour).
    #[must_use]
    pub fn forget_after(mut self, unused: Duration) -> Self {
        self.forget_after = unused;
        self
    }

    /// The idle time after which a session is hibernated (`None`: never).
    pub fn hibernation_delay(&self) -> Option<Duration> {
        self.hibernate_after
    }

    /// How long a hibernated session is kept, counted from its last use.
    pub fn forgetting_delay(&self) -> Duration {
        self.forget_after
    }
}

/// The extension the `initialize` request of a session carries (a first one, or one
/// replayed on restore) so the handler can keep its connection's state in the table.
#[derive(Clone)]
pub(crate) struct SessionSlot {
    id: SessionId,
    table: Arc<Table>,
}

impl SessionSlot {
    /// Keep `connection` as the session's state, and return the state it had before it was
    /// hibernated, if it was.
    pub(crate) fn keep(
        &self,
        connection: Arc<dyn Any + Send + Sync>,
    ) -> Option<Arc<dyn Any + Send + Sync>> {
        let mut entries = self.table.lock();
        let entry = entries.get_mut(&self.id)?;
        entry.connection.replace(connection)
    }
}

impl std::fmt::Debug for SessionSlot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SessionSlot").field("id", &self.id).finish()
    }
}

/// One session's record.
struct Entry {
    /// Streams open on the session: answers being sent, `GET` streams, resumed streams.
    open: u32,
    /// When the session was last used: a request came, or a stream closed.
    last: Instant,
    /// Its rmcp worker and handler are gone; the next request restores it.
    hibernated: bool,
    /// Workers this table ended whose end rmcp has yet to report (`close_session`): that
    /// report must not close a session restored meanwhile under the same id.
    ending: u8,
    /// Its rmcp session is being closed: a restore waits for the close, which would
    /// otherwise end the restored session.
    closing: bool,
    /// The client's `initialize` parameters, JSON (rmcp hands them to the session store).
    params: Option<Box<str>>,
    /// The handler's connection state, kept while the session is hibernated.
    connection: Option<Arc<dyn Any + Send + Sync>>,
}

impl Entry {
    fn live(now: Instant) -> Self {
        Entry {
            open: 0,
            last: now,
            hibernated: false,
            ending: 0,
            closing: false,
            params: None,
            connection: None,
        }
    }
}

/// The sessions' records, by id.
#[derive(Default)]
pub(crate) struct Table {
    entries: Mutex<HashMap<SessionId, Entry>>,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("sessions", &self.len())
            .finish()
    }
}

impl Table {
    fn lock(&self) -> MutexGuard<'_, HashMap<SessionId, Entry>> {
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether `id` is a session this endpoint knows, live or hibernated.
    #[cfg(feature = "auth")]
    pub(crate) fn knows(&self, id: &str) -> bool {
        self.lock().contains_key(id)
    }

    /// How many sessions the endpoint knows, live or hibernated.
    pub(crate) fn len(&self) -> usize {
        self.lock().len()
    }

    pub(crate) fn counts(&self) -> SessionCounts {
        let entries = self.lock();
        let hibernated = entries.values().filter(|e| e.hibernated).count();
        SessionCounts {
            live: entries.len() - hibernated,
            hibernated,
        }
    }
}

/// How many protocol sessions an endpoint holds, from
/// [`McpHttpService::session_counts`](crate::McpHttpService::session_counts): for a gauge.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct SessionCounts {
    /// Sessions with their rmcp worker and handler in memory.
    pub live: usize,
    /// Sessions hibernated (see [`IdleSessions`]), restored by their next request.
    pub hibernated: usize,
}

struct Core {
    inner: LocalSessionManager,
    table: Arc<Table>,
    idle: IdleSessions,
    sweeping: std::sync::Once,
    /// Woken each time a close the table started is done.
    closed: tokio::sync::Notify,
}

impl Core {
    /// Closes rmcp's session `id`, marked `closing`, then clears the mark.
    async fn close_marked(&self, id: &SessionId) -> Result<(), LocalSessionManagerError> {
        let closed = self.inner.close_session(id).await;
        if let Some(entry) = self.table.lock().get_mut(id) {
            entry.closing = false;
        }
        self.closed.notify_waiters();
        closed
    }

    /// Waits until no close of `id` started by the table is under way.
    async fn closes_done(&self, id: &SessionId) {
        loop {
            let notified = self.closed.notified();
            tokio::pin!(notified);
            // Registered before the check, so a close that ends in between still wakes it.
            notified.as_mut().enable();
            if !self.table.lock().get(id).is_some_and(|entry| entry.closing) {
                return;
            }
            notified.await;
        }
    }
}

/// rmcp's [`LocalSessionManager`] with idle sessions hibernated (see the module docs).
pub(crate) struct Sessions {
    core: Arc<Core>,
}

impl Sessions {
    pub(crate) fn new(idle: IdleSessions) -> Self {
        Sessions {
            core: Arc::new(Core {
                inner: LocalSessionManager::default(),
                table: Arc::new(Table::default()),
                idle,
                sweeping: std::sync::Once::new(),
                closed: tokio::sync::Notify::new(),
            }),
        }
    }

    pub(crate) fn table(&self) -> Arc<Table> {
        self.core.table.clone()
    }

    /// rmcp's session store over the table, in front of `user`'s when the config has one.
    /// `None` when sessions are never hibernated and the config has no store of its own.
    pub(crate) fn store(
        &self,
        user: Option<Arc<dyn SessionStore>>,
    ) -> Option<Arc<dyn SessionStore>> {
        if self.core.idle.hibernate_after.is_none() {
            return user;
        }
        Some(Arc::new(KeptSessions {
            table: self.core.table.clone(),
            forget_after: self.core.idle.forget_after,
            user,
        }))
    }

    /// A stream of the session `id`, counted open until it is dropped.
    fn tracked<S>(&self, id: &SessionId, stream: S) -> impl Stream<Item = ServerSseMessage> + use<S>
    where
        S: Stream<Item = ServerSseMessage> + Send + Sync + Unpin + 'static,
    {
        if let Some(entry) = self.core.table.lock().get_mut(id) {
            entry.open += 1;
            entry.last = Instant::now();
        }
        Tracked {
            stream,
            _open: Open {
                table: self.core.table.clone(),
                id: id.clone(),
            },
        }
    }

    fn touch(&self, id: &SessionId) {
        if let Some(entry) = self.core.table.lock().get_mut(id) {
            entry.last = Instant::now();
        }
    }

    /// Starts the task that hibernates idle sessions and forgets old ones, once.
    fn sweep(&self) {
        let Some(idle) = self.core.idle.hibernate_after else {
            return;
        };
        self.core.sweeping.call_once(|| {
            let core = Arc::downgrade(&self.core);
            let every = (idle / 2).clamp(Duration::from_millis(50), Duration::from_secs(10));
            tokio::spawn(sweeper(core, every));
        });
    }
}

/// Every `every`, until the endpoint is dropped: hibernate the sessions idle for the delay,
/// forget the hibernated ones unused for the other.
async fn sweeper(core: Weak<Core>, every: Duration) {
    let mut ticks = tokio::time::interval(every);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    ticks.tick().await;
    loop {
        ticks.tick().await;
        let Some(core) = core.upgrade() else {
            return;
        };
        let Some(idle) = core.idle.hibernate_after else {
            return;
        };
        let now = Instant::now();
        let mut ending = Vec::new();
        {
            let mut entries = core.table.lock();
            entries.retain(|_, entry| {
                !(entry.hibernated && now.duration_since(entry.last) >= core.idle.forget_after)
            });
            for (id, entry) in entries.iter_mut() {
                // A session whose initialize has not been stored yet cannot be restored.
                if !entry.hibernated
                    && entry.open == 0
                    && entry.params.is_some()
                    && now.duration_since(entry.last) >= idle
                {
                    entry.hibernated = true;
                    entry.closing = true;
                    entry.ending = entry.ending.saturating_add(1);
                    ending.push(id.clone());
                }
            }
        }
        for id in ending {
            if let Err(e) = core.close_marked(&id).await {
                tracing::warn!(error = %e, "an idle session's worker did not close cleanly");
            }
        }
    }
}

impl SessionManager for Sessions {
    type Error = LocalSessionManagerError;
    type Transport = WorkerTransport<LocalSessionWorker>;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Self::Error> {
        self.sweep();
        let (id, transport) = self.core.inner.create_session().await?;
        self.core
            .table
            .lock()
            .insert(id.clone(), Entry::live(Instant::now()));
        Ok((id, transport))
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        mut message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, Self::Error> {
        message.insert_extension(SessionSlot {
            id: id.clone(),
            table: self.core.table.clone(),
        });
        self.core.inner.initialize_session(id, message).await
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Self::Error> {
        // Touched here too, so that a request is not hibernated between this check and its
        // stream.
        let live = match self.core.table.lock().get_mut(id) {
            Some(entry) if !entry.hibernated => {
                entry.last = Instant::now();
                true
            }
            _ => false,
        };
        Ok(live && self.core.inner.has_session(id).await?)
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), Self::Error> {
        {
            let mut entries = self.core.table.lock();
            match entries.get_mut(id) {
                // The end of a worker this table hibernated, reported late.
                Some(entry) if entry.ending > 0 => {
                    entry.ending -= 1;
                    return Ok(());
                }
                // A session that can be restored stays so until the store forgets it (a
                // `DELETE` does so at once): its worker ended on rmcp's own keep-alive.
                Some(entry)
                    if entry.params.is_some() && self.core.idle.hibernate_after.is_some() =>
                {
                    entry.hibernated = true;
                    entry.closing = true;
                }
                Some(_) => {
                    entries.remove(id);
                }
                None => {}
            }
        }
        self.core.close_marked(id).await
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        let stream = self.core.inner.create_stream(id, message).await?;
        Ok(self.tracked(id, stream))
    }

    async fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<(), Self::Error> {
        self.touch(id);
        self.core.inner.accept_message(id, message).await
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        let stream = self.core.inner.create_standalone_stream(id).await?;
        Ok(self.tracked(id, stream))
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        let stream = self.core.inner.resume(id, last_event_id).await?;
        Ok(self.tracked(id, stream))
    }

    async fn restore_session(
        &self,
        id: SessionId,
    ) -> Result<RestoreOutcome<Self::Transport>, Self::Error> {
        self.sweep();
        self.core.closes_done(&id).await;
        let mut outcome = self.core.inner.restore_session(id.clone()).await?;
        if matches!(outcome, RestoreOutcome::AlreadyPresent) {
            // The worker of the hibernated session is still closing: close it, then restore.
            self.core.inner.close_session(&id).await?;
            outcome = self.core.inner.restore_session(id.clone()).await?;
        }
        if matches!(outcome, RestoreOutcome::Restored(_)) {
            let now = Instant::now();
            let mut entries = self.core.table.lock();
            let entry = entries.entry(id).or_insert_with(|| Entry::live(now));
            entry.hibernated = false;
            entry.last = now;
        }
        Ok(outcome)
    }

    fn event_store(
        &self,
    ) -> Option<Arc<dyn rmcp::transport::streamable_http_server::session::store::EventStore>> {
        self.core.inner.event_store()
    }
}

/// A session's stream, counted open while it lives.
struct Tracked<S> {
    stream: S,
    _open: Open,
}

impl<S: Stream + Unpin> Stream for Tracked<S> {
    type Item = S::Item;

    fn poll_next(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<S::Item>> {
        std::pin::Pin::new(&mut self.stream).poll_next(cx)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.stream.size_hint()
    }
}

/// One open stream of a session: counted down, and the session touched, when dropped.
struct Open {
    table: Arc<Table>,
    id: SessionId,
}

impl Drop for Open {
    fn drop(&mut self) {
        if let Some(entry) = self.table.lock().get_mut(&self.id) {
            entry.open = entry.open.saturating_sub(1);
            entry.last = Instant::now();
        }
    }
}

/// rmcp's session store over the table (and the config's own store, if any).
struct KeptSessions {
    table: Arc<Table>,
    forget_after: Duration,
    user: Option<Arc<dyn SessionStore>>,
}

#[async_trait::async_trait]
impl SessionStore for KeptSessions {
    async fn load(&self, id: &str) -> Result<Option<SessionState>, SessionStoreError> {
        let params = {
            let mut entries = self.table.lock();
            match entries.get(id) {
                Some(entry) if entry.hibernated && entry.last.elapsed() >= self.forget_after => {
                    entries.remove(id);
                    None
                }
                Some(entry) => entry.params.clone(),
                None => None,
            }
        };
        if let Some(params) = params {
            // Written by `store` below from the same type: it reads back.
            let params = serde_json::from_str(&params)?;
            return Ok(Some(SessionState::new(params)));
        }
        let Some(user) = &self.user else {
            return Ok(None);
        };
        // Its error goes into rmcp's answer to the client: logged here, told in general there.
        let state = user.load(id).await.map_err(|e| {
            tracing::warn!(error = %e, "the session store failed to load a session");
            SessionStoreError::from(
                "the session store did not answer, so whether the session exists is unknown; retry",
            )
        })?;
        // A session another replica opened: recorded here as hibernated with its
        // parameters, so that once restored it can hibernate here too.
        if let Some(state) = &state {
            let params = serde_json::to_string(&state.initialize_params)?;
            let mut entries = self.table.lock();
            let entry = entries.entry(id.into()).or_insert_with(|| Entry {
                hibernated: true,
                ..Entry::live(Instant::now())
            });
            entry.params.get_or_insert_with(|| params.into_boxed_str());
        }
        Ok(state)
    }

    async fn store(&self, id: &str, state: &SessionState) -> Result<(), SessionStoreError> {
        let params = serde_json::to_string(&state.initialize_params)?;
        if let Some(entry) = self.table.lock().get_mut(id) {
            entry.params = Some(params.into_boxed_str());
        }
        match &self.user {
            Some(user) => user.store(id, state).await,
            None => Ok(()),
        }
    }

    async fn delete(&self, id: &str) -> Result<(), SessionStoreError> {
        self.table.lock().remove(id);
        match &self.user {
            Some(user) => user.delete(id).await,
            None => Ok(()),
        }
    }
}
