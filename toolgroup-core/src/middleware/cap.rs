//! [`MaxResultSizeLayer`]: caps the text a result brings into the model's context.

use crate::result::{CallResult, Content};

use super::{Around, ToolFuture, ToolRequest, layer_service};

/// Caps the text a result brings into the model's context: text beyond `max_bytes` (summed
/// over the text blocks) is cut at a character boundary and a note says how much was cut;
/// structured content larger than the cap is dropped (its text is in the blocks). Protects the
/// context window from a tool that returns a whole database.
#[derive(Debug, Clone, Copy)]
pub struct MaxResultSizeLayer {
    max_bytes: usize,
}

impl MaxResultSizeLayer {
    /// At most `max_bytes` of text per result.
    pub fn new(max_bytes: usize) -> Self {
        MaxResultSizeLayer { max_bytes }
    }

    /// Cut `result` down to the cap.
    pub fn apply(&self, mut result: CallResult) -> CallResult {
        let total: usize = result
            .content
            .iter()
            .filter_map(Content::as_text)
            .map(str::len)
            .sum();
        if total <= self.max_bytes {
            return result;
        }
        let mut budget = self.max_bytes;
        // What the note reports: the bytes kept, which a cut at a character boundary can make
        // fewer than the cap.
        let mut shown = 0;
        let mut kept = Vec::with_capacity(result.content.len() + 1);
        for block in result.content {
            match block.as_text() {
                Some(text) if text.len() <= budget => {
                    budget -= text.len();
                    shown += text.len();
                    kept.push(block);
                }
                Some(text) => {
                    let mut cut = budget;
                    while !text.is_char_boundary(cut) {
                        cut -= 1;
                    }
                    if cut > 0 {
                        kept.push(Content::text(&text[..cut]));
                    }
                    shown += cut;
                    budget = 0;
                }
                None => kept.push(block),
            }
        }
        kept.push(Content::text(format!(
            "[the result was cut: {shown} of {total} bytes of text shown]"
        )));
        result.content = kept;
        if result
            .structured_content
            .as_ref()
            .is_some_and(|v| v.to_string().len() > self.max_bytes)
        {
            result.structured_content = None;
        }
        result
    }
}

layer_service!(
    /// The service of [`MaxResultSizeLayer`]: the inner service, its results capped.
    MaxResultSize,
    MaxResultSizeLayer
);

impl Around for MaxResultSizeLayer {
    fn around(
        &self,
        request: ToolRequest,
        next: &mut dyn FnMut(ToolRequest) -> ToolFuture,
    ) -> ToolFuture {
        let future = next(request);
        let cap = *self;
        Box::pin(async move {
            future
                .await
                .map(|r| r.map_result(|result| cap.apply(result)))
        })
    }
}
