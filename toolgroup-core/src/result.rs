//! The outcome of a tool call, shaped like MCP's `CallToolResult`, and its content blocks.
//!
//! [`CallResult`] and [`Content`] serialise and deserialise as MCP's JSON (`{"type": "image",
//! "data": <base64>, "mimeType": "image/png"}`...), so a transcript can be stored and replayed.
//! Binary data is held as bytes and written as standard base64 (with padding).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::lifecycle::notice::Deactivation;

pub use crate::outcome::CallOutcome;

/// Who a content block is meant for (MCP `Role`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Role {
    /// The human user.
    User,
    /// The model.
    Assistant,
}

/// Hints about a content block for the client (MCP `Annotations`): who it is for and how
/// important it is. Providers other than MCP do not read them.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Annotations {
    /// Who the block is meant for; `None` says nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub audience: Option<Vec<Role>>,
    /// How important the block is, from 0 (least, entirely optional) to 1 (most, required).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<f64>,
    /// When the content was last modified, as an ISO 8601 timestamp.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_modified: Option<String>,
}

impl Annotations {
    /// No annotation.
    pub fn new() -> Self {
        Self::default()
    }

    /// Meant for these roles only.
    #[must_use]
    pub fn with_audience(mut self, audience: impl IntoIterator<Item = Role>) -> Self {
        self.audience = Some(audience.into_iter().collect());
        self
    }

    /// With an importance from 0 to 1.
    ///
    /// # Panics
    ///
    /// If `priority` is not within `0.0..=1.0` (NaN included): MCP defines no other value.
    #[must_use]
    pub fn with_priority(mut self, priority: f64) -> Self {
        assert!(
            (0.0..=1.0).contains(&priority),
            "an MCP priority is from 0 to 1, not {priority}"
        );
        self.priority = Some(priority);
        self
    }

    /// Last modified at this ISO 8601 timestamp (`2026-01-12T15:00:58Z`).
    #[must_use]
    pub fn with_last_modified(mut self, timestamp: impl Into<String>) -> Self {
        self.last_modified = Some(timestamp.into());
        self
    }
}

/// The contents of a resource embedded in a result (MCP `TextResourceContents` or
/// `BlobResourceContents`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged, try_from = "RawResource")]
#[non_exhaustive]
pub enum ResourceContents {
    /// A text resource.
    #[serde(rename_all = "camelCase")]
    #[non_exhaustive]
    Text {
        /// The resource's URI.
        uri: String,
        /// Its MIME type, if known.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mime_type: Option<String>,
        /// Its text.
        text: String,
    },
    /// A binary resource.
    #[serde(rename_all = "camelCase")]
    #[non_exhaustive]
    Blob {
        /// The resource's URI.
        uri: String,
        /// Its MIME type, if known.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mime_type: Option<String>,
        /// Its bytes (base64 in JSON).
        #[serde(with = "base64_bytes")]
        blob: Vec<u8>,
    },
}

/// Resource contents as they come, before choosing text or blob (for a clear error).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawResource {
    uri: String,
    #[serde(default)]
    mime_type: Option<String>,
    #[serde(default)]
    text: Option<String>,
    #[serde(default, with = "base64_bytes::option")]
    blob: Option<Vec<u8>>,
}

impl TryFrom<RawResource> for ResourceContents {
    type Error = &'static str;

    fn try_from(raw: RawResource) -> Result<Self, Self::Error> {
        match (raw.text, raw.blob) {
            (Some(text), None) => Ok(ResourceContents::Text {
                uri: raw.uri,
                mime_type: raw.mime_type,
                text,
            }),
            (None, Some(blob)) => Ok(ResourceContents::Blob {
                uri: raw.uri,
                mime_type: raw.mime_type,
                blob,
            }),
            _ => Err("resource contents need exactly one of `text` and `blob`"),
        }
    }
}

impl ResourceContents {
    /// A text resource.
    pub fn text(uri: impl Into<String>, text: impl Into<String>) -> Self {
        ResourceContents::Text {
            uri: uri.into(),
            mime_type: None,
            text: text.into(),
        }
    }

    /// A binary resource.
    pub fn blob(uri: impl Into<String>, bytes: impl Into<Vec<u8>>) -> Self {
        ResourceContents::Blob {
            uri: uri.into(),
            mime_type: None,
            blob: bytes.into(),
        }
    }

    /// With a MIME type.
    #[must_use]
    pub fn with_mime_type(mut self, mime: impl Into<String>) -> Self {
        match &mut self {
            ResourceContents::Text { mime_type, .. } | ResourceContents::Blob { mime_type, .. } => {
                *mime_type = Some(mime.into());
            }
        }
        self
    }

    /// The resource's URI.
    pub fn uri(&self) -> &str {
        match self {
            ResourceContents::Text { uri, .. } | ResourceContents::Blob { uri, .. } => uri,
        }
    }

    /// The resource's MIME type, if known.
    pub fn mime_type(&self) -> Option<&str> {
        match self {
            ResourceContents::Text { mime_type, .. } | ResourceContents::Blob { mime_type, .. } => {
                mime_type.as_deref()
            }
        }
    }
}

/// One block of a call result's content, as MCP defines content blocks.
///
/// Build blocks with the constructors ([`Content::text`], [`Content::image`],
/// [`Content::audio`], [`Content::resource`], [`Content::resource_link`]) and
/// [`with_annotations`](Content::with_annotations). How each provider receives each kind of
/// block (and what it does with the ones it cannot take in a tool result) is described on
/// [`Rendered::result_message`](crate::provider::Rendered::result_message).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Content {
    /// Plain text.
    #[non_exhaustive]
    Text {
        /// The text.
        text: String,
        /// Hints for the client.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        annotations: Option<Annotations>,
    },
    /// An image.
    #[serde(rename_all = "camelCase")]
    #[non_exhaustive]
    Image {
        /// The encoded image (PNG, JPEG... bytes; base64 in JSON).
        #[serde(with = "base64_bytes")]
        data: Vec<u8>,
        /// Its MIME type (`image/png`).
        mime_type: String,
        /// Hints for the client.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        annotations: Option<Annotations>,
    },
    /// Audio.
    #[serde(rename_all = "camelCase")]
    #[non_exhaustive]
    Audio {
        /// The encoded audio (WAV, MP3... bytes; base64 in JSON).
        #[serde(with = "base64_bytes")]
        data: Vec<u8>,
        /// Its MIME type (`audio/wav`).
        mime_type: String,
        /// Hints for the client.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        annotations: Option<Annotations>,
    },
    /// A resource embedded in the result: its URI and its text or bytes.
    #[non_exhaustive]
    Resource {
        /// The resource.
        resource: ResourceContents,
        /// Hints for the client.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        annotations: Option<Annotations>,
    },
    /// A link to a resource the client can read (MCP `ResourceLink`).
    #[serde(rename_all = "camelCase")]
    #[non_exhaustive]
    ResourceLink {
        /// The resource's URI.
        uri: String,
        /// Its name (a file name, an identifier).
        name: String,
        /// A title for people.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        title: Option<String>,
        /// What it is.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        description: Option<String>,
        /// Its MIME type, if known.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mime_type: Option<String>,
        /// Its size in bytes, if known.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        size: Option<u64>,
        /// Hints for the client.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        annotations: Option<Annotations>,
    },
}

impl Content {
    /// A text block.
    pub fn text(text: impl Into<String>) -> Self {
        Content::Text {
            text: text.into(),
            annotations: None,
        }
    }

    /// An image block: encoded image bytes and their MIME type (`image/png`).
    pub fn image(data: impl Into<Vec<u8>>, mime_type: impl Into<String>) -> Self {
        Content::Image {
            data: data.into(),
            mime_type: mime_type.into(),
            annotations: None,
        }
    }

    /// An audio block: encoded audio bytes and their MIME type (`audio/wav`).
    pub fn audio(data: impl Into<Vec<u8>>, mime_type: impl Into<String>) -> Self {
        Content::Audio {
            data: data.into(),
            mime_type: mime_type.into(),
            annotations: None,
        }
    }

    /// An embedded resource ([`ResourceContents::text`] or [`ResourceContents::blob`]).
    pub fn resource(resource: ResourceContents) -> Self {
        Content::Resource {
            resource,
            annotations: None,
        }
    }

    /// A link to a resource, by URI and name. Add details with
    /// [`with_link_title`](Self::with_link_title),
    /// [`with_link_description`](Self::with_link_description),
    /// [`with_link_mime_type`](Self::with_link_mime_type) and
    /// [`with_link_size`](Self::with_link_size).
    pub fn resource_link(uri: impl Into<String>, name: impl Into<String>) -> Self {
        Content::ResourceLink {
            uri: uri.into(),
            name: name.into(),
            title: None,
            description: None,
            mime_type: None,
            size: None,
            annotations: None,
        }
    }

    /// For a resource link: its title (for people). Other blocks are returned unchanged.
    #[must_use]
    pub fn with_link_title(mut self, text: impl Into<String>) -> Self {
        if let Content::ResourceLink { title, .. } = &mut self {
            *title = Some(text.into());
        }
        self
    }

    /// For a resource link: its description. Other blocks are returned unchanged.
    #[must_use]
    pub fn with_link_description(mut self, text: impl Into<String>) -> Self {
        if let Content::ResourceLink { description, .. } = &mut self {
            *description = Some(text.into());
        }
        self
    }

    /// For a resource link: its MIME type. Other blocks are returned unchanged.
    #[must_use]
    pub fn with_link_mime_type(mut self, mime: impl Into<String>) -> Self {
        if let Content::ResourceLink { mime_type, .. } = &mut self {
            *mime_type = Some(mime.into());
        }
        self
    }

    /// For a resource link: its size in bytes. Other blocks are returned unchanged.
    #[must_use]
    pub fn with_link_size(mut self, bytes: u64) -> Self {
        if let Content::ResourceLink { size, .. } = &mut self {
            *size = Some(bytes);
        }
        self
    }

    /// With annotations (replacing any).
    #[must_use]
    pub fn with_annotations(mut self, annotations: Annotations) -> Self {
        let slot = match &mut self {
            Content::Text { annotations, .. }
            | Content::Image { annotations, .. }
            | Content::Audio { annotations, .. }
            | Content::Resource { annotations, .. }
            | Content::ResourceLink { annotations, .. } => annotations,
        };
        *slot = Some(annotations);
        self
    }

    /// The block's annotations, if any.
    pub fn annotations(&self) -> Option<&Annotations> {
        match self {
            Content::Text { annotations, .. }
            | Content::Image { annotations, .. }
            | Content::Audio { annotations, .. }
            | Content::Resource { annotations, .. }
            | Content::ResourceLink { annotations, .. } => annotations.as_ref(),
        }
    }

    /// The text of this block, if it is text.
    pub fn as_text(&self) -> Option<&str> {
        match self {
            Content::Text { text, .. } => Some(text),
            _ => None,
        }
    }
}

impl From<Image> for Content {
    fn from(image: Image) -> Self {
        Content::image(image.data, image.mime_type)
    }
}

impl From<Audio> for Content {
    fn from(audio: Audio) -> Self {
        Content::audio(audio.data, audio.mime_type)
    }
}

/// An image a tool returns: encoded bytes (PNG, JPEG, WebP, GIF...) and their MIME type.
///
/// ```
/// # use toolgroup_core::{Image, IntoCallResult};
/// // In a `#[tool]` function: `fn chart(...) -> Image`.
/// let png: Vec<u8> = vec![0x89, b'P', b'N', b'G'];
/// let result = Image::new(png, "image/png").into_call_result();
/// assert!(!result.is_error);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Image {
    /// The encoded image.
    pub data: Vec<u8>,
    /// Its MIME type (`image/png`).
    pub mime_type: String,
}

impl Image {
    /// An image of these bytes and MIME type.
    pub fn new(data: impl Into<Vec<u8>>, mime_type: impl Into<String>) -> Self {
        Image {
            data: data.into(),
            mime_type: mime_type.into(),
        }
    }

    /// A PNG image.
    pub fn png(data: impl Into<Vec<u8>>) -> Self {
        Image::new(data, "image/png")
    }

    /// A JPEG image.
    pub fn jpeg(data: impl Into<Vec<u8>>) -> Self {
        Image::new(data, "image/jpeg")
    }
}

/// Audio a tool returns: encoded bytes (WAV, MP3...) and their MIME type.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Audio {
    /// The encoded audio.
    pub data: Vec<u8>,
    /// Its MIME type (`audio/wav`).
    pub mime_type: String,
}

impl Audio {
    /// Audio of these bytes and MIME type.
    pub fn new(data: impl Into<Vec<u8>>, mime_type: impl Into<String>) -> Self {
        Audio {
            data: data.into(),
            mime_type: mime_type.into(),
        }
    }
}

/// The structured-content key of a first-use activation: `{"group", "tools",
/// "instructions"}`, what the call made available ([`CallResult::activation`]). Reserved in
/// every MCP output schema: an output object may not have a property of this name
/// ([`McpOutputSchema::reserved_key_taken`](crate::provider::McpOutputSchema::reserved_key_taken)).
pub const ACTIVATED_GROUP_KEY: &str = "activated_group";

/// The structured-content key of the groups a [lifecycle](crate::lifecycle) rule switched
/// off ([`CallResult::switched_off`]). Admitted, and reserved, in every MCP output schema of
/// a toolkit with lifecycle rules (only there: a toolkit without rules lists no byte of it).
pub const DEACTIVATED_GROUPS_KEY: &str = "deactivated_groups";

/// The result of one tool call: what the model gets back.
///
/// Every failure a model can cause (unknown tool, bad arguments, a tool's own error, a panic,
/// a timeout, a refused `reset_tools`) is a `CallResult` with `is_error == true`, never a panic
/// or an `Err` that would end the conversation. It serialises (and deserialises) as MCP's
/// `CallToolResult` (`content`, `structuredContent`, `isError`).
///
/// [`outcome`](Self::outcome) tells how the call ended (a timeout, a denial, an unknown tool...)
/// without parsing the text. It is not serialised, and equality ignores it: two results are
/// equal when the model reads the same thing.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct CallResult {
    /// Content blocks for the model.
    #[serde(default)]
    pub content: Vec<Content>,
    /// The same facts as JSON, when the tool returned a structured value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub structured_content: Option<Value>,
    /// Whether the call failed.
    #[serde(default)]
    pub is_error: bool,
    /// How the call ended, as the toolkit answered it; reconciled with `is_error` by
    /// [`outcome`](Self::outcome). A one-byte field in what would be padding after `is_error`.
    #[serde(skip)]
    outcome: CallOutcome,
    /// What this call's first-use activation made available and which groups a lifecycle
    /// rule switched off, for renderings that carry them in structured content; boxed so
    /// that a result without either stays small.
    #[serde(skip)]
    notes: Option<Box<Notes>>,
}

/// What a result tells beside its content: see [`CallResult::activation`] and
/// [`CallResult::deactivations`].
#[derive(Debug, Clone, Default)]
struct Notes {
    activation: Option<Value>,
    deactivations: Vec<Deactivation>,
    /// `deactivations` as structured content carries them (see `switched_off`).
    switched_off: Option<Value>,
}

impl PartialEq for CallResult {
    fn eq(&self, other: &Self) -> bool {
        self.is_error == other.is_error
            && self.content == other.content
            && self.structured_content == other.structured_content
    }
}

impl CallResult {
    /// A successful text result.
    pub fn text(text: impl Into<String>) -> Self {
        CallResult::new(vec![Content::text(text)])
    }

    /// A successful result of these content blocks.
    #[inline]
    pub fn new(content: Vec<Content>) -> Self {
        CallResult {
            content,
            structured_content: None,
            is_error: false,
            outcome: CallOutcome::Ok,
            notes: None,
        }
    }

    /// An error result with the given text (a tool's own error: [`CallOutcome::ToolError`]).
    pub fn error(text: impl Into<String>) -> Self {
        CallResult {
            content: vec![Content::text(text)],
            structured_content: None,
            is_error: true,
            outcome: CallOutcome::ToolError,
            notes: None,
        }
    }

    /// How the call ended: [`CallOutcome::Ok`], the tool's own error, or why the tool did not
    /// run or did not finish (invalid arguments, an unknown tool, an inactive group, a denial,
    /// a timeout, a cancellation, a panic...), so retry and metrics code can `match` on it.
    ///
    /// The outcome follows [`is_error`](Self::is_error): a result a layer turned into an error
    /// is a [`ToolError`](CallOutcome::ToolError), and one it turned into a success is
    /// [`Ok`](CallOutcome::Ok). A deserialised result has one of those two.
    #[inline]
    pub fn outcome(&self) -> CallOutcome {
        match (self.outcome, self.is_error) {
            (CallOutcome::Ok, true) => CallOutcome::ToolError,
            (_, false) => CallOutcome::Ok,
            (outcome, true) => outcome,
        }
    }

    /// What this call's [first-use activation](crate::Toolkit::with_first_use_activation)
    /// made available, when the call activated its tool's group: `{"group": "...", "tools":
    /// [...], "instructions": "..."}` (no `instructions` when the group has none), the facts
    /// of the result's last text block. The MCP server sends it under the `activated_group`
    /// key of the structured content, which every output schema it lists admits. Not
    /// serialised, and ignored by equality, like [`outcome`](Self::outcome).
    #[inline]
    pub fn activation(&self) -> Option<&Value> {
        self.notes.as_deref().and_then(|n| n.activation.as_ref())
    }

    /// The result with the activation it reports (see [`activation`](Self::activation)).
    #[inline]
    pub(crate) fn with_activation_record(mut self, activation: Value) -> Self {
        self.notes.get_or_insert_default().activation = Some(activation);
        self
    }

    /// The groups a [lifecycle](crate::lifecycle) rule switched off and this result tells
    /// the model about: the call's own evictions (the cap) and those made since the last
    /// result (idle and turn-scoped groups at the end of a turn, idle ones before this
    /// call), in that order. The result's last text block says the same. Empty for most
    /// results. Not serialised, and ignored by equality, like [`outcome`](Self::outcome).
    pub fn deactivations(&self) -> &[Deactivation] {
        self.notes
            .as_deref()
            .map_or(&[], |n| n.deactivations.as_slice())
    }

    /// What the model is told of [`deactivations`](Self::deactivations) where it reads a
    /// result's structured content: `{"groups": [{"group", "reason", ...}], "how_back"}`,
    /// each group with its rule (as [`Deactivation`] serialises) and the sentence of the text
    /// block that says how to get them back. Over MCP it is under
    /// [`DEACTIVATED_GROUPS_KEY`] in the structured content of a result that has one, for the
    /// clients that show their model nothing else (Claude Code, Codex's function tools,
    /// pydantic-ai). `None` when no group was switched off.
    pub fn switched_off(&self) -> Option<&Value> {
        self.notes.as_deref().and_then(|n| n.switched_off.as_ref())
    }

    /// Tell the model about `deactivations` in `text` (a last text block), and in the
    /// structured record, with `how_back` (the sentence of `text` that says how to get them
    /// back).
    pub(crate) fn tell_deactivations(
        &mut self,
        deactivations: Vec<Deactivation>,
        text: String,
        how_back: String,
    ) {
        self.content.push(Content::text(text));
        let notes = self.notes.get_or_insert_default();
        notes.deactivations.extend(deactivations);
        notes.switched_off = Some(serde_json::json!({
            "groups": notes.deactivations,
            "how_back": how_back,
        }));
    }

    /// The result as an error (of the tool's own, until [`labelled`](Self::labelled)).
    #[inline]
    pub(crate) fn into_error(mut self) -> Self {
        self.is_error = true;
        self.outcome = CallOutcome::ToolError;
        self
    }

    /// The result with the toolkit's outcome label.
    #[inline]
    pub(crate) fn labelled(mut self, outcome: CallOutcome) -> Self {
        self.outcome = outcome;
        self
    }

    /// A successful result carrying a structured value and its JSON text.
    ///
    /// If the value cannot be serialised (a `Serialize` impl that fails, a map with
    /// non-string keys), the result is an error naming the cause.
    pub fn structured<T: Serialize + ?Sized>(value: &T) -> Self {
        match serde_json::to_value(value) {
            Ok(value) => {
                let text = value.to_string();
                CallResult {
                    content: vec![Content::text(text)],
                    structured_content: Some(value),
                    is_error: false,
                    outcome: CallOutcome::Ok,
                    notes: None,
                }
            }
            Err(e) => CallResult::error(format!("the tool's result could not be serialised: {e}")),
        }
    }

    /// An empty successful result (a tool returning `()`).
    #[inline]
    pub fn empty() -> Self {
        CallResult::new(Vec::new())
    }

    /// Attach structured content.
    #[must_use]
    pub fn with_structured(mut self, value: Value) -> Self {
        self.structured_content = Some(value);
        self
    }

    /// Add a content block.
    #[must_use]
    pub fn with_content(mut self, block: impl Into<Content>) -> Self {
        self.content.push(block.into());
        self
    }

    /// All text blocks joined with newlines.
    pub fn text_joined(&self) -> String {
        let mut out = String::new();
        for block in &self.content {
            if let Some(t) = block.as_text() {
                if !out.is_empty() {
                    out.push('\n');
                }
                out.push_str(t);
            }
        }
        out
    }
}

/// Standard base64 (with padding), as MCP writes binary data.
pub(crate) fn base64_encode(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// Bytes as a base64 string in JSON.
mod base64_bytes {
    use base64::Engine as _;
    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(bytes: &[u8], serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&super::base64_encode(bytes))
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Vec<u8>, D::Error> {
        let text = String::deserialize(deserializer)?;
        base64::engine::general_purpose::STANDARD
            .decode(text.as_bytes())
            .map_err(|e| serde::de::Error::custom(format_args!("invalid base64 data: {e}")))
    }

    /// An optional base64 field.
    pub(super) mod option {
        use serde::{Deserialize, Deserializer};

        pub(in super::super) fn deserialize<'de, D: Deserializer<'de>>(
            deserializer: D,
        ) -> Result<Option<Vec<u8>>, D::Error> {
            #[derive(Deserialize)]
            struct Wrapped(#[serde(with = "super")] Vec<u8>);
            Ok(Option::<Wrapped>::deserialize(deserializer)?.map(|Wrapped(bytes)| bytes))
        }
    }
}
