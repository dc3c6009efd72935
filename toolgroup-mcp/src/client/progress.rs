//! Routing `notifications/progress` to the call that asked for it, in the order they arrived.
//!
//! rmcp hands each notification to the handler on a task of its own but delivers a response at
//! once, so a report sent just before the result could reach a handler after the call had
//! returned. The reports are therefore routed where the connection reads its messages, one at a
//! time in wire order ([`Routed`]): a notification sent before the response is in its call's
//! channel before the response is handed over, and the call drains the channel before it
//! returns.

use std::collections::{HashMap, VecDeque};
use std::sync::{Mutex, MutexGuard, PoisonError};

use rmcp::RoleClient;
use rmcp::model::{JsonRpcMessage, ProgressNotificationParam, ProgressToken, ServerNotification};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use tokio::sync::mpsc;

/// Progress notifications that arrived before their call subscribed (the token is known only
/// once the request is handed to the connection): kept briefly, at most this many.
const EARLY_PROGRESS: usize = 64;

/// One connection's progress routes.
#[derive(Default)]
pub(super) struct Progress {
    routes: Mutex<Routes>,
}

#[derive(Default)]
struct Routes {
    routes: HashMap<ProgressToken, mpsc::UnboundedSender<ProgressNotificationParam>>,
    early: VecDeque<ProgressNotificationParam>,
}

impl Progress {
    fn routes(&self) -> MutexGuard<'_, Routes> {
        self.routes.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Receive the progress notifications of the request sent with `token`, including any
    /// that arrived already, in the order they arrived.
    pub(super) fn subscribe(
        &self,
        token: &ProgressToken,
    ) -> mpsc::UnboundedReceiver<ProgressNotificationParam> {
        let (sender, receiver) = mpsc::unbounded_channel();
        let mut routes = self.routes();
        let early = std::mem::take(&mut routes.early);
        for param in early {
            if &param.progress_token == token {
                let _ = sender.send(param);
            } else {
                routes.early.push_back(param);
            }
        }
        routes.routes.insert(token.clone(), sender);
        receiver
    }

    pub(super) fn unsubscribe(&self, token: &ProgressToken) {
        self.routes().routes.remove(token);
    }

    fn route(&self, params: &ProgressNotificationParam) {
        let mut routes = self.routes();
        if let Some(sender) = routes.routes.get(&params.progress_token) {
            let _ = sender.send(params.clone());
        } else {
            if routes.early.len() == EARLY_PROGRESS {
                routes.early.pop_front();
            }
            routes.early.push_back(params.clone());
        }
    }
}

/// A client transport that routes each progress notification as it is read, before the
/// connection's loop sees the next message. Every message is passed on unchanged.
pub(super) struct Routed<T> {
    inner: T,
    progress: std::sync::Arc<Progress>,
}

impl<T> Routed<T> {
    pub(super) fn new(inner: T, progress: std::sync::Arc<Progress>) -> Self {
        Routed { inner, progress }
    }
}

impl<T: Transport<RoleClient>> Transport<RoleClient> for Routed<T> {
    type Error = T::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        self.inner.send(item)
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleClient>> {
        let message = self.inner.receive().await;
        // Routed within the poll that read the message: the loop's `select!` may drop this
        // future between polls, never between reading and routing.
        if let Some(JsonRpcMessage::Notification(notification)) = &message
            && let ServerNotification::ProgressNotification(progress) = &notification.notification
        {
            self.progress.route(&progress.params);
        }
        message
    }

    fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.inner.close()
    }
}
