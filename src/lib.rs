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
//! - **Panics** inside a tool are caught (the default panic hook still prints them) and
//!   reported as an error result; the toolkit and every session go on.
//! - **Groups are not a security boundary**: the model can activate any group it is shown.
//!   Use a [`Policy`] to restrict what can run.
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
//! - [`example`]: the quickstart's toolkit, as the documentation shows a toolkit.

#![warn(missing_docs)]

pub use toolgroup_core::*;

/// Turn a function into a tool.
///
/// On a free `fn` or `async fn`, and on `&self` methods inside a
/// [`#[tool_group]`](macro@tool_group) impl block. The function stays callable as written.
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
/// the schema. `#[args] params: MyParams` takes the whole arguments struct instead.
///
/// The return type may be `String`/`&str`/`Cow<str>` (text), `()` (no content), anything
/// `Serialize` (structured content plus its JSON text; an output schema when it is
/// `JsonSchema`), or `Result<T, E>` of those with `E: Display` (an error result).
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
/// group's tools to the type's rustdoc. A group with no tools is a compile error.
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

/// Everything a tool author needs: `use toolgroup::prelude::*;`.
pub mod prelude {
    pub use toolgroup_core::{
        CallResult, GroupId, Registry, Session, ToolCall, ToolContext, ToolDefinition, Toolkit,
    };
    pub use toolgroup_macros::{tool, tool_group, toolkit};
}

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

// `docs/coming-from-rmcp.md` needs rmcp: its blocks are doc tests of the benchmark workspace.
