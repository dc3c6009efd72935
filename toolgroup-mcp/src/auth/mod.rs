//! MCP authorization, the resource server's side (feature `auth`): bearer tokens, the
//! protected resource metadata, and the challenges of 401 and 403 answers.
//!
//! Follows the MCP specification revision 2026-07-28, "Authorization"
//! (`docs/specification/2026-07-28/basic/authorization/index.mdx` @005e2c96), which builds on
//! RFC 9728 (OAuth 2.0 Protected Resource Metadata) and RFC 6750 (bearer tokens). See
//! `docs/authorization.md` in the repository for the whole story; in short:
//!
//! - every HTTP request carries `Authorization: Bearer <token>`; a [`TokenValidator`] (a
//!   [`JwtValidator`] for JWTs signed by the authorization server, or your own for opaque
//!   tokens) turns it into a [`Principal`];
//! - a request without a token, or with one that does not validate, gets `401` with
//!   `WWW-Authenticate: Bearer resource_metadata="..."` (and `error="invalid_token"` when a
//!   token was sent); a token in the query string (`access_token`) or in two headers gets
//!   `400` with `error="invalid_request"`;
//! - the metadata document is served at `/.well-known/oauth-protected-resource` plus the
//!   resource's path (RFC 9728 section 3.1) and at the root;
//! - the principal's scopes entitle it to groups and tools (`Toolkit::entitled`).

#[cfg(feature = "http")]
pub(crate) mod gate;
mod jwks;
mod jwt;
mod owners;

use std::fmt;
use std::sync::Arc;

use toolgroup_core::{BoxFuture, Scopes};

pub use jwt::{Algorithm, JwtValidator};
pub(crate) use owners::SessionOwners;

/// The path of the protected resource metadata (RFC 9728 section 3), before the resource's
/// own path.
pub const METADATA_PATH: &str = "/.well-known/oauth-protected-resource";

/// Tokens longer than this many bytes are refused before they are parsed (default of
/// [`BearerAuth::with_max_token_bytes`]).
pub const DEFAULT_MAX_TOKEN_BYTES: usize = 16 * 1024;

/// Who is calling: what a [`TokenValidator`] makes of a valid access token.
///
/// Inserted into the HTTP request's extensions, so a tool reads it as
/// `Extension<Principal>` (or through `Extension<http::request::Parts>`).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Principal {
    /// The token's subject (`sub`): the user, or the client acting on its own behalf.
    pub subject: String,
    /// The scopes the token grants (`scope` or `scp`).
    pub scopes: Scopes,
    /// The issuer (`iss`) of a JWT, when the validator knows it.
    pub issuer: Option<String>,
    /// Every claim of a JWT (empty for a validator that has none).
    pub claims: serde_json::Map<String, serde_json::Value>,
}

impl Principal {
    /// A principal with this subject and these scopes (for a [`TokenValidator`] of your own).
    pub fn new(subject: impl Into<String>, scopes: Scopes) -> Self {
        Principal {
            subject: subject.into(),
            scopes,
            issuer: None,
            claims: serde_json::Map::new(),
        }
    }

    /// The same principal with its issuer.
    #[must_use]
    pub fn with_issuer(mut self, issuer: impl Into<String>) -> Self {
        self.issuer = Some(issuer.into());
        self
    }

    /// The same principal with its token's claims.
    #[must_use]
    pub fn with_claims(mut self, claims: serde_json::Map<String, serde_json::Value>) -> Self {
        self.claims = claims;
        self
    }

    /// The key this principal's state (active groups, protocol sessions) is kept under: the
    /// issuer and the subject, so that two issuers' equal subjects stay apart.
    pub(crate) fn state_key(&self) -> String {
        let issuer = self.issuer.as_deref().unwrap_or_default();
        // Lengths first: no issuer and subject pair (nor a key appended) spells another's key.
        let subject = &self.subject;
        format!(
            "principal:{}:{issuer}:{}:{subject}",
            issuer.len(),
            subject.len()
        )
    }
}

/// Why a token was not accepted. The client is told only that its token is invalid
/// (`401`, `error="invalid_token"`); the reason goes to `tracing` for the operator.
/// [`source`](std::error::Error::source) gives the underlying error (the JWT library's, the
/// HTTP client's...), when there is one.
#[derive(Debug, Clone)]
pub struct AuthError {
    kind: AuthErrorKind,
    reason: String,
    source: Option<Arc<dyn std::error::Error + Send + Sync + 'static>>,
}

/// What kind of failure an [`AuthError`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum AuthErrorKind {
    /// The token is malformed, expired, not yet valid, for another audience or issuer,
    /// badly signed, or signed with a refused algorithm.
    Invalid,
    /// The keys to check the token could not be had in time (the JWKS endpoint is down or
    /// slow and the token's key is not cached).
    Unavailable,
}

impl AuthError {
    /// An invalid token, for `reason` (logged, never sent to the client).
    pub fn invalid(reason: impl Into<String>) -> Self {
        AuthError {
            kind: AuthErrorKind::Invalid,
            reason: reason.into(),
            source: None,
        }
    }

    /// A token that could not be checked, for `reason` (logged, never sent to the client).
    pub fn unavailable(reason: impl Into<String>) -> Self {
        AuthError {
            kind: AuthErrorKind::Unavailable,
            reason: reason.into(),
            source: None,
        }
    }

    /// The same error, caused by `source`, which [`source`](std::error::Error::source) then
    /// gives the application. The log shows the reason alone: let it say what happened too.
    #[must_use]
    pub fn with_source(mut self, source: impl std::error::Error + Send + Sync + 'static) -> Self {
        self.source = Some(Arc::new(source));
        self
    }

    /// The same error, caused by what caused `other` (an error that sums up several
    /// attempts keeps the first one's cause).
    fn with_cause_of(mut self, other: AuthError) -> Self {
        self.source = other.source;
        self
    }

    /// What kind of failure this is.
    pub fn kind(&self) -> AuthErrorKind {
        self.kind
    }

    /// Why, for the operator.
    pub fn reason(&self) -> &str {
        &self.reason
    }
}

impl fmt::Display for AuthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            AuthErrorKind::Invalid => write!(f, "invalid access token: {}", self.reason),
            AuthErrorKind::Unavailable => {
                write!(f, "the access token could not be checked: {}", self.reason)
            }
        }
    }
}

impl std::error::Error for AuthError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source.as_deref().map(|e| e as _)
    }
}

/// Checks a bearer token and says who it is for. [`JwtValidator`] checks JWTs; implement it
/// for opaque tokens (token introspection, a database of API keys...).
pub trait TokenValidator: Send + Sync + 'static {
    /// The principal of `token`, or why it is refused. Called once per HTTP request: keep it
    /// fast (cache what you fetch).
    fn validate<'a>(&'a self, token: &'a str) -> BoxFuture<'a, Result<Principal, AuthError>>;
}

impl<V: TokenValidator + ?Sized> TokenValidator for Arc<V> {
    fn validate<'a>(&'a self, token: &'a str) -> BoxFuture<'a, Result<Principal, AuthError>> {
        (**self).validate(token)
    }
}

/// A validator chosen at run time (`Box<dyn TokenValidator>`).
impl<V: TokenValidator + ?Sized> TokenValidator for Box<V> {
    fn validate<'a>(&'a self, token: &'a str) -> BoxFuture<'a, Result<Principal, AuthError>> {
        (**self).validate(token)
    }
}

/// A resource URI that cannot identify this server (RFC 8707 section 2: absolute, no
/// fragment).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidResource {
    message: String,
}

impl fmt::Display for InvalidResource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for InvalidResource {}

/// Bearer authorization for the HTTP endpoint: the resource's identity, its authorization
/// servers and the validator. Give it to [`McpServer::with_auth`](crate::McpServer::with_auth).
#[derive(Clone)]
pub struct BearerAuth {
    resource: String,
    metadata_path: String,
    metadata_url: String,
    authorization_servers: Vec<String>,
    validator: Arc<dyn TokenValidator>,
    scope_status: bool,
    max_token_bytes: usize,
}

impl fmt::Debug for BearerAuth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BearerAuth")
            .field("resource", &self.resource)
            .field("authorization_servers", &self.authorization_servers)
            .field("insufficient_scope_status", &self.scope_status)
            .finish_non_exhaustive()
    }
}

impl BearerAuth {
    /// Authorization for the MCP endpoint whose canonical URI is `resource` (for example
    /// `https://mcp.example.com/mcp`: the audience tokens must be issued for, and the
    /// `resource` of the metadata), checking tokens with `validator`.
    ///
    /// # Errors
    ///
    /// `resource` is not an absolute `http`/`https` URI, or has a query or a fragment.
    pub fn new(
        resource: impl Into<String>,
        validator: impl TokenValidator,
    ) -> Result<Self, InvalidResource> {
        let resource = resource.into();
        let shown = crate::echo(&resource, 64);
        let invalid = |why: &str| InvalidResource {
            message: format!("the resource URI `{shown}` {why}"),
        };
        if resource.contains('#') || resource.contains('?') {
            return Err(invalid(
                "has a query or a fragment (RFC 8707: it identifies the server alone)",
            ));
        }
        let uri: http::Uri = resource
            .parse()
            .map_err(|_| invalid("is not a URI (write `https://host/mcp`)"))?;
        let (Some(scheme), Some(authority)) = (uri.scheme_str(), uri.authority()) else {
            return Err(invalid("is not absolute (write `https://host/mcp`)"));
        };
        if !matches!(scheme, "http" | "https") {
            return Err(invalid("is neither `http` nor `https`"));
        }
        let path = uri.path().trim_end_matches('/');
        let metadata_path = format!("{METADATA_PATH}{path}");
        let metadata_url = format!("{scheme}://{authority}{metadata_path}");
        Ok(BearerAuth {
            resource,
            metadata_path,
            metadata_url,
            authorization_servers: Vec::new(),
            validator: Arc::new(validator),
            scope_status: false,
            max_token_bytes: DEFAULT_MAX_TOKEN_BYTES,
        })
    }

    /// Add an authorization server (its issuer URL) to the metadata's
    /// `authorization_servers`. The MCP specification asks for at least one.
    #[must_use]
    pub fn with_authorization_server(mut self, issuer: impl Into<String>) -> Self {
        self.authorization_servers.push(issuer.into());
        self
    }

    /// Answer a `tools/call` of a tool whose required scopes the token lacks with HTTP `403`
    /// and `WWW-Authenticate: Bearer error="insufficient_scope", scope="<required>"`, the
    /// specification's step-up challenge (default `false`: the call gets the toolkit's error
    /// result naming the missing scope, the tool not run, which a model can read and a client
    /// without step-up handles).
    #[must_use]
    pub fn with_insufficient_scope_status(mut self, on: bool) -> Self {
        self.scope_status = on;
        self
    }

    /// Refuse tokens longer than `bytes` before parsing them (default 16 KiB).
    #[must_use]
    pub fn with_max_token_bytes(mut self, bytes: usize) -> Self {
        self.max_token_bytes = bytes;
        self
    }

    /// The canonical URI of the MCP endpoint.
    pub fn resource(&self) -> &str {
        &self.resource
    }

    /// The path the metadata is served at: `/.well-known/oauth-protected-resource` followed
    /// by the resource's path (`/.well-known/oauth-protected-resource/mcp`).
    pub fn metadata_path(&self) -> &str {
        &self.metadata_path
    }

    /// The metadata's URL, sent as `resource_metadata` in every challenge.
    pub fn metadata_url(&self) -> &str {
        &self.metadata_url
    }

    /// The RFC 9728 metadata document, with `scopes_supported` (omitted when empty).
    pub fn metadata(&self, scopes_supported: &Scopes) -> serde_json::Value {
        let mut doc = serde_json::json!({
            "resource": self.resource,
            "authorization_servers": self.authorization_servers,
            "bearer_methods_supported": ["header"],
        });
        if !scopes_supported.is_empty() {
            doc["scopes_supported"] = scopes_supported.iter().collect::<Vec<_>>().into();
        }
        doc
    }

    pub(crate) fn validator(&self) -> &dyn TokenValidator {
        &*self.validator
    }

    pub(crate) fn insufficient_scope_status(&self) -> bool {
        self.scope_status
    }

    pub(crate) fn max_token_bytes(&self) -> usize {
        self.max_token_bytes
    }

    /// A `WWW-Authenticate` value: `Bearer` with `error` (if any), `scope` (if not empty)
    /// and `resource_metadata` (RFC 6750 section 3, RFC 9728 section 5.1).
    pub(crate) fn challenge(&self, error: Option<&str>, scope: &Scopes) -> String {
        let mut params = Vec::new();
        if let Some(error) = error {
            params.push(format!("error=\"{error}\""));
        }
        if !scope.is_empty() {
            // Scope tokens hold no `"` nor `\` (RFC 6749 section 3.3).
            params.push(format!("scope=\"{scope}\""));
        }
        params.push(format!("resource_metadata=\"{}\"", self.metadata_url));
        format!("Bearer {}", params.join(", "))
    }
}

/// How a request presents its token.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Presented<'a> {
    /// No `Authorization: Bearer` header (no header, or another scheme).
    Missing,
    /// One bearer token.
    Token(&'a str),
    /// Two `Authorization` headers, or a token in the query string (RFC 6750 section 3.1,
    /// `invalid_request`).
    Malformed(&'static str),
}

/// The bearer token of a request: from the `Authorization` header only.
pub(crate) fn presented<'a>(headers: &'a http::HeaderMap, query: Option<&str>) -> Presented<'a> {
    if query.is_some_and(|q| {
        q.split('&')
            .any(|pair| pair.split('=').next() == Some("access_token"))
    }) {
        return Presented::Malformed("an access token in the query string");
    }
    let mut values = headers.get_all(http::header::AUTHORIZATION).iter();
    let Some(value) = values.next() else {
        return Presented::Missing;
    };
    if values.next().is_some() {
        return Presented::Malformed("two Authorization headers");
    }
    let Ok(value) = value.to_str() else {
        return Presented::Token("");
    };
    let Some((scheme, token)) = value.split_once(' ') else {
        return if value.eq_ignore_ascii_case("bearer") {
            Presented::Token("")
        } else {
            Presented::Missing
        };
    };
    if !scheme.eq_ignore_ascii_case("bearer") {
        return Presented::Missing;
    }
    Presented::Token(token.trim_matches(' '))
}

/// `router` with the protected resource metadata at the resource's well-known path and, for
/// a resource with a path, at the root too (the MCP specification's fallback for clients that
/// probe the root).
#[cfg(feature = "axum")]
pub(crate) fn metadata_routes(
    mut router: axum::Router,
    auth: &BearerAuth,
    scopes_supported: Scopes,
) -> axum::Router {
    let body = bytes::Bytes::from(auth.metadata(&scopes_supported).to_string());
    let answer = move || {
        let body = body.clone();
        async move {
            http::Response::builder()
                .header(http::header::CONTENT_TYPE, "application/json")
                // Public by nature: browser-based clients read it from other origins.
                .header(http::header::ACCESS_CONTROL_ALLOW_ORIGIN, "*")
                .body(axum::body::Body::from(body))
                .expect("a valid response")
        }
    };
    router = router.route(auth.metadata_path(), axum::routing::get(answer.clone()));
    if auth.metadata_path() != METADATA_PATH {
        router = router.route(METADATA_PATH, axum::routing::get(answer));
    }
    router
}

#[cfg(test)]
mod tests {
    use super::{Presented, presented};

    #[test]
    fn tokens_come_from_one_authorization_header() {
        let mut headers = http::HeaderMap::new();
        assert_eq!(presented(&headers, None), Presented::Missing);
        headers.insert("authorization", "Basic abc".parse().unwrap());
        assert_eq!(presented(&headers, None), Presented::Missing);
        headers.insert("authorization", "bearer  abc.def".parse().unwrap());
        assert_eq!(presented(&headers, None), Presented::Token("abc.def"));
        assert!(matches!(
            presented(&headers, Some("a=1&access_token=x")),
            Presented::Malformed(_)
        ));
        headers.append("authorization", "Bearer other".parse().unwrap());
        assert!(matches!(presented(&headers, None), Presented::Malformed(_)));
    }
}
