//! A toolgroup `CallResult` as rig's tool output: content blocks one for one where rig carries
//! them (text, images), a structured value as a JSON block, an error as a failed result whose
//! model-visible output is toolgroup's text.

use rig_agent::core::message::{ImageMediaType, MimeType, ToolResultContent};
use rig_agent::core::tool::{ToolExecutionError, ToolOutput};
use toolgroup::result::ResourceContents;
use toolgroup::{CallResult, Content};

/// `result` as what rig's tool callback returns: `Ok` output, or an error carrying the same
/// output for the model.
pub(crate) fn to_rig(result: CallResult) -> Result<ToolOutput, ToolExecutionError> {
    if !result.is_error {
        return Ok(output(result));
    }
    // The operator-facing message is the text the model reads: toolgroup's error texts are
    // written for the model and never echo a model-sent value unescaped.
    let message = result.text_joined();
    Err(ToolExecutionError::other(message).with_model_output(output(result)))
}

fn output(result: CallResult) -> ToolOutput {
    let CallResult {
        content,
        structured_content,
        ..
    } = result;
    // A structured value's content is its JSON text (what `CallResult::structured` builds):
    // rig carries the value itself. Any other text (`reset_tools` answers with prose beside
    // its JSON) stays what the model reads.
    if let (Some(value), [Content::Text { text, .. }]) = (&structured_content, content.as_slice())
        && serde_json::to_string(value).is_ok_and(|json| json == *text)
    {
        return ToolOutput::json(structured_content.unwrap_or_default());
    }
    let blocks: Vec<ToolResultContent> = content.into_iter().map(block).collect();
    // rig refuses an empty block list; a tool that returns `()` has nothing to say.
    ToolOutput::content(blocks).unwrap_or_else(|_| ToolOutput::text(""))
}

fn block(content: Content) -> ToolResultContent {
    match content {
        Content::Text { text, .. } => ToolResultContent::text(text),
        Content::Image {
            data, mime_type, ..
        } => ToolResultContent::image_raw(data, ImageMediaType::from_mime_type(&mime_type), None),
        Content::Resource {
            resource:
                ResourceContents::Text {
                    uri,
                    mime_type,
                    text,
                    ..
                },
            ..
        } => ToolResultContent::text(match mime_type {
            Some(mime) => format!("Resource {uri} ({mime}):\n{text}"),
            None => format!("Resource {uri}:\n{text}"),
        }),
        other => ToolResultContent::text(format!(
            "[{}: not shown, rig tool results cannot carry this kind of content]",
            describe(&other)
        )),
    }
}

/// A short description of a block rig cannot carry (`audio (audio/wav, 1234 bytes)`).
fn describe(block: &Content) -> String {
    match block {
        Content::Audio {
            data, mime_type, ..
        } => format!("audio ({mime_type}, {} bytes)", data.len()),
        Content::Resource {
            resource: ResourceContents::Blob { uri, blob, .. },
            ..
        } => format!("resource {uri} ({} bytes)", blob.len()),
        Content::ResourceLink { uri, name, .. } => format!("resource link {name} <{uri}>"),
        _ => "content".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_structured_value_is_one_json_block() {
        let out = to_rig(CallResult::structured(&json!({"a": [1, 2]}))).unwrap();
        assert_eq!(out.as_json(), Some(&json!({"a": [1, 2]})));
    }

    #[test]
    fn prose_beside_a_structured_value_stays_text() {
        let result =
            CallResult::text("Active groups: web.").with_structured(json!({"active": ["web"]}));
        let out = to_rig(result).unwrap();
        assert_eq!(out.as_text(), Some("Active groups: web."));
    }

    #[test]
    fn an_error_reaches_the_model_as_its_text() {
        let err = to_rig(CallResult::error("tool `x` is in the inactive group `g`")).unwrap_err();
        assert_eq!(
            err.model_feedback(),
            Some("tool `x` is in the inactive group `g`")
        );
        assert_eq!(err.message(), "tool `x` is in the inactive group `g`");
    }

    #[test]
    fn images_stay_images_and_audio_is_described() {
        let result = CallResult::new(vec![
            Content::text("a chart"),
            Content::image(vec![1, 2, 3], "image/png"),
            Content::audio(vec![0; 10], "audio/wav"),
        ]);
        let out = to_rig(result).unwrap();
        let blocks = out.as_content();
        assert_eq!(blocks.len(), 3);
        assert_eq!(blocks[0].as_text(), Some("a chart"));
        match &blocks[1] {
            ToolResultContent::Image(image) => {
                assert_eq!(image.media_type, Some(ImageMediaType::PNG));
            }
            other => panic!("expected an image, got {other:?}"),
        }
        assert_eq!(
            blocks[2].as_text(),
            Some(
                "[audio (audio/wav, 10 bytes): not shown, rig tool results cannot carry this kind of content]"
            )
        );
    }

    #[test]
    fn an_empty_result_is_an_empty_text() {
        let out = to_rig(CallResult::empty()).unwrap();
        assert_eq!(out.as_text(), Some(""));
    }
}
