//! Where a request's active set comes from: the groups it selects, the connection's own set,
//! or the server's store under the client's key.

use rmcp::RoleServer;
use rmcp::service::RequestContext;
use toolgroup_core::{Registry, Session};

use super::Handler;
use crate::{Mode, StoreError};

/// Where one request's active set comes from.
// Only the HTTP transport makes stateless requests.
#[cfg_attr(not(feature = "http"), allow(dead_code))]
pub(super) enum Place<R: Registry> {
    /// Selected mode: the chosen groups.
    Fixed(Session<R>),
    /// The connection's own state.
    Local,
    /// A stateless HTTP request: the store, under this key.
    Keyed(String),
    /// A stateless HTTP request without a key.
    NoKey,
}

impl<R: Registry> Handler<R> {
    /// The groups an HTTP request selects (its path, `X-MCP-Toolsets` header or `groups`
    /// parameter), if it selects any.
    pub(super) fn requested(&self, ctx: &RequestContext<RoleServer>) -> Option<Session<R>> {
        #[cfg(feature = "http")]
        if let Some(parts) = ctx.extensions.get::<http::request::Parts>() {
            // The HTTP service refused unknown names and disagreeing forms before the request
            // got here; a handler served some other way selects no group then.
            return crate::selection::selection::<R>(&parts.uri, &parts.headers)
                .unwrap_or_else(|_| Some(Session::new()));
        }
        let _ = ctx;
        None
    }

    /// The chosen groups of a request served in selected mode: the request's own, else the
    /// handler's.
    pub(super) fn selection(&self, ctx: &RequestContext<RoleServer>) -> Session<R> {
        self.requested(ctx).unwrap_or(self.fixed)
    }

    pub(super) fn place(&self, ctx: &RequestContext<RoleServer>) -> Place<R> {
        if self.mode(ctx) == Mode::Selected {
            return Place::Fixed(self.selection(ctx));
        }
        #[cfg(feature = "http")]
        if let Some(parts) = ctx.extensions.get::<http::request::Parts>()
            && !parts.headers.contains_key("mcp-session-id")
        {
            let key = self.shared.key.as_ref().and_then(|key| key(parts));
            // An authenticated request's groups are its principal's alone, whatever the key.
            #[cfg(feature = "auth")]
            if let Some(principal) = parts.extensions.get::<crate::auth::Principal>() {
                let owner = principal.state_key();
                return Place::Keyed(match key {
                    Some(key) => format!("{owner}:{key}"),
                    None => owner,
                });
            }
            return match key {
                Some(key) => Place::Keyed(key),
                None => Place::NoKey,
            };
        }
        Place::Local
    }

    pub(super) async fn load(&self, place: &Place<R>) -> Result<Session<R>, StoreError> {
        match place {
            Place::Fixed(s) => Ok(*s),
            Place::Local => Ok(self.local_session()),
            Place::NoKey => Ok(Session::new()),
            Place::Keyed(key) if self.keyed_rules() => {
                Ok(*self.load_managed(key).await?.0.session())
            }
            Place::Keyed(key) => {
                let names = self.shared.store.load(key).await?.unwrap_or_default();
                let (session, dropped) =
                    Session::<R>::restore_lenient(names.iter().map(String::as_str));
                if !dropped.is_empty() {
                    tracing::warn!(
                        ?dropped,
                        "stored active groups name groups this toolkit does not have; ignored"
                    );
                }
                Ok(session)
            }
        }
    }
}
