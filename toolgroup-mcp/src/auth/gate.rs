//! The HTTP endpoint's authorization: the bearer token of each request, the session's
//! owner, and the insufficient-scope answer of a `tools/call`.

use std::convert::Infallible;
use std::future::Future;

use bytes::Bytes;
use http::{Request, Response, StatusCode};
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt as _, Full};
use toolgroup_core::{Registry, Scopes};

use super::{BearerAuth, Presented, Principal, SessionOwners, presented};
use crate::McpServer;

type Answer = Response<BoxBody<Bytes, Infallible>>;

const SESSION_HEADER: &str = "mcp-session-id";

/// `status` with a JSON body.
fn json_response(status: StatusCode, body: &serde_json::Value) -> Answer {
    Response::builder()
        .status(status)
        .header(http::header::CONTENT_TYPE, "application/json")
        .body(Full::new(Bytes::from(body.to_string())).boxed())
        .expect("a valid response")
}

/// `status` with a JSON-RPC error body (`id`: null unless given) and a `WWW-Authenticate`
/// challenge.
fn refusal(status: StatusCode, challenge: &str, message: &str, id: serde_json::Value) -> Answer {
    let mut answer = json_response(
        status,
        &serde_json::json!({
            "jsonrpc": "2.0",
            "id": id,
            "error": {"code": -32001, "message": message},
        }),
    );
    answer.headers_mut().insert(
        http::header::WWW_AUTHENTICATE,
        http::HeaderValue::from_str(challenge).expect("a challenge is a header value"),
    );
    answer
}

/// The principal of a request, or the `400`/`401` answer. What went wrong goes to
/// `tracing`, not to the client.
async fn principal(
    auth: &BearerAuth,
    scopes: &Scopes,
    request: &http::request::Parts,
) -> Result<Principal, Answer> {
    let invalid = || {
        refusal(
            StatusCode::UNAUTHORIZED,
            &auth.challenge(Some("invalid_token"), scopes),
            "unauthorized: the access token is not valid for this server",
            serde_json::Value::Null,
        )
    };
    let token = match presented(&request.headers, request.uri.query()) {
        Presented::Missing => {
            return Err(refusal(
                StatusCode::UNAUTHORIZED,
                &auth.challenge(None, scopes),
                "unauthorized: send an access token (`Authorization: Bearer <token>`); the WWW-Authenticate header names the resource metadata",
                serde_json::Value::Null,
            ));
        }
        Presented::Malformed(why) => {
            tracing::info!(
                problem = why,
                "refused a request that presents its token wrongly"
            );
            return Err(refusal(
                StatusCode::BAD_REQUEST,
                &auth.challenge(Some("invalid_request"), &Scopes::none()),
                "bad request: send the access token in one `Authorization: Bearer` header, never in the URL",
                serde_json::Value::Null,
            ));
        }
        Presented::Token(token) => token,
    };
    if token.is_empty() || token.len() > auth.max_token_bytes() {
        tracing::info!(
            bytes = token.len(),
            "refused an empty or oversized access token"
        );
        return Err(invalid());
    }
    auth.validator().validate(token).await.map_err(|e| {
        tracing::info!(reason = %e, "refused an access token");
        invalid()
    })
}

/// Serve `request` with `serve` if its token is valid and, for a protocol session, the
/// session is the principal's; otherwise answer the refusal. `scopes`: the toolkit's
/// declared scopes, the challenge's `scope`.
pub(crate) async fn authorized<B, F>(
    owners: &SessionOwners,
    auth: &BearerAuth,
    scopes: Scopes,
    request: Request<B>,
    serve: impl FnOnce(Request<B>) -> F,
) -> Answer
where
    F: Future<Output = Result<Answer, Infallible>>,
{
    let (mut parts, body) = request.into_parts();
    let principal = match principal(auth, &scopes, &parts).await {
        Ok(p) => p,
        Err(answer) => return answer,
    };
    let owner = principal.state_key();
    let session = parts
        .headers
        .get(SESSION_HEADER)
        .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
    if let Some(id) = &session
        && !owners.allows(id, &owner)
    {
        // As for a session that does not exist: the client starts a new one, and learns
        // nothing about another principal's sessions.
        tracing::info!("refused a protocol session opened by another principal");
        return json_response(
            StatusCode::NOT_FOUND,
            &serde_json::json!({
                "jsonrpc": "2.0",
                "id": null,
                "error": {"code": -32001, "message": "session not found: start a new session (initialize without `Mcp-Session-Id`)"},
            }),
        );
    }
    parts.extensions.insert(principal);
    let answer = match serve(Request::from_parts(parts, body)).await {
        Ok(answer) => answer,
        Err(never) => match never {},
    };
    if session.is_none()
        && let Some(id) = answer.headers().get(SESSION_HEADER)
    {
        owners
            .record(String::from_utf8_lossy(id.as_bytes()).into_owned(), owner)
            .await;
    }
    answer
}

/// With [`BearerAuth::with_insufficient_scope_status`]: the `403` answer to a `tools/call`
/// (`body`) of a tool whose required scopes the request's principal lacks.
pub(crate) fn scope_refusal<R: Registry>(
    server: &McpServer<R>,
    parts: &http::request::Parts,
    body: &[u8],
) -> Option<Answer> {
    let auth = server.shared.auth.as_ref()?;
    if !auth.insufficient_scope_status() {
        return None;
    }
    let principal = parts.extensions.get::<Principal>()?;
    let message: serde_json::Value = serde_json::from_slice(body).ok()?;
    if message["method"] != "tools/call" {
        return None;
    }
    let name = message["params"]["name"].as_str()?;
    let required = server.toolkit().required_scopes(name)?;
    if principal.scopes.covers(&required) {
        return None;
    }
    tracing::info!(tool = %crate::echo(name, 64), missing = %principal.scopes.missing(&required), "refused a call for insufficient scope");
    Some(refusal(
        StatusCode::FORBIDDEN,
        &auth.challenge(Some("insufficient_scope"), &required),
        &format!(
            "forbidden: `{}` needs the scopes `{required}`; authorize again with them",
            crate::echo(name, 64)
        ),
        message
            .get("id")
            .cloned()
            .unwrap_or(serde_json::Value::Null),
    ))
}
