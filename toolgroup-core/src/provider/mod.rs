//! Tool definitions and call payloads in each provider's format.
