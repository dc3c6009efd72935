//! [`NotStrict`]: why a schema has no strict rendering, which makes the caller fall back to
//! the non-strict one.

use std::fmt;

/// Why a schema cannot be rendered in a provider's strict mode.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct NotStrict {
    /// Where in the schema, as a JSON pointer (`/properties/weights`); empty for the root.
    pub path: String,
    /// What rule the schema breaks there.
    pub reason: String,
}

impl NotStrict {
    pub(super) fn new(path: &str, reason: impl Into<String>) -> Self {
        NotStrict {
            path: path.to_owned(),
            reason: reason.into(),
        }
    }
}

impl NotStrict {
    /// The reason for a schema that did not come from Rust (a remote server's): each rule
    /// said in JSON Schema terms, without the Rust construct that usually breaks it.
    pub(crate) fn in_json_schema_terms(mut self) -> Self {
        for (rust, json) in [
            ("(a `serde_json::Value`)", "(the schema `true` or `{}`)"),
            (
                "(a map such as `HashMap<String, _>`)",
                "(its `additionalProperties` is a schema)",
            ),
            (
                "(a `#[serde(default)]` field that is not an `Option`)",
                "(a property outside `required` whose type does not allow `null`)",
            ),
        ] {
            self.reason = self.reason.replace(rust, json);
        }
        self
    }
}

impl fmt::Display for NotStrict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "the schema {}", self.reason)
        } else {
            write!(f, "`{}` {}", self.path, self.reason)
        }
    }
}

impl std::error::Error for NotStrict {}

#[cfg(test)]
mod tests {
    use super::NotStrict;

    #[test]
    fn each_rust_construct_is_said_in_json_schema_terms() {
        let cases = [
            (
                "accepts any JSON value (a `serde_json::Value`); x",
                "accepts any JSON value (the schema `true` or `{}`); x",
            ),
            (
                "has free-form keys (a map such as `HashMap<String, _>`); x",
                "has free-form keys (its `additionalProperties` is a schema); x",
            ),
            (
                "cannot be null (a `#[serde(default)]` field that is not an `Option`); x",
                "cannot be null (a property outside `required` whose type does not allow `null`); x",
            ),
        ];
        for (rust, json) in cases {
            let why = NotStrict::new("/p", rust).in_json_schema_terms();
            assert_eq!(why.reason, json);
            assert!(!why.reason.contains("serde") && !why.reason.contains("HashMap"));
        }
    }
}
