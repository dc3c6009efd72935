//! The authorization server's signing keys: a JWKS fetched (its URL given, or discovered
//! from the issuer's metadata), cached, and fetched again only for a key it does not hold,
//! at most once per refresh interval.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use jsonwebtoken::jwk::{AlgorithmParameters, Jwk, JwkSet, PublicKeyUse};
use jsonwebtoken::{Algorithm, DecodingKey};
use serde_json::Value;

use super::AuthError;

/// The algorithms a `JwtValidator` can accept: public-key signatures only. A shared
/// secret (`HS256`...) would let anyone holding the verification key mint tokens, and
/// `none` is no signature at all.
pub(super) const ASYMMETRIC: &[Algorithm] = &[
    Algorithm::RS256,
    Algorithm::RS384,
    Algorithm::RS512,
    Algorithm::PS256,
    Algorithm::PS384,
    Algorithm::PS512,
    Algorithm::ES256,
    Algorithm::ES384,
    Algorithm::EdDSA,
];

/// The most a JWKS or metadata document may weigh.
const MAX_DOCUMENT_BYTES: usize = 1024 * 1024;

/// One usable verification key.
pub(super) struct Key {
    pub(super) key: DecodingKey,
    /// The `alg` the JWK is restricted to, if it says.
    pub(super) alg: Option<Algorithm>,
}

impl Key {
    /// Whether this key may check a token signed with `alg`.
    pub(super) fn allows(&self, alg: Algorithm) -> bool {
        self.alg.is_none_or(|a| a == alg) && self.key.family() == alg.family()
    }
}

/// The keys as last fetched.
#[derive(Default)]
pub(super) struct KeySet {
    pub(super) by_kid: HashMap<String, Key>,
    /// Keys without a `kid` (tried for tokens without one).
    pub(super) unnamed: Vec<Key>,
}

/// Where the keys come from, and when they were last asked for.
pub(super) struct KeySource {
    issuer: String,
    /// The JWKS URL, given or discovered (once).
    jwks_uri: Option<String>,
    client: reqwest::Client,
    /// The last fetch attempt, successful or not (the refresh interval counts from it).
    last_attempt: Option<Instant>,
}

impl KeySource {
    pub(super) fn new(issuer: String, jwks_uri: Option<String>) -> Self {
        KeySource {
            issuer,
            jwks_uri,
            client: reqwest::Client::new(),
            last_attempt: None,
        }
    }

    /// Whether a fetch may start now: never fetched, or the last attempt is at least
    /// `interval` old.
    pub(super) fn may_fetch(&self, interval: Duration) -> bool {
        self.last_attempt.is_none_or(|t| t.elapsed() >= interval)
    }

    /// Fetch the key set (discovering the JWKS URL first if needed), within `timeout`. The
    /// error is [`AuthError::unavailable`], with the HTTP client's or the JSON parser's error
    /// as its source when one is the cause.
    pub(super) async fn fetch(&mut self, timeout: Duration) -> Result<KeySet, AuthError> {
        self.last_attempt = Some(Instant::now());
        match tokio::time::timeout(timeout, self.fetch_unbounded()).await {
            Ok(result) => result,
            Err(elapsed) => Err(AuthError::unavailable(format!(
                "fetching the signing keys took more than {} ms",
                timeout.as_millis()
            ))
            .with_source(elapsed)),
        }
    }

    async fn fetch_unbounded(&mut self) -> Result<KeySet, AuthError> {
        let uri = match &self.jwks_uri {
            Some(uri) => uri.clone(),
            None => {
                let uri = self.discover().await?;
                self.jwks_uri = Some(uri.clone());
                uri
            }
        };
        let doc = get_json(&self.client, &uri).await?;
        let set: JwkSet = serde_json::from_value(doc).map_err(|e| {
            AuthError::unavailable(format!("the JWKS at {uri} is not a JWK set: {e}"))
                .with_source(e)
        })?;
        Ok(key_set(&set))
    }

    /// The `jwks_uri` of the issuer's metadata: RFC 8414's
    /// `/.well-known/oauth-authorization-server`, then OpenID Connect Discovery's
    /// `/.well-known/openid-configuration` (inserted before the issuer's path, then
    /// appended to it), in the order the MCP specification gives clients. A document whose
    /// `issuer` is not exactly the issuer is not used. The error names every attempt's
    /// problem, and has the first failed request's cause as its source.
    async fn discover(&self) -> Result<String, AuthError> {
        let issuer = self.issuer.trim_end_matches('/');
        let uri: http::Uri = issuer.parse().map_err(|e| {
            AuthError::unavailable(format!(
                "the issuer `{}` is not a URL",
                crate::echo(issuer, 64)
            ))
            .with_source(e)
        })?;
        let (scheme, authority) = match (uri.scheme_str(), uri.authority()) {
            (Some(s), Some(a)) => (s, a.as_str()),
            _ => {
                return Err(AuthError::unavailable(format!(
                    "the issuer `{}` is not absolute",
                    crate::echo(issuer, 64)
                )));
            }
        };
        let path = uri.path().trim_end_matches('/');
        let mut candidates = vec![
            format!("{scheme}://{authority}/.well-known/oauth-authorization-server{path}"),
            format!("{scheme}://{authority}/.well-known/openid-configuration{path}"),
        ];
        if !path.is_empty() {
            candidates.push(format!("{issuer}/.well-known/openid-configuration"));
        }
        let mut problems = Vec::new();
        let mut first_failure = None;
        for candidate in candidates {
            match get_json(&self.client, &candidate).await {
                Ok(doc) if doc["issuer"].as_str() != Some(self.issuer.as_str()) => {
                    problems.push(format!(
                        "{candidate}: its `issuer` is not `{}`",
                        self.issuer
                    ));
                }
                Ok(doc) => match doc["jwks_uri"].as_str() {
                    Some(jwks) => return Ok(jwks.to_owned()),
                    None => problems.push(format!("{candidate}: no `jwks_uri`")),
                },
                Err(e) => {
                    problems.push(e.reason().to_owned());
                    first_failure.get_or_insert(e);
                }
            }
        }
        let error = AuthError::unavailable(format!(
            "no authorization server metadata with a `jwks_uri`: {}",
            problems.join("; ")
        ));
        Err(match first_failure {
            Some(failure) => error.with_cause_of(failure),
            None => error,
        })
    }
}

/// GET `uri` as JSON, at most [`MAX_DOCUMENT_BYTES`].
async fn get_json(client: &reqwest::Client, uri: &str) -> Result<Value, AuthError> {
    let failed = |e: reqwest::Error| AuthError::unavailable(format!("{uri}: {e}")).with_source(e);
    let mut response = client
        .get(uri)
        .header("accept", "application/json")
        .send()
        .await
        .map_err(failed)?;
    if !response.status().is_success() {
        return Err(AuthError::unavailable(format!(
            "{uri}: HTTP {}",
            response.status()
        )));
    }
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(failed)? {
        if body.len() + chunk.len() > MAX_DOCUMENT_BYTES {
            return Err(AuthError::unavailable(format!(
                "{uri}: larger than {MAX_DOCUMENT_BYTES} bytes"
            )));
        }
        body.extend_from_slice(&chunk);
    }
    serde_json::from_slice(&body)
        .map_err(|e| AuthError::unavailable(format!("{uri}: not JSON: {e}")).with_source(e))
}

/// The usable keys of a set: signature keys (no `use`, or `use: sig`) of an asymmetric type
/// (RSA, EC, OKP); shared secrets (`oct`) are never keys here.
fn key_set(set: &JwkSet) -> KeySet {
    let mut out = KeySet::default();
    for jwk in &set.keys {
        if matches!(jwk.algorithm, AlgorithmParameters::OctetKey(_))
            || jwk
                .common
                .public_key_use
                .as_ref()
                .is_some_and(|u| *u != PublicKeyUse::Signature)
        {
            continue;
        }
        let Some(key) = usable(jwk) else { continue };
        match &jwk.common.key_id {
            Some(kid) => {
                out.by_kid.insert(kid.clone(), key);
            }
            None => out.unnamed.push(key),
        }
    }
    out
}

fn usable(jwk: &Jwk) -> Option<Key> {
    let alg = match jwk.common.key_algorithm {
        Some(alg) => Some(Algorithm::try_from(alg).ok()?),
        None => None,
    };
    if alg.is_some_and(|a| !ASYMMETRIC.contains(&a)) {
        return None;
    }
    let key = DecodingKey::from_jwk(jwk).ok()?;
    Some(Key { key, alg })
}
