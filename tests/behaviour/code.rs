//! Code mode through the public API: programs that call the tools (concurrently where they
//! wait together), the declarations the model reads, and every way a program can go wrong,
//! each an error result that names what happened, with the toolkit and other runs unharmed.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use toolgroup::code::{CodeMode, Limits, RUN_PROGRAM};
use toolgroup::prelude::*;

static SLOW_RUNNING: AtomicUsize = AtomicUsize::new(0);
static SLOW_PEAK: AtomicUsize = AtomicUsize::new(0);

/// Search the web.
#[tool]
fn search(
    /// What to look for.
    query: String,
) -> Vec<String> {
    vec![format!("https://example.com/{query}")]
}

/// Fetch a page, slowly.
#[tool]
async fn fetch(
    /// The address.
    url: String,
) -> String {
    let now = SLOW_RUNNING.fetch_add(1, Ordering::SeqCst) + 1;
    SLOW_PEAK.fetch_max(now, Ordering::SeqCst);
    tokio::time::sleep(Duration::from_millis(50)).await;
    SLOW_RUNNING.fetch_sub(1, Ordering::SeqCst);
    format!("<title>{url}</title>")
}

/// A page's title and size.
#[derive(serde::Serialize, schemars::JsonSchema)]
struct Summary {
    /// The title.
    title: String,
    /// How long the page is.
    words: u32,
    /// Where it was published, if known.
    site: Option<String>,
}

/// Summarise a page.
#[tool]
fn summarise(
    /// The page.
    page: String,
    /// How to summarise.
    style: Option<Style>,
) -> Summary {
    let _ = style;
    Summary {
        title: page
            .trim_start_matches("<title>")
            .trim_end_matches("</title>")
            .to_owned(),
        words: 3,
        site: None,
    }
}

/// A summary's style.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Style {
    /// A line.
    Short,
    /// A paragraph.
    Long,
}

/// Fail, always.
#[tool]
fn broken() -> Result<String, String> {
    Err("the disk is full".to_owned())
}

/// Write a note.
#[tool]
fn note(
    /// The text.
    text: String,
) -> String {
    format!("noted: {text}")
}

#[tool_group(
    name = "web",
    description = "Searching and reading the web.",
    instructions = "Cite the addresses you read.",
    tools = [search, fetch, summarise, broken]
)]
struct Web;

#[tool_group(name = "notes", description = "Notes.", tools = [note])]
struct Notes;

#[toolkit]
struct Kit {
    #[basic]
    notes: Notes,
    web: Web,
}

fn code() -> CodeMode<Kit> {
    CodeMode::new(
        Toolkit::new(Kit {
            notes: Notes,
            web: Web,
        })
        .with_first_use_activation(true),
    )
}

async fn run(code: &CodeMode<Kit>, program: &str) -> toolgroup::CallResult {
    let mut session = code.toolkit().session();
    code.run(&mut session, program).await
}

fn value(result: &toolgroup::CallResult) -> Value {
    assert!(!result.is_error, "{}", result.text_joined());
    result.structured_content.clone().expect("structured")["result"].clone()
}

#[tokio::test]
async fn a_program_chains_calls_and_waits_for_them_together() {
    let code = code();
    let mut session = code.toolkit().session();
    let program = r#"
        const queries = ["a", "b", "c"];
        const hits = await Promise.all(queries.map((query) => web.search({ query })));
        const pages = await Promise.all(hits.map((h) => web.fetch({ url: h[0] })));
        const titles = [];
        for (const page of pages) titles.push((await web.summarise({ page })).title);
        console.log("titles:", titles.length);
        await notes.note({ text: titles.join(", ") });
        return titles;
    "#;
    let started = Instant::now();
    let r = code.run(&mut session, program).await;
    let elapsed = started.elapsed();
    assert_eq!(
        value(&r),
        json!([
            "https://example.com/a",
            "https://example.com/b",
            "https://example.com/c"
        ])
    );
    let structured = r.structured_content.unwrap();
    assert_eq!(structured["logs"], json!(["titles: 3"]));
    let calls: Vec<&str> = structured["calls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["tool"].as_str().unwrap())
        .collect();
    assert_eq!(
        calls,
        [
            "search",
            "search",
            "search",
            "fetch",
            "fetch",
            "fetch",
            "summarise",
            "summarise",
            "summarise",
            "note"
        ]
    );
    // The three fetches ran at once: three 50 ms sleeps in well under 150 ms.
    assert!(SLOW_PEAK.load(Ordering::SeqCst) >= 3, "fetches overlapped");
    assert!(elapsed < Duration::from_secs(5), "{elapsed:?}");
    // First use from code activated the group, as a model's call would.
    assert_eq!(session.active_names().collect::<Vec<_>>(), ["web"]);
}

#[tokio::test]
async fn the_declarations_type_each_group_as_a_namespace() {
    let code = code();
    let mut session = code.toolkit().session();
    let d = code.declarations(&session);
    assert!(d.contains("declare namespace notes {"), "{d}");
    assert!(
        d.contains("function note(args: { /** The text. */ text: string }): Promise<string>;"),
        "{d}"
    );
    assert!(d.contains("declare function reset_tools(args: { /** Searching and reading the web. */ web: boolean }): Promise<string>;"), "{d}");
    // An inactive group's namespace is not shown, as its tools are not listed.
    assert!(!d.contains("namespace web"), "{d}");
    session.set_active(KitGroup::Web, true);
    let d = code.declarations(&session);
    assert!(
        d.contains(" * Searching and reading the web.\n *\n * Cite the addresses you read.\n"),
        "{d}"
    );
    assert!(
        d.contains(
            "function search(args: { /** What to look for. */ query: string }): Promise<string[]>;"
        ),
        "{d}"
    );
    assert!(d.contains("style?: Style | null"), "{d}");
    assert!(d.contains("type Style = \"short\" | \"long\";"), "{d}");
    // The output's fields, in the schema's order (sorted, or declared with preserve_order).
    for member in [
        "/** Where it was published, if known. */ site?: string | null",
        "/** The title. */ title: string",
        "/** How long the page is. */ words: number",
    ] {
        assert!(d.contains(member), "{member}: {d}");
    }
    assert!(d.contains("): Promise<{ /** "), "{d}");
    let def = code.definition(&session);
    assert_eq!(def.name, RUN_PROGRAM);
    assert!(def.description.contains(&d));
    // The same declarations give the same definition text (interned once).
    assert!(std::ptr::eq(
        def.description,
        code.definition(&session).description
    ));
}

#[test]
fn the_definition_is_kept_per_set_of_shown_tools_and_follows_the_set() {
    let code = code();
    let mut session = code.toolkit().session();
    let fresh = |session: &Session<Kit>| {
        toolgroup::code::definition(code.toolkit(), session, code.limits())
    };
    let before = code.definition(&session);
    assert_eq!(before, fresh(&session));
    assert_eq!(code.definition(&session), before);
    session.set_active(KitGroup::Web, true);
    let after = code.definition(&session);
    assert_ne!(after, before, "a new set of shown tools, a new definition");
    assert_eq!(after, fresh(&session));
    assert!(after.description.contains("declare namespace web {"));
    session.set_active(KitGroup::Web, false);
    assert_eq!(code.definition(&session), before);
}

#[tokio::test]
async fn a_tool_error_is_a_thrown_error_the_program_can_catch() {
    let code = code();
    let r = run(
        &code,
        r#"try { await web.broken(); } catch (e) { return `caught: ${e.message}`; }"#,
    )
    .await;
    assert_eq!(value(&r), json!("caught: the disk is full"));
    let r = run(&code, "await web.search({ query: 7 });").await;
    assert!(r.is_error);
    let text = r.text_joined();
    assert!(text.starts_with("The program failed: Error: "), "{text}");
    assert!(
        text.contains("`query`"),
        "the tool's own argument error: {text}"
    );
    assert!(text.contains("(line 1, column"), "{text}");
}

#[tokio::test]
async fn mistakes_in_the_program_are_named_with_their_place() {
    let code = code();
    let cases = [
        ("const x = ;", "SyntaxError"),
        (
            "\n\nweb.serch({ query: 'x' });",
            "`web.serch` is not a tool of the group `web`. Did you mean `web.search`?",
        ),
        ("undefinedTool();", "ReferenceError"),
        ("throw 42;", "the program threw 42, which is not an Error"),
        (
            "return () => 1;",
            "the program returned a function, which is not data",
        ),
        ("return 10n;", "the program's value is not JSON"),
        (
            "const a = {}; a.self = a; return a;",
            "the program's value is not JSON",
        ),
        ("import fs from 'fs';", "SyntaxError"),
        (
            "return require('fs');",
            "ReferenceError: require is not defined",
        ),
        (
            "return await fetch('https://example.com');",
            "ReferenceError: fetch is not defined",
        ),
        ("return await import('fs');", "fs"),
        (
            "await new Promise(() => {});",
            "waiting for something that never comes",
        ),
    ];
    for (program, expected) in cases {
        let r = run(&code, program).await;
        assert!(r.is_error, "{program}: {}", r.text_joined());
        let text = r.text_joined();
        assert!(text.contains(expected), "{program}: {text}");
    }
    let r = run(&code, "\n\nweb.serch({ query: 'x' });").await;
    assert!(
        r.text_joined().contains("(line 3, column"),
        "{}",
        r.text_joined()
    );
    // `undefined` is a value: no result.
    assert_eq!(value(&run(&code, "return undefined;").await), Value::Null);
}

#[tokio::test]
async fn every_limit_stops_the_program_and_names_itself() {
    let code = code().with_limits(
        Limits::new()
            .time(Duration::from_millis(300))
            .memory(8 << 20)
            .stack(256 << 10)
            .calls(5)
            .output(1 << 10),
    );
    let cases = [
        ("while (true) {}", "time limit (300ms)"),
        (
            "while (true) { await Promise.resolve(); }",
            "time limit (300ms)",
        ),
        (
            "const a = []; while (true) a.push(new Array(1e5).fill(1));",
            "memory limit (8 MiB)",
        ),
        ("const f = (n) => f(n + 1) + 1; f(0);", "stack limit"),
        (
            "for (let i = 0; i < 10000; i++) await notes.note({ text: 'x' });",
            "more than 5 tool calls",
        ),
        (
            "while (true) console.log('x'.repeat(100));",
            "output passed 1024 bytes",
        ),
        (
            "return 'x'.repeat(5000);",
            "over its output limit (1024 bytes)",
        ),
    ];
    for (program, expected) in cases {
        let started = Instant::now();
        let r = run(&code, program).await;
        assert!(r.is_error, "{program}: {}", r.text_joined());
        assert!(
            r.text_joined().contains(expected),
            "{program}: {}",
            r.text_joined()
        );
        assert!(started.elapsed() < Duration::from_secs(10), "{program}");
    }
    // The toolkit and the next run are unharmed.
    assert_eq!(value(&run(&code, "return 1 + 1;").await), json!(2));
}

#[tokio::test]
async fn nothing_leaks_from_one_run_to_the_next() {
    let code = code();
    let r = run(
        &code,
        "Object.prototype.leak = 'yes'; Array.prototype.map = null; globalThis.kept = 1; return 1;",
    )
    .await;
    assert_eq!(value(&r), json!(1));
    let r = run(
        &code,
        "return [({}).leak ?? 'none', typeof [].map, typeof globalThis.kept];",
    )
    .await;
    assert_eq!(value(&r), json!(["none", "function", "undefined"]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hundred_programs_at_once_each_get_their_own_answer() {
    let code = std::sync::Arc::new(code());
    let mut tasks = tokio::task::JoinSet::new();
    for i in 0..100 {
        let code = code.clone();
        tasks.spawn(async move {
            let mut session = code.toolkit().session();
            let program = format!(
                "globalThis.mine = {i}; await notes.note({{ text: 'n{i}' }}); return mine;"
            );
            (i, code.run(&mut session, &program).await)
        });
    }
    for (i, r) in tasks.join_all().await {
        assert_eq!(value(&r), json!(i));
    }
}

#[tokio::test]
async fn reset_tools_from_code_switches_the_session() {
    let code = CodeMode::new(Toolkit::new(Kit {
        notes: Notes,
        web: Web,
    }));
    let mut session = code.toolkit().session();
    assert!(!code.declarations(&session).contains("namespace web"));
    let r = code
        .run(
            &mut session,
            "await reset_tools({ web: true }); return (await web.search({ query: 'q' }))[0];",
        )
        .await;
    assert_eq!(value(&r), json!("https://example.com/q"));
    assert_eq!(session.active_names().collect::<Vec<_>>(), ["web"]);
    assert!(code.declarations(&session).contains("namespace web"));
    // Without first use, a tool of an inactive group is refused, as for a model's call.
    let mut fresh = code.toolkit().session();
    let r = code
        .run(&mut fresh, "return await web.search({ query: 'q' });")
        .await;
    assert!(r.is_error, "{}", r.text_joined());
    assert!(
        r.text_joined().contains("reset_tools"),
        "{}",
        r.text_joined()
    );
}

#[tokio::test]
async fn the_call_api_routes_run_program_and_refuses_bad_arguments() {
    let code = code();
    let mut session = code.toolkit().session();
    let r = code
        .call(&mut session, RUN_PROGRAM, &json!({"program": "return 3;"}))
        .await;
    assert_eq!(value(&r), json!(3));
    let r = code
        .call(&mut session, RUN_PROGRAM, &json!({"code": 1}))
        .await;
    assert!(
        r.is_error && r.text_joined().contains("{\"program\""),
        "{}",
        r.text_joined()
    );
    let r = code
        .call(&mut session, "note", &json!({"text": "direct"}))
        .await;
    assert_eq!(r.text_joined(), "noted: direct");
}

#[allow(dead_code)]
#[path = "../../examples/support/fleet.rs"]
mod fleet;

/// Every group of `toolkit` active: its whole declarations.
fn all_declarations<R: toolgroup::Registry>(toolkit: Toolkit<R>) -> String {
    let code = CodeMode::new(toolkit);
    let mut session = code.toolkit().session();
    for &group in R::Group::ALL {
        session.set_active(group, true);
    }
    code.declarations(&session)
}

/// The declarations of the example toolkits and of this file's pass `tsc --strict` (npm
/// `typescript`, at `TYPESCRIPT`, which `.ci/run` installs; skipped with a notice without it).
#[test]
fn the_declarations_type_check_with_tsc_strict() {
    let dir = std::env::temp_dir().join(format!("toolgroup-dts-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let files = [
        (
            "quickstart.d.ts",
            all_declarations(crate::common::quickstart::toolkit()),
        ),
        ("fleet.d.ts", all_declarations(fleet::toolkit())),
        (
            "code_test.d.ts",
            all_declarations(Toolkit::new(Kit {
                notes: Notes,
                web: Web,
            })),
        ),
    ];
    let mut paths = Vec::new();
    for (name, text) in &files {
        assert!(text.contains("declare namespace"), "{name}: {text}");
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        paths.push(path);
    }
    // A program against them: the declarations are what a program is checked with.
    let program = dir.join("program.ts");
    std::fs::write(
        &program,
        "async function main() {\n  const hits: string[] = await web.search({ query: \"q\" });\n  const s = await web.summarise({ page: hits[0], style: \"short\" });\n  console.log(s.title, s.words, s.site ?? \"\");\n  await reset_tools({ web: true });\n}\nmain();\n",
    )
    .unwrap();
    let Ok(typescript) = std::env::var("TYPESCRIPT") else {
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stderr(),
            "skipped: TYPESCRIPT is not set (npm's typescript package folder; .ci/run installs one)"
        );
        return;
    };
    // Each file alone (their namespaces are separate programs), the program with its own.
    for (i, path) in paths.iter().enumerate() {
        let mut inputs = vec![path.clone()];
        if i == 2 {
            // A program written against this file's declarations.
            inputs.push(program.clone());
        }
        let out = std::process::Command::new("node")
            .arg(std::path::Path::new(&typescript).join("bin/tsc"))
            .args([
                "--strict", "--noEmit", "--target", "es2022", "--lib", "es2022",
            ])
            .args(&inputs)
            .output()
            .expect("node runs");
        assert!(
            out.status.success(),
            "tsc --strict on {inputs:?}:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Look a word up.
#[tool(read_only, open_world = false)]
fn lookup(
    /// The word.
    word: String,
) -> String {
    word
}

/// Count the letters of a word.
#[tool(read_only, open_world = false)]
fn letters(
    /// The word.
    word: String,
) -> usize {
    word.len()
}

/// Forget a word.
#[tool(destructive)]
fn forget(
    /// The word.
    word: String,
) -> String {
    word
}

#[tool_group(name = "words", description = "Words.", tools = [lookup])]
struct Words;

#[tool_group(name = "counting", description = "Counting.", tools = [letters])]
struct Counting;

#[tool_group(name = "forgetting", description = "Forgetting.", tools = [forget])]
struct Forgetting;

#[toolkit]
struct ReadOnlyKit {
    #[basic]
    words: Words,
    counting: Counting,
}

#[toolkit]
struct MixedKit {
    #[basic]
    words: Words,
    forgetting: Forgetting,
}

/// A program may call any tool of the toolkit (through `reset_tools` or first-use
/// activation), so `run_program` is read-only only when every tool is, and destructive when
/// one is; `reset_tools` (which switches groups, not the world) does not count.
#[test]
fn run_program_is_annotated_with_what_its_calls_may_do() {
    let read_only = CodeMode::new(Toolkit::new(ReadOnlyKit {
        words: Words,
        counting: Counting,
    }));
    // Only `words` is active: `counting` is reachable by reset_tools, and read-only too.
    let a = read_only
        .definition(&read_only.toolkit().session())
        .annotations;
    assert_eq!(
        (a.read_only, a.destructive, a.open_world),
        (Some(true), None, Some(false))
    );
    let mixed = CodeMode::new(Toolkit::new(MixedKit {
        words: Words,
        forgetting: Forgetting,
    }));
    // `forget` is not shown, but a program can switch its group on and call it.
    let a = mixed.definition(&mixed.toolkit().session()).annotations;
    assert_eq!((a.read_only, a.destructive), (None, Some(true)));
    assert_eq!(a.open_world, None, "forget states no open-world hint");
    // The same in the deferred mode's definition.
    let deferred = mixed
        .deferred(
            toolgroup::provider::Provider::Mcp,
            toolgroup::provider::deferred::DeferredOptions::default(),
        )
        .expect("a deferred mode");
    let tools = deferred.tools_value(&deferred.state());
    let program = tools
        .as_array()
        .expect("a list")
        .iter()
        .find(|t| t["name"] == RUN_PROGRAM)
        .expect("run_program");
    assert_eq!(program["annotations"]["destructiveHint"], json!(true));
}
