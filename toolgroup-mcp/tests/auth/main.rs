//! MCP authorization (feature `auth`) against a real authorization server: npm's
//! `oauth2-mock-server` on loopback (`tests/auth/idp.mjs`), signing real JWTs. The tests skip
//! with a note unless `AUTH_IDP` names the folder it is installed in, which `.ci/run`
//! creates; the TypeScript SDK's test needs `TS_SDK` (the SDK's folder) too. Run them with
//! `AUTH_IDP=<folder> cargo test -p toolgroup-mcp --features auth --test auth`.

mod gate;
mod idp;
mod keys;
mod principals;
mod sdk;
mod sources;
mod validators;
