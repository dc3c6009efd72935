//! Validity against the JSON Schema 2020-12 meta-schema, checked by the `jsonschema` crate
//! with the meta-schemas it ships (nothing is fetched).

use std::collections::BTreeSet;

use serde_json::Value;

/// Every place where `schema` is not a valid 2020-12 schema, as `<path>: <keyword>`: the
/// JSON pointer of the offending value in `schema`, and the meta-schema keyword it fails.
pub fn errors(schema: &Value) -> Vec<String> {
    let validator = jsonschema::draft202012::meta::validator();
    // The vocabularies repeat some checks (`type` in each): report each failure once.
    let errors: BTreeSet<String> = validator
        .iter_errors(schema)
        .map(|e| format!("{}: {}", e.instance_path(), e.kind().keyword()))
        .collect();
    errors.into_iter().collect()
}
