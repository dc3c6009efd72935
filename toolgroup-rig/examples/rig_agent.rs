//! The quickstart's three turns inside rig's agent loop, offline: rig's scripted completion
//! model plays the model, the quickstart's toolkit is the agent's tools. Turn 1 activates the
//! `web_search` and `scraping` groups; turn 2 misspells a group (`web_serch`), which is refused
//! as a whole and changes nothing; turn 3 still sees every tool.
//!
//! ```text
//! cargo run --manifest-path toolgroup-rig/Cargo.toml --example rig_agent
//! ```
//!
//! Each `turn N:` line lists the tools rig sent with that model call (what the model saw).

#[path = "../../examples/support/agent.rs"]
#[allow(dead_code)]
mod agent;
#[path = "../tests/support/mod.rs"]
mod support;

use rig_agent::AgentBuilder;
use rig_agent::core::test_utils::{MockCompletionModel, MockTurn};
use serde_json::json;
use toolgroup_rig::RigToolkit;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let calls = [
        ("reset_tools", json!({"web_search": true, "scraping": true})),
        ("reset_tools", json!({"web_serch": true})),
        ("web_search", json!({"query": "rust tool groups"})),
    ];
    let turns = calls
        .iter()
        .enumerate()
        .map(|(i, (name, arguments))| {
            MockTurn::tool_call(format!("call_{}", i + 1), *name, arguments.clone())
        })
        .chain([MockTurn::text("Here is what I found.")]);
    let model = MockCompletionModel::from_turns(turns);

    // Once per process: the toolkit's rig tools, and an agent holding them.
    let rig = RigToolkit::new(agent::toolkit());
    let agent = AgentBuilder::new(model.clone())
        .preamble("You are a research assistant.")
        .tool_server_handle(rig.tool_server().run())
        .default_max_turns(8)
        .build();

    // Per conversation: its active groups, brought into each run.
    let conversation = rig.conversation();
    let response = conversation
        .prompt(&agent, "Find out what tool groups are.")
        .await?;

    println!(
        "toolgroup in a rig agent: a scripted model misspells a group name; the call is refused\n"
    );
    let offered = support::offered(&model);
    let results = support::answers(&response.messages);
    for (turn, ((name, arguments), result)) in calls.iter().zip(&results).enumerate() {
        let tools = offered.get(turn).map(|t| t.join(", ")).unwrap_or_default();
        println!("turn {}: {tools}", turn + 1);
        println!("  model calls {name} {arguments}");
        println!(
            "  result ({}):",
            if result.is_error { "error" } else { "ok" }
        );
        for line in result.text.lines() {
            println!("    {line}");
        }
        println!();
    }
    println!("model answers: {}", response.output());
    let active: Vec<String> = conversation
        .session()
        .active_names()
        .map(|n| format!("'{n}'"))
        .collect();
    println!("activated_groups at the end: [{}]", active.join(", "));
    Ok(())
}
