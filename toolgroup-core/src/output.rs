//! What a tool's return value becomes: [`IntoCallResult`] for result-like types (text,
//! content blocks, a whole [`CallResult`]), else structured content for any `Serialize` value.

use std::borrow::Cow;
use std::marker::PhantomData;

use serde::Serialize;
use serde_json::Value;

use crate::result::{Audio, CallResult, Content, Image};
use crate::schema::schema_for;

/// A value a tool can return as its result, as is (not as structured JSON).
///
/// `#[tool]` uses this when the return type implements it, and otherwise serialises the value
/// (`Serialize`) into structured content plus its JSON text. Implemented for `String`, `&str`
/// and `Cow<str>` (a text block), `()` (no content), [`Content`] and `Vec<Content>` (those
/// blocks), [`Image`](crate::Image) and [`Audio`](crate::Audio) (one block) and [`CallResult`]
/// (as is). Implement it for your own types to control the blocks
/// a tool returns; such a type gets no output schema.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool's result",
    note = "return text (`String`), content blocks, a `CallResult`, or a `Serialize` value"
)]
pub trait IntoCallResult {
    /// The result.
    fn into_call_result(self) -> CallResult;
}

impl IntoCallResult for CallResult {
    #[inline]
    fn into_call_result(self) -> CallResult {
        self
    }
}

impl IntoCallResult for String {
    #[inline]
    fn into_call_result(self) -> CallResult {
        CallResult::text(self)
    }
}

impl IntoCallResult for &str {
    #[inline]
    fn into_call_result(self) -> CallResult {
        CallResult::text(self)
    }
}

impl IntoCallResult for Cow<'_, str> {
    #[inline]
    fn into_call_result(self) -> CallResult {
        CallResult::text(self)
    }
}

impl IntoCallResult for () {
    #[inline]
    fn into_call_result(self) -> CallResult {
        CallResult::empty()
    }
}

impl IntoCallResult for Content {
    #[inline]
    fn into_call_result(self) -> CallResult {
        let mut result = CallResult::empty();
        result.content.push(self);
        result
    }
}

impl IntoCallResult for Vec<Content> {
    #[inline]
    fn into_call_result(self) -> CallResult {
        let mut result = CallResult::empty();
        result.content = self;
        result
    }
}

/// A tool returning an [`Image`] answers with that one image block.
impl IntoCallResult for Image {
    #[inline]
    fn into_call_result(self) -> CallResult {
        CallResult::new(vec![self.into()])
    }
}

/// A tool returning [`Audio`] answers with that one audio block.
impl IntoCallResult for Audio {
    #[inline]
    fn into_call_result(self) -> CallResult {
        CallResult::new(vec![self.into()])
    }
}

/// Chooses, at compile time, how a tool's output becomes its result and whether it has an
/// output schema (autoref specialisation: the receiver with more `&` is tried first, so a
/// type that is [`IntoCallResult`] is taken as is, and only other types are serialised).
///
/// Invariant: the probe holds no value, only its type, and the value is passed to the chosen
/// conversion by value; held in the probe, it would be copied in and out of it on every call.
pub struct OutputProbe<T>(PhantomData<fn() -> T>);

impl<T> std::fmt::Debug for OutputProbe<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("OutputProbe")
    }
}

impl<T> OutputProbe<T> {
    /// A probe for outputs of type `T`.
    // Only generated code makes probes: a `Default` impl would be API nobody calls.
    #[allow(clippy::new_without_default)]
    #[inline(always)]
    pub const fn new() -> Self {
        OutputProbe(PhantomData)
    }

    /// A probe for the type of `value` (which it does not keep).
    #[inline(always)]
    pub const fn of(value: &T) -> Self {
        let _ = value;
        OutputProbe(PhantomData)
    }
}

/// Picked for [`IntoCallResult`] outputs.
pub trait ViaIntoCallResult {
    /// The output type.
    type Output;
    /// The result.
    fn tool_result(&self, value: Self::Output) -> CallResult;
    /// No output schema: the result is not structured content.
    fn output_schema(&self) -> Option<Value>;
}

impl<T: IntoCallResult> ViaIntoCallResult for &&OutputProbe<T> {
    type Output = T;
    #[inline(always)]
    fn tool_result(&self, value: T) -> CallResult {
        value.into_call_result()
    }
    fn output_schema(&self) -> Option<Value> {
        None
    }
}

/// Picked for `Serialize` outputs: structured content, with a schema when the type is
/// `JsonSchema`.
pub trait ViaSerialize {
    /// The output type.
    type Output;
    /// The result.
    fn tool_result(&self, value: Self::Output) -> CallResult;
}

impl<T: Serialize> ViaSerialize for &OutputProbe<T> {
    type Output = T;
    #[inline(always)]
    fn tool_result(&self, value: T) -> CallResult {
        CallResult::structured(&value)
    }
}

/// Picked for structured outputs whose type is `JsonSchema`.
pub trait ViaJsonSchema {
    /// The output schema.
    fn output_schema(&self) -> Option<Value>;
}

impl<T: schemars::JsonSchema> ViaJsonSchema for &OutputProbe<T> {
    fn output_schema(&self) -> Option<Value> {
        Some(schema_for::<T>())
    }
}

/// Picked for structured outputs whose type is not `JsonSchema`: no output schema.
pub trait ViaNoSchema {
    /// No output schema.
    fn output_schema(&self) -> Option<Value>;
}

impl<T> ViaNoSchema for OutputProbe<T> {
    fn output_schema(&self) -> Option<Value> {
        None
    }
}
