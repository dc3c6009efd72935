//! The client side of one connection: re-lists on `notifications/tools/list_changed` and
//! routes `notifications/progress` to the call that asked for it.

use std::collections::{HashMap, VecDeque};
use std::sync::{Mutex, Weak};

use rmcp::model::{
    ClientCapabilities, ClientConfig, Implementation, ProgressNotificationParam, ProgressToken,
};
use rmcp::service::NotificationContext;
use rmcp::{ClientHandler, RoleClient};
use tokio::sync::mpsc;

use super::Inner;

/// Progress notifications that arrived before their call registered (the token is known
/// only once the request is sent): kept briefly, at most this many.
const EARLY_PROGRESS: usize = 64;

#[derive(Default)]
struct Routes {
    routes: HashMap<ProgressToken, mpsc::UnboundedSender<ProgressNotificationParam>>,
    early: VecDeque<ProgressNotificationParam>,
}

pub(super) struct Handler {
    inner: Weak<Inner>,
    progress: Mutex<Routes>,
}

impl Handler {
    pub(super) fn new(inner: Weak<Inner>) -> Self {
        Handler {
            inner,
            progress: Mutex::new(Routes::default()),
        }
    }

    fn routes(&self) -> std::sync::MutexGuard<'_, Routes> {
        self.progress.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Receive the progress notifications of the request sent with `token` (including any
    /// that arrived already).
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
}

impl ClientHandler for Handler {
    async fn on_tool_list_changed(&self, context: NotificationContext<RoleClient>) {
        // The notification is handled on its own task, but the re-list waits for responses
        // that this connection's loop delivers: run it apart, never inline.
        if let Some(inner) = self.inner.upgrade() {
            tokio::spawn(async move { inner.relist(context.peer).await });
        }
    }

    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        let mut routes = self.routes();
        if let Some(sender) = routes.routes.get(&params.progress_token) {
            let _ = sender.send(params);
        } else {
            if routes.early.len() == EARLY_PROGRESS {
                routes.early.pop_front();
            }
            routes.early.push_back(params);
        }
    }

    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(
            ClientCapabilities::default(),
            Implementation::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION")),
        )
    }
}
