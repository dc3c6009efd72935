//! The client side of one connection: passes `notifications/tools/list_changed` on to the
//! connection's owner (which re-lists) and routes `notifications/progress` to the call that
//! asked for it.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

use rmcp::model::{
    ClientCapabilities, ClientConfig, Implementation, ProgressNotificationParam, ProgressToken,
};
use rmcp::service::NotificationContext;
use rmcp::{ClientHandler, Peer, RoleClient};
use tokio::sync::mpsc;

/// Progress notifications that arrived before their call registered (the token is known
/// only once the request is sent): kept briefly, at most this many.
const EARLY_PROGRESS: usize = 64;

#[derive(Default)]
struct Routes {
    routes: HashMap<ProgressToken, mpsc::UnboundedSender<ProgressNotificationParam>>,
    early: VecDeque<ProgressNotificationParam>,
}

/// What to do on `notifications/tools/list_changed`, given the connection's peer.
type OnListChanged = Box<dyn Fn(Peer<RoleClient>) + Send + Sync>;

pub(super) struct Handler {
    on_list_changed: OnListChanged,
    progress: Mutex<Routes>,
}

impl Handler {
    pub(super) fn new(on_list_changed: impl Fn(Peer<RoleClient>) + Send + Sync + 'static) -> Self {
        Handler {
            on_list_changed: Box::new(on_list_changed),
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
        (self.on_list_changed)(context.peer);
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
