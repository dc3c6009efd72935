//! The metadata document, the challenges, and every kind of bad token refused with `401`.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::{Value, json};
use toolgroup_mcp::Mode;

use crate::idp::{Idp, call_body, challenge, list_body, post, serve};

fn stateless() -> rmcp::transport::StreamableHttpServerConfig {
    rmcp::transport::StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
        .with_json_response(true)
}

/// `token` with its header replaced by `header` (the payload and signature kept).
fn with_header(token: &str, header: &Value) -> String {
    let mut parts = token.splitn(2, '.');
    let _ = parts.next();
    format!(
        "{}.{}",
        URL_SAFE_NO_PAD.encode(header.to_string()),
        parts.next().unwrap()
    )
}

#[tokio::test(flavor = "multi_thread")]
async fn metadata_at_both_well_known_paths() {
    let Some(idp) = Idp::start() else { return };
    let url = serve(&idp, Mode::Mask, stateless(), |v| v, |a| a).await;
    let base = url.trim_end_matches("/mcp");
    for path in [
        "/.well-known/oauth-protected-resource/mcp",
        "/.well-known/oauth-protected-resource",
    ] {
        let response = reqwest::get(format!("{base}{path}")).await.unwrap();
        assert_eq!(response.status(), 200, "{path}");
        let doc: Value = response.json_text().await;
        assert_eq!(doc["resource"], url.as_str());
        assert_eq!(doc["authorization_servers"], json!([idp.issuer]));
        assert_eq!(doc["bearer_methods_supported"], json!(["header"]));
        assert_eq!(doc["scopes_supported"], json!(["web:fetch", "web:read"]));
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_request_without_a_token_is_challenged() {
    let Some(idp) = Idp::start() else { return };
    let url = serve(&idp, Mode::Mask, stateless(), |v| v, |a| a).await;
    let metadata = format!(
        "{}/.well-known/oauth-protected-resource/mcp",
        url.trim_end_matches("/mcp")
    );
    let response = post(&url, None, &list_body()).await;
    assert_eq!(response.status(), 401);
    assert_eq!(
        challenge(&response),
        format!("Bearer scope=\"web:fetch web:read\", resource_metadata=\"{metadata}\"")
    );
    // Another scheme is no bearer token: the same challenge, without an error code.
    let response = reqwest::Client::new()
        .post(&url)
        .header("authorization", "Basic YWxpY2U6c2VjcmV0")
        .header("content-type", "application/json")
        .body(list_body().to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 401);
    assert!(
        !challenge(&response).contains("error="),
        "{}",
        challenge(&response)
    );
    // A valid token passes.
    let token = idp.token(&url, "alice", "");
    let response = post(&url, Some(&token), &call_body("whoami", json!({}))).await;
    assert_eq!(response.status(), 200);
    assert!(response.text().await.unwrap().contains("alice []"));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_token_in_the_url_is_a_bad_request() {
    let Some(idp) = Idp::start() else { return };
    let url = serve(&idp, Mode::Mask, stateless(), |v| v, |a| a).await;
    let token = idp.token(&url, "alice", "");
    let response = post(&format!("{url}?access_token={token}"), None, &list_body()).await;
    assert_eq!(response.status(), 400);
    assert!(challenge(&response).starts_with("Bearer error=\"invalid_request\""));
    // Even with the header too: one method per request (RFC 6750 section 2).
    let response = post(
        &format!("{url}?access_token={token}"),
        Some(&token),
        &list_body(),
    )
    .await;
    assert_eq!(response.status(), 400);
}

#[tokio::test(flavor = "multi_thread")]
async fn every_bad_token_gets_401_and_says_nothing_of_why() {
    let Some(idp) = Idp::start() else { return };
    let url = serve(&idp, Mode::Mask, stateless(), |v| v, |a| a).await;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let good = idp.token(&url, "alice", "web:read");
    let claims = |extra: Value| {
        let mut c = json!({"aud": url, "sub": "mallory", "scope": "web:read"});
        c.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        c
    };
    let unsigned = {
        let t = with_header(&good, &json!({"alg": "none", "typ": "JWT", "kid": "k1"}));
        format!("{}.", t.rsplit_once('.').unwrap().0)
    };
    let bad: Vec<(&str, String)> = vec![
        (
            "unknown key",
            with_header(&good, &json!({"alg": "RS256", "typ": "JWT", "kid": "nope"})),
        ),
        ("alg none", unsigned),
        (
            "HS256",
            with_header(&good, &json!({"alg": "HS256", "typ": "JWT", "kid": "k1"})),
        ),
        ("expired", idp.token_with("k1", claims(json!({})), -3600)),
        (
            "not yet valid",
            idp.token_with("k1", claims(json!({"nbf": now + 3600})), 7200),
        ),
        (
            "wrong audience",
            idp.token_with("k1", claims(json!({"aud": "http://127.0.0.1:1/mcp"})), 3600),
        ),
        (
            "no audience",
            idp.token_with("k1", claims(json!({"aud": null})), 3600),
        ),
        (
            "wrong issuer",
            idp.token_with("k1", claims(json!({"iss": "http://127.0.0.1:1"})), 3600),
        ),
        (
            "no subject",
            idp.token_with("k1", claims(json!({"sub": null})), 3600),
        ),
        (
            "scope is a number",
            idp.token_with("k1", claims(json!({"scope": 5})), 3600),
        ),
        (
            "scp is an object",
            idp.token_with("k1", claims(json!({"scope": null, "scp": {"a": 1}})), 3600),
        ),
        (
            "scope breaks the token rule",
            idp.token_with("k1", claims(json!({"scope": "a\"b"})), 3600),
        ),
        (
            "malformed base64",
            "eyJhbGciOiJSUzI1NiJ9.@@@.###".to_owned(),
        ),
        ("not a JWT", "opaque".to_owned()),
        ("100 KB", "a".repeat(100 * 1024)),
        ("another token's signature", {
            let other = idp.token(&url, "bob", "");
            format!(
                "{}.{}",
                good.rsplit_once('.').unwrap().0,
                other.rsplit_once('.').unwrap().1
            )
        }),
    ];
    for (why, token) in bad {
        let response = post(&url, Some(&token), &call_body("whoami", json!({}))).await;
        assert_eq!(response.status(), 401, "{why}");
        let challenge = challenge(&response);
        assert!(
            challenge.starts_with("Bearer error=\"invalid_token\""),
            "{why}: {challenge}"
        );
        assert!(
            challenge.contains("resource_metadata=\""),
            "{why}: {challenge}"
        );
        let body = response.text().await.unwrap();
        assert!(
            !body.contains("mallory") && !body.contains("expired") && !body.contains("audience"),
            "{why}: {body}"
        );
    }
    // scp as an array of strings is read.
    let token = idp.token_with(
        "k1",
        json!({"aud": url, "sub": "carol", "scp": ["web:read", "a"]}),
        3600,
    );
    let response = post(&url, Some(&token), &call_body("whoami", json!({}))).await;
    assert!(
        response
            .text()
            .await
            .unwrap()
            .contains("carol [a web:read]")
    );
}

trait JsonText {
    async fn json_text(self) -> Value;
}

impl JsonText for reqwest::Response {
    async fn json_text(self) -> Value {
        let text = self.text().await.unwrap();
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"))
    }
}
