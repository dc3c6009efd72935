//! Canonical schemas from schemars, built once per tool.

use std::marker::PhantomData;

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde_json::Value;

/// The canonical schema of `T`: schemars' JSON Schema 2020-12 output with the root `$schema`
/// and `title` removed (the title is a Rust type name, noise for a model). Provider renderers
/// transform this further.
pub fn schema_for<T: JsonSchema + ?Sized>() -> Value {
    let generator = SchemaSettings::draft2020_12()
        .with(|s| s.meta_schema = None)
        .into_generator();
    let schema = generator.into_root_schema_for::<T>();
    let mut value = schema.to_value();
    if let Value::Object(map) = &mut value {
        map.remove("title");
    }
    value
}

/// Chooses, at compile time, whether a tool's output type has a schema (autoref
/// specialisation: the `&&Probe` receiver prefers [`ViaJsonSchema`] when `T: JsonSchema`).
pub struct OutputSchemaProbe<T: ?Sized>(PhantomData<T>);

impl<T: ?Sized> OutputSchemaProbe<T> {
    /// A probe for `T`.
    pub const fn new() -> Self {
        OutputSchemaProbe(PhantomData)
    }
}

impl<T: ?Sized> Default for OutputSchemaProbe<T> {
    fn default() -> Self {
        Self::new()
    }
}

/// Picked when the output type is `JsonSchema`.
pub trait ViaJsonSchema {
    /// The output schema.
    fn output_schema(&self) -> Option<Value>;
}

impl<T: JsonSchema + ?Sized> ViaJsonSchema for &OutputSchemaProbe<T> {
    fn output_schema(&self) -> Option<Value> {
        Some(schema_for::<T>())
    }
}

/// Picked when the output type is not `JsonSchema`: no output schema.
pub trait ViaNoSchema {
    /// No output schema.
    fn output_schema(&self) -> Option<Value>;
}

impl<T: ?Sized> ViaNoSchema for OutputSchemaProbe<T> {
    fn output_schema(&self) -> Option<Value> {
        None
    }
}
