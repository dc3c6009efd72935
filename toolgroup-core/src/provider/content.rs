//! Provider-independent pieces of encoding rich results: data URLs, the text that stands in
//! for a block a provider cannot take in a tool result, and the size check.

use crate::result::{CallResult, Content, ResourceContents, base64_encode};

/// `data:<mime>;base64,<data>`.
pub(crate) fn data_url(mime: &str, bytes: &[u8]) -> String {
    format!("data:{mime};base64,{}", base64_encode(bytes))
}

/// The length of `n` bytes in standard base64.
pub(crate) const fn base64_len(n: usize) -> usize {
    n.div_ceil(3) * 4
}

/// The MIME type without parameters, lowercased (`image/PNG; q=1` is `image/png`).
pub(crate) fn essence(mime: &str) -> String {
    mime.split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase()
}

/// A short description of a block, for notes (`image (image/png, 1234 bytes)`).
pub(crate) fn describe(block: &Content) -> String {
    match block {
        Content::Text { text, .. } => format!("text ({} bytes)", text.len()),
        Content::Image {
            data, mime_type, ..
        } => format!("image ({mime_type}, {} bytes)", data.len()),
        Content::Audio {
            data, mime_type, ..
        } => format!("audio ({mime_type}, {} bytes)", data.len()),
        Content::Resource { resource, .. } => {
            let mime = resource.mime_type().unwrap_or("unknown type");
            match resource {
                ResourceContents::Text { text, .. } => {
                    format!("resource {} ({mime}, {} bytes)", resource.uri(), text.len())
                }
                ResourceContents::Blob { blob, .. } => {
                    format!("resource {} ({mime}, {} bytes)", resource.uri(), blob.len())
                }
            }
        }
        Content::ResourceLink { uri, name, .. } => format!("resource link {name} <{uri}>"),
    }
}

/// The note that replaces a block delivered in the next user message.
pub(crate) fn attached_note(block: &Content) -> String {
    format!("[{}: attached in the next user message]", describe(block))
}

/// The note that replaces a block the provider cannot receive at all.
pub(crate) fn unsupported_note(block: &Content, provider: &str) -> String {
    format!(
        "[{}: not shown, {provider} cannot receive this kind of content]",
        describe(block)
    )
}

/// An embedded text resource as text: a header line naming it, then its text.
pub(crate) fn resource_text(uri: &str, mime: Option<&str>, text: &str) -> String {
    match mime {
        Some(mime) => format!("Resource {uri} ({mime}):\n{text}"),
        None => format!("Resource {uri}:\n{text}"),
    }
}

/// A resource link as text (`Resource link: report.pdf <file:///report.pdf> (application/pdf,
/// 1200 bytes): The report.`).
pub(crate) fn link_text(block: &Content) -> Option<String> {
    let Content::ResourceLink {
        uri,
        name,
        title,
        description,
        mime_type,
        size,
        ..
    } = block
    else {
        return None;
    };
    let mut text = format!(
        "Resource link: {} <{uri}>",
        title.as_deref().unwrap_or(name)
    );
    match (mime_type, size) {
        (Some(m), Some(s)) => text.push_str(&format!(" ({m}, {s} bytes)")),
        (Some(m), None) => text.push_str(&format!(" ({m})")),
        (None, Some(s)) => text.push_str(&format!(" ({s} bytes)")),
        (None, None) => {}
    }
    if let Some(d) = description {
        text.push_str(": ");
        text.push_str(d);
    }
    Some(text)
}

/// The file name of a resource URI: its last path segment, or `fallback`.
pub(crate) fn file_name<'a>(uri: &'a str, fallback: &'a str) -> &'a str {
    uri.rsplit('/')
        .next()
        .filter(|s| !s.is_empty() && !s.contains(':'))
        .unwrap_or(fallback)
}

/// The error result that replaces a result whose media pass a provider's limit, if they do.
///
/// `media` is the base64 size of the media the provider would receive.
pub(crate) fn over_limit(
    tool: &str,
    provider: &str,
    media: usize,
    max: usize,
    what: &str,
) -> Option<CallResult> {
    (media > max).then(|| {
        CallResult::error(format!(
            "the result of `{}` is too large for {provider}: {what} take {media} bytes in base64, over its limit of {max} bytes; return smaller media (a smaller or compressed image, fewer pages) or a resource link instead",
            crate::echo::echo(tool, 64)
        ))
    })
}

/// Whether `mime` (parameters and case aside) is one of `types`.
pub(crate) fn is_one_of(mime: &str, types: &[&str]) -> bool {
    let mime = essence(mime);
    types.contains(&mime.as_str())
}

/// A content part, built only once the result is known to fit the provider's limits (so
/// media over a limit are never encoded).
pub(crate) type Lazy<'a> = Box<dyn FnOnce() -> serde_json::Value + 'a>;

/// How one block reaches a provider.
pub(crate) enum Delivery<'a> {
    /// Text in the tool result.
    Text(String),
    /// A content part of the tool result, and the base64 size of its media.
    Part(Lazy<'a>, usize),
    /// A part of the user message after the results (a note stays in the result), and the
    /// base64 size of its media.
    Attachment(Lazy<'a>, usize),
}

impl<'a> Delivery<'a> {
    /// A part of the tool result carrying `bytes` bytes of media.
    pub(crate) fn part(bytes: usize, make: impl FnOnce() -> serde_json::Value + 'a) -> Self {
        Delivery::Part(Box::new(make), base64_len(bytes))
    }

    /// A part of the next user message carrying `bytes` bytes of media.
    pub(crate) fn attachment(bytes: usize, make: impl FnOnce() -> serde_json::Value + 'a) -> Self {
        Delivery::Attachment(Box::new(make), base64_len(bytes))
    }
}

/// The base64 size of the media a result's deliveries carry.
pub(crate) fn media_len(deliveries: &[Delivery<'_>]) -> usize {
    deliveries
        .iter()
        .map(|d| match d {
            Delivery::Part(_, n) | Delivery::Attachment(_, n) => *n,
            Delivery::Text(_) => 0,
        })
        .sum()
}
