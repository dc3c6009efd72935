//! rmcp's tool definitions and results as toolgroup's types.

use rmcp::model::{CallToolResult, Tool};
use serde_json::Value;
use toolgroup_core::{CallResult, Content, meta::ToolAnnotations};

use super::list::RemoteTool;

/// A listed tool as a [`RemoteTool`]: the title is the tool's own, else its annotations'.
pub(super) fn tool(tool: Tool) -> RemoteTool {
    let annotations = tool
        .annotations
        .as_ref()
        .map_or(ToolAnnotations::NONE, |a| ToolAnnotations {
            read_only: a.read_only_hint,
            destructive: a.destructive_hint,
            idempotent: a.idempotent_hint,
            open_world: a.open_world_hint,
        });
    let title = tool
        .title
        .clone()
        .or_else(|| tool.annotations.and_then(|a| a.title));
    RemoteTool {
        name: tool.name.into_owned(),
        title,
        description: tool.description.map(|d| d.into_owned()),
        input_schema: Value::Object((*tool.input_schema).clone()),
        output_schema: tool.output_schema.map(|o| Value::Object((*o).clone())),
        annotations,
    }
}

/// A remote result as a [`CallResult`]: both are MCP's `CallToolResult` in JSON (the server
/// side renders a `CallResult` to that JSON and parses it as rmcp's type; this is the way
/// back). A content block toolgroup has no type for becomes a text block saying so.
pub(super) fn result(result: CallToolResult) -> CallResult {
    let is_error = result.is_error == Some(true);
    let content = result
        .content
        .into_iter()
        .map(|block| {
            let json = serde_json::to_value(&block).unwrap_or(Value::Null);
            serde_json::from_value::<Content>(json.clone()).unwrap_or_else(|_| {
                let kind = json
                    .get("type")
                    .and_then(Value::as_str)
                    .unwrap_or("unknown");
                Content::text(format!(
                    "[a `{}` content block the client cannot show]",
                    crate::echo(kind, 32)
                ))
            })
        })
        .collect();
    let mut out = CallResult::new(content);
    out.is_error = is_error;
    out.structured_content = result.structured_content;
    out
}

#[cfg(test)]
mod tests {
    use rmcp::model::ContentBlock;
    use serde_json::json;
    use toolgroup_core::result::ResourceContents;

    use super::*;

    #[test]
    fn every_kind_of_block_round_trips() {
        let blocks: Vec<ContentBlock> = serde_json::from_value(json!([
            {"type": "text", "text": "hi", "annotations": {"priority": 0.5}},
            {"type": "image", "data": "AAEC", "mimeType": "image/png"},
            {"type": "audio", "data": "AwQ=", "mimeType": "audio/wav"},
            {"type": "resource", "resource": {"uri": "file:///a", "text": "body", "mimeType": "text/plain"}},
            {"type": "resource", "resource": {"uri": "file:///b", "blob": "BQY="}},
            {"type": "resource_link", "uri": "file:///c", "name": "c", "size": 3}
        ]))
        .unwrap();
        let mut remote = CallToolResult::success(blocks);
        remote.structured_content = Some(json!({"n": 1}));
        let out = result(remote);
        assert!(!out.is_error);
        assert_eq!(out.structured_content, Some(json!({"n": 1})));
        assert_eq!(out.content[0].as_text(), Some("hi"));
        assert_eq!(out.content[0].annotations().unwrap().priority, Some(0.5));
        assert_eq!(out.content[1], Content::image(vec![0, 1, 2], "image/png"));
        assert_eq!(out.content[2], Content::audio(vec![3, 4], "audio/wav"));
        assert_eq!(
            out.content[3],
            Content::resource(
                ResourceContents::text("file:///a", "body").with_mime_type("text/plain")
            )
        );
        assert_eq!(
            out.content[4],
            Content::resource(ResourceContents::blob("file:///b", vec![5, 6]))
        );
        assert_eq!(
            out.content[5],
            Content::resource_link("file:///c", "c").with_link_size(3)
        );
    }

    #[test]
    fn errors_keep_their_content() {
        let out = result(CallToolResult::error(vec![ContentBlock::text("boom")]));
        assert!(out.is_error);
        assert_eq!(out.text_joined(), "boom");
    }
}
