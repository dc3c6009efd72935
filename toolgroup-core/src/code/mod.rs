//! Code mode: the model writes one program that calls the tools, instead of one model round
//! trip per call (feature `code-mode`).
//!
//! A [`CodeMode`] shows the model the toolkit's tools as a TypeScript API (each group a
//! `namespace`, its description and instructions as the doc comment; each tool an `async`
//! function typed from its schemas) in the description of one tool, `run_program`, and runs
//! the program the model sends in an embedded JavaScript engine (QuickJS, through
//! `rquickjs`). Every call the program makes goes through [`Toolkit::call_with`] exactly as a
//! model's call does (the session, first-use activation, policies and approval, timeouts,
//! middleware); the calls a program makes before it waits (`Promise.all`) run concurrently.
//! The model gets back the program's value as structured content, with what it logged and
//! the calls it made.
//!
//! ```
//! # use toolgroup::prelude::*;
//! # use toolgroup::code::CodeMode;
//! # use serde_json::json;
//! /// Add two numbers.
//! #[tool]
//! fn add(
//!     /// The first.
//!     a: i64,
//!     /// The second.
//!     b: i64,
//! ) -> i64 {
//!     a + b
//! }
//!
//! #[tool_group(name = "math", description = "Arithmetic.", tools = [add])]
//! struct Math;
//!
//! #[toolkit]
//! struct Kit {
//!     #[basic]
//!     math: Math,
//! }
//!
//! # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
//! let code = CodeMode::new(Toolkit::new(Kit { math: Math }));
//! let mut session = code.toolkit().session();
//! let program = "const [x, y] = await Promise.all([math.add({a: 1, b: 2}), math.add({a: 3, b: 4})]);\n\
//!                return math.add({a: x, b: y});";
//! let result = code.run(&mut session, program).await;
//! assert!(!result.is_error, "{}", result.text_joined());
//! assert_eq!(result.structured_content.unwrap()["result"], json!(10));
//! # });
//! ```
//!
//! # Engine
//!
//! QuickJS (`rquickjs`), chosen over Boa (`boa_engine`, pure Rust) for what a sandbox needs:
//! a hard memory limit, a stack limit and an interrupt (the wall-clock limit) are QuickJS's
//! own settings, where Boa bounds loops and recursion but not memory; and QuickJS compiles as
//! one C library, in a fraction of Boa's build time. Each run gets a fresh runtime on a
//! thread of its own, so that the run's future is `Send`, nothing leaks from one run to the
//! next, and a program that never yields cannot block the caller's executor.
//!
//! # Limits
//!
//! Every run is bounded by [`Limits`]: wall time (the program's own code and its tools'
//! calls together), memory, stack, tool calls and output (log and value). A limit passed is
//! an error result naming it; the toolkit and other runs go on.

mod engine;
mod js;
mod typescript;

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};

use serde::Deserialize as _;

use crate::args::Arguments;
use crate::futures::JoinAll;
use crate::meta::{ToolAnnotations, ToolDefinition};
use crate::provider::Provider;
use crate::provider::deferred::{Deferred, DeferredError, DeferredOptions};
use crate::registry::Registry;
use crate::result::CallResult;
use crate::session::Session;
use crate::toolkit::{ToolCall, Toolkit};
use crate::{BoxFuture, CallContext};

/// The name of the tool that runs a program.
pub const RUN_PROGRAM: &str = "run_program";

/// The bounds of one run. Each has a default; set them with the builder methods.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    time: Duration,
    memory: usize,
    stack: usize,
    calls: usize,
    output: usize,
}

impl Default for Limits {
    /// 30 s, 64 MiB of memory, 512 KiB of stack, 100 tool calls, 256 KiB of output.
    fn default() -> Self {
        Limits {
            time: Duration::from_secs(30),
            memory: 64 << 20,
            stack: 512 << 10,
            calls: 100,
            output: 256 << 10,
        }
    }
}

impl Limits {
    /// The defaults ([`Limits::default`]).
    pub fn new() -> Self {
        Self::default()
    }

    /// The wall time of a run: the program and its tool calls together.
    #[must_use]
    pub fn time(mut self, time: Duration) -> Self {
        self.time = time;
        self
    }

    /// The engine's memory, in bytes (at least 1 MiB: the engine needs some to start).
    #[must_use]
    pub fn memory(mut self, bytes: usize) -> Self {
        self.memory = bytes.max(1 << 20);
        self
    }

    /// The engine's stack, in bytes (at least 64 KiB).
    #[must_use]
    pub fn stack(mut self, bytes: usize) -> Self {
        self.stack = bytes.max(64 << 10);
        self
    }

    /// How many tool calls a run may make.
    #[must_use]
    pub fn calls(mut self, calls: usize) -> Self {
        self.calls = calls;
        self
    }

    /// How many bytes a run may log, and how large its value may be (as JSON).
    #[must_use]
    pub fn output(mut self, bytes: usize) -> Self {
        self.output = bytes;
        self
    }
}

/// A toolkit shown as a TypeScript API, and the runner of the programs that call it (see the
/// [module docs](self)).
pub struct CodeMode<R: Registry> {
    toolkit: Arc<Toolkit<R>>,
    limits: Limits,
    /// `run_program`'s definitions by the shown tools they declare (see
    /// [`CodeMode::definition`]).
    kept: std::sync::Mutex<rustc_hash::FxHashMap<Box<[usize]>, ToolDefinition>>,
}

/// The distinct sets of shown tools whose `run_program` definitions a [`CodeMode`] keeps;
/// past it, it starts again. A conversation sees a handful of sets; tools found at run time
/// that keep changing make new ones, and this bounds what the old ones hold.
const KEPT_DEFINITIONS: usize = 256;

/// `text` as a `&'static str` (a definition's description is one), kept once per distinct
/// text in the process: as many as the distinct sets of declarations the models were shown,
/// not one per request.
fn intern(text: String) -> &'static str {
    static INTERNED: std::sync::OnceLock<std::sync::Mutex<rustc_hash::FxHashSet<&'static str>>> =
        std::sync::OnceLock::new();
    let mut interned = INTERNED
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(kept) = interned.get(text.as_str()) {
        return kept;
    }
    let kept: &'static str = Box::leak(text.into_boxed_str());
    interned.insert(kept);
    kept
}

impl<R: Registry> std::fmt::Debug for CodeMode<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CodeMode")
            .field("limits", &self.limits)
            .finish_non_exhaustive()
    }
}

impl<R: Registry> CodeMode<R> {
    /// Code mode over `toolkit`, with the default [`Limits`].
    pub fn new(toolkit: impl Into<Arc<Toolkit<R>>>) -> Self {
        CodeMode {
            toolkit: toolkit.into(),
            limits: Limits::default(),
            kept: std::sync::Mutex::default(),
        }
    }

    /// Bound each run by `limits`.
    #[must_use]
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self.kept = std::sync::Mutex::default();
        self
    }

    /// The toolkit.
    pub fn toolkit(&self) -> &Toolkit<R> {
        &self.toolkit
    }

    /// The limits of each run.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The TypeScript declarations of what a program of `session` may call: the namespaces
    /// of the groups whose tools the session is shown (as [`Toolkit::definitions`] lists
    /// them), and `reset_tools` (a global function) where the toolkit has it.
    pub fn declarations(&self, session: &Session<R>) -> String {
        declarations(&self.toolkit, session)
    }

    /// The definition of `run_program` for `session`: its description carries the
    /// [`declarations`](Self::declarations). List it beside (or instead of) the toolkit's
    /// own tools, in any provider's rendering
    /// ([`Provider::render_definition`](crate::provider::Provider::render_definition)).
    ///
    /// Made once per set of shown tools and kept: asking again for a session that shows the
    /// same tools costs a lookup, not the declarations.
    pub fn definition(&self, session: &Session<R>) -> ToolDefinition {
        // The shown definitions' addresses name them for this value's life: the compiled-in
        // ones belong to the toolkit it holds, and those found at run time are never freed.
        let key: Box<[usize]> = self
            .toolkit
            .definitions(session)
            .map(|d| std::ptr::from_ref(d) as usize)
            .collect();
        let mut kept = self
            .kept
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(definition) = kept.get(&key) {
            return definition.clone();
        }
        let made = definition(&self.toolkit, session, &self.limits);
        if kept.len() >= KEPT_DEFINITIONS {
            kept.clear();
        }
        kept.insert(key, made.clone());
        made
    }

    /// The deferred delivery mode of the toolkit for `provider` (see
    /// [`deferred`](crate::provider::deferred)), with `run_program` in every request beside
    /// the toolkit's tools ([`Deferred::with_tools`]).
    ///
    /// Its description must not change when the active groups do (the tool array's
    /// stability is what the deferred mode is for), and declaring every group's tools in it
    /// would make every request carry the whole toolkit. So it lists every group the
    /// toolkit shows by its description and its tools' names (`web.search(args)`), and says
    /// how a tool is called from a program; the tools' own definitions reach the model as
    /// the deferred mode delivers them, when their group is activated, with the group's
    /// instructions. (For the full declarations in every request instead, give
    /// `Deferred::with_tools` the [`definition`](Self::definition) of `Session::all()`.)
    /// A program's call of an inactive group's tool is refused with the hint to activate the
    /// group, as the model's own call is (unless first-use activation is on); the program
    /// can call `reset_tools` first. Answer the model's calls with
    /// [`call_batch`](Self::call_batch).
    ///
    /// # Errors
    ///
    /// As [`Deferred::with_tools`]: a toolkit that has a tool named `run_program`, or more
    /// tools than the provider accepts in a request.
    pub fn deferred(
        &self,
        provider: Provider,
        options: DeferredOptions,
    ) -> Result<Deferred<R>, DeferredError> {
        let definition = directory_definition(&self.toolkit, &self.limits);
        Deferred::with_tools(&self.toolkit, provider, options, &[definition])
    }

    /// Answer a model's call: `run_program` runs its program, any other name is the
    /// toolkit's call. The arguments are the provider's text or value, as
    /// [`Toolkit::call`] takes them.
    pub async fn call(
        &self,
        session: &mut Session<R>,
        name: &str,
        arguments: impl Into<Arguments<'_>>,
    ) -> CallResult {
        let arguments = arguments.into();
        if name != RUN_PROGRAM {
            return self.toolkit.call(session, name, arguments).await;
        }
        match program_argument(arguments) {
            Ok(program) => self.run(session, &program).await,
            Err(refusal) => CallResult::error(refusal),
        }
    }

    /// Answer one assistant turn's calls, results in call order: what
    /// [`Toolkit::call_batch`] does, with `run_program` calls answered too. A program is a
    /// barrier, as `reset_tools` is: the calls before it run (concurrently, as
    /// `Toolkit::call_batch` runs them) and finish first, the calls after it see what it
    /// switched on or off.
    pub async fn call_batch(
        &self,
        session: &mut Session<R>,
        calls: &[ToolCall],
    ) -> Vec<CallResult> {
        let mut results = Vec::with_capacity(calls.len());
        let mut rest = calls;
        while !rest.is_empty() {
            let plain = rest
                .iter()
                .position(|c| c.tool == RUN_PROGRAM)
                .unwrap_or(rest.len());
            if plain > 0 {
                results.extend(self.toolkit.call_batch(session, &rest[..plain]).await);
                rest = &rest[plain..];
                continue;
            }
            let program = &rest[0];
            results.push(
                self.call(session, RUN_PROGRAM, program.arguments.as_arguments())
                    .await,
            );
            rest = &rest[1..];
        }
        results
    }

    /// Run `program` (the body of an async function) on `session`.
    pub fn run<'a>(
        &'a self,
        session: &'a mut Session<R>,
        program: &'a str,
    ) -> impl Future<Output = CallResult> + Send + 'a {
        self.run_cx(session, program, None)
    }

    /// [`run`](Self::run) with the caller's [`CallContext`], which every tool call of the
    /// program carries (per-call data, the cancellation token, a progress observer).
    pub fn run_with<'a>(
        &'a self,
        session: &'a mut Session<R>,
        program: &'a str,
        context: &'a CallContext,
    ) -> impl Future<Output = CallResult> + Send + 'a {
        self.run_cx(session, program, Some(context))
    }

    /// The run inside its span: an `execute_tool` span named for `run_program` (the fields
    /// of the toolkit's own, as far as they apply), under which each of the program's calls
    /// makes its own `execute_tool` span.
    async fn run_cx(
        &self,
        session: &mut Session<R>,
        program: &str,
        context: Option<&CallContext>,
    ) -> CallResult {
        use tracing::Instrument as _;
        let span = tracing::info_span!(
            "execute_tool",
            otel.name = "execute_tool run_program",
            otel.kind = "internal",
            otel.status_code = tracing::field::Empty,
            gen_ai.operation.name = "execute_tool",
            gen_ai.tool.name = RUN_PROGRAM,
            "gen_ai.tool.type" = "function",
            "error.type" = tracing::field::Empty,
            toolgroup.program.calls = tracing::field::Empty,
        );
        let (result, calls) = self
            .run_in_span(session, program, context)
            .instrument(span.clone())
            .await;
        span.record("toolgroup.program.calls", calls);
        if result.is_error {
            span.record("otel.status_code", "ERROR");
            span.record("error.type", "program_error");
        }
        result
    }

    async fn run_in_span(
        &self,
        session: &mut Session<R>,
        program: &str,
        context: Option<&CallContext>,
    ) -> (CallResult, usize) {
        let prelude = self.prelude();
        let limits = self.limits.clone();
        let (to_host, mut from_run) = tokio::sync::mpsc::unbounded_channel();
        let (answer, answers) = std::sync::mpsc::channel();
        let source = program.to_owned();
        let thread_limits = limits.clone();
        let spawned = std::thread::Builder::new()
            .name("toolgroup-program".to_owned())
            // The engine's own stack limit, and room for the host's frames below it.
            .stack_size(limits.stack + (1 << 20))
            .spawn(move || engine::run(&source, &prelude, &thread_limits, &to_host, &answers));
        if let Err(e) = spawned {
            let text = format!("`{RUN_PROGRAM}` was not run: no thread for the program ({e})");
            return (CallResult::error(text), 0);
        }
        let mut made: Vec<(String, bool)> = Vec::new();
        let ended = loop {
            let Some(message) = from_run.recv().await else {
                break None;
            };
            match message {
                engine::ToHost::Calls(batch) => {
                    let answered = self.answer(session, &batch, context).await;
                    made.extend(answered.iter().map(|(tool, a)| (tool.clone(), a.ok)));
                    if answer
                        .send(answered.into_iter().map(|(_, a)| a).collect())
                        .is_err()
                    {
                        break None;
                    }
                }
                engine::ToHost::Done(ended) => break Some(ended),
            }
        };
        let result = match ended {
            Some(ended) => report(ended, &made, &limits),
            None => CallResult::error(format!(
                "`{RUN_PROGRAM}` failed: the program's engine stopped without an answer"
            )),
        };
        (result, made.len())
    }

    /// Run one batch of the program's calls concurrently, each on a copy of the session; then
    /// keep, in call order, what each switched on or off.
    async fn answer(
        &self,
        session: &mut Session<R>,
        batch: &[engine::Pending],
        context: Option<&CallContext>,
    ) -> Vec<(String, engine::Answer)> {
        let start = *session;
        let toolkit = &*self.toolkit;
        let futures: Vec<BoxFuture<'_, (CallResult, Session<R>)>> = batch
            .iter()
            .map(|pending| {
                let fut: BoxFuture<'_, (CallResult, Session<R>)> = Box::pin(async move {
                    let mut own = start;
                    let arguments = pending.arguments.as_str();
                    let result = match context {
                        Some(c) => {
                            toolkit
                                .call_with(&mut own, &pending.tool, arguments, c)
                                .await
                        }
                        None => toolkit.call(&mut own, &pending.tool, arguments).await,
                    };
                    (result, own)
                });
                fut
            })
            .collect();
        let results = JoinAll::new(futures).await;
        let mut out = Vec::with_capacity(results.len());
        for (pending, (result, after)) in batch.iter().zip(results) {
            session.apply_change(&start, &after);
            let (ok, text) = if result.is_error {
                (false, result.text_joined())
            } else {
                let value = result
                    .structured_content
                    .clone()
                    .unwrap_or_else(|| Value::from(result.text_joined()));
                (true, value.to_string())
            };
            out.push((
                pending.tool.clone(),
                engine::Answer {
                    id: pending.id,
                    ok,
                    text,
                },
            ));
        }
        out
    }

    /// The bindings of every tool a program may call: all groups (the toolkit decides, call
    /// by call, what the session allows, as for a model's call) and the tools of no group.
    fn prelude(&self) -> String {
        let mut namespaces: Vec<(&str, Vec<&str>)> = Vec::new();
        let mut functions: Vec<&str> = Vec::new();
        for def in self.toolkit.all_definitions() {
            match def.group {
                Some(group) => match namespaces.iter_mut().find(|(g, _)| *g == group) {
                    Some((_, tools)) => tools.push(def.name),
                    None => namespaces.push((group, vec![def.name])),
                },
                None => functions.push(def.name),
            }
        }
        js::prelude(&namespaces, &functions, &self.limits)
    }
}

/// The TypeScript declarations of what a program of `session` may call in `toolkit` (what
/// [`CodeMode::declarations`] gives, for a toolkit held elsewhere).
pub fn declarations<R: Registry>(toolkit: &Toolkit<R>, session: &Session<R>) -> String {
    let (namespaces, globals) = namespaces_of(toolkit, toolkit.definitions(session), true);
    typescript::declarations(&namespaces, &globals)
}

/// The definition of `run_program` for `session` of `toolkit` under `limits` (what
/// [`CodeMode::definition`] gives, for a toolkit held elsewhere), made anew on every call.
pub fn definition<R: Registry>(
    toolkit: &Toolkit<R>,
    session: &Session<R>,
    limits: &Limits,
) -> ToolDefinition {
    definition_declaring(toolkit, toolkit.definitions(session), limits)
}

/// The definition of `run_program` declaring exactly `tools` (definitions of `toolkit`, in
/// its listing order), under `limits`: for a server that shows a session's tools but not
/// all of them, such as an MCP server that answers `reset_tools` without listing it.
pub fn definition_declaring<'a, R: Registry>(
    toolkit: &'a Toolkit<R>,
    tools: impl IntoIterator<Item = &'a ToolDefinition>,
    limits: &Limits,
) -> ToolDefinition {
    let (namespaces, globals) = namespaces_of(toolkit, tools, true);
    let description = describe(
        "calls the tools declared below",
        "",
        limits,
        &typescript::declarations(&namespaces, &globals),
    );
    program_tool(description, annotations(toolkit))
}

/// What a program may do, as MCP annotations: it may call any tool of the toolkit (with
/// `reset_tools`, or by first-use activation), so it is read-only only if every tool is,
/// not destructive only if none may be, and closed-world only if every tool is.
/// `reset_tools` is left out: it changes which tools the session shows, not the world the
/// tools act on.
fn annotations<R: Registry>(toolkit: &Toolkit<R>) -> ToolAnnotations {
    let tools: Vec<&ToolAnnotations> = toolkit
        .all_definitions()
        .filter(|d| d.name != crate::meta::RESET_TOOLS)
        .map(|d| &d.annotations)
        .collect();
    let all = |hint: fn(&ToolAnnotations) -> Option<bool>, value: bool| {
        tools.iter().all(|a| hint(a) == Some(value))
    };
    let read_only = all(|a| a.read_only, true);
    let writers = || tools.iter().filter(|a| a.read_only != Some(true));
    ToolAnnotations {
        read_only: read_only.then_some(true),
        destructive: if read_only {
            None
        } else if writers().any(|a| a.destructive != Some(false)) {
            writers()
                .any(|a| a.destructive == Some(true))
                .then_some(true)
        } else {
            Some(false)
        },
        idempotent: None,
        open_world: if all(|a| a.open_world, false) {
            Some(false)
        } else {
            tools
                .iter()
                .any(|a| a.open_world == Some(true))
                .then_some(true)
        },
    }
}

/// `run_program`'s definition for the deferred mode (see [`CodeMode::deferred`]): every
/// group by its description and its tools' names, the tools' declarations left to the
/// definitions the model receives when a group is activated.
fn directory_definition<R: Registry>(toolkit: &Toolkit<R>, limits: &Limits) -> ToolDefinition {
    // Without the instructions: they come with each group's activation.
    let (namespaces, globals) = namespaces_of(toolkit, toolkit.definitions(&Session::all()), false);
    let description = describe(
        "calls your tools",
        " In the program each of your tools is an async function that takes the tool's arguments as one object and resolves to its result (its structured output, else its text): a tool of a group is `group.tool(args)`, as listed below. A group's tools are given to you, and can be called, once it is active: activate groups with reset_tools, from the program too.",
        limits,
        &typescript::directory(&namespaces, &globals),
    );
    program_tool(description, annotations(toolkit))
}

/// `run_program`'s description: what it runs (`calls`), how tools are called (`how`, empty
/// or a sentence after a space), its limits and the TypeScript `ts`.
fn describe(calls: &str, how: &str, limits: &Limits, ts: &str) -> String {
    format!(
        "Run a JavaScript program (the body of an async function) that {calls}, and get back the value it returns, what it logged with console.log, and the calls it made. Use it to chain several tool calls in one step; call independent tools together with Promise.all.{how} A tool that fails throws an Error with its message. Limits: {:?}, {} tool calls, {} KiB of output.\n\n```ts\n{ts}```",
        limits.time,
        limits.calls,
        limits.output >> 10,
    )
}

/// `run_program`'s definition with `description` and `annotations`.
fn program_tool(description: String, annotations: ToolAnnotations) -> ToolDefinition {
    ToolDefinition {
        name: RUN_PROGRAM,
        description: intern(description),
        input_schema: json!({
            "type": "object",
            "properties": {
                "program": {
                    "type": "string",
                    "description": "The program: JavaScript statements, run as the body of an async function; `return` its result."
                }
            },
            "required": ["program"],
            "additionalProperties": false
        }),
        output_schema: None,
        annotations,
        task: crate::meta::TaskSupport::Forbidden,
        group: None,
        always_on: true,
        from_rust: false,
    }
}

/// The program in `run_program`'s arguments (the provider's text or value), or the refusal
/// to give the model when they are not exactly `{"program": text}` (the input is not echoed).
///
/// # Errors
///
/// The refusal's text.
pub fn program_argument<'a>(arguments: impl Into<Arguments<'a>>) -> Result<String, &'static str> {
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Args {
        program: String,
    }
    let parsed: Result<Args, _> = match arguments.into() {
        Arguments::Text(text) => serde_json::from_str(text),
        Arguments::Value(value) => Args::deserialize(value),
    };
    parsed.map(|a| a.program).map_err(
        |_| "`run_program` was not run: its arguments must be {\"program\": \"<JavaScript>\"}",
    )
}

/// `tools` (definitions of `toolkit`) as namespaces, one per group (its description, and
/// with `instructions` its instructions, as its doc), and global functions.
fn namespaces_of<'a, R: Registry>(
    toolkit: &'a Toolkit<R>,
    tools: impl IntoIterator<Item = &'a ToolDefinition>,
    instructions: bool,
) -> (Vec<typescript::Namespace<'a>>, Vec<&'a ToolDefinition>) {
    let mut namespaces: Vec<typescript::Namespace<'_>> = Vec::new();
    let mut globals = Vec::new();
    for def in tools {
        let Some(group) = def.group else {
            globals.push(def);
            continue;
        };
        match namespaces.iter_mut().find(|n| n.name == group) {
            Some(namespace) => namespace.tools.push(def),
            None => {
                let info = toolkit.groups().iter().find(|g| g.name == group);
                let doc = match info {
                    Some(info) => match info.instructions.filter(|_| instructions) {
                        Some(instructions) => {
                            format!("{}\n\n{instructions}", info.description)
                        }
                        None => info.description.to_owned(),
                    },
                    None => String::new(),
                };
                namespaces.push(typescript::Namespace {
                    name: group,
                    doc,
                    tools: vec![def],
                });
            }
        }
    }
    (namespaces, globals)
}

/// The run's result: the value, the log and the calls as structured content (and as text),
/// or the failure with the log and the calls that ran before it.
fn report(ended: engine::Ended, made: &[(String, bool)], limits: &Limits) -> CallResult {
    let calls: Vec<Value> = made
        .iter()
        .map(|(tool, ok)| json!({"tool": tool, "ok": ok}))
        .collect();
    match ended.outcome {
        Ok(value) if value.len() > limits.output => CallResult::error(format!(
            "`{RUN_PROGRAM}`: the program's value is {} bytes as JSON, over its output limit ({} bytes); return less (the calls it made: {})",
            value.len(),
            limits.output,
            calls.len()
        )),
        Ok(value) => {
            let value: Value = serde_json::from_str(&value).unwrap_or(Value::Null);
            CallResult::structured(&json!({
                "result": value,
                "logs": ended.logs,
                "calls": calls,
            }))
        }
        Err(failure) => {
            let mut text = String::from("The program failed: ");
            text.push_str(&failure.message);
            if let Some((line, column)) = failure.at {
                text.push_str(&format!(" (line {line}, column {column})"));
            }
            text.push('.');
            if !calls.is_empty() {
                text.push_str(&format!(
                    "\nCalls made before it failed: {}.",
                    Value::from(calls)
                ));
            }
            if !ended.logs.is_empty() {
                text.push_str("\nLog:\n");
                text.push_str(&ended.logs.join("\n"));
            }
            CallResult::error(text)
        }
    }
}
