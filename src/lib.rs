//! Typed LLM tools and tool groups from plain Rust functions.
//!
//! Annotate functions with [`#[tool]`](macro@tool), bundle them with
//! [`#[tool_group]`](macro@tool_group), compose groups with [`#[toolkit]`](macro@toolkit), and
//! get - at compile time - tool types, JSON schemas and a typed registry of groups. At run time
//! only the tools of active groups are shown to the model, which switches groups itself through
//! the generated `reset_tools` meta tool (or your application switches them through a typed
//! API). Because the group set is a Rust type, the `reset_tools` schema has one required
//! boolean per group with `additionalProperties: false`, an unknown group name cannot be
//! written, and name clashes are compile errors.
//!
//! ```
//! use toolgroup::prelude::*;
//!
//! /// Write a note.
//! #[tool]
//! fn note_write(
//!     /// The text of the note.
//!     text: String,
//! ) -> String {
//!     format!("noted: {text}")
//! }
//!
//! /// Search the web.
//! #[tool(read_only)]
//! async fn web_search(
//!     /// What to search for.
//!     query: String,
//! ) -> Vec<String> {
//!     vec![format!("result for {query}")]
//! }
//!
//! #[tool_group(name = "notes", description = "Taking notes.", tools = [note_write])]
//! struct Notes;
//!
//! #[tool_group(
//!     name = "web_search",
//!     description = "Searching the web.",
//!     instructions = "Cite your sources.",
//!     tools = [web_search]
//! )]
//! struct WebSearch;
//!
//! #[toolkit]
//! struct Agent {
//!     #[basic]
//!     notes: Notes,
//!     web_search: WebSearch,
//! }
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() {
//! let toolkit = Toolkit::new(Agent { notes: Notes, web_search: WebSearch });
//! let mut session = toolkit.session();
//! let visible = |s: &Session<Agent>| toolkit.definitions(s).map(|d| d.name).collect::<Vec<_>>();
//! assert_eq!(visible(&session), ["reset_tools", "note_write"]);
//!
//! // A misspelled group is refused as a whole: nothing changes.
//! let r = toolkit.call(&mut session, "reset_tools", r#"{"web_serch": true}"#).await;
//! assert!(r.is_error);
//! assert!(r.text_joined().contains("unknown group `web_serch`: did you mean `web_search`?"));
//!
//! let r = toolkit.call(&mut session, "reset_tools", r#"{"web_search": true}"#).await;
//! assert!(r.text_joined().contains("<group name=\"web_search\">\nCite your sources.\n</group>"));
//! assert_eq!(visible(&session), ["reset_tools", "note_write", "web_search"]);
//!
//! let r = toolkit.call(&mut session, "web_search", r#"{"query": "rust"}"#).await;
//! assert_eq!(r.text_joined(), r#"["result for rust"]"#);
//! # }
//! ```
//!
//! # Decisions worth knowing
//!
//! - **Names.** Tool names follow `^[A-Za-z_][A-Za-z0-9_-]{0,63}$` and group names
//!   `^[A-Za-z_][A-Za-z0-9_]{0,63}$`: the subset every provider accepts. A switchable group's
//!   toolkit field must be named like the group (checked at compile time), because that field
//!   name is the `reset_tools` argument and the field of the typed reset value.
//! - **Generated names.** `#[tool] fn web_search` generates a struct `web_search` (in the type
//!   namespace only, so the function stays callable) implementing [`Tool`], and the arguments
//!   struct `WebSearchArgs`. `#[toolkit] struct Agent` generates `AgentGroup` (the switchable
//!   groups) and `AgentReset` (the typed `reset_tools` value).
//! - **Arguments.** Raw argument text that is empty counts as `{}`. Arguments must be a JSON
//!   object. Unknown fields are refused. Error texts name the argument path and the expected
//!   type, never the value the model sent.
//! - **Sync tools** run inline on the calling task; put blocking work in `spawn_blocking`.
//! - **Timeouts** (per tool, or [`Toolkit::with_default_timeout`]) need a Tokio runtime with
//!   the time driver.
//! - **Panics** inside a tool (or a policy, a layer, a progress observer) are caught (the
//!   default panic hook still prints them) and reported as an error result; the toolkit and
//!   every session go on. The panic's message goes to `tracing`, not to the model (it can
//!   carry internals), unless [`Toolkit::with_panic_details`] says otherwise.
//! - **Echoes**: names the model sent that come back in an error (an unknown tool, group or
//!   argument) have control characters escaped and are cut to a few dozen characters, so a
//!   model cannot forge transcript lines or terminal escapes through them.
//! - **Key order.** By default the rendered definitions and results have their JSON object
//!   keys sorted (serde_json's default map), so schema properties appear alphabetically, not
//!   in parameter order. The `preserve_order` cargo feature keeps declaration order (schema
//!   properties in parameter and field order, `reset_tools` groups in toolkit order), which
//!   reads better and guides the order in which models write arguments; but it enables
//!   serde_json's `preserve_order` for the whole build (Cargo unifies features), so every
//!   crate's `serde_json::Map` becomes insertion-ordered and parsing JSON into a map gets
//!   slower. It is opt-in so that adding `toolgroup` never changes another crate's behaviour.
//! - **Groups are not a security boundary**: the model can activate any group it is shown.
//!   Use a [`Policy`](policy::Policy) to restrict what can run.
//!
//! # Per-call data, approvals, middleware, progress and cancellation
//!
//! [`Toolkit::call_with`] takes a [`CallContext`]: the call's id, per-call data (who the call
//! is for: an [`Extension<T>`] parameter receives it, never part of the schema), a progress
//! observer and a [`CancellationToken`](context::CancellationToken). Around each call, in
//! this order: the [`Policy`](policy::Policy) (async; [`RequireApproval`](policy::RequireApproval)
//! asks an [`Approver`](policy::Approver) before destructive tools), then tower layers
//! ([`Toolkit::layer`], last added outermost; tower's own layers work as they are, and
//! [`middleware`] ships a result size cap and a cache for read-only idempotent tools), then
//! the tool with its timeout. An [`AuditLayer`](middleware::AuditLayer) records every call the
//! toolkit answers, refused ones included. A call that uses none of this pays for none of it.
//!
//! ```
//! use std::sync::{Arc, Mutex};
//! use std::time::Duration;
//! use toolgroup::middleware::{AuditLayer, AuditRecord, MaxResultSizeLayer};
//! use toolgroup::prelude::*;
//! use toolgroup::BoxFuture;
//! use toolgroup::context::Progress;
//! use toolgroup::policy::{Approver, Decision, PolicyRequest, RequireApproval};
//!
//! #[derive(Clone)]
//! struct User(String);
//!
//! /// Delete a file.
//! #[tool(destructive)]
//! async fn delete(
//!     /// The file.
//!     path: String,
//!     Extension(user): Extension<User>,
//!     ctx: ToolContext<'_>,
//! ) -> String {
//!     ctx.report(1.0, Some(1.0), Some("deleted"));
//!     format!("{} deleted {path}", user.0)
//! }
//!
//! #[tool_group(name = "files", description = "Files.", tools = [delete])]
//! struct Files;
//!
//! #[toolkit]
//! struct Agent {
//!     #[basic]
//!     files: Files,
//! }
//!
//! /// Says yes to Ada only (a real approver asks a human).
//! struct AdaOnly;
//!
//! impl Approver for AdaOnly {
//!     fn approve<'a>(&'a self, request: &'a PolicyRequest<'a>) -> BoxFuture<'a, Decision> {
//!         Box::pin(async move {
//!             match request.extension::<User>() {
//!                 Some(User(name)) if name == "ada" => Decision::Allow,
//!                 _ => Decision::deny("only Ada may delete"),
//!             }
//!         })
//!     }
//! }
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() {
//! let audit: Arc<Mutex<Vec<AuditRecord>>> = Arc::default();
//! let sink = audit.clone();
//! let toolkit = Toolkit::new(Agent { files: Files })
//!     .with_policy(RequireApproval::new(AdaOnly).timeout(Duration::from_secs(60)))
//!     .layer(MaxResultSizeLayer::new(8 * 1024))
//!     .layer(AuditLayer::new(move |r: &AuditRecord| sink.lock().unwrap().push(r.clone())));
//! let mut session = toolkit.session();
//!
//! let steps = Arc::new(Mutex::new(Vec::new()));
//! let seen = steps.clone();
//! let cx = CallContext::new()
//!     .with_id("call_1")
//!     .with_extension(User("ada".into()))
//!     .on_progress(move |e| {
//!         if let Progress::Step { message, .. } = e.progress {
//!             seen.lock().unwrap().push(message.clone());
//!         }
//!     });
//! let r = toolkit.call_with(&mut session, "delete", r#"{"path": "a.txt"}"#, &cx).await;
//! assert_eq!(r.text_joined(), "ada deleted a.txt");
//! assert_eq!(*steps.lock().unwrap(), [Some("deleted".to_owned())]);
//!
//! let bob = CallContext::new().with_extension(User("bob".into()));
//! let r = toolkit.call_with(&mut session, "delete", r#"{"path": "a.txt"}"#, &bob).await;
//! assert!(r.is_error);
//! assert!(r.text_joined().ends_with("not approved: only Ada may delete"));
//! // The policy refused before any layer, and the audit still has the call.
//! let audit = audit.lock().unwrap();
//! assert_eq!(audit.len(), 2);
//! assert_eq!(audit[1].outcome, toolgroup::middleware::CallOutcome::Denied);
//! # }
//! ```
//!
//! # Documentation and catalog
//!
//! `cargo doc` shows a toolkit the way the model sees it: the toolkit struct's page lists every
//! group (basic and switchable) with its description and instructions, and every tool with its
//! description, hints and arguments (name, type, whether required, description); each variant
//! of the group enum carries its group's description; a group's own page lists its tools the
//! same way; a free tool's marker struct shows the tool. See [`example`] (only
//! in the rendered documentation) for what that looks like, and
//! [`#[tool]`](macro@tool#generated-documentation) for its limits.
//!
//! At run time, [`Toolkit::catalog`] gives the same catalog from the real schemas, as
//! Markdown for people or as JSON for programs:
//!
//! ```
//! use toolgroup::prelude::*;
//!
//! /// Say hello.
//! #[tool(read_only)]
//! fn hello(
//!     /// Whom to greet.
//!     name: String,
//! ) -> String {
//!     format!("hello {name}")
//! }
//!
//! #[tool_group(
//!     name = "greetings",
//!     description = "Greetings.",
//!     instructions = "Greet once.",
//!     tools = [hello]
//! )]
//! struct Greetings;
//!
//! #[toolkit]
//! struct Polite {
//!     greetings: Greetings,
//! }
//!
//! let toolkit = Toolkit::new(Polite { greetings: Greetings });
//! let markdown = toolkit.catalog().to_markdown();
//! assert!(markdown.contains("## Group `greetings`\n\nGreetings.\n"));
//! assert!(markdown.contains("Instructions, given when the group is activated: Greet once."));
//! assert!(markdown.contains("### `hello`\n\nSay hello.\n\nHints: read-only.\n"));
//! assert!(markdown.contains("| `name` | string | yes | Whom to greet. |"));
//!
//! let json = toolkit.catalog().to_value();
//! assert_eq!(json["groups"][0]["instructions"], "Greet once.");
//! assert_eq!(json["groups"][0]["tools"][0]["input_schema"]["required"][0], "name");
//! assert_eq!(json["reset_tools"]["name"], "reset_tools");
//! ```
//!
//! # Cargo features
//!
//! All off by default.
//!
//! | Feature | What it adds |
//! |---|---|
//! | `mcp` | `toolgroup::mcp`: serve a toolkit over MCP (stdio and Streamable HTTP, on rmcp), groups included; pulls rmcp, axum and hyper |
//! | `mcp-redis` | the Redis store of active groups, for MCP server replicas behind a load balancer |
//! | `mcp-client` | `toolgroup::mcp::client`: the tools of remote MCP servers (stdio child processes, Streamable HTTP), listed, refreshed and called with reconnection; adds rmcp's client side and reqwest |
//! | `preserve_order` | JSON object keys in declaration order in rendered definitions and results (see **Key order** above) |
//!
//! On docs.rs every item shows the feature that enables it.
//!
//! # Guides
//!
//! - [Install](https://github.com/toolgroup/toolgroup#install): the `Cargo.toml` lines for a
//!   new project.
//! - [When it does not compile](https://github.com/toolgroup/toolgroup/blob/main/docs/compile-errors.md):
//!   every compile error of the macros, with its cause and fix.
//! - [Coming from rmcp](https://github.com/toolgroup/toolgroup/blob/main/docs/coming-from-rmcp.md)
//!   and [coming from AgentScope](https://github.com/toolgroup/toolgroup/blob/main/docs/coming-from-agentscope.md):
//!   what you know, under our names, with one tool ported both ways.

#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

pub use toolgroup_core::*;

/// Turn a function into a tool.
///
/// On a free `fn` or `async fn`, and on `&self` methods inside a
/// [`#[tool_group]`](macro@tool_group) impl block. The function stays callable as written,
/// except that a plain `fn` without an `inline` attribute of its own gets `#[inline]`, so that
/// a toolkit's dispatch in another crate can inline a small tool. Write `#[inline(never)]` on
/// the function to keep it out of line.
///
/// | Argument | Meaning |
/// |---|---|
/// | `name = "..."` | the tool's name (default: the function's name) |
/// | `description = "..."` | what the tool does (default: the doc comment, up to `# Arguments`) |
/// | `read_only`, `destructive`, `idempotent`, `open_world` (`= bool`) | MCP annotation hints |
/// | `timeout = "30s"` | cancel the call after this long (`ms`, `s`, `m`, `h`) |
/// | `crate = "path"` | where the `toolgroup` crate is (for re-exporting crates) |
///
/// Parameters become the fields of a generated arguments struct (`WebSearchArgs` for
/// `web_search`) deriving `Deserialize` (unknown fields denied) and `JsonSchema`. Describe a
/// parameter with `///` on it or in a rustdoc `# Arguments` list (`` * `query` - ... ``).
/// `Option<T>` parameters are optional. `#[serde(...)]` and `#[schemars(...)]` attributes on
/// a parameter go to its field. A parameter of type [`ToolContext`] is injected, not part of
/// the schema, and so is an [`Extension<T>`] parameter (any pattern, e.g.
/// `Extension(user): Extension<User>`): the per-call value of type `T` the caller attached
/// ([`CallContext::with_extension`]); a call without one is an error result naming `T`.
/// `#[args] params: MyParams` takes the whole arguments struct instead.
///
/// The return type may be anything [`IntoCallResult`] (`String`/`&str`/`Cow<str>` as text,
/// `()` as no content, [`Image`] or [`Audio`] from bytes and a MIME type, [`Content`] blocks
/// (`Content` or `Vec<Content>`: text, images, audio, embedded resources, resource links), a
/// whole [`CallResult`], or your own type), else anything `Serialize` (structured content
/// plus its JSON text; an output schema when it is `JsonSchema`), or `Result<T, E>` of those
/// with `E: Display` (an error result).
///
/// ```
/// use toolgroup::prelude::*;
/// use toolgroup::Tool;
///
/// /// Convert a temperature.
/// ///
/// /// # Arguments
/// ///
/// /// * `celsius` - Degrees Celsius.
/// #[tool(read_only, idempotent)]
/// fn to_fahrenheit(celsius: f64) -> f64 {
///     celsius * 9.0 / 5.0 + 32.0
/// }
///
/// assert_eq!(to_fahrenheit(100.0), 212.0);
/// let info = <to_fahrenheit as Tool>::INFO;
/// assert_eq!(info.description, "Convert a temperature.");
/// assert_eq!(
///     info.input_schema()["properties"]["celsius"]["description"],
///     "Degrees Celsius."
/// );
/// ```
///
/// A tool needs a description:
///
/// ```compile_fail
/// use toolgroup::prelude::*;
///
/// #[tool]
/// fn undescribed(x: u8) -> u8 {
///     x
/// }
/// ```
///
/// and cannot be generic, take `&mut self`, or be named `reset_tools`:
///
/// ```compile_fail
/// use toolgroup::prelude::*;
///
/// /// Generic.
/// #[tool]
/// fn generic<T: ToString>(value: T) -> String {
///     value.to_string()
/// }
/// ```
///
/// # Generated documentation
///
/// The rustdoc of a toolkit lists each group's tools with their descriptions and arguments:
/// `#[tool]` hands its Markdown to the groups that list it through a hidden macro named like
/// the function (how: [docs/dev/generated-docs.md](https://github.com/toolgroup/toolgroup/blob/main/docs/dev/generated-docs.md)).
///
/// Limits:
///
/// - `tools = [...]` names `#[tool]` functions, and a toolkit's fields have `#[tool_group]`
///   types, each by a path or a `use` import (not a type alias); otherwise, besides "is not a
///   tool" / "is not a tool group", the compiler reports that it cannot find the doc macro.
///   A hand-written [`Tool`] or [`ToolGroup`] used there needs such a macro at its path too,
///   with the generated arms: `()` expanding to its Markdown as one string literal; for a
///   tool, `(@chain $cb:ident { $($acc:tt)* } $($rest:tt)*) => { $cb! { { $($acc)* "...", }
///   $($rest)* } }` with the same literal; for a group, `(description)` expanding to its
///   description.
/// - A `#[tool_group]` impl block must be in the module of its type (the group's macro is
///   defined where the impl block is).
/// - A function named like a macro that is in scope almost everywhere - the standard
///   prelude's (`write`, `format`, `vec`, `matches`, `file`, `line`, `env`, ...) and a few
///   commonly imported ones (`json`, `info`, `debug`, `warn`, `error`, `trace`, `log`,
///   `select`, `join`, `bail`, ...) - gets no doc macro, since it would shadow that macro in
///   its module: its groups list it by its path only. Any other macro you import into the
///   module of a tool function with the same name clashes with the tool's doc macro; rename
///   the function and keep the tool's name with `#[tool(name = "...")]`.
/// - The pages show Rust types; the JSON schemas the model gets are in
///   [`Toolkit::catalog`] and [`Tool::INFO`].
/// - Code blocks in descriptions are shown as text on the group and toolkit pages (rustdoc
///   does not run a tool's examples again for every page that lists it), and their headings
///   as bold lines.
pub use toolgroup_macros::tool;

/// Make a tool group: an impl block of `#[tool]` methods, or a struct listing free tools.
///
/// | Argument | Meaning |
/// |---|---|
/// | `name = "..."` | required: the group's name, its `reset_tools` argument |
/// | `description = "..."` | required (or a doc comment): what the model reads in `reset_tools` |
/// | `instructions = "..."` | optional: returned to the model when the group becomes active |
/// | `tools = [path, ...]` | free `#[tool]` functions in the group |
/// | `crate = "path"` | where the `toolgroup` crate is |
///
/// It implements [`ToolGroup`] (metadata as constants, the tools' entries) and adds the
/// group's description, instructions and tools (each with its description and arguments) to
/// the type's rustdoc (see [`#[tool]`](macro@tool#generated-documentation)). A group
/// with no tools is a compile error.
///
/// ```
/// use std::sync::atomic::{AtomicU64, Ordering};
/// use toolgroup::prelude::*;
/// use toolgroup::ToolGroup;
///
/// struct Counter(AtomicU64);
///
/// #[tool_group(name = "counter", description = "A shared counter.")]
/// impl Counter {
///     /// Add to the counter and return its new value.
///     #[tool]
///     fn add(&self, by: u64) -> u64 {
///         self.0.fetch_add(by, Ordering::SeqCst) + by
///     }
/// }
///
/// assert_eq!(Counter::NAME, "counter");
/// assert_eq!(Counter::TOOL_INFOS[0].name, "add");
/// ```
///
/// `basic` is reserved for the always-active tools:
///
/// ```compile_fail
/// use toolgroup::prelude::*;
///
/// /// A tool.
/// #[tool]
/// fn a() {}
///
/// #[tool_group(name = "basic", description = "Reserved.", tools = [a])]
/// struct Basic;
/// ```
pub use toolgroup_macros::tool_group;

/// Compose tool groups into a toolkit: a struct whose fields are groups.
///
/// Fields marked `#[basic]` form the always-active basic group; every other field is a
/// switchable group and must be named like its group (its name is the `reset_tools`
/// argument). For `struct Agent` it generates:
///
/// - `AgentGroup`: an enum of the switchable groups (`name`, `description`, `instructions`,
///   `tools`, `ALL`, `FromStr` with an error listing the real names);
/// - `AgentReset`: the typed `reset_tools` value, one `bool` per switchable group;
/// - an implementation of [`Registry`], used through [`Toolkit`];
/// - rustdoc listing every group with its description and instructions, and every tool with
///   its description and arguments (see [`#[tool]`](macro@tool#generated-documentation));
/// - compile-time checks: tool names unique across all groups and `reset_tools`, group names
///   unique, no group named `basic`, field names matching group names.
///
/// | Argument | Meaning |
/// |---|---|
/// | `crate = "path"` | where the `toolgroup` crate is |
///
/// ```
/// use toolgroup::prelude::*;
///
/// /// Say hello.
/// #[tool]
/// fn hello() -> &'static str {
///     "hello"
/// }
///
/// /// Say bye.
/// #[tool]
/// fn bye() -> &'static str {
///     "bye"
/// }
///
/// #[tool_group(name = "greetings", description = "Greetings.", tools = [hello])]
/// struct Greetings;
///
/// #[tool_group(name = "farewells", description = "Farewells.", tools = [bye])]
/// struct Farewells;
///
/// #[toolkit]
/// struct Polite {
///     #[basic]
///     greetings: Greetings,
///     farewells: Farewells,
/// }
///
/// let mut session = Session::<Polite>::new();
/// session.reset(PoliteReset { farewells: true });
/// assert_eq!("farewells".parse::<PoliteGroup>(), Ok(PoliteGroup::Farewells));
/// assert!(session.is_active(PoliteGroup::Farewells));
/// ```
///
/// Two tools with one name are a compile error, pointing at the field that adds the second:
///
/// ```compile_fail
/// use toolgroup::prelude::*;
///
/// mod a {
///     /// One.
///     #[toolgroup::tool]
///     pub fn search() {}
/// }
/// mod b {
///     /// Two.
///     #[toolgroup::tool]
///     pub fn search() {}
/// }
///
/// #[tool_group(name = "one", description = "One.", tools = [a::search])]
/// struct One;
/// #[tool_group(name = "two", description = "Two.", tools = [b::search])]
/// struct Two;
///
/// #[toolkit]
/// struct Clash {
///     one: One,
///     two: Two,
/// }
/// ```
///
/// An unknown group cannot be written in Rust:
///
/// ```compile_fail
/// use toolgroup::prelude::*;
///
/// /// Say hello.
/// #[tool]
/// fn hello() {}
///
/// #[tool_group(name = "greetings", description = "Greetings.", tools = [hello])]
/// struct Greetings;
///
/// #[toolkit]
/// struct Polite {
///     greetings: Greetings,
/// }
///
/// let _ = PoliteReset { greetngs: true };
/// ```
pub use toolgroup_macros::toolkit;

/// Everything a tool author needs: `use toolgroup::prelude::*;`. The macros, the traits
/// their items implement (so their methods are in scope), and the types of the tour.
pub mod prelude {
    pub use toolgroup_core::registry::GroupId;
    pub use toolgroup_core::{
        Audio, CallContext, CallResult, Content, Extension, Image, IntoCallResult, Registry,
        Session, Tool, ToolCall, ToolContext, ToolDefinition, ToolGroup, Toolkit,
    };
    pub use toolgroup_macros::{tool, tool_group, toolkit};
}

/// Serve a toolkit over MCP (stdio and Streamable HTTP), groups included. See
/// [`mcp::McpServer`].
#[cfg(feature = "mcp")]
#[cfg_attr(docsrs, doc(cfg(feature = "mcp")))]
pub use toolgroup_mcp as mcp;

// The documented example toolkit is the quickstart's, defined once in the examples; its
// generated code reaches this crate as `::toolgroup`, like a user's.
#[cfg(doc)]
extern crate self as toolgroup;

#[cfg(doc)]
#[path = "../examples/support/agent.rs"]
pub mod example;

#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

#[doc = include_str!("../docs/compile-errors.md")]
#[cfg(doctest)]
pub struct CompileErrorsDoctests;

#[doc = include_str!("../docs/coming-from-agentscope.md")]
#[cfg(doctest)]
pub struct ComingFromAgentScopeDoctests;

#[doc = include_str!("../docs/dev/generated-docs.md")]
#[cfg(doctest)]
pub struct GeneratedDocsDoctests;

// `docs/coming-from-rmcp.md` needs rmcp: its blocks are doc tests of the benchmark workspace.
