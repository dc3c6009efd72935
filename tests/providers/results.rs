//! Rich tool results through the public API: content blocks round-trip through serde in MCP's
//! JSON shape, every block type encoded for every provider (goldens in
//! `tests/golden/results/<provider>.json`, refreshed with `TOOLGROUP_BLESS=1`), the fallbacks
//! of blocks a provider cannot take, and the per-provider size limits.

use crate::support::*;
use toolgroup::provider::{
    limits::ANTHROPIC_MAX_IMAGE_BYTES, limits::ANTHROPIC_MAX_MEDIA_BYTES,
    limits::GEMINI_MAX_INLINE_BYTES, limits::OPENAI_MAX_MEDIA_BYTES,
};
use toolgroup::{
    Audio, Content, Image, IntoCallResult, result::Annotations, result::ResourceContents,
    result::Role,
};

/// A tiny valid PNG (1x1, red), made in code.
const PNG: &[u8] = &[
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x02, 0x00, 0x00, 0x00, 0x90, 0x77, 0x53,
    0xde, 0x00, 0x00, 0x00, 0x0c, 0x49, 0x44, 0x41, 0x54, 0x08, 0xd7, 0x63, 0xf8, 0xcf, 0xc0, 0x00,
    0x00, 0x03, 0x01, 0x01, 0x00, 0x18, 0xdd, 0x8d, 0xb0, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e,
    0x44, 0xae, 0x42, 0x60, 0x82,
];

/// A few bytes standing for audio or a document (the encoders never parse them).
const WAV: &[u8] = b"RIFF\x24\x00\x00\x00WAVEfmt ";
const PDF: &[u8] = b"%PDF-1.7\n%EOF\n";

/// Every kind of block, one result each, plus mixes, errors and structured output.
fn cases() -> Vec<(&'static str, CallResult)> {
    vec![
        ("text", CallResult::text("It is sunny.")),
        ("image_png", Image::png(PNG).into_call_result()),
        (
            "image_bmp_unsupported",
            Image::new(vec![0x42, 0x4d, 0, 0], "image/bmp").into_call_result(),
        ),
        ("audio_wav", Audio::new(WAV, "audio/wav").into_call_result()),
        (
            "audio_opus_unsupported_nearly_everywhere",
            Audio::new(vec![1, 2, 3], "audio/opus").into_call_result(),
        ),
        (
            "resource_text",
            Content::resource(
                ResourceContents::text("file:///notes/today.md", "# Today\nBuy milk.")
                    .with_mime_type("text/markdown"),
            )
            .into_call_result(),
        ),
        (
            "resource_pdf",
            Content::resource(
                ResourceContents::blob("file:///reports/q3.pdf", PDF)
                    .with_mime_type("application/pdf"),
            )
            .into_call_result(),
        ),
        (
            "resource_png",
            Content::resource(
                ResourceContents::blob("file:///charts/sales.png", PNG).with_mime_type("image/png"),
            )
            .into_call_result(),
        ),
        (
            "resource_zip_unsupported",
            Content::resource(
                ResourceContents::blob("file:///archive.zip", vec![0x50, 0x4b, 3, 4])
                    .with_mime_type("application/zip"),
            )
            .into_call_result(),
        ),
        (
            "resource_link",
            Content::resource_link("file:///reports/q3.pdf", "q3.pdf")
                .with_link_description("The third quarter's report.")
                .with_link_mime_type("application/pdf")
                .with_link_size(120_000)
                .into_call_result(),
        ),
        (
            "annotated_text_and_image",
            vec![
                Content::text("The chart:").with_annotations(
                    Annotations::new()
                        .with_audience([Role::User, Role::Assistant])
                        .with_priority(0.5),
                ),
                Content::image(PNG, "image/png")
                    .with_annotations(Annotations::new().with_audience([Role::User])),
            ]
            .into_call_result(),
        ),
        (
            "structured_with_image",
            CallResult::structured(&json!({"count": 3}))
                .with_content(Image::png(PNG))
                .with_content(Audio::new(WAV, "audio/wav")),
        ),
        (
            "error_with_image",
            CallResult::error("The chart is incomplete.").with_content(Image::png(PNG)),
        ),
    ]
}

/// Every case's messages for `provider`, as one JSON object (case name to messages).
fn encode_all(provider: Provider) -> Value {
    let kit = kit();
    let rendered = Rendered::new(&kit, provider);
    let mut out = serde_json::Map::new();
    for (name, result) in cases() {
        let call = ToolCall::new("ping", "{}").with_call_id("call_1");
        let messages = rendered
            .result_messages([(&call, &result)])
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        out.insert(name.to_owned(), Value::Array(messages));
    }
    Value::Object(out)
}

#[test]
fn golden_results_of_every_provider() {
    for &provider in Provider::ALL {
        let encoded = encode_all(provider);
        assert_golden(
            &format!("results/{}", provider.name()),
            &encoded.to_string(),
        );
    }
}

/// Every non-text block either arrives as data the provider reads or leaves a note naming it:
/// never dropped without a trace.
#[test]
fn no_block_is_dropped_silently() {
    for &provider in Provider::ALL {
        let encoded = encode_all(provider).to_string();
        for (name, result) in cases() {
            for block in &result.content {
                let found = match block {
                    Content::Text { text, .. } => encoded.contains(&json_escaped(text)),
                    Content::ResourceLink { uri, .. } => encoded.contains(uri.as_str()),
                    Content::Resource { resource, .. } => {
                        encoded.contains(resource.uri())
                            || encoded.contains(&base64(match resource {
                                ResourceContents::Blob { blob, .. } => blob,
                                _ => &[][..],
                            }))
                    }
                    Content::Image { data, .. } | Content::Audio { data, .. } => {
                        encoded.contains(&base64(data))
                    }
                    _ => panic!("a new kind of block: add it here"),
                };
                let noted = encoded.contains("cannot receive this kind of content");
                assert!(
                    found || noted,
                    "{provider}: {name}: a block left no trace: {block:?}"
                );
            }
        }
    }
}

fn json_escaped(text: &str) -> String {
    let quoted = Value::from(text).to_string();
    quoted[1..quoted.len() - 1].to_owned()
}

fn base64(bytes: &[u8]) -> String {
    // The MCP encoding is the reference: the content block's own `data`.
    let value = serde_json::to_value(Content::image(bytes, "x/y")).expect("serialises");
    value["data"].as_str().expect("base64 text").to_owned()
}

#[test]
fn content_blocks_have_mcp_s_json_shape() {
    assert_eq!(
        serde_json::to_value(Content::image(vec![1, 2, 3], "image/png")).expect("serialises"),
        json!({"type": "image", "data": "AQID", "mimeType": "image/png"})
    );
    assert_eq!(
        serde_json::to_value(Content::audio(vec![255], "audio/wav")).expect("serialises"),
        json!({"type": "audio", "data": "/w==", "mimeType": "audio/wav"})
    );
    assert_eq!(
        serde_json::to_value(Content::resource(
            ResourceContents::text("file:///a.txt", "hi").with_mime_type("text/plain")
        ))
        .expect("serialises"),
        json!({"type": "resource", "resource": {"uri": "file:///a.txt", "mimeType": "text/plain", "text": "hi"}})
    );
    assert_eq!(
        serde_json::to_value(Content::resource(ResourceContents::blob(
            "file:///a.bin",
            vec![0, 1]
        )))
        .expect("serialises"),
        json!({"type": "resource", "resource": {"uri": "file:///a.bin", "blob": "AAE="}})
    );
    assert_eq!(
        serde_json::to_value(
            Content::resource_link("https://example.com/a", "a").with_annotations(
                Annotations::new()
                    .with_audience([Role::Assistant])
                    .with_priority(1.0)
                    .with_last_modified("2026-01-12T15:00:58Z")
            )
        )
        .expect("serialises"),
        json!({
            "type": "resource_link",
            "uri": "https://example.com/a",
            "name": "a",
            "annotations": {"audience": ["assistant"], "priority": 1.0, "lastModified": "2026-01-12T15:00:58Z"},
        })
    );
    assert_eq!(
        serde_json::to_value(CallResult::text("ok")).expect("serialises"),
        json!({"content": [{"type": "text", "text": "ok"}], "isError": false})
    );
}

#[test]
fn results_round_trip_through_serde() {
    for (name, result) in cases() {
        let json = serde_json::to_string(&result).expect("serialises");
        let back: CallResult =
            serde_json::from_str(&json).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(back, result, "{name}");
    }
    // MCP's optional fields may be left out.
    let minimal: CallResult =
        serde_json::from_value(json!({"content": [{"type": "text", "text": "hi"}]}))
            .expect("a minimal CallToolResult");
    assert_eq!(minimal, CallResult::text("hi"));
}

#[test]
fn malformed_content_is_a_decoding_error() {
    for (bad, expected) in [
        (
            json!({"type": "image", "data": "not base64!", "mimeType": "image/png"}),
            "invalid base64",
        ),
        (json!({"type": "image", "data": "AQID"}), "mimeType"),
        (json!({"type": "video", "data": "AQID"}), "video"),
        (
            json!({"type": "resource", "resource": {"uri": "a"}}),
            "exactly one of `text` and `blob`",
        ),
        (
            json!({"type": "resource", "resource": {"uri": "a", "blob": "%%"}}),
            "invalid base64",
        ),
    ] {
        let error = serde_json::from_value::<Content>(bad.clone())
            .expect_err(&format!("{bad} is no content block"))
            .to_string();
        assert!(error.contains(expected), "{bad}: {error}");
    }
}

#[test]
#[should_panic(expected = "an MCP priority is from 0 to 1")]
fn a_priority_outside_zero_to_one_is_refused() {
    let _ = Annotations::new().with_priority(1.5);
}

#[test]
fn return_types_become_results() {
    let image = Image::png(PNG).into_call_result();
    assert_eq!(image.content, vec![Content::image(PNG, "image/png")]);
    assert!(!image.is_error && image.structured_content.is_none());
    let blocks = vec![Content::text("a"), Content::audio(WAV, "audio/wav")].into_call_result();
    assert_eq!(blocks.content.len(), 2);
    assert_eq!(
        Content::text("one").into_call_result(),
        CallResult::text("one")
    );
    let same = CallResult::error("no").into_call_result();
    assert!(same.is_error);
    assert_eq!(CallResult::new(Vec::new()), CallResult::empty());
}

/// The error text a result over a limit becomes, as each provider carries it.
fn error_text(provider: Provider, messages: &[Value]) -> String {
    let item = &messages[0];
    match provider {
        Provider::OpenAiChat => item["content"].as_str().expect("text").to_owned(),
        Provider::OpenAiResponses => item["output"].as_str().expect("text").to_owned(),
        Provider::Anthropic | Provider::AnthropicStrict => {
            assert_eq!(item["content"][0]["is_error"], true);
            item["content"][0]["content"][0]["text"]
                .as_str()
                .expect("text")
                .to_owned()
        }
        Provider::Gemini | Provider::GeminiLegacy => {
            item["parts"][0]["functionResponse"]["response"]["error"]
                .as_str()
                .expect("text")
                .to_owned()
        }
        other => panic!("no limit for {other}"),
    }
}

#[test]
fn media_over_a_provider_s_limit_become_an_error_result() {
    let kit = kit();
    let call = ToolCall::new("ping", "{}").with_call_id("call_1");
    // Bytes whose base64 is just over each limit.
    let over = |limit: usize| vec![7u8; limit / 4 * 3 + 3];
    let cases = [
        (Provider::OpenAiChat, OPENAI_MAX_MEDIA_BYTES),
        (Provider::OpenAiResponses, OPENAI_MAX_MEDIA_BYTES),
        (Provider::Anthropic, ANTHROPIC_MAX_IMAGE_BYTES),
        (Provider::Gemini, GEMINI_MAX_INLINE_BYTES),
    ];
    for (provider, limit) in cases {
        let rendered = Rendered::new(&kit, provider);
        let result = Image::png(over(limit)).into_call_result();
        let messages = rendered
            .result_messages([(&call, &result)])
            .expect("encoded");
        let text = error_text(provider, &messages);
        assert!(
            text.contains("is too large for") && text.contains(&format!("limit of {limit} bytes")),
            "{provider}: {text}"
        );
        assert_eq!(
            messages.len(),
            1,
            "{provider}: no attachment of refused media"
        );
        // Just under the limit passes.
        let fine = Image::png(vec![7u8; limit / 4 * 3 - 3]).into_call_result();
        let messages = rendered.result_messages([(&call, &fine)]).expect("encoded");
        assert!(
            !messages[0].to_string().contains("is too large"),
            "{provider}"
        );
    }
    // Anthropic's request budget counts every image and document of the result.
    let rendered = Rendered::new(&kit, Provider::Anthropic);
    let image = vec![7u8; ANTHROPIC_MAX_IMAGE_BYTES / 4 * 3 - 3];
    let many = (0..ANTHROPIC_MAX_MEDIA_BYTES / ANTHROPIC_MAX_IMAGE_BYTES + 1)
        .map(|_| Content::image(image.clone(), "image/png"))
        .collect::<Vec<_>>()
        .into_call_result();
    let messages = rendered.result_messages([(&call, &many)]).expect("encoded");
    let text = error_text(Provider::Anthropic, &messages);
    assert!(
        text.contains(&format!("limit of {ANTHROPIC_MAX_MEDIA_BYTES} bytes")),
        "{text}"
    );
    // MCP states no limit: the media go as they are.
    let rendered = Rendered::new(&kit, Provider::Mcp);
    let big = Image::png(over(GEMINI_MAX_INLINE_BYTES)).into_call_result();
    let message = rendered.result_message(&call, &big).expect("encoded");
    assert_eq!(message["isError"], false);
    assert_eq!(message["content"][0]["type"], "image");
}

/// Draw a chart.
#[tool]
fn chart(
    /// Whether to fail.
    fail: bool,
) -> Result<Image, String> {
    if fail {
        return Err("no data".to_owned());
    }
    Ok(Image::png(PNG))
}

/// Speak.
#[tool]
fn speak() -> Audio {
    Audio::new(WAV, "audio/wav")
}

/// Attach a report.
#[tool]
fn report() -> Vec<Content> {
    vec![
        Content::text("The report:"),
        Content::resource(
            ResourceContents::blob("file:///reports/q3.pdf", PDF).with_mime_type("application/pdf"),
        ),
    ]
}

#[tool_group(name = "media", description = "Media.", tools = [chart, speak, report])]
struct Media;

#[toolkit]
struct Studio {
    #[basic]
    media: Media,
}

#[tokio::test]
async fn tools_return_images_audio_and_blocks() {
    let kit = Toolkit::new(Studio { media: Media });
    let mut session = kit.session();
    let calls = [
        ToolCall::new("chart", r#"{"fail": false}"#).with_call_id("1"),
        ToolCall::new("chart", r#"{"fail": true}"#).with_call_id("2"),
        ToolCall::new("speak", "{}").with_call_id("3"),
        ToolCall::new("report", "{}").with_call_id("4"),
    ];
    let results = kit.call_batch(&mut session, &calls).await;
    assert_eq!(results[0], Image::png(PNG).into_call_result());
    assert!(results[1].is_error);
    assert_eq!(results[1].text_joined(), "no data");
    assert_eq!(results[2].content, vec![Content::audio(WAV, "audio/wav")]);
    assert_eq!(results[3].content.len(), 2);
    // No output schema for rich results: they are not structured.
    let chart = kit
        .all_definitions()
        .find(|d| d.name == "chart")
        .expect("chart");
    assert!(chart.output_schema.is_none());
    // The MCP rendering carries the image as MCP's image block.
    let mcp = Rendered::new(&kit, Provider::Mcp);
    let message = mcp.result_message(&calls[0], &results[0]).expect("encoded");
    assert_eq!(message["content"][0]["type"], "image");
    assert_eq!(message["content"][0]["mimeType"], "image/png");
    assert_eq!(message["content"][0]["data"], base64(PNG));
}

#[test]
fn attachments_are_available_beside_a_single_result_message() {
    let kit = kit();
    let call = ToolCall::new("ping", "{}").with_call_id("call_1");
    let result = Image::png(PNG).into_call_result();
    for &provider in Provider::ALL {
        let rendered = Rendered::new(&kit, provider);
        let attachments = rendered
            .result_attachments(&call, &result)
            .expect("encoded");
        let messages = rendered
            .result_messages([(&call, &result)])
            .expect("encoded");
        match provider {
            Provider::OpenAiChat => {
                assert_eq!(attachments.len(), 2, "a label and the image");
                assert_eq!(attachments[1]["type"], "image_url");
                assert_eq!(messages[1], json!({"role": "user", "content": attachments}));
            }
            _ => assert!(attachments.is_empty(), "{provider}: {attachments:?}"),
        }
    }
    let gemini = Rendered::new(&kit, Provider::Gemini);
    let audio = Audio::new(WAV, "audio/wav").into_call_result();
    let parts = gemini.result_attachments(&call, &audio).expect("encoded");
    assert_eq!(parts.len(), 1);
    assert_eq!(parts[0]["inlineData"]["mimeType"], "audio/wav");
}

#[test]
fn a_resource_link_takes_each_detail_by_name() {
    let link = Content::resource_link("file:///r.pdf", "r.pdf")
        .with_link_title("The report")
        .with_link_description("Q3.")
        .with_link_mime_type("application/pdf")
        .with_link_size(7);
    assert_eq!(
        serde_json::to_value(&link).unwrap(),
        json!({
            "type": "resource_link",
            "uri": "file:///r.pdf",
            "name": "r.pdf",
            "title": "The report",
            "description": "Q3.",
            "mimeType": "application/pdf",
            "size": 7
        })
    );
    // Other blocks are unchanged.
    assert_eq!(Content::text("t").with_link_size(1), Content::text("t"));
}
