//! JWT access tokens checked against the authorization server's JWKS.

use std::sync::{Arc, RwLock};
use std::time::Duration;

use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::{Header, Validation};
use serde_json::{Map, Value};
use toolgroup_core::{BoxFuture, Scopes};

use super::jwks::{ASYMMETRIC, Key, KeySet, KeySource};
use super::{AuthError, DEFAULT_MAX_TOKEN_BYTES, Principal, TokenValidator};

/// A JWS signature algorithm (re-exported from `jsonwebtoken`).
pub use jsonwebtoken::Algorithm;

/// Checks JWT access tokens: the signature against the issuer's JWKS, `iss`, `aud` (this
/// server's resource URI), `exp` and `nbf` (with a clock skew allowance), and reads `sub`
/// and the scopes (`scope`, a space-separated string, or `scp`, an array of strings or a
/// space-separated string).
///
/// The JWKS is fetched when a token names a key the cache does not hold (the first token
/// included), at most once per [refresh interval](Self::with_refresh_interval) (default
/// 30 s) and within the [fetch timeout](Self::with_fetch_timeout) (default 5 s); never for
/// a token whose key is cached. When the endpoint is down or slow, tokens signed with
/// cached keys keep working, and a token with an unknown key is refused (`401`) once the
/// timeout has passed.
pub struct JwtValidator {
    issuer: String,
    audience: String,
    algorithms: Vec<Algorithm>,
    leeway: Duration,
    refresh: Duration,
    timeout: Duration,
    keys: RwLock<Arc<KeySet>>,
    /// Held while fetching, so concurrent tokens with an unknown key wait for one fetch.
    source: tokio::sync::Mutex<KeySource>,
}

impl std::fmt::Debug for JwtValidator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JwtValidator")
            .field("issuer", &self.issuer)
            .field("audience", &self.audience)
            .field("algorithms", &self.algorithms)
            .finish_non_exhaustive()
    }
}

impl JwtValidator {
    /// Tokens of `issuer` (exactly the `iss` they carry) for `audience` (this server's
    /// resource URI). The JWKS URL is discovered from the issuer's metadata
    /// (`/.well-known/oauth-authorization-server`, then `/.well-known/openid-configuration`)
    /// when the first token arrives, unless [`with_jwks_uri`](Self::with_jwks_uri) gives it.
    pub fn new(issuer: impl Into<String>, audience: impl Into<String>) -> Self {
        let issuer = issuer.into();
        JwtValidator {
            source: tokio::sync::Mutex::new(KeySource::new(issuer.clone(), None)),
            issuer,
            audience: audience.into(),
            algorithms: ASYMMETRIC.to_vec(),
            leeway: Duration::from_secs(60),
            refresh: Duration::from_secs(30),
            timeout: Duration::from_secs(5),
            keys: RwLock::new(Arc::default()),
        }
    }

    /// Fetch the keys from this JWKS URL instead of discovering it.
    #[must_use]
    pub fn with_jwks_uri(mut self, uri: impl Into<String>) -> Self {
        self.source =
            tokio::sync::Mutex::new(KeySource::new(self.issuer.clone(), Some(uri.into())));
        self
    }

    /// The algorithms accepted (default: every asymmetric one, RS*, PS*, ES256, ES384, EdDSA).
    ///
    /// # Panics
    ///
    /// If one is a shared-secret algorithm (`HS256`, `HS384`, `HS512`), or none is given.
    #[must_use]
    pub fn with_algorithms(mut self, algorithms: impl IntoIterator<Item = Algorithm>) -> Self {
        let algorithms: Vec<Algorithm> = algorithms.into_iter().collect();
        for alg in &algorithms {
            assert!(
                ASYMMETRIC.contains(alg),
                "`{alg:?}` is a shared-secret algorithm: a resource server accepts public-key signatures only"
            );
        }
        assert!(
            !algorithms.is_empty(),
            "no algorithm accepted: give at least one"
        );
        self.algorithms = algorithms;
        self
    }

    /// How far `exp` and `nbf` may be off this machine's clock (default 60 s).
    #[must_use]
    pub fn with_leeway(mut self, leeway: Duration) -> Self {
        self.leeway = leeway;
        self
    }

    /// The least time between two fetches of the JWKS (default 30 s): a token with an
    /// unknown key fetches it again only this long after the last attempt.
    #[must_use]
    pub fn with_refresh_interval(mut self, interval: Duration) -> Self {
        self.refresh = interval;
        self
    }

    /// How long one fetch (discovery included) may take (default 5 s).
    #[must_use]
    pub fn with_fetch_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    fn cached(&self) -> Arc<KeySet> {
        self.keys.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// The keys to try for `header`, fetching the JWKS again when none is cached for it (at
    /// most once per refresh interval).
    async fn keys_for(&self, header: &Header) -> Result<Vec<Arc<KeySet>>, AuthError> {
        let cached = self.cached();
        if holds(&cached, header) {
            return Ok(vec![cached]);
        }
        let mut source = self.source.lock().await;
        // Another request may have fetched the key while this one waited.
        let cached = self.cached();
        if holds(&cached, header) {
            return Ok(vec![cached]);
        }
        if !source.may_fetch(self.refresh) {
            return Err(AuthError::invalid(
                "the token's signing key is not in the JWKS (fetched less than the refresh interval ago)",
            ));
        }
        match source.fetch(self.timeout).await {
            Ok(set) => {
                let set = Arc::new(set);
                *self.keys.write().unwrap_or_else(|e| e.into_inner()) = set.clone();
                if holds(&set, header) {
                    Ok(vec![set])
                } else {
                    Err(AuthError::invalid(
                        "the token's signing key is not in the JWKS",
                    ))
                }
            }
            Err(e) => {
                tracing::warn!(error = %e.reason(), "the JWKS could not be fetched; the cached keys stay in use");
                Err(e)
            }
        }
    }

    async fn check(&self, token: &str) -> Result<Principal, AuthError> {
        if token.len() > DEFAULT_MAX_TOKEN_BYTES {
            return Err(AuthError::invalid("the token is too long"));
        }
        let header = jsonwebtoken::decode_header(token)
            .map_err(|e| AuthError::invalid(format!("malformed JWT header: {e}")).with_source(e))?;
        if !self.algorithms.contains(&header.alg) {
            return Err(AuthError::invalid(format!(
                "the algorithm {:?} is not accepted",
                header.alg
            )));
        }
        let mut validation = Validation::new(header.alg);
        validation.leeway = self.leeway.as_secs();
        validation.validate_nbf = true;
        validation.set_issuer(&[&self.issuer]);
        validation.set_audience(&[&self.audience]);
        validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
        let sets = self.keys_for(&header).await?;
        let mut last = None;
        for key in sets.iter().flat_map(|set| candidates(set, &header)) {
            match jsonwebtoken::decode::<Map<String, Value>>(token, &key.key, &validation) {
                Ok(data) => return principal(data.claims),
                Err(e) if matches!(e.kind(), ErrorKind::InvalidSignature) => last = Some(e),
                Err(e) => return Err(AuthError::invalid(describe(e.kind())).with_source(e)),
            }
        }
        Err(match last {
            Some(e) => AuthError::invalid(describe(e.kind())).with_source(e),
            None => AuthError::invalid("no key for the token's algorithm"),
        })
    }
}

impl TokenValidator for JwtValidator {
    fn validate<'a>(&'a self, token: &'a str) -> BoxFuture<'a, Result<Principal, AuthError>> {
        Box::pin(self.check(token))
    }
}

/// Whether `set` has a key for a token with `header` (its `kid`, or any key for the
/// algorithm when the token names none).
fn holds(set: &KeySet, header: &Header) -> bool {
    candidates(set, header).next().is_some()
}

fn candidates<'a>(set: &'a KeySet, header: &'a Header) -> Box<dyn Iterator<Item = &'a Key> + 'a> {
    let alg = header.alg;
    match &header.kid {
        Some(kid) => Box::new(
            set.by_kid
                .get(kid)
                .into_iter()
                .filter(move |k| k.allows(alg)),
        ),
        None => Box::new(
            set.unnamed
                .iter()
                .chain(set.by_kid.values())
                .filter(move |k| k.allows(alg)),
        ),
    }
}

fn describe(kind: &ErrorKind) -> String {
    match kind {
        ErrorKind::ExpiredSignature => "the token has expired".into(),
        ErrorKind::ImmatureSignature => "the token is not valid yet (nbf)".into(),
        ErrorKind::InvalidAudience => "the token is for another audience".into(),
        ErrorKind::InvalidIssuer => "the token is from another issuer".into(),
        ErrorKind::InvalidSignature => "the signature does not verify".into(),
        ErrorKind::MissingRequiredClaim(claim) => format!("the token has no `{claim}` claim"),
        other => format!("malformed token: {other:?}"),
    }
}

/// The principal of verified claims: `sub` (a string), and `scope` (a string) or `scp` (an
/// array of strings or a string); a claim of another type refuses the token.
fn principal(claims: Map<String, Value>) -> Result<Principal, AuthError> {
    let Some(Value::String(subject)) = claims.get("sub") else {
        return Err(AuthError::invalid("`sub` is not a string"));
    };
    let bad = |claim: &str| AuthError::invalid(format!("`{claim}` is not a valid scope list"));
    let scopes = match (claims.get("scope"), claims.get("scp")) {
        (Some(Value::String(list)), _) => {
            Scopes::parse(list).map_err(|e| bad("scope").with_source(e))?
        }
        (Some(_), _) => return Err(bad("scope")),
        (None, Some(Value::String(list))) => {
            Scopes::parse(list).map_err(|e| bad("scp").with_source(e))?
        }
        (None, Some(Value::Array(items))) => {
            let tokens: Option<Vec<&str>> = items.iter().map(Value::as_str).collect();
            Scopes::from_tokens(tokens.ok_or_else(|| bad("scp"))?)
                .map_err(|e| bad("scp").with_source(e))?
        }
        (None, Some(_)) => return Err(bad("scp")),
        (None, None) => Scopes::none(),
    };
    let mut principal = Principal::new(subject.clone(), scopes);
    if let Some(Value::String(iss)) = claims.get("iss") {
        principal = principal.with_issuer(iss.clone());
    }
    Ok(principal.with_claims(claims))
}
