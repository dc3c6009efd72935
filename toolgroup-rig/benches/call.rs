//! One tool call through rig's tool server: the toolkit's tool through the adapter, against
//! the same tool written as a plain rig `Tool`, and against the toolkit's own `Toolkit::call`
//! (the dispatch cost the adapter should not exceed on top of rig's own). See BENCHMARKS.md.

use std::hint::black_box;
use std::time::Instant;

use criterion::{Criterion, criterion_group, criterion_main};
use rig_agent::core::tool::{Tool, ToolContext};
use rig_agent::tool::server::ToolServer;
use serde::Deserialize;
use toolgroup_rig::RigToolkit;

#[path = "../../examples/support/agent.rs"]
#[allow(dead_code)]
mod agent;

/// The same tool, written for rig.
struct NoteWrite;

#[derive(Deserialize)]
struct NoteArgs {
    text: String,
}

impl Tool for NoteWrite {
    const NAME: &'static str = "note_write";
    type Args = NoteArgs;
    type Output = String;
    type Error = std::convert::Infallible;

    fn description(&self) -> String {
        "Write a note to the agent's notebook.".to_owned()
    }

    fn parameters(&self) -> serde_json::Value {
        serde_json::json!({
            "type": "object",
            "properties": {"text": {"type": "string", "description": "The text to write."}},
            "required": ["text"],
            "additionalProperties": false
        })
    }

    async fn call(
        &self,
        _context: &mut ToolContext,
        args: NoteArgs,
    ) -> Result<String, Self::Error> {
        Ok(format!("Noted ({} characters).", args.text.chars().count()))
    }
}

const ARGS: &str = r#"{"text": "buy milk"}"#;

fn call(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a current-thread runtime");
    let mut group = c.benchmark_group("rig_call");
    // Each sample awaits its calls in one `block_on`, so the runtime's entry is not measured.
    macro_rules! bench {
        ($name:literal, $call:expr) => {
            group.bench_function($name, |b| {
                b.iter_custom(|iters| {
                    runtime.block_on(async {
                        let start = Instant::now();
                        for _ in 0..iters {
                            black_box($call.await);
                        }
                        start.elapsed()
                    })
                })
            });
        };
    }

    let plain = ToolServer::new().tool(NoteWrite).run();
    let mut context = ToolContext::new();
    bench!(
        "plain rig tool",
        plain.execute("note_write", black_box(ARGS), &mut context)
    );

    let rig = RigToolkit::new(agent::toolkit());
    let adapted = rig.tool_server().run();
    let conversation = rig.conversation();
    let mut context = conversation.tool_context(ToolContext::new());
    bench!(
        "toolkit tool via adapter",
        adapted.execute("note_write", black_box(ARGS), &mut context)
    );

    // The sides answer the same, or the comparison means nothing.
    let (a, b) = runtime.block_on(async {
        (
            plain
                .execute("note_write", ARGS, &mut ToolContext::new())
                .await,
            adapted.execute("note_write", ARGS, &mut context).await,
        )
    });
    assert_eq!(a.output().as_text(), Some("Noted (8 characters)."));
    assert_eq!(a.output(), b.output());
    assert!(!a.is_error() && !b.is_error());

    let toolkit = agent::toolkit();
    let mut session = toolkit.session();
    bench!(
        "Toolkit::call alone",
        toolkit.call(&mut session, "note_write", black_box(ARGS))
    );
    group.finish();
}

criterion_group!(benches, call);
criterion_main!(benches);
