//! The example agent loop runs end to end: decode, call, render, repeat.

#[allow(dead_code)]
#[path = "../examples/agent_loop.rs"]
mod agent_loop;

#[tokio::test]
async fn the_agent_loop_runs_to_a_final_answer() {
    let transcript = agent_loop::run().await.unwrap();
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
            "assistant: Done. Last tool said: \"Noted (34 characters).\"",
        ]
    );
}
