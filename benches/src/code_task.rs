//! The code-mode benchmark: one task of seven tool calls (search three queries, fetch the
//! first page each search found, write a note of their titles) done two ways by a scripted
//! model, in OpenAI Responses' and Anthropic's shapes:
//!
//! - **calls**: the model's own tool calls, three turns of calls (the searches together, the
//!   fetches together, the note) and a closing answer: 4 requests, each carrying everything
//!   before it (the pages included); in the list and the deferred delivery;
//! - **code**: one `run_program` call whose program makes the seven calls, and the closing
//!   answer: 2 requests; the pages never reach the model, only the program's value; with
//!   `run_program` as the only tool, and beside the toolkit's tools in the deferred mode.
//!
//! Measured from each request body: requests, the tokens sent (o200k), and the wall time of
//! the calls or the program on this machine (the scripted model answers at once: a real
//! model's round trips come on top, one per request).

use std::error::Error;
use std::time::{Duration, Instant};

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};
use toolgroup::code::CodeMode;
use toolgroup::prelude::*;
use toolgroup::provider::deferred::{Deferred, DeferredOptions};
use toolgroup::provider::{Provider, Rendered};

use crate::tokens::conversation::{self, Mode};
use crate::tokens::responses::responses_namespace;
use crate::tokens::{fleet, request};

/// A search hit.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Hit {
    /// The page's title.
    pub title: String,
    /// Its address.
    pub url: String,
}

/// Search the web: the three best hits.
#[tool(read_only)]
pub fn search(
    /// What to look for.
    query: String,
) -> Vec<Hit> {
    (1..=3)
        .map(|i| Hit {
            title: format!("{query}: result {i}"),
            url: format!("https://example.com/{query}/{i}"),
        })
        .collect()
}

/// A fetched page.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Page {
    /// The page's title.
    pub title: String,
    /// Its text.
    pub text: String,
}

/// Fetch a page.
#[tool(read_only)]
pub fn fetch(
    /// The page's address.
    url: String,
) -> Page {
    let topic = url.rsplit('/').nth(1).unwrap_or("page").to_owned();
    let sentence = format!(
        "This page about {topic} explains how the project is built, tested and released, with examples and links to further reading. "
    );
    Page {
        title: format!("All about {topic}"),
        text: sentence.repeat(12),
    }
}

/// Write a note.
#[tool]
pub fn note_write(
    /// The note.
    text: String,
) -> String {
    format!("noted ({} characters)", text.len())
}

#[tool_group(
    name = "web",
    description = "Searching and reading the web.",
    instructions = "Cite the addresses you read.",
    tools = [search, fetch]
)]
pub struct Web;

#[tool_group(name = "notes", description = "Notes.", tools = [note_write])]
pub struct Notes;

/// The task's toolkit: the web and notes, beside three of the fleet's groups (what an agent
/// carries besides the task's tools).
#[toolkit]
pub struct TaskKit {
    #[basic]
    pub notes: Notes,
    pub web: Web,
    pub issues: fleet::Issues,
    pub pulls: fleet::Pulls,
    pub code: fleet::Code,
}

pub fn toolkit() -> Toolkit<TaskKit> {
    Toolkit::new(TaskKit {
        notes: Notes,
        web: Web,
        issues: fleet::Issues,
        pulls: fleet::Pulls,
        code: fleet::Code,
    })
}

/// The queries.
const QUERIES: [&str; 3] = ["rust", "wasm", "mcp"];

/// The program the model writes in code mode.
pub const PROGRAM: &str = r#"const queries = ["rust", "wasm", "mcp"];
const hits = await Promise.all(queries.map((query) => web.search({ query })));
const pages = await Promise.all(hits.map((h) => web.fetch({ url: h[0].url })));
const titles = pages.map((p) => p.title);
await notes.note_write({ text: titles.join("\n") });
return titles;"#;

/// The providers measured.
pub const PROVIDERS: [Provider; 2] = [Provider::OpenAiResponses, Provider::Anthropic];

/// How the task was done.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Way {
    /// The model's own calls, in a delivery mode.
    Calls(Mode),
    /// One program, `run_program` the only tool.
    Code,
    /// One program, `run_program` beside the toolkit's tools in the deferred mode
    /// (`CodeMode::deferred`): what an agent offering both sends.
    CodeDeferred,
}

impl Way {
    pub fn label(self) -> &'static str {
        match self {
            Way::Calls(Mode::Deferred) => "calls, deferred",
            Way::Calls(_) => "calls, list",
            Way::Code => "code mode",
            Way::CodeDeferred => "code mode beside the tools, deferred",
        }
    }
}

/// One row of the table.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub provider: Provider,
    pub way: Way,
    /// Model requests.
    pub requests: usize,
    /// Tokens the model reads, over every request: the conversation and system prompt, and
    /// the definitions it is shown (a deferred definition not loaded is sent, not read).
    pub tokens: usize,
    /// Tool calls made.
    pub calls: usize,
    /// The calls' (or the program's) wall time on this machine.
    pub wall: Duration,
}

/// The model's reply calling each of `calls`, in the provider's shape.
fn reply(provider: Provider, turn: usize, calls: &[(&str, Value)], request: &Value) -> Value {
    let id = |i: usize| format!("call_{turn:02}_{i}");
    match provider {
        Provider::Anthropic => {
            json!({"role": "assistant", "content": calls.iter().enumerate().map(|(i, (name, args))| {
            json!({"type": "tool_use", "id": format!("toolu_{turn:02}_{i}"), "name": name, "input": args})
        }).collect::<Vec<_>>()})
        }
        _ => json!({"output": calls.iter().enumerate().map(|(i, (name, args))| {
            let mut call = json!({"type": "function_call", "call_id": id(i), "name": name, "arguments": args.to_string()});
            if let Some(namespace) = responses_namespace(request, name) {
                call["namespace"] = Value::String(namespace);
            }
            call
        }).collect::<Vec<_>>()}),
    }
}

const SYSTEM: &str = "You are a research assistant.";
const PROMPT: &str =
    "Search rust, wasm and mcp, read the first page of each, and note their titles.";

/// The task done with the model's own calls: the request bodies, the calls made, their time.
pub async fn by_calls(
    provider: Provider,
    mode: Mode,
) -> Result<(Vec<Value>, usize, Duration), Box<dyn Error>> {
    let kit = toolkit();
    let rendered = Rendered::new(&kit, provider);
    let deferred = Deferred::new(&kit, provider, DeferredOptions::default())?;
    let mut state = deferred.state();
    let mut session = kit.session();
    session.activate(TaskKitGroup::Web);
    let mut conversation = vec![conversation::user(provider, PROMPT)];
    let mut bodies = Vec::new();
    let (mut calls, mut wall) = (0, Duration::ZERO);
    let searched: Vec<Value> = QUERIES.iter().map(|q| json!({"query": q})).collect();
    let fetched: Vec<Value> = QUERIES
        .iter()
        .map(|q| json!({"url": format!("https://example.com/{q}/1")}))
        .collect();
    let note = json!({"text": QUERIES.map(|q| format!("All about {q}")).join("\n")});
    let turns: Vec<Vec<(&str, Value)>> = vec![
        searched.into_iter().map(|a| ("search", a)).collect(),
        fetched.into_iter().map(|a| ("fetch", a)).collect(),
        vec![("note_write", note)],
    ];
    for (turn, step) in turns.iter().enumerate() {
        let request = request(
            provider,
            mode,
            &rendered,
            &deferred,
            &state,
            &session,
            SYSTEM,
            &conversation,
        )?;
        let reply = reply(provider, turn + 1, step, &request);
        bodies.push(request);
        let decoded = deferred.decode(&reply)?;
        conversation.extend(conversation::replayed(provider, reply));
        let started = Instant::now();
        let results = kit.call_batch(&mut session, &decoded.calls).await;
        wall += started.elapsed();
        calls += results.len();
        if let Some(failed) = results.iter().find(|r| r.is_error) {
            return Err(failed.text_joined().into());
        }
        let messages = match mode {
            Mode::Deferred => deferred.result_messages(
                &mut state,
                &session,
                &decoded,
                decoded.calls.iter().zip(&results),
            )?,
            _ => rendered.result_messages(decoded.calls.iter().zip(&results))?,
        };
        conversation.extend(messages);
    }
    bodies.push(request(
        provider,
        mode,
        &rendered,
        &deferred,
        &state,
        &session,
        SYSTEM,
        &conversation,
    )?);
    Ok((bodies, calls, wall))
}

/// The task done with one program: the request bodies, the calls the program made, its time.
pub async fn by_code(provider: Provider) -> Result<(Vec<Value>, usize, Duration), Box<dyn Error>> {
    let code = CodeMode::new(toolkit());
    let rendered = Rendered::new(code.toolkit(), provider);
    let mut session = code.toolkit().session();
    session.activate(TaskKitGroup::Web);
    let tools = Value::Array(vec![provider.render_definition(&code.definition(&session))]);
    let mut conversation = vec![conversation::user(provider, PROMPT)];
    let first = conversation::body(provider, SYSTEM, tools.clone(), None, &conversation, &[]);
    let reply = reply(
        provider,
        1,
        &[("run_program", json!({"program": PROGRAM}))],
        &first,
    );
    let calls = provider.decode_calls(&reply)?;
    conversation.extend(conversation::replayed(provider, reply));
    let started = Instant::now();
    let result = code.run(&mut session, PROGRAM).await;
    let wall = started.elapsed();
    if result.is_error {
        return Err(result.text_joined().into());
    }
    let made = result
        .structured_content
        .as_ref()
        .and_then(|s| s["calls"].as_array())
        .map_or(0, Vec::len);
    conversation.extend(rendered.result_messages(calls.iter().zip([&result]))?);
    let second = conversation::body(provider, SYSTEM, tools, None, &conversation, &[]);
    Ok((vec![first, second], made, wall))
}

/// The task done with one program, `run_program` beside the toolkit's tools in the deferred
/// mode: the request bodies, the calls the program made, its time.
pub async fn by_code_deferred(
    provider: Provider,
) -> Result<(Vec<Value>, usize, Duration), Box<dyn Error>> {
    let code = CodeMode::new(toolkit());
    let rendered = Rendered::new(code.toolkit(), provider);
    let deferred = code.deferred(provider, DeferredOptions::default())?;
    let mut state = deferred.state();
    let mut session = code.toolkit().session();
    session.activate(TaskKitGroup::Web);
    let mut conversation = vec![conversation::user(provider, PROMPT)];
    let body = |state: &_, session: &_, conversation: &[Value]| {
        request(
            provider,
            Mode::Deferred,
            &rendered,
            &deferred,
            state,
            session,
            SYSTEM,
            conversation,
        )
    };
    let first = body(&state, &session, &conversation)?;
    let reply = reply(
        provider,
        1,
        &[("run_program", json!({"program": PROGRAM}))],
        &first,
    );
    let decoded = deferred.decode(&reply)?;
    conversation.extend(conversation::replayed(provider, reply));
    let started = Instant::now();
    let results = code.call_batch(&mut session, &decoded.calls).await;
    let wall = started.elapsed();
    let made = match &results[..] {
        [result] if !result.is_error => result
            .structured_content
            .as_ref()
            .and_then(|s| s["calls"].as_array())
            .map_or(0, Vec::len),
        _ => return Err(format!("one program, one result: {results:?}").into()),
    };
    conversation.extend(deferred.result_messages(
        &mut state,
        &session,
        &decoded,
        decoded.calls.iter().zip(&results),
    )?);
    let second = body(&state, &session, &conversation)?;
    Ok((vec![first, second], made, wall))
}

/// Every row: each provider, by calls in the list and deferred modes, and by code (alone,
/// and beside the tools in the deferred mode).
pub async fn rows(count: &mut dyn FnMut(&str) -> usize) -> Vec<Row> {
    let mut out = Vec::new();
    for provider in PROVIDERS {
        for way in [
            Way::Calls(Mode::List),
            Way::Calls(Mode::Deferred),
            Way::Code,
            Way::CodeDeferred,
        ] {
            let (bodies, calls, wall) = match way {
                Way::Calls(mode) => by_calls(provider, mode).await,
                Way::Code => by_code(provider).await,
                Way::CodeDeferred => by_code_deferred(provider).await,
            }
            .expect("the task");
            out.push(Row {
                provider,
                way,
                requests: bodies.len(),
                tokens: bodies.iter().map(|b| read(provider, way, b, count)).sum(),
                calls,
                wall,
            });
        }
    }
    out
}

/// The tokens the model reads of one request: everything but `tools`, and the definitions
/// shown of `tools`.
fn read(provider: Provider, way: Way, body: &Value, count: &mut dyn FnMut(&str) -> usize) -> usize {
    let mode = match way {
        Way::Calls(mode) => mode,
        Way::Code => Mode::List,
        Way::CodeDeferred => Mode::Deferred,
    };
    let mut rest = body.clone();
    if let Some(map) = rest.as_object_mut() {
        map.remove("tools");
    }
    let shown: usize = crate::tokens::shown(provider, mode, body)
        .iter()
        .map(|d| count(d))
        .sum();
    count(&rest.to_string()) + shown
}

/// The rows as a Markdown table.
pub fn table(rows: &[Row]) -> String {
    let mut out = String::from(
        "| provider | way | model requests | tokens read (all requests) | tool calls | calls' wall time here |\n|---|---|---:|---:|---:|---:|\n",
    );
    for r in rows {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {:.1} ms |\n",
            r.provider,
            r.way.label(),
            r.requests,
            r.tokens,
            r.calls,
            r.wall.as_secs_f64() * 1e3,
        ));
    }
    out
}
