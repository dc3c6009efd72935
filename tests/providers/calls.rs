//! Calls and results through the public API: decoding each provider's tool calls, malformed
//! payloads, result messages, and a whole agent turn in the mask mode.

use crate::support::*;

// ---------------------------------------------------------------------------------------
// Decoding tool calls.
// ---------------------------------------------------------------------------------------

#[test]
fn decoding_openai_chat_calls() {
    let message = json!({
        "role": "assistant",
        "content": null,
        "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "search", "arguments": "{\"query\":\"rust\"}"}},
            {"id": "call_2", "type": "function", "function": {"name": "ping", "arguments": ""}},
        ],
    });
    let expected = vec![
        text_call("call_1", "search", "{\"query\":\"rust\"}"),
        text_call("call_2", "ping", ""),
    ];
    let chat = Provider::OpenAiChat;
    assert_eq!(chat.decode_calls(&message), Ok(expected.clone()));
    assert_eq!(
        chat.decode_calls(
            &json!({"id": "chatcmpl-1", "choices": [{"index": 0, "message": message}]})
        ),
        Ok(expected.clone())
    );
    assert_eq!(chat.decode_calls(&message["tool_calls"]), Ok(expected));
    assert_eq!(
        chat.decode_calls(&json!({"role": "assistant", "content": "Hello."})),
        Ok(vec![])
    );
    assert_eq!(chat.decode_calls(&json!({"choices": []})), Ok(vec![]));
    // Some compatible servers send the arguments as an object.
    assert_eq!(
        chat.decode_calls(
            &json!([{"id": "c", "function": {"name": "search", "arguments": {"query": "x"}}}])
        ),
        Ok(vec![
            ToolCall::new("search", json!({"query": "x"})).with_call_id("c")
        ])
    );
    // Bad JSON arguments are no decoding error: the toolkit answers the model about them.
    assert_eq!(
        chat.decode_calls(&json!([{"id": "c", "type": "function", "function": {"name": "search", "arguments": "{oops"}}])),
        Ok(vec![text_call("c", "search", "{oops")])
    );
}

#[test]
fn decoding_openai_responses_calls() {
    let response = json!({
        "id": "resp_1",
        "output": [
            {"type": "reasoning", "id": "rs_1", "summary": []},
            {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "search", "arguments": "{\"query\":\"rust\"}"},
            {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Searching."}]},
        ],
    });
    let expected = vec![text_call("call_1", "search", "{\"query\":\"rust\"}")];
    assert_eq!(
        Provider::OpenAiResponses.decode_calls(&response),
        Ok(expected.clone())
    );
    assert_eq!(
        Provider::OpenAiResponses.decode_calls(&response["output"]),
        Ok(expected)
    );
}

#[test]
fn decoding_anthropic_calls() {
    let message = json!({
        "role": "assistant",
        "content": [
            {"type": "thinking", "thinking": "...", "signature": "s"},
            {"type": "text", "text": "Let me search."},
            {"type": "tool_use", "id": "toolu_1", "name": "search", "input": {"query": "rust"}},
            {"type": "tool_use", "id": "toolu_2", "name": "ping", "input": {}},
        ],
        "stop_reason": "tool_use",
    });
    let expected = vec![
        ToolCall::new("search", json!({"query": "rust"})).with_call_id("toolu_1"),
        ToolCall::new("ping", json!({})).with_call_id("toolu_2"),
    ];
    assert_eq!(
        Provider::Anthropic.decode_calls(&message),
        Ok(expected.clone())
    );
    assert_eq!(
        Provider::AnthropicStrict.decode_calls(&message["content"]),
        Ok(expected)
    );
    assert_eq!(
        Provider::Anthropic.decode_calls(&json!({"role": "user", "content": "Hi"})),
        Ok(vec![])
    );
}

#[test]
fn decoding_gemini_calls() {
    let response = json!({
        "candidates": [{
            "content": {
                "role": "model",
                "parts": [
                    {"text": "Searching."},
                    {"functionCall": {"name": "search", "args": {"query": "rust"}}},
                    {"functionCall": {"id": "fc_2", "name": "ping"}},
                ],
            },
            "finishReason": "STOP",
        }],
    });
    let expected = vec![
        ToolCall::new("search", json!({"query": "rust"})),
        ToolCall::new("ping", json!({})).with_call_id("fc_2"),
    ];
    assert_eq!(
        Provider::Gemini.decode_calls(&response),
        Ok(expected.clone())
    );
    assert_eq!(
        Provider::Gemini.decode_calls(&response["candidates"][0]["content"]),
        Ok(expected.clone())
    );
    assert_eq!(
        Provider::GeminiLegacy.decode_calls(&response["candidates"][0]["content"]["parts"]),
        Ok(expected)
    );
    // A candidate stopped before any content.
    assert_eq!(
        Provider::Gemini.decode_calls(&json!({"candidates": [{"finishReason": "SAFETY"}]})),
        Ok(vec![])
    );
    assert_eq!(
        Provider::Gemini.decode_calls(&json!([{"function_call": {"name": "ping", "args": {}}}])),
        Ok(vec![ToolCall::new("ping", json!({}))])
    );
}

#[test]
fn decoding_mcp_calls() {
    let request = json!({
        "jsonrpc": "2.0",
        "id": 7,
        "method": "tools/call",
        "params": {"name": "search", "arguments": {"query": "rust"}},
    });
    assert_eq!(
        Provider::Mcp.decode_calls(&request),
        Ok(vec![
            ToolCall::new("search", json!({"query": "rust"})).with_call_id("7")
        ])
    );
    assert_eq!(
        Provider::Mcp.decode_calls(&request["params"]),
        Ok(vec![ToolCall::new("search", json!({"query": "rust"}))])
    );
    assert_eq!(
        Provider::Mcp.decode_calls(&json!({"name": "ping"})),
        Ok(vec![ToolCall::new("ping", json!({}))])
    );
}

#[test]
fn malformed_payloads_are_named_errors() {
    let cases: &[(Provider, Value, &str)] = &[
        (
            Provider::OpenAiChat,
            json!(42),
            "malformed OpenAI Chat Completions tool-call payload: the payload: expected an assistant message, a response or a list of tool calls, found a number",
        ),
        (
            Provider::OpenAiChat,
            json!({"tool_calls": "search"}),
            "malformed OpenAI Chat Completions tool-call payload: tool_calls: expected a list, found a string",
        ),
        (
            Provider::OpenAiChat,
            json!({"tool_calls": [{"id": "a", "function": {"name": "x", "arguments": "{}"}}, {"id": "b", "function": {"arguments": "{}"}}]}),
            "malformed OpenAI Chat Completions tool-call payload: tool_calls[1].function.name: expected a tool name (a non-empty string), found nothing",
        ),
        (
            Provider::OpenAiChat,
            json!({"tool_calls": [{"id": "a", "function": {"name": "x", "arguments": 5}}]}),
            "malformed OpenAI Chat Completions tool-call payload: tool_calls[0].function.arguments: expected the arguments as a JSON string, found a number",
        ),
        (
            Provider::OpenAiChat,
            json!({"tool_calls": [{"function": {"name": "x", "arguments": "{}"}}]}),
            "malformed OpenAI Chat Completions tool-call payload: tool_calls[0].id: expected a string, found nothing",
        ),
        (
            Provider::OpenAiChat,
            json!({"tool_calls": [{"id": "a", "type": "custom", "custom": {"name": "x", "input": ""}}]}),
            "malformed OpenAI Chat Completions tool-call payload: tool_calls[0].type: expected \"function\" (other tool types are not toolkit tools), found a string",
        ),
        (
            Provider::OpenAiChat,
            json!({"choices": [{"message": null}]}),
            "malformed OpenAI Chat Completions tool-call payload: choices[0].message: expected an object, found null",
        ),
        (
            Provider::OpenAiResponses,
            json!({"output": {"type": "function_call"}}),
            "malformed OpenAI Responses tool-call payload: output: expected a list, found an object",
        ),
        (
            Provider::OpenAiResponses,
            json!([{"type": "function_call", "name": "x", "arguments": "{}"}]),
            "malformed OpenAI Responses tool-call payload: [0].call_id: expected a string, found nothing",
        ),
        (
            Provider::Anthropic,
            json!({"content": [{"type": "tool_use", "id": "t", "name": "x", "input": "{}"}]}),
            "malformed Anthropic tool-call payload: content[0].input: expected the arguments as an object, found a string",
        ),
        (
            Provider::Anthropic,
            json!({"content": [{"type": "tool_use", "name": "x", "input": {}}]}),
            "malformed Anthropic tool-call payload: content[0].id: expected a string, found nothing",
        ),
        (
            Provider::Anthropic,
            json!([{"text": "no type"}]),
            "malformed Anthropic tool-call payload: [0].type: expected a string, found nothing",
        ),
        (
            Provider::Gemini,
            json!({"candidates": {"content": {}}}),
            "malformed Gemini tool-call payload: candidates: expected a list of candidates, found an object",
        ),
        (
            Provider::Gemini,
            json!({"parts": [{"functionCall": {"name": "x", "args": [1]}}]}),
            "malformed Gemini tool-call payload: parts[0].functionCall.args: expected the arguments as an object, found an array",
        ),
        (
            Provider::Gemini,
            json!({"parts": [{"functionCall": {"name": ""}}]}),
            "malformed Gemini tool-call payload: parts[0].functionCall.name: expected a tool name (a non-empty string), found a string",
        ),
        (
            Provider::Mcp,
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
            "malformed MCP tool-call payload: method: expected \"tools/call\", found a string",
        ),
        (
            Provider::Mcp,
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call"}),
            "malformed MCP tool-call payload: params: expected an object, found nothing",
        ),
        (
            Provider::Mcp,
            json!({"name": "x", "arguments": [1, 2]}),
            "malformed MCP tool-call payload: arguments: expected the arguments as an object, found an array",
        ),
    ];
    for (provider, payload, message) in cases {
        let error: DecodeError = provider.decode_calls(payload).expect_err(message);
        assert_eq!(error.to_string(), *message, "{payload}");
    }
}

/// Arbitrary JSON, its object keys drawn mostly from the fields the decoders read.
fn arbitrary_json() -> impl proptest::strategy::Strategy<Value = Value> {
    use proptest::prelude::*;
    let words = prop::sample::select(vec![
        "tool_calls",
        "function",
        "name",
        "arguments",
        "id",
        "type",
        "choices",
        "message",
        "output",
        "call_id",
        "function_call",
        "content",
        "tool_use",
        "input",
        "candidates",
        "parts",
        "functionCall",
        "args",
        "method",
        "tools/call",
        "params",
        "x",
    ]);
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        words.clone().prop_map(Value::from),
    ];
    leaf.prop_recursive(5, 64, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((words.clone(), inner), 0..5).prop_map(|kv| Value::Object(
                kv.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()
            )),
        ]
    })
}

proptest::proptest! {
    #[test]
    fn decoding_never_panics(payload in arbitrary_json()) {
        for provider in Provider::ALL {
            match provider.decode_calls(&payload) {
                Ok(calls) => assert!(calls.iter().all(|c| !c.tool.is_empty())),
                Err(e) => assert!(!e.to_string().is_empty()),
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Results back to the provider, and a whole turn.
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn results_for_each_provider() {
    let kit = kit();
    let mut session = all_active::<Kit>();
    let calls = vec![
        ToolCall::new("search", r#"{"query":"rust","limit":1}"#).with_call_id("c1"),
        ToolCall::new("numbers", r#"{"small":0,"offset":1}"#).with_call_id("c2"),
        ToolCall::new("numbers", r#"{"small":2,"offset":3}"#).with_call_id("c3"),
        ToolCall::new("ping", "").with_call_id("c4"),
    ];
    let results = run(&kit, &mut session, &calls).await;
    let messages = |provider| {
        Rendered::new(&kit, provider)
            .result_messages(calls.iter().zip(&results))
            .expect("ids present")
    };

    assert_eq!(
        messages(Provider::OpenAiChat),
        [
            json!({"role": "tool", "tool_call_id": "c1", "content": "[\"rust #0 (0 domains)\"]"}),
            json!({"role": "tool", "tool_call_id": "c2", "content": "Error: nothing to summarise"}),
            json!({"role": "tool", "tool_call_id": "c3", "content": "{\"count\":2,\"mean\":3.0}"}),
            json!({"role": "tool", "tool_call_id": "c4", "content": "pong"}),
        ]
    );
    assert_eq!(
        messages(Provider::OpenAiResponses),
        [
            json!({"type": "function_call_output", "call_id": "c1", "output": "[\"rust #0 (0 domains)\"]"}),
            json!({"type": "function_call_output", "call_id": "c2", "output": "Error: nothing to summarise"}),
            json!({"type": "function_call_output", "call_id": "c3", "output": "{\"count\":2,\"mean\":3.0}"}),
            json!({"type": "function_call_output", "call_id": "c4", "output": "pong"}),
        ]
    );
    assert_eq!(
        messages(Provider::Anthropic),
        [json!({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "c1", "content": [{"type": "text", "text": "[\"rust #0 (0 domains)\"]"}], "is_error": false},
            {"type": "tool_result", "tool_use_id": "c2", "content": [{"type": "text", "text": "nothing to summarise"}], "is_error": true},
            {"type": "tool_result", "tool_use_id": "c3", "content": [{"type": "text", "text": "{\"count\":2,\"mean\":3.0}"}], "is_error": false},
            {"type": "tool_result", "tool_use_id": "c4", "content": [{"type": "text", "text": "pong"}], "is_error": false},
        ]})]
    );
    assert_eq!(
        messages(Provider::Gemini),
        [json!({"role": "user", "parts": [
            {"functionResponse": {"id": "c1", "name": "search", "response": {"output": ["rust #0 (0 domains)"]}}},
            {"functionResponse": {"id": "c2", "name": "numbers", "response": {"error": "nothing to summarise"}}},
            {"functionResponse": {"id": "c3", "name": "numbers", "response": {"output": {"count": 2, "mean": 3.0}}}},
            {"functionResponse": {"id": "c4", "name": "ping", "response": {"output": "pong"}}},
        ]})]
    );
    // MCP: `search` returns a list, so its output schema and structured content are wrapped;
    // `numbers` returns an object, which stays as is.
    assert_eq!(
        messages(Provider::Mcp),
        [
            json!({"content": [{"type": "text", "text": "[\"rust #0 (0 domains)\"]"}], "structuredContent": {"result": ["rust #0 (0 domains)"]}, "isError": false}),
            json!({"content": [{"type": "text", "text": "nothing to summarise"}], "isError": true}),
            json!({"content": [{"type": "text", "text": "{\"count\":2,\"mean\":3.0}"}], "structuredContent": {"count": 2, "mean": 3.0}, "isError": false}),
            json!({"content": [{"type": "text", "text": "pong"}], "isError": false}),
        ]
    );
    // Every MCP structured content matches the declared output schema's shape.
    let mcp = Rendered::new(&kit, Provider::Mcp);
    assert_eq!(
        definition(&mcp, "search")["outputSchema"]["required"],
        json!(["result"])
    );
    assert_eq!(
        Rendered::new(&kit, Provider::Gemini).result_messages([]),
        Ok(vec![])
    );
}

#[tokio::test]
async fn results_without_text_or_id() {
    let kit = kit();
    // A result with no content block (a tool returning `()`): Anthropic rejects empty text.
    let empty = CallResult::empty();
    let call = ToolCall::new("ping", "").with_call_id("t1");
    assert_eq!(
        Rendered::new(&kit, Provider::AnthropicStrict).result_message(&call, &empty),
        Ok(json!({"type": "tool_result", "tool_use_id": "t1", "is_error": false}))
    );
    assert_eq!(
        Rendered::new(&kit, Provider::Mcp).result_message(&call, &empty),
        Ok(json!({"content": [], "isError": false}))
    );
    // A structured value that is not an object, from a tool without an output schema.
    let listed = CallResult::structured(&[1, 2]);
    assert_eq!(
        Rendered::new(&kit, Provider::Mcp)
            .result_message(&ToolCall::new("reset_tools", "{}"), &listed),
        Ok(
            json!({"content": [{"type": "text", "text": "[1,2]"}], "structuredContent": {"result": [1, 2]}, "isError": false})
        )
    );
    // OpenAI and Anthropic need the call id; Gemini and MCP do without.
    let anonymous = ToolCall::new("ping", "");
    let pong = CallResult::text("pong");
    for provider in [
        Provider::OpenAiChat,
        Provider::OpenAiResponses,
        Provider::Anthropic,
    ] {
        let error: MissingCallId = Rendered::new(&kit, provider)
            .result_message(&anonymous, &pong)
            .expect_err("no id");
        assert_eq!(error.tool, "ping");
    }
    assert_eq!(
        Rendered::new(&kit, Provider::OpenAiChat)
            .result_message(&anonymous, &pong)
            .expect_err("no id")
            .to_string(),
        "the call of `ping` has no id, and OpenAI Chat Completions needs it to match the result to its call; keep the id the provider sent (`ToolCall::with_id`)"
    );
    assert_eq!(
        Rendered::new(&kit, Provider::Gemini).result_message(&anonymous, &pong),
        Ok(json!({"functionResponse": {"name": "ping", "response": {"output": "pong"}}}))
    );
}

#[test]
fn results_are_given_paired_with_their_calls() {
    // Pairs, not two slices: a call without its result cannot be written.
    let kit = kit();
    let call = ToolCall::new("ping", "").with_call_id("a");
    let pong = CallResult::text("pong");
    let messages = Rendered::new(&kit, Provider::OpenAiChat)
        .result_messages([(&call, &pong)])
        .unwrap();
    assert_eq!(
        messages,
        [json!({"role": "tool", "tool_call_id": "a", "content": "pong"})]
    );
}

/// A scripted OpenAI Chat conversation in the mask mode: the tool array stays the same, the
/// allow-list follows `reset_tools`, and a call outside it is refused by the toolkit.
#[tokio::test]
async fn an_agent_loop_in_the_mask_mode() {
    let kit = kit();
    let openai = Rendered::new(&kit, Provider::OpenAiChat);
    let mut session = kit.session();
    let tools = openai.all_tools_json().into_owned();
    let allowed_names = |session: &Session<Kit>| -> Vec<String> {
        let choice = openai
            .allowed_tools_value(session, AllowMode::Auto)
            .expect("OpenAI has an allow-list");
        choice["allowed_tools"]["tools"]
            .as_array()
            .expect("tools")
            .iter()
            .map(|t| t["function"]["name"].as_str().expect("a name").to_owned())
            .collect()
    };
    assert_eq!(allowed_names(&session), ["reset_tools", "ping"]);

    // Turn 1: the model switches `web` on and searches in the same turn.
    let response = json!({"choices": [{"message": {"role": "assistant", "tool_calls": [
        {"id": "call_a", "type": "function", "function": {"name": "reset_tools", "arguments": "{\"web\":true,\"data\":false}"}},
        {"id": "call_b", "type": "function", "function": {"name": "search", "arguments": "{\"query\":\"rust\",\"limit\":1}"}},
    ]}}]});
    let calls = openai.decode_calls(&response).expect("well-formed");
    let results = kit.call_batch(&mut session, &calls).await;
    let messages = openai
        .result_messages(calls.iter().zip(&results))
        .expect("ids present");
    assert_eq!(messages.len(), 2);
    assert_eq!(messages[0]["tool_call_id"], "call_a");
    assert!(
        messages[0]["content"]
            .as_str()
            .expect("text")
            .starts_with("Active groups: web")
    );
    assert_eq!(
        messages[1],
        json!({"role": "tool", "tool_call_id": "call_b", "content": "[\"rust #0 (0 domains)\"]"})
    );
    assert_eq!(allowed_names(&session), ["reset_tools", "ping", "search"]);
    assert_eq!(
        openai.all_tools_json(),
        tools,
        "the tool array never changes"
    );

    // Turn 2: a call to a tool of an inactive group is refused, and says so.
    let response = json!({"role": "assistant", "tool_calls": [
        {"id": "call_c", "type": "function", "function": {"name": "numbers", "arguments": "{\"small\":1,\"offset\":0}"}},
    ]});
    let calls = openai.decode_calls(&response).expect("well-formed");
    let results = kit.call_batch(&mut session, &calls).await;
    let messages = openai
        .result_messages(calls.iter().zip(&results))
        .expect("ids present");
    let text = messages[0]["content"].as_str().expect("text");
    assert!(text.starts_with("Error: `numbers` was not run"), "{text}");
    assert!(text.contains("`data`"), "{text}");
}

#[test]
fn names_echoed_in_errors_are_escaped() {
    let unknown = "gpt\n\u{1b}[31m"
        .parse::<Provider>()
        .expect_err("no such provider");
    let text = unknown.to_string();
    assert!(!text.contains('\n') && !text.contains('\u{1b}'), "{text}");
    assert!(text.contains("gpt\\n\\u{1b}[31m"), "{text}");
    let rendered = Rendered::new(&kit(), Provider::OpenAiChat);
    let missing = rendered
        .result_message(&ToolCall::new("evil\nline", "{}"), &CallResult::text("x"))
        .expect_err("no id");
    let text = missing.to_string();
    assert!(text.contains("`evil\\nline`"), "{text}");
}
