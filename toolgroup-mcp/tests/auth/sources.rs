//! An `AuthError` keeps the error it comes from as its `source`: the JWT library's, the HTTP
//! client's, the scope rule's, or a validator's own.

use std::error::Error as _;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::json;
use toolgroup_mcp::auth::{AuthError, AuthErrorKind, JwtValidator, TokenValidator};

use crate::idp::Idp;

const AUDIENCE: &str = "http://127.0.0.1:1/mcp";

/// A loopback base URL nothing listens on.
fn closed_port() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap();
    drop(listener);
    format!("http://{address}")
}

/// A JWT naming the RS256 key `k1`: its keys are fetched before its signature is checked.
fn token_naming_k1() -> String {
    let part = |json: serde_json::Value| URL_SAFE_NO_PAD.encode(json.to_string());
    format!(
        "{}.{}.{}",
        part(json!({"alg": "RS256", "kid": "k1", "typ": "JWT"})),
        part(json!({"sub": "alice", "aud": AUDIENCE})),
        URL_SAFE_NO_PAD.encode("not a signature")
    )
}

#[tokio::test]
async fn a_malformed_header_keeps_the_jwt_librarys_error() {
    let validator = JwtValidator::new(closed_port(), AUDIENCE);
    let error = validator.validate("not-a-jwt").await.unwrap_err();
    assert_eq!(error.kind(), AuthErrorKind::Invalid);
    let source = error.source().expect("the JWT library's error");
    assert!(
        error.reason().ends_with(&source.to_string()),
        "{error} / {source}"
    );
}

#[tokio::test]
async fn an_unreachable_jwks_keeps_the_http_clients_error() {
    let jwks = format!("{}/jwks", closed_port());
    let validator = JwtValidator::new("http://issuer.example", AUDIENCE).with_jwks_uri(jwks);
    let error = validator.validate(&token_naming_k1()).await.unwrap_err();
    assert_eq!(error.kind(), AuthErrorKind::Unavailable);
    let source = error.source().expect("the HTTP client's error");
    let http = source
        .downcast_ref::<reqwest::Error>()
        .unwrap_or_else(|| panic!("not reqwest's: {source:?}"));
    assert!(http.is_connect(), "{http:?}");
}

#[tokio::test]
async fn failed_discovery_keeps_the_first_requests_error() {
    let validator = JwtValidator::new(closed_port(), AUDIENCE);
    let error = validator.validate(&token_naming_k1()).await.unwrap_err();
    assert_eq!(error.kind(), AuthErrorKind::Unavailable);
    assert!(
        error.reason().contains("no authorization server metadata"),
        "{error}"
    );
    let source = error.source().expect("the HTTP client's error");
    assert!(
        source.downcast_ref::<reqwest::Error>().is_some(),
        "{source:?}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_refused_token_keeps_the_jwt_librarys_error() {
    let Some(idp) = Idp::start() else { return };
    let validator = JwtValidator::new(idp.issuer.clone(), AUDIENCE);
    let expired = idp.token_with("k1", json!({"aud": AUDIENCE, "sub": "alice"}), -3600);
    let error = validator.validate(&expired).await.unwrap_err();
    assert_eq!(error.kind(), AuthErrorKind::Invalid);
    assert_eq!(error.reason(), "the token has expired");
    assert!(error.source().is_some(), "{error:?}");

    // A scope claim breaking the scope-token rule: the rule's error.
    let bad_scope = idp.token_with(
        "k1",
        json!({"aud": AUDIENCE, "sub": "alice", "scope": "a\"b"}),
        3600,
    );
    let error = validator.validate(&bad_scope).await.unwrap_err();
    let source = error.source().expect("the scope rule's error");
    assert!(
        source
            .downcast_ref::<toolgroup::scope::ScopeError>()
            .is_some(),
        "{source:?}"
    );
}

#[test]
fn a_validator_of_your_own_gives_its_cause() {
    let cause = std::io::Error::new(std::io::ErrorKind::TimedOut, "introspection timed out");
    let error =
        AuthError::unavailable("the introspection endpoint did not answer").with_source(cause);
    let source = error.source().expect("the cause");
    assert_eq!(
        source
            .downcast_ref::<std::io::Error>()
            .map(std::io::Error::kind),
        Some(std::io::ErrorKind::TimedOut)
    );
    assert!(AuthError::invalid("unknown API key").source().is_none());
}
