//! The Streamable HTTP endpoint: rmcp's service behind checks of the `Origin`, the groups a
//! request selects and the body's JSON-RPC.

use std::convert::Infallible;
use std::fmt::Display;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use bytes::{Buf as _, BufMut as _, Bytes, BytesMut};
use http::{Request, Response, StatusCode};
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt as _, Full};
use rmcp::transport::StreamableHttpServerConfig;
use rmcp::transport::StreamableHttpService;
use toolgroup_core::Registry;

use crate::http_sessions::Sessions;
use crate::{McpHandler, McpServer};

type Inner<R> = StreamableHttpService<McpHandler<R>, Sessions>;

/// The answer to one request, as the tower service returns it.
type Served =
    Pin<Box<dyn Future<Output = Result<Response<BoxBody<Bytes, Infallible>>, Infallible>> + Send>>;

/// The MCP Streamable HTTP endpoint of a toolkit, as a tower service (from
/// [`McpServer::http_service`]). Mount it with axum: `Router::new().nest_service("/mcp",
/// service)`.
#[cfg_attr(docsrs, doc(cfg(feature = "http")))]
pub struct McpHttpService<R: Registry> {
    server: McpServer<R>,
    inner: Inner<R>,
    origins: Arc<Origins>,
    /// The protocol sessions' records.
    sessions: Arc<crate::http_sessions::Table>,
    /// With authorization: who opened each protocol session.
    #[cfg(feature = "auth")]
    owners: Arc<crate::auth::SessionOwners>,
}

impl<R: Registry> Clone for McpHttpService<R> {
    fn clone(&self) -> Self {
        McpHttpService {
            server: self.server.clone(),
            inner: self.inner.clone(),
            origins: self.origins.clone(),
            sessions: self.sessions.clone(),
            #[cfg(feature = "auth")]
            owners: self.owners.clone(),
        }
    }
}

impl<R: Registry> std::fmt::Debug for McpHttpService<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpHttpService")
            .field("server", &self.server)
            .field("config", &self.inner.config)
            .field("origins", &self.origins)
            .finish()
    }
}

impl<R: Registry> McpHttpService<R> {
    pub(crate) fn new(server: McpServer<R>, mut config: StreamableHttpServerConfig) -> Self {
        let factory = server.clone();
        // rmcp checks its own list as well (when set): its origins must pass here too.
        let origins = Origins {
            any: false,
            allowed: config
                .allowed_origins
                .iter()
                .filter_map(|entry| AllowedOrigin::parse(entry, Port::Any))
                .collect(),
        };
        let sessions = Sessions::new(server.shared.idle_sessions);
        let table = sessions.table();
        config.session_store = sessions.store(config.session_store.take());
        let inner =
            StreamableHttpService::new(move || Ok(factory.handler()), Arc::new(sessions), config);
        McpHttpService {
            server,
            inner,
            origins: Arc::new(origins),
            #[cfg(feature = "auth")]
            owners: Arc::new(crate::auth::SessionOwners::new(table.clone())),
            sessions: table,
        }
    }

    /// How many protocol sessions (2025-11-25 clients) the endpoint holds, live and
    /// hibernated (see [`IdleSessions`](crate::IdleSessions)).
    pub fn session_counts(&self) -> crate::SessionCounts {
        self.sessions.counts()
    }

    /// rmcp's configuration of this endpoint.
    pub fn config(&self) -> &StreamableHttpServerConfig {
        &self.inner.config
    }

    /// Accept browser requests from `origins` too. By default the endpoint refuses every
    /// request whose `Origin` header is not a loopback origin (`http://localhost`,
    /// `http://127.0.0.1`, `http://[::1]`, any port, `https` too) with `403 Forbidden` and a
    /// JSON-RPC error, as the MCP specification asks against DNS rebinding: a web page
    /// elsewhere must not reach a server on the user's machine. Requests without an `Origin`
    /// (every client that is not a browser) are always accepted.
    ///
    /// Each entry is an origin as browsers send it, `scheme://host` or `scheme://host:port`
    /// (without a port: the scheme's default port, 443 for `https`, 80 for `http`), or
    /// `scheme://host:*` for any port, or `null` (sandboxed frames, `file:` pages).
    ///
    /// ```
    /// # use toolgroup_core::Registry;
    /// # fn f<R: Registry>(server: toolgroup_mcp::McpServer<R>) {
    /// use toolgroup_mcp::rmcp::transport::StreamableHttpServerConfig;
    ///
    /// let service = server
    ///     .http_service(StreamableHttpServerConfig::default())
    ///     .with_allowed_origins(["https://app.example.com", "http://dev.example.com:*"]);
    /// # }
    /// ```
    ///
    /// Origins listed in rmcp's `allowed_origins` of the config are accepted here too, and
    /// rmcp then refuses (in plain text) every origin outside that list, loopback ones
    /// included: prefer this method.
    ///
    /// # Panics
    ///
    /// If an entry is not an origin (`https://app.example.com/path`, `app.example.com`).
    #[must_use]
    pub fn with_allowed_origins(
        mut self,
        origins: impl IntoIterator<Item = impl AsRef<str>>,
    ) -> Self {
        let list = &mut Arc::make_mut(&mut self.origins).allowed;
        for origin in origins {
            let origin = origin.as_ref();
            list.push(AllowedOrigin::parse(origin, Port::Default).unwrap_or_else(|| {
                panic!(
                    "`{origin}` is not an origin: write `scheme://host`, `scheme://host:port`, `scheme://host:*` or `null`"
                )
            }));
        }
        self
    }

    /// Accept requests whatever their `Origin`: for an endpoint that no browser reaches, or
    /// behind a proxy that checks `Origin` itself. See
    /// [`with_allowed_origins`](Self::with_allowed_origins) for the default.
    #[must_use]
    pub fn allow_any_origin(mut self) -> Self {
        Arc::make_mut(&mut self.origins).any = true;
        self
    }

    /// The `400 Bad Request` answer for a request whose selection of groups (the path, the
    /// `X-MCP-Toolsets` header, the `groups` parameter) is refused, if it is.
    fn refuse<B>(&self, request: &Request<B>) -> Option<Response<BoxBody<Bytes, Infallible>>> {
        let refused = crate::selection::selection::<R>(request.uri(), request.headers()).err()?;
        Some(json_response(StatusCode::BAD_REQUEST, &refused.to_json()))
    }
}

/// The answer to a request refused before rmcp saw it: `status` and a JSON body.
fn json_response(
    status: StatusCode,
    body: &serde_json::Value,
) -> Response<BoxBody<Bytes, Infallible>> {
    Response::builder()
        .status(status)
        .header(http::header::CONTENT_TYPE, "application/json")
        .body(Full::new(Bytes::from(body.to_string())).boxed())
        .expect("a valid response")
}

/// Which browser origins may call the endpoint, besides loopback ones.
#[derive(Debug, Clone, Default)]
struct Origins {
    any: bool,
    allowed: Vec<AllowedOrigin>,
}

impl Origins {
    /// The `403 Forbidden` answer for a request whose `Origin` is refused, if it is.
    fn refuse(&self, headers: &http::HeaderMap) -> Option<Response<BoxBody<Bytes, Infallible>>> {
        if self.any {
            return None;
        }
        let header = headers.get(http::header::ORIGIN)?;
        let origin = header.to_str().ok().and_then(Origin::parse);
        if let Some(origin) = &origin
            && (origin.is_loopback() || self.allowed.iter().any(|a| a.matches(origin)))
        {
            return None;
        }
        let shown = crate::echo(&String::from_utf8_lossy(header.as_bytes()), 64);
        tracing::warn!(origin = %shown, "refused a request from a browser origin that is not allowed (possible DNS rebinding)");
        let message = match origin {
            Some(_) => format!(
                "forbidden: requests from the origin `{shown}` are not allowed; this server accepts browser requests from loopback origins and the origins it is configured with (`McpHttpService::with_allowed_origins`)"
            ),
            None => format!("forbidden: the `Origin` header `{shown}` is not an origin"),
        };
        Some(json_response(
            StatusCode::FORBIDDEN,
            &serde_json::json!({
                "jsonrpc": "2.0",
                "id": null,
                "error": {"code": -32000, "message": message},
            }),
        ))
    }
}

/// An `Origin` header's value: `null`, or a scheme, a host and a port.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Origin {
    Null,
    Tuple {
        scheme: String,
        host: String,
        port: Option<u16>,
    },
}

impl Origin {
    fn parse(value: &str) -> Option<Origin> {
        let value = value.trim();
        if value.eq_ignore_ascii_case("null") {
            return Some(Origin::Null);
        }
        let uri = http::Uri::try_from(value).ok()?;
        if uri.path_and_query().is_some_and(|p| p.as_str() != "/") {
            return None;
        }
        let authority = uri.authority()?;
        if authority.as_str().contains('@') {
            return None;
        }
        Some(Origin::Tuple {
            scheme: uri.scheme_str()?.to_ascii_lowercase(),
            host: authority
                .host()
                .trim_start_matches('[')
                .trim_end_matches(']')
                .to_ascii_lowercase(),
            port: authority.port_u16(),
        })
    }

    fn is_loopback(&self) -> bool {
        matches!(self, Origin::Tuple { scheme, host, .. }
            if matches!(scheme.as_str(), "http" | "https")
                && matches!(host.as_str(), "localhost" | "127.0.0.1" | "::1"))
    }
}

fn default_port(scheme: &str) -> Option<u16> {
    match scheme {
        "http" => Some(80),
        "https" => Some(443),
        _ => None,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Port {
    /// `:*`
    Any,
    /// No port given: the scheme's default port.
    Default,
    Exact(u16),
}

/// An entry of the allowed origins.
#[derive(Debug, Clone, PartialEq, Eq)]
struct AllowedOrigin {
    origin: Origin,
    port: Port,
}

impl AllowedOrigin {
    /// `portless` is what an entry without a port means: the scheme's default port for ours,
    /// any port for rmcp's list (as rmcp 3.11 reads it).
    fn parse(entry: &str, portless: Port) -> Option<AllowedOrigin> {
        let entry = entry.trim();
        let (base, any_port) = match entry.strip_suffix(":*") {
            Some(base) => (base, true),
            None => (entry, false),
        };
        let origin = Origin::parse(base)?;
        let port = match (&origin, any_port) {
            (Origin::Null, true) => return None,
            // Not compared: `null` has no port.
            (Origin::Null, false) => Port::Any,
            (Origin::Tuple { port: Some(_), .. }, true) => return None,
            (_, true) => Port::Any,
            (Origin::Tuple { port: Some(p), .. }, false) => Port::Exact(*p),
            (Origin::Tuple { port: None, .. }, false) => portless,
        };
        Some(AllowedOrigin { origin, port })
    }

    fn matches(&self, origin: &Origin) -> bool {
        match (&self.origin, origin) {
            (Origin::Null, Origin::Null) => true,
            (
                Origin::Tuple { scheme, host, .. },
                Origin::Tuple {
                    scheme: o_scheme,
                    host: o_host,
                    port: o_port,
                },
            ) if scheme == o_scheme && host == o_host => {
                let o_port = o_port.or_else(|| default_port(o_scheme));
                match self.port {
                    Port::Any => true,
                    Port::Default => o_port == default_port(scheme),
                    Port::Exact(p) => o_port == Some(p),
                }
            }
            _ => false,
        }
    }
}

/// Whether rmcp reads this request's body as JSON-RPC: a POST with a JSON `Content-Type`
/// (rmcp answers the others itself, as before).
fn has_json_body<B>(request: &Request<B>) -> bool {
    request.method() == http::Method::POST
        && request
            .headers()
            .get(http::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| {
                v.split(';')
                    .next()
                    .unwrap_or_default()
                    .trim()
                    .eq_ignore_ascii_case("application/json")
            })
}

/// A POST body read up to the size cap.
enum Body {
    Whole(Bytes),
    /// More than the cap (what was read, for rmcp to refuse with `413` as it would have).
    TooLarge(Bytes),
    Failed(String),
}

async fn read_body<B>(body: B, max: usize) -> Body
where
    B: http_body::Body,
    B::Error: Display,
{
    let mut body = std::pin::pin!(body);
    let mut collected = BytesMut::new();
    while let Some(frame) = body.frame().await {
        match frame {
            Ok(frame) => {
                let Ok(mut data) = frame.into_data() else {
                    continue;
                };
                let too_large = data.remaining() > max.saturating_sub(collected.len());
                collected.put(&mut data);
                if too_large {
                    return Body::TooLarge(collected.freeze());
                }
            }
            Err(e) => return Body::Failed(e.to_string()),
        }
    }
    Body::Whole(collected.freeze())
}

impl<R, B> tower_service::Service<Request<B>> for McpHttpService<R>
where
    R: Registry,
    B: http_body::Body + Send + 'static,
    B::Error: Display,
    B::Data: Send + 'static,
{
    type Response = Response<BoxBody<Bytes, Infallible>>;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Infallible>> + Send>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        if let Some(refusal) = self.origins.refuse(request.headers()) {
            return Box::pin(std::future::ready(Ok(refusal)));
        }
        #[cfg(feature = "auth")]
        if let Some(auth) = self.server.shared.auth.clone() {
            let this = self.clone();
            return Box::pin(async move {
                let scopes = this.server.toolkit().declared_scopes();
                let serve = |request| this.serve(request);
                Ok(
                    crate::auth::gate::authorized(&this.owners, &auth, scopes, request, serve)
                        .await,
                )
            });
        }
        self.serve(request)
    }
}

impl<R: Registry> McpHttpService<R> {
    /// A request past the `Origin` check (and authorization): the selection, the body's
    /// JSON-RPC, then rmcp.
    pub(crate) fn serve<B>(&self, request: Request<B>) -> Served
    where
        B: http_body::Body + Send + 'static,
        B::Error: Display,
        B::Data: Send + 'static,
    {
        if let Some(refusal) = self.refuse(&request) {
            return Box::pin(std::future::ready(Ok(refusal)));
        }
        if !has_json_body(&request) {
            let mut inner = self.inner.clone();
            return tower_service::Service::call(&mut inner, request);
        }
        // rmcp answers a body it cannot read with `415` and plain text: read it here once,
        // answer what is not JSON-RPC as JSON-RPC says, and hand rmcp the same bytes.
        let inner = self.inner.clone();
        #[cfg(feature = "auth")]
        let this = self.clone();
        let max = inner.config.max_request_body_bytes;
        Box::pin(async move {
            let (parts, body) = request.into_parts();
            let bytes = match read_body(body, max).await {
                Body::Whole(bytes) => {
                    if let Err(refusal) = crate::jsonrpc::check(&bytes) {
                        return Ok(json_response(StatusCode::BAD_REQUEST, &refusal.to_json()));
                    }
                    #[cfg(feature = "auth")]
                    if let Some(refusal) =
                        crate::auth::gate::scope_refusal(&this.server, &parts, &bytes)
                    {
                        return Ok(refusal);
                    }
                    bytes
                }
                Body::TooLarge(bytes) => bytes,
                Body::Failed(e) => {
                    // What rmcp answers when the body cannot be read.
                    return Ok(Response::builder()
                        .status(StatusCode::INTERNAL_SERVER_ERROR)
                        .body(
                            Full::new(Bytes::from(format!("Failed to read request body: {e}")))
                                .boxed(),
                        )
                        .expect("a valid response"));
                }
            };
            Ok(inner
                .handle(Request::from_parts(parts, Full::new(bytes)))
                .await)
        })
    }
}
