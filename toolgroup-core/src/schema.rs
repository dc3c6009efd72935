//! Canonical schemas from schemars, built once per tool.

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
