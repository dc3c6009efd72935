//! The official TypeScript SDK's client with a bearer token (added with the entitlements).
