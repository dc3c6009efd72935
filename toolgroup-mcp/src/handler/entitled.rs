//! The toolkit of one request's principal: `Toolkit::entitled` with the scopes of the
//! token the HTTP request carried (feature `auth`).

use rmcp::RoleServer;
use rmcp::model::{CallToolResponse, ErrorData};
use rmcp::service::RequestContext;
use serde_json::Value;
use toolgroup_core::{Registry, Session, Toolkit};

use super::Handler;
use super::call::forward_call;

/// The toolkit as one request's principal is entitled to it: the server's own for a request
/// without one (stdio, HTTP without authorization).
pub(super) enum Kit<'a, R: Registry> {
    Shared(&'a Toolkit<R>),
    // Only authorized HTTP requests have a principal.
    #[cfg_attr(not(feature = "auth"), allow(dead_code))]
    Entitled(Box<Toolkit<R>>),
}

impl<R: Registry> std::ops::Deref for Kit<'_, R> {
    type Target = Toolkit<R>;
    fn deref(&self) -> &Toolkit<R> {
        match self {
            Kit::Shared(toolkit) => toolkit,
            Kit::Entitled(toolkit) => toolkit,
        }
    }
}

/// Whether the request was made by an authenticated principal (whose lists are its own).
pub(crate) fn has_principal(ctx: &RequestContext<RoleServer>) -> bool {
    #[cfg(feature = "auth")]
    if let Some(parts) = ctx.extensions.get::<http::request::Parts>() {
        return parts.extensions.get::<crate::auth::Principal>().is_some();
    }
    let _ = ctx;
    false
}

impl<R: Registry> Handler<R> {
    /// The toolkit's own answer to a call of a tool the principal may not use: an error
    /// result naming the missing scopes (the tool does not run).
    pub(super) async fn refused_for_scopes(
        &self,
        toolkit: &Toolkit<R>,
        name: &str,
        arguments: &Value,
        ctx: &RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let mut session = Session::new();
        let result = match forward_call(toolkit, &mut session, name, arguments, ctx, false).await {
            Ok(result) => result,
            Err(input) => return Ok(input),
        };
        self.to_mcp(name, result)
    }

    /// The toolkit this request's principal is entitled to (`Toolkit::entitled` with its
    /// scopes), or the server's own.
    pub(super) fn kit(&self, ctx: &RequestContext<RoleServer>) -> Kit<'_, R> {
        #[cfg(feature = "auth")]
        if let Some(principal) = ctx
            .extensions
            .get::<http::request::Parts>()
            .and_then(|parts| parts.extensions.get::<crate::auth::Principal>())
        {
            return Kit::Entitled(Box::new(self.shared.toolkit.entitled(&principal.scopes)));
        }
        let _ = ctx;
        Kit::Shared(&self.shared.toolkit)
    }
}
