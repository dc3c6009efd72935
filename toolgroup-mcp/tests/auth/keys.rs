//! The JWKS: key rotation, the refresh interval, and an endpoint that is down or slow.

use std::time::Duration;

use serde_json::json;
use toolgroup_mcp::Mode;
use toolgroup_mcp::auth::JwtValidator;

use crate::idp::{Idp, call_body, post, serve};

fn stateless() -> rmcp::transport::StreamableHttpServerConfig {
    rmcp::transport::StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
        .with_json_response(true)
}

async fn status(url: &str, token: &str) -> u16 {
    post(url, Some(token), &call_body("whoami", json!({})))
        .await
        .status()
        .as_u16()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_rotated_key_is_fetched_when_a_token_names_it() {
    let Some(idp) = Idp::start() else { return };
    let url = serve(
        &idp,
        Mode::Mask,
        stateless(),
        |v| v.with_refresh_interval(Duration::ZERO),
        |a| a,
    )
    .await;
    assert_eq!(status(&url, &idp.token(&url, "alice", "")).await, 200);
    // The authorization server rotates to an EC key mid-test; tokens of both keys work.
    idp.add_key("k2", "ES256");
    let rotated = idp.token_with("k2", json!({"aud": url, "sub": "alice"}), 3600);
    assert_eq!(status(&url, &rotated).await, 200);
    assert_eq!(status(&url, &idp.token(&url, "alice", "")).await, 200);
    idp.add_key("k3", "EdDSA");
    let ed = idp.token_with("k3", json!({"aud": url, "sub": "alice"}), 3600);
    assert_eq!(status(&url, &ed).await, 200);
}

#[tokio::test(flavor = "multi_thread")]
async fn an_unknown_key_fetches_at_most_once_per_interval() {
    let Some(idp) = Idp::start() else { return };
    let url = serve(
        &idp,
        Mode::Mask,
        stateless(),
        |v| v.with_refresh_interval(Duration::from_secs(3600)),
        |a| a,
    )
    .await;
    // The first token fetches the JWKS.
    assert_eq!(status(&url, &idp.token(&url, "alice", "")).await, 200);
    // A key added since is not fetched again within the interval: the token is refused, and
    // tokens of the cached key still pass.
    idp.add_key("k2", "RS256");
    let rotated = idp.token_with("k2", json!({"aud": url, "sub": "alice"}), 3600);
    assert_eq!(status(&url, &rotated).await, 401);
    assert_eq!(status(&url, &idp.token(&url, "alice", "")).await, 200);
}

#[tokio::test(flavor = "multi_thread")]
async fn cached_keys_keep_working_while_the_jwks_endpoint_is_down() {
    let Some(idp) = Idp::start() else { return };
    let url = serve(
        &idp,
        Mode::Mask,
        stateless(),
        |v| v.with_refresh_interval(Duration::ZERO),
        |a| a,
    )
    .await;
    let before = idp.token(&url, "alice", "");
    assert_eq!(status(&url, &before).await, 200);
    idp.stop();
    idp.add_key("k9", "RS256");
    // The new key cannot be fetched: 401 once the fetch fails.
    let unknown = idp.token_with("k9", json!({"aud": url, "sub": "alice"}), 3600);
    assert_eq!(status(&url, &unknown).await, 401);
    // The cached key still works, without the endpoint.
    assert_eq!(status(&url, &before).await, 200);
    assert_eq!(status(&url, &idp.token(&url, "bob", "")).await, 200);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_jwks_endpoint_that_never_answers_is_given_up_on() {
    let Some(idp) = Idp::start() else { return };
    // A loopback listener that accepts connections and never answers.
    let silent = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let jwks = format!("http://{}/jwks", silent.local_addr().unwrap());
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((socket, _)) = silent.accept().await {
            held.push(socket);
        }
    });
    let url = serve(
        &idp,
        Mode::Mask,
        stateless(),
        |v: JwtValidator| {
            v.with_jwks_uri(jwks)
                .with_fetch_timeout(Duration::from_millis(300))
        },
        |a| a,
    )
    .await;
    assert_eq!(status(&url, &idp.token(&url, "alice", "")).await, 401);
}
