//! The example agent loop runs end to end: decode, call, render, repeat; and the kit's
//! scripted model, given the example model's script, holds the same conversation.

#[allow(dead_code)]
#[path = "../../examples/support/agent.rs"]
mod agent;
#[allow(dead_code)]
#[path = "../../examples/support/charts.rs"]
mod charts;
#[allow(dead_code)]
#[path = "../../examples/agent_loop.rs"]
mod example;
use serde_json::json;
use toolgroup::provider::Provider;
use toolgroup::testing::{Script, ScriptedModel};

use crate::png;

#[tokio::test]
async fn the_agent_loop_runs_to_a_final_answer() {
    let transcript = example::run().await.unwrap().transcript;
    assert_eq!(
        transcript,
        [
            "tools: reset_tools, note_write",
            "  reset_tools -> ok: Active groups: web_search, scraping",
            "tools: reset_tools, note_write, web_search, page_fetch",
            "  web_search -> ok: [{\"title\":\"tool groups - the official site\",\"url\":\"https://example.org/\"},{\"title\":\"Learning tool groups\",\"url\":\"https://example.org/learn\"}]",
            "  page_fetch -> error: `page_fetch` was not run: the arguments are not valid JSON (EOF while parsing a value at line 1 column 8); send one JSON object matching the tool's parameters",
            "tools: reset_tools, note_write, web_search, page_fetch",
            "  page_fetch -> ok: Example page at https://example.org/learn: an offline copy.",
            "  note_write -> ok: Noted (34 characters).",
            "tools: reset_tools, note_write, web_search, page_fetch",
            "  reset_tools -> ok: Active groups: charts",
            "tools: reset_tools, note_write, bar_chart",
            "  bar_chart -> ok: an image (image/png, 4969 bytes)",
            "  user message: image_url data:image/png;base64,<6628 characters>",
            "tools: reset_tools, note_write, bar_chart",
            "assistant: Done. Last tool said: \"[image (image/png, 4969 bytes): attached in the next user message]\"",
        ]
    );
}

/// The chart the model asked for reaches it in the Chat Completions shapes: the tool message
/// says where the image is, and the user message right after it carries the PNG as a data URL,
/// an image of the bars asked for.
#[tokio::test]
async fn the_chart_reaches_the_model_as_an_image_part() {
    let messages = example::run().await.unwrap().messages;
    let at = messages
        .iter()
        .position(|m| m["tool_call_id"] == "call_7")
        .expect("the bar_chart call's tool message");
    assert_eq!(
        messages[at],
        json!({
            "role": "tool",
            "tool_call_id": "call_7",
            "content": "[image (image/png, 4969 bytes): attached in the next user message]",
        })
    );
    let attachments = &messages[at + 1];
    assert_eq!(attachments["role"], "user");
    assert_eq!(
        attachments["content"][0],
        json!({"type": "text", "text": "Attachments of the result of `bar_chart` (call call_7):"})
    );
    let part = &attachments["content"][1];
    assert_eq!(part["type"], "image_url");
    assert_eq!(attachments["content"].as_array().unwrap().len(), 2);
    let url = part["image_url"]["url"].as_str().unwrap();
    let data = url
        .strip_prefix("data:image/png;base64,")
        .expect("a PNG data URL");
    let image = png::read(&png::base64(data));
    assert_eq!(image.chunks, ["IHDR", "PLTE", "IDAT", "IEND"]);
    // Four bars 10 pixels wide, 4 apart, in a 4-pixel margin; 80 pixels high.
    assert_eq!((image.width, image.height), (60, 80));
    // Values 3, 5, 2, 8 scaled to the 71 pixels of the tallest bar (palette index 1), standing
    // on the axis (index 2) four pixels above the bottom.
    let bars: Vec<usize> = (0..4)
        .map(|i| image.column_run(4 + i * 14 + 5, 1))
        .collect();
    assert_eq!(bars, [27, 44, 18, 71]);
    assert_eq!(image.column_run(4 + 3 * 14 + 5, 2), 1, "the axis line");
    assert_eq!(image.rows[75][0], 0, "the margin is background");
    assert_eq!(
        messages.last().unwrap()["role"],
        "assistant",
        "the model answered after seeing the chart"
    );
}

/// The example's hand-written loop and the kit's scripted model produce the same Chat
/// Completions conversation, message for message (ids, raw malformed arguments, the image
/// attachment message and the final answer included).
#[tokio::test]
async fn the_kit_holds_the_example_loops_conversation() {
    let example = example::run().await.unwrap().messages;
    let last = example.last().unwrap()["content"]
        .as_str()
        .unwrap()
        .to_owned();
    let script = Script::new()
        .call(
            "reset_tools",
            json!({"web_search": true, "scraping": true, "charts": false}),
        )
        .calls([
            ("web_search", json!({"query": "tool groups"}).into()),
            (
                "page_fetch",
                toolgroup::args::ArgumentsBuf::from("{\"url\": "),
            ),
        ])
        .calls([
            ("page_fetch", json!({"url": "https://example.org/learn"})),
            (
                "note_write",
                json!({"text": "tool groups keep the context small"}),
            ),
        ])
        .call(
            "reset_tools",
            json!({"web_search": false, "scraping": false, "charts": true}),
        )
        .call("bar_chart", json!({"values": [3, 5, 2, 8]}))
        .text(last);
    let toolkit = charts::toolkit();
    let mut session = toolkit.session();
    let kit = ScriptedModel::new(script, Provider::OpenAiChat)
        .play(&toolkit, &mut session)
        .await
        .unwrap();
    // The example starts with a system and a user message.
    assert_eq!(kit.messages, example[2..]);
    assert_eq!(
        kit.turns[4].offered,
        ["reset_tools", "note_write", "bar_chart"]
    );
    assert_eq!(session.active_names().collect::<Vec<_>>(), ["charts"]);
}
