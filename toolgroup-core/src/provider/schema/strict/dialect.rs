//! What differs between the strict modes: the accepted formats, and the keywords both drop.

/// Which provider's strict mode a rewrite is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Dialect {
    OpenAi,
    Anthropic,
}

impl Dialect {
    pub(super) fn name(self) -> &'static str {
        match self {
            Dialect::OpenAi => "OpenAI",
            Dialect::Anthropic => "Anthropic",
        }
    }

    /// String formats the strict mode accepts. Sources: OpenAI Structured Outputs guide
    /// ("Supported properties"); Anthropic's SDK `transform_schema` (`SupportedStringFormats`).
    pub(super) fn formats(self) -> &'static [&'static str] {
        match self {
            Dialect::OpenAi => &[
                "date-time",
                "time",
                "date",
                "duration",
                "email",
                "hostname",
                "ipv4",
                "ipv6",
                "uuid",
            ],
            Dialect::Anthropic => &[
                "date-time",
                "time",
                "date",
                "duration",
                "email",
                "hostname",
                "uri",
                "ipv4",
                "ipv6",
                "uuid",
            ],
        }
    }
}

/// Keywords dropped by the strict rewrites: value constraints and annotations the strict
/// modes reject or ignore. The toolkit validates arguments on every call anyway.
pub(super) const STRICT_DROPPED: &[&str] = &[
    "default",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "maxItems",
    "uniqueItems",
    "minProperties",
    "maxProperties",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
    "$comment",
    "$schema",
    "$id",
    "contentEncoding",
    "contentMediaType",
];
