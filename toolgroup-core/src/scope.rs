//! OAuth 2.0 scopes: what a tool or group requires, and what a principal holds.
//!
//! A [`Scopes`] is a set of scope tokens (RFC 6749 section 3.3): `#[tool(scopes = [...])]` and
//! `#[tool_group(scopes = [...])]` declare what a tool needs, and the application says which
//! scopes a call's principal holds with [`Toolkit::entitled`](crate::Toolkit::entitled) (an
//! access token's `scope` claim parses straight into one).

use std::fmt;
use std::sync::Arc;

use toolgroup_skills::shared::{SCOPE_TOKEN_RULE, ScopeTokenError, check_scope_token};

/// A set of OAuth 2.0 scope tokens, sorted and without duplicates, cheap to clone.
///
/// Two sets with the same scopes are equal whatever order they were given in. It displays
/// (and serialises) as the tokens joined by single spaces, the form of a token's `scope` claim
/// and of `WWW-Authenticate`'s `scope` parameter, and parses from that form.
///
/// ```
/// use toolgroup::Scopes;
///
/// let held: Scopes = "web:read charts web:read".parse().unwrap();
/// assert_eq!(held.to_string(), "charts web:read");
/// assert!(held.contains("charts"));
/// assert!(Scopes::parse("files\u{0}write").is_err());
/// ```
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Scopes(Arc<[Box<str>]>);

impl Scopes {
    /// The empty set.
    pub fn none() -> Self {
        Scopes::default()
    }

    /// Parse a space-separated list of scope tokens (an access token's `scope` claim, an
    /// OAuth `scope` parameter). Runs of spaces are one separator and leading or trailing
    /// spaces are ignored; a repeated token counts once. Fails on a token that breaks the
    /// scope-token rule, without echoing it.
    pub fn parse(list: &str) -> Result<Self, ScopeError> {
        Self::from_tokens(list.split(' ').filter(|t| !t.is_empty()))
    }

    /// The set of `tokens` (a token's `scp` array claim, a list from configuration). A
    /// repeated token counts once. Fails on a token that breaks the scope-token rule (an
    /// empty one included), without echoing it.
    pub fn from_tokens<I, S>(tokens: I) -> Result<Self, ScopeError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut all: Vec<Box<str>> = Vec::new();
        for (index, token) in tokens.into_iter().enumerate() {
            let token = token.as_ref();
            check_scope_token(token).map_err(|kind| ScopeError { index, kind })?;
            all.push(token.into());
        }
        all.sort_unstable();
        all.dedup();
        Ok(Scopes(all.into()))
    }

    /// The set of scopes declared in source (`#[tool(scopes = [...])]`), which the macros
    /// checked at compile time.
    pub(crate) fn declared(tokens: &[&str]) -> Self {
        let mut all: Vec<Box<str>> = tokens
            .iter()
            .filter(|t| check_scope_token(t).is_ok())
            .map(|&t| t.into())
            .collect();
        all.sort_unstable();
        all.dedup();
        Scopes(all.into())
    }

    /// Whether the set holds `scope`.
    pub fn contains(&self, scope: &str) -> bool {
        self.0.binary_search_by(|s| (**s).cmp(scope)).is_ok()
    }

    /// Whether the set holds every scope of `required`.
    pub fn covers(&self, required: &Scopes) -> bool {
        required.iter().all(|s| self.contains(s))
    }

    /// The scopes of `required` that this set does not hold.
    #[must_use]
    pub fn missing(&self, required: &Scopes) -> Scopes {
        Scopes(
            required
                .0
                .iter()
                .filter(|s| !self.contains(s))
                .cloned()
                .collect(),
        )
    }

    /// The scopes either set holds.
    #[must_use]
    pub fn union(&self, other: &Scopes) -> Scopes {
        if other.is_empty() {
            return self.clone();
        }
        if self.is_empty() {
            return other.clone();
        }
        let mut all: Vec<Box<str>> = self.0.iter().chain(other.0.iter()).cloned().collect();
        all.sort_unstable();
        all.dedup();
        Scopes(all.into())
    }

    /// The scopes, in sorted order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        self.0.iter().map(|s| &**s)
    }

    /// How many scopes the set holds.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Display for Scopes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, s) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            f.write_str(s)?;
        }
        Ok(())
    }
}

impl fmt::Debug for Scopes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl std::str::FromStr for Scopes {
    type Err = ScopeError;

    fn from_str(list: &str) -> Result<Self, ScopeError> {
        Scopes::parse(list)
    }
}

impl<'a> IntoIterator for &'a Scopes {
    type Item = &'a str;
    type IntoIter = std::iter::Map<std::slice::Iter<'a, Box<str>>, fn(&'a Box<str>) -> &'a str>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter().map(|s| &**s)
    }
}

impl serde::Serialize for Scopes {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Scopes {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let list = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        Scopes::parse(&list).map_err(serde::de::Error::custom)
    }
}

/// A scope token that breaks RFC 6749's scope-token rule. The message names the token's
/// position and what is wrong with it, never the token itself (it may come from a request).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct ScopeError {
    /// The token's position among the tokens given (0-based; empty ones skipped by
    /// [`Scopes::parse`] are not counted).
    pub index: usize,
    /// What is wrong with it.
    pub kind: ScopeTokenError,
}

impl fmt::Display for ScopeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            ScopeTokenError::Empty => write!(f, "scope number {} is empty", self.index + 1)?,
            ScopeTokenError::Invalid { at } => write!(
                f,
                "scope number {} has a character not allowed in a scope at byte {at}",
                self.index + 1
            )?,
            _ => write!(f, "scope number {} is not a scope", self.index + 1)?,
        }
        write!(f, ": {SCOPE_TOKEN_RULE}")
    }
}

impl std::error::Error for ScopeError {}

#[cfg(test)]
mod tests {
    use super::Scopes;

    #[test]
    fn sets_compare_by_content() {
        let a = Scopes::parse("b a  a ").unwrap();
        let b = Scopes::from_tokens(["a", "b"]).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.to_string(), "a b");
        assert!(a.covers(&Scopes::parse("a").unwrap()));
        assert!(!a.covers(&Scopes::parse("a c").unwrap()));
        assert_eq!(
            a.missing(&Scopes::parse("c a d").unwrap()).to_string(),
            "c d"
        );
        assert_eq!(a.union(&Scopes::parse("c").unwrap()).to_string(), "a b c");
        assert_eq!(Scopes::parse("").unwrap(), Scopes::none());
    }

    #[test]
    fn a_bad_token_is_refused_without_echo() {
        let e = Scopes::from_tokens(["ok", "secret\"token"]).unwrap_err();
        assert_eq!(e.index, 1);
        assert!(!e.to_string().contains("secret"), "{e}");
        assert!(Scopes::from_tokens(["ok", ""]).is_err());
        assert!(Scopes::parse("caf\u{e9}").is_err());
    }
}
