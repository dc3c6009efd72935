//! One program's run in QuickJS, on a thread of its own: the program's tool calls go out to
//! the host in batches (every call made before the program waits), their answers come back,
//! and the run ends with the program's value or its error.
//!
//! Each run has a fresh runtime and context, with the run's memory and stack limits and an
//! interrupt at its deadline: nothing a program does reaches the next one, and QuickJS gives
//! a program no file system, network, process, environment, timers or modules (no loader is
//! set), only what the prelude defines.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::mpsc;
use std::time::Instant;

use rquickjs::{Context, Ctx, Function, Runtime};

use super::Limits;

/// A tool call the program made, waiting for its answer.
#[derive(Debug)]
pub(crate) struct Pending {
    pub(crate) id: u32,
    pub(crate) tool: String,
    /// The arguments, as JSON text.
    pub(crate) arguments: String,
}

/// A call's answer: its value as JSON text (the structured output, else the text as a JSON
/// string), or the error result's text.
#[derive(Debug)]
pub(crate) struct Answer {
    pub(crate) id: u32,
    pub(crate) ok: bool,
    pub(crate) text: String,
}

/// What the run sends the host.
#[derive(Debug)]
pub(crate) enum ToHost {
    /// Calls to make, all at once; answer with one [`Answer`] each.
    Calls(Vec<Pending>),
    /// The run ended.
    Done(Ended),
}

/// How a run ended.
#[derive(Debug)]
pub(crate) struct Ended {
    /// The program's value as JSON text, or why it failed (with line and column when known).
    pub(crate) outcome: Result<String, Failure>,
    /// What it logged.
    pub(crate) logs: Vec<String>,
}

/// Why a program failed.
#[derive(Debug)]
pub(crate) struct Failure {
    pub(crate) message: String,
    /// Line and column in the program, when the error says where.
    pub(crate) at: Option<(u32, u32)>,
}

impl Failure {
    fn new(message: impl Into<String>) -> Self {
        Failure {
            message: message.into(),
            at: None,
        }
    }
}

/// What the host functions share with the loop.
#[derive(Default)]
struct State {
    pending: Vec<Pending>,
    next_id: u32,
    calls: usize,
    logs: Vec<String>,
    log_bytes: usize,
    finished: Option<(bool, String, String)>,
}

/// Run `program` (the body of an async function) with `prelude` (the tools' bindings, see
/// `js`), sending calls and the end to `to_host` and reading answers from `answers`.
pub(crate) fn run(
    program: &str,
    prelude: &str,
    limits: &Limits,
    to_host: &tokio::sync::mpsc::UnboundedSender<ToHost>,
    answers: &mpsc::Receiver<Vec<Answer>>,
) {
    let deadline = Instant::now() + limits.time;
    let state = Rc::new(RefCell::new(State::default()));
    let outcome = match Runtime::new() {
        Ok(runtime) => {
            runtime.set_memory_limit(limits.memory);
            runtime.set_max_stack_size(limits.stack);
            runtime.set_interrupt_handler(Some(Box::new(move || Instant::now() >= deadline)));
            match Context::full(&runtime) {
                Ok(context) => context.with(|ctx| {
                    drive(
                        &ctx, program, prelude, limits, deadline, &state, to_host, answers,
                    )
                }),
                Err(e) => Err(Failure::new(format!(
                    "the JavaScript engine could not start: {e}"
                ))),
            }
        }
        Err(e) => Err(Failure::new(format!(
            "the JavaScript engine could not start: {e}"
        ))),
    };
    let logs = std::mem::take(&mut state.borrow_mut().logs);
    let _ = to_host.send(ToHost::Done(Ended { outcome, logs }));
}

#[allow(clippy::too_many_arguments)]
fn drive(
    ctx: &Ctx<'_>,
    program: &str,
    prelude: &str,
    limits: &Limits,
    deadline: Instant,
    state: &Rc<RefCell<State>>,
    to_host: &tokio::sync::mpsc::UnboundedSender<ToHost>,
    answers: &mpsc::Receiver<Vec<Answer>>,
) -> Result<String, Failure> {
    install(ctx, limits, state).map_err(|e| engine_failure(ctx, e, limits, deadline))?;
    ctx.eval::<(), _>(prelude)
        .map_err(|e| engine_failure(ctx, e, limits, deadline))?;
    // The program is the body of an async function, on the wrapper's second line.
    let wrapped = format!("(async function () {{\n{program}\n}})");
    let options = {
        let mut o = rquickjs::context::EvalOptions::default();
        o.strict = false;
        o.filename = Some(PROGRAM_FILE.to_owned());
        o
    };
    let main: Function<'_> = ctx
        .eval_with_options(wrapped, options)
        .map_err(|e| engine_failure(ctx, e, limits, deadline))?;
    let start: Function<'_> = ctx
        .globals()
        .get("__toolgroup_start")
        .map_err(|e| engine_failure(ctx, e, limits, deadline))?;
    start
        .call::<_, ()>((main,))
        .map_err(|e| engine_failure(ctx, e, limits, deadline))?;
    let settle: Function<'_> = ctx
        .globals()
        .get("__toolgroup_settle")
        .map_err(|e| engine_failure(ctx, e, limits, deadline))?;
    loop {
        while ctx.execute_pending_job() {
            if Instant::now() >= deadline {
                return Err(time_limit(limits));
            }
        }
        if Instant::now() >= deadline {
            return Err(time_limit(limits));
        }
        if let Some((ok, text, stack)) = state.borrow_mut().finished.take() {
            return match ok {
                true => Ok(text),
                false => Err(failure(text, &stack, limits)),
            };
        }
        let batch = std::mem::take(&mut state.borrow_mut().pending);
        if batch.is_empty() {
            return Err(Failure::new(
                "the program is waiting for something that never comes (a promise that no tool call settles); it was stopped",
            ));
        }
        if to_host.send(ToHost::Calls(batch)).is_err() {
            return Err(Failure::new("the run was cancelled"));
        }
        let left = deadline.saturating_duration_since(Instant::now());
        let answered = match answers.recv_timeout(left) {
            Ok(answered) => answered,
            Err(mpsc::RecvTimeoutError::Timeout) => return Err(time_limit(limits)),
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(Failure::new("the run was cancelled"));
            }
        };
        for answer in answered {
            settle
                .call::<_, ()>((answer.id, answer.ok, answer.text))
                .map_err(|e| engine_failure(ctx, e, limits, deadline))?;
        }
    }
}

/// The name the program's errors give for its source.
const PROGRAM_FILE: &str = "program.js";

/// The host functions the prelude takes (and hides from the program).
fn install<'js>(
    ctx: &Ctx<'js>,
    limits: &Limits,
    state: &Rc<RefCell<State>>,
) -> rquickjs::Result<()> {
    let globals = ctx.globals();
    let max_calls = limits.calls;
    let s = state.clone();
    globals.set(
        "__toolgroup_enqueue",
        Function::new(ctx.clone(), move |tool: String, arguments: String| -> i64 {
            let mut state = s.borrow_mut();
            if state.calls >= max_calls {
                return -1;
            }
            state.calls += 1;
            let id = state.next_id;
            state.next_id += 1;
            state.pending.push(Pending {
                id,
                tool,
                arguments,
            });
            i64::from(id)
        })?,
    )?;
    let max_log = limits.output;
    let s = state.clone();
    globals.set(
        "__toolgroup_log",
        Function::new(ctx.clone(), move |line: String| -> bool {
            let mut state = s.borrow_mut();
            state.log_bytes += line.len() + 1;
            if state.log_bytes > max_log {
                return false;
            }
            state.logs.push(line);
            true
        })?,
    )?;
    let s = state.clone();
    globals.set(
        "__toolgroup_finish",
        Function::new(ctx.clone(), move |ok: bool, text: String, stack: String| {
            let mut state = s.borrow_mut();
            if state.finished.is_none() {
                state.finished = Some((ok, text, stack));
            }
        })?,
    )?;
    globals.set(
        "__toolgroup_suggest",
        Function::new(
            ctx.clone(),
            move |name: String, candidates: Vec<String>| -> String {
                crate::suggest::did_you_mean(&name, candidates.iter().map(String::as_str))
                    .map(str::to_owned)
                    .unwrap_or_default()
            },
        )?,
    )?;
    Ok(())
}

/// An error the engine raised (a syntax error, a limit, a throw outside the program's own
/// promise), as the program's failure.
fn engine_failure(
    ctx: &Ctx<'_>,
    error: rquickjs::Error,
    limits: &Limits,
    deadline: Instant,
) -> Failure {
    if Instant::now() >= deadline {
        return time_limit(limits);
    }
    if !error.is_exception() {
        return failure(error.to_string(), "", limits);
    }
    let caught = ctx.catch();
    match caught.as_exception() {
        Some(exception) => {
            let name: String = exception.get("name").unwrap_or_else(|_| "Error".to_owned());
            let message = exception.message().unwrap_or_default();
            let stack = exception.stack().unwrap_or_default();
            failure(format!("{name}: {message}"), &stack, limits)
        }
        None => {
            let text = caught
                .as_string()
                .and_then(|s| s.to_string().ok())
                .unwrap_or_else(|| "a value that is not an Error".to_owned());
            failure(format!("the program threw {text}"), "", limits)
        }
    }
}

/// A failure from the error's text and stack: the engine's limit errors named as the limits
/// they are, and the position in the program read off the stack.
fn failure(message: String, stack: &str, limits: &Limits) -> Failure {
    let message = if message.contains("out of memory") {
        format!(
            "the program went over its memory limit ({} MiB) and was stopped",
            limits.memory >> 20
        )
    } else if message.contains("stack overflow") || message.contains("call stack size") {
        format!(
            "the program went over its stack limit ({} KiB; a recursion too deep?) and was stopped",
            limits.stack >> 10
        )
    } else if message.contains("interrupted") {
        return time_limit(limits);
    } else {
        message
    };
    Failure {
        message,
        at: position(stack),
    }
}

fn time_limit(limits: &Limits) -> Failure {
    Failure::new(format!(
        "the program ran past its time limit ({:?}) and was stopped",
        limits.time
    ))
}

/// The program's line and column in the first stack frame that is in the program (the
/// wrapper puts the program's first line on line 2).
fn position(stack: &str) -> Option<(u32, u32)> {
    let at = stack.find(PROGRAM_FILE)? + PROGRAM_FILE.len();
    let rest = stack[at..].strip_prefix(':')?;
    let mut parts = rest.splitn(3, |c: char| !c.is_ascii_digit());
    let line: u32 = parts.next()?.parse().ok()?;
    let column: u32 = parts.next()?.parse().ok()?;
    Some((line.checked_sub(1).filter(|l| *l > 0)?, column))
}
