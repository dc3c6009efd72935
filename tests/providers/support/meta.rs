//! Validity against the JSON Schema 2020-12 meta-schema.
//!
//! The `jsonschema` crate would add some thirty crates (and a TLS stack with its default
//! features) to the lock file for one test, so this is a small evaluator of exactly the
//! keywords the official meta-schema documents use (below, verbatim from json-schema.org),
//! which panics on any other keyword rather than ignoring it. `$dynamicRef: "#meta"` resolves
//! to the top meta-schema, which is its meaning when validation starts there (as here).

use std::collections::HashMap;

use serde_json::Value;

const ROOT: &str = "https://json-schema.org/draft/2020-12/schema";

/// The 2020-12 meta-schema and its seven vocabulary meta-schemas.
const DOCUMENTS: [&str; 8] = [
    r##"{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://json-schema.org/draft/2020-12/schema","$vocabulary":{"https://json-schema.org/draft/2020-12/vocab/core":true,"https://json-schema.org/draft/2020-12/vocab/applicator":true,"https://json-schema.org/draft/2020-12/vocab/unevaluated":true,"https://json-schema.org/draft/2020-12/vocab/validation":true,"https://json-schema.org/draft/2020-12/vocab/meta-data":true,"https://json-schema.org/draft/2020-12/vocab/format-annotation":true,"https://json-schema.org/draft/2020-12/vocab/content":true},"$dynamicAnchor":"meta","title":"Core and Validation specifications meta-schema","allOf":[{"$ref":"meta/core"},{"$ref":"meta/applicator"},{"$ref":"meta/unevaluated"},{"$ref":"meta/validation"},{"$ref":"meta/meta-data"},{"$ref":"meta/format-annotation"},{"$ref":"meta/content"}],"type":["object","boolean"],"$comment":"This meta-schema also defines keywords that have appeared in previous drafts in order to prevent incompatible extensions as they remain in common use.","properties":{"definitions":{"$comment":"\"definitions\" has been replaced by \"$defs\".","type":"object","additionalProperties":{"$dynamicRef":"#meta"},"deprecated":true,"default":{}},"dependencies":{"$comment":"\"dependencies\" has been split and replaced by \"dependentSchemas\" and \"dependentRequired\" in order to serve their differing semantics.","type":"object","additionalProperties":{"anyOf":[{"$dynamicRef":"#meta"},{"$ref":"meta/validation#/$defs/stringArray"}]},"deprecated":true,"default":{}},"$recursiveAnchor":{"$comment":"\"$recursiveAnchor\" has been replaced by \"$dynamicAnchor\".","$ref":"meta/core#/$defs/anchorString","deprecated":true},"$recursiveRef":{"$comment":"\"$recursiveRef\" has been replaced by \"$dynamicRef\".","$ref":"meta/core#/$defs/uriReferenceString","deprecated":true}}}"##,
    r##"{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://json-schema.org/draft/2020-12/meta/core","$vocabulary":{"https://json-schema.org/draft/2020-12/vocab/core":true},"$dynamicAnchor":"meta","title":"Core vocabulary meta-schema","type":["object","boolean"],"properties":{"$id":{"$ref":"#/$defs/uriReferenceString","$comment":"Non-empty fragments not allowed.","pattern":"^[^#]*#?$"},"$schema":{"$ref":"#/$defs/uriString"},"$ref":{"$ref":"#/$defs/uriReferenceString"},"$anchor":{"$ref":"#/$defs/anchorString"},"$dynamicRef":{"$ref":"#/$defs/uriReferenceString"},"$dynamicAnchor":{"$ref":"#/$defs/anchorString"},"$vocabulary":{"type":"object","propertyNames":{"$ref":"#/$defs/uriString"},"additionalProperties":{"type":"boolean"}},"$comment":{"type":"string"},"$defs":{"type":"object","additionalProperties":{"$dynamicRef":"#meta"}}},"$defs":{"anchorString":{"type":"string","pattern":"^[A-Za-z_][-A-Za-z0-9._]*$"},"uriString":{"type":"string","format":"uri"},"uriReferenceString":{"type":"string","format":"uri-reference"}}}"##,
    r##"{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://json-schema.org/draft/2020-12/meta/applicator","$vocabulary":{"https://json-schema.org/draft/2020-12/vocab/applicator":true},"$dynamicAnchor":"meta","title":"Applicator vocabulary meta-schema","type":["object","boolean"],"properties":{"prefixItems":{"$ref":"#/$defs/schemaArray"},"items":{"$dynamicRef":"#meta"},"contains":{"$dynamicRef":"#meta"},"additionalProperties":{"$dynamicRef":"#meta"},"properties":{"type":"object","additionalProperties":{"$dynamicRef":"#meta"},"default":{}},"patternProperties":{"type":"object","additionalProperties":{"$dynamicRef":"#meta"},"propertyNames":{"format":"regex"},"default":{}},"dependentSchemas":{"type":"object","additionalProperties":{"$dynamicRef":"#meta"},"default":{}},"propertyNames":{"$dynamicRef":"#meta"},"if":{"$dynamicRef":"#meta"},"then":{"$dynamicRef":"#meta"},"else":{"$dynamicRef":"#meta"},"allOf":{"$ref":"#/$defs/schemaArray"},"anyOf":{"$ref":"#/$defs/schemaArray"},"oneOf":{"$ref":"#/$defs/schemaArray"},"not":{"$dynamicRef":"#meta"}},"$defs":{"schemaArray":{"type":"array","minItems":1,"items":{"$dynamicRef":"#meta"}}}}"##,
    r##"{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://json-schema.org/draft/2020-12/meta/unevaluated","$vocabulary":{"https://json-schema.org/draft/2020-12/vocab/unevaluated":true},"$dynamicAnchor":"meta","title":"Unevaluated applicator vocabulary meta-schema","type":["object","boolean"],"properties":{"unevaluatedItems":{"$dynamicRef":"#meta"},"unevaluatedProperties":{"$dynamicRef":"#meta"}}}"##,
    r##"{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://json-schema.org/draft/2020-12/meta/validation","$vocabulary":{"https://json-schema.org/draft/2020-12/vocab/validation":true},"$dynamicAnchor":"meta","title":"Validation vocabulary meta-schema","type":["object","boolean"],"properties":{"type":{"anyOf":[{"$ref":"#/$defs/simpleTypes"},{"type":"array","items":{"$ref":"#/$defs/simpleTypes"},"minItems":1,"uniqueItems":true}]},"const":true,"enum":{"type":"array","items":true},"multipleOf":{"type":"number","exclusiveMinimum":0},"maximum":{"type":"number"},"exclusiveMaximum":{"type":"number"},"minimum":{"type":"number"},"exclusiveMinimum":{"type":"number"},"maxLength":{"$ref":"#/$defs/nonNegativeInteger"},"minLength":{"$ref":"#/$defs/nonNegativeIntegerDefault0"},"pattern":{"type":"string","format":"regex"},"maxItems":{"$ref":"#/$defs/nonNegativeInteger"},"minItems":{"$ref":"#/$defs/nonNegativeIntegerDefault0"},"uniqueItems":{"type":"boolean","default":false},"maxContains":{"$ref":"#/$defs/nonNegativeInteger"},"minContains":{"$ref":"#/$defs/nonNegativeInteger","default":1},"maxProperties":{"$ref":"#/$defs/nonNegativeInteger"},"minProperties":{"$ref":"#/$defs/nonNegativeIntegerDefault0"},"required":{"$ref":"#/$defs/stringArray"},"dependentRequired":{"type":"object","additionalProperties":{"$ref":"#/$defs/stringArray"}}},"$defs":{"nonNegativeInteger":{"type":"integer","minimum":0},"nonNegativeIntegerDefault0":{"$ref":"#/$defs/nonNegativeInteger","default":0},"simpleTypes":{"enum":["array","boolean","integer","null","number","object","string"]},"stringArray":{"type":"array","items":{"type":"string"},"uniqueItems":true,"default":[]}}}"##,
    r##"{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://json-schema.org/draft/2020-12/meta/meta-data","$vocabulary":{"https://json-schema.org/draft/2020-12/vocab/meta-data":true},"$dynamicAnchor":"meta","title":"Meta-data vocabulary meta-schema","type":["object","boolean"],"properties":{"title":{"type":"string"},"description":{"type":"string"},"default":true,"deprecated":{"type":"boolean","default":false},"readOnly":{"type":"boolean","default":false},"writeOnly":{"type":"boolean","default":false},"examples":{"type":"array","items":true}}}"##,
    r##"{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://json-schema.org/draft/2020-12/meta/format-annotation","$vocabulary":{"https://json-schema.org/draft/2020-12/vocab/format-annotation":true},"$dynamicAnchor":"meta","title":"Format vocabulary meta-schema for annotation results","type":["object","boolean"],"properties":{"format":{"type":"string"}}}"##,
    r##"{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://json-schema.org/draft/2020-12/meta/content","$vocabulary":{"https://json-schema.org/draft/2020-12/vocab/content":true},"$dynamicAnchor":"meta","title":"Content vocabulary meta-schema","type":["object","boolean"],"properties":{"contentEncoding":{"type":"string"},"contentMediaType":{"type":"string"},"contentSchema":{"$dynamicRef":"#meta"}}}"##,
];

pub struct Validator {
    documents: HashMap<String, Value>,
}

impl Validator {
    pub fn new() -> Self {
        let documents = DOCUMENTS
            .iter()
            .map(|text| {
                let doc: Value = serde_json::from_str(text).expect("a meta-schema document");
                (doc["$id"].as_str().expect("an $id").to_owned(), doc)
            })
            .collect();
        Validator { documents }
    }

    /// Every place where `schema` is not a valid 2020-12 schema.
    pub fn errors(&self, schema: &Value) -> Vec<String> {
        let mut errors = Vec::new();
        self.eval(schema, &self.documents[ROOT], ROOT, "", &mut errors);
        // The vocabularies repeat some checks (`type` in each): report each failure once.
        let mut seen = std::collections::HashSet::new();
        errors.retain(|e| seen.insert(e.clone()));
        errors
    }

    fn resolve(&self, base: &str, reference: &str) -> (&Value, String) {
        let (doc, fragment) = reference.split_once('#').unwrap_or((reference, ""));
        let uri = if doc.is_empty() {
            base.to_owned()
        } else {
            format!(
                "{}{doc}",
                &base[..=base.rfind('/').expect("an absolute base")]
            )
        };
        let document = &self.documents[&uri];
        let target = if fragment.is_empty() {
            document
        } else {
            document
                .pointer(fragment)
                .unwrap_or_else(|| panic!("no {fragment} in {uri}"))
        };
        (target, uri)
    }

    fn eval(
        &self,
        instance: &Value,
        schema: &Value,
        base: &str,
        path: &str,
        errors: &mut Vec<String>,
    ) {
        let map = match schema {
            Value::Bool(true) => return,
            Value::Bool(false) => {
                return errors.push(format!("{path}: no value is allowed here"));
            }
            Value::Object(map) => map,
            _ => panic!("not a schema: {schema}"),
        };
        let base = map.get("$id").and_then(Value::as_str).unwrap_or(base);
        for (keyword, value) in map {
            match keyword.as_str() {
                "$schema" | "$id" | "$vocabulary" | "$dynamicAnchor" | "$comment" | "$defs"
                | "title" | "description" | "default" | "deprecated" | "format" => {}
                "$ref" => {
                    let (target, uri) = self.resolve(base, value.as_str().expect("a reference"));
                    self.eval(instance, target, &uri, path, errors);
                }
                "$dynamicRef" => {
                    assert_eq!(
                        value, "#meta",
                        "the only dynamic reference of the meta-schema"
                    );
                    self.eval(instance, &self.documents[ROOT], ROOT, path, errors);
                }
                "allOf" => {
                    for sub in value.as_array().expect("a list") {
                        self.eval(instance, sub, base, path, errors);
                    }
                }
                "anyOf" => {
                    let passes = value.as_array().expect("a list").iter().any(|sub| {
                        let mut inner = Vec::new();
                        self.eval(instance, sub, base, path, &mut inner);
                        inner.is_empty()
                    });
                    if !passes {
                        errors.push(format!("{path}: matches no `anyOf` alternative"));
                    }
                }
                "type" => {
                    let fits = |t: &Value| match t.as_str().expect("a type name") {
                        "object" => instance.is_object(),
                        "array" => instance.is_array(),
                        "string" => instance.is_string(),
                        "boolean" => instance.is_boolean(),
                        "null" => instance.is_null(),
                        "number" => instance.is_number(),
                        "integer" => instance.as_f64().is_some_and(|n| n.fract() == 0.0),
                        other => panic!("unknown type {other}"),
                    };
                    let ok = match value {
                        Value::Array(types) => types.iter().any(fits),
                        single => fits(single),
                    };
                    if !ok {
                        errors.push(format!("{path}: not of type {value}"));
                    }
                }
                "enum" => {
                    if !value.as_array().expect("a list").contains(instance) {
                        errors.push(format!("{path}: not one of {value}"));
                    }
                }
                "properties" => {
                    if let Value::Object(object) = instance {
                        for (name, sub) in value.as_object().expect("an object") {
                            if let Some(member) = object.get(name) {
                                self.eval(member, sub, base, &format!("{path}/{name}"), errors);
                            }
                        }
                    }
                }
                "additionalProperties" => {
                    assert!(
                        !map.contains_key("patternProperties"),
                        "not used by the meta-schema"
                    );
                    if let Value::Object(object) = instance {
                        let declared = map.get("properties").and_then(Value::as_object);
                        for (name, member) in object {
                            if !declared.is_some_and(|d| d.contains_key(name)) {
                                self.eval(member, value, base, &format!("{path}/{name}"), errors);
                            }
                        }
                    }
                }
                "propertyNames" => {
                    if let Value::Object(object) = instance {
                        for name in object.keys() {
                            let key = Value::String(name.clone());
                            self.eval(&key, value, base, &format!("{path}/{name} (name)"), errors);
                        }
                    }
                }
                "items" => {
                    if let Value::Array(items) = instance {
                        for (i, item) in items.iter().enumerate() {
                            self.eval(item, value, base, &format!("{path}/{i}"), errors);
                        }
                    }
                }
                "minItems" => {
                    let min = value.as_u64().expect("a count") as usize;
                    if instance.as_array().is_some_and(|a| a.len() < min) {
                        errors.push(format!("{path}: fewer than {min} items"));
                    }
                }
                "uniqueItems" => {
                    if value == true
                        && let Value::Array(items) = instance
                    {
                        let repeated = items
                            .iter()
                            .enumerate()
                            .any(|(i, a)| items[..i].contains(a));
                        if repeated {
                            errors.push(format!("{path}: repeated items"));
                        }
                    }
                }
                "minimum" => {
                    if instance
                        .as_f64()
                        .is_some_and(|n| n < value.as_f64().expect("a number"))
                    {
                        errors.push(format!("{path}: below {value}"));
                    }
                }
                "exclusiveMinimum" => {
                    if instance
                        .as_f64()
                        .is_some_and(|n| n <= value.as_f64().expect("a number"))
                    {
                        errors.push(format!("{path}: not above {value}"));
                    }
                }
                "pattern" => {
                    if let Value::String(s) = instance
                        && !matches_pattern(value.as_str().expect("a pattern"), s)
                    {
                        errors.push(format!("{path}: does not match {value}"));
                    }
                }
                other => panic!("the meta-schema evaluator does not know `{other}`"),
            }
        }
    }
}

/// The two patterns of the meta-schema, matched by hand (no regex engine here).
fn matches_pattern(pattern: &str, s: &str) -> bool {
    match pattern {
        // `$id`: no fragment, except an empty one.
        "^[^#]*#?$" => s.find('#').is_none_or(|i| i == s.len() - 1),
        // `$anchor` and `$dynamicAnchor`.
        "^[A-Za-z_][-A-Za-z0-9._]*$" => {
            let mut chars = s.chars();
            chars
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_'))
        }
        other => panic!("the meta-schema evaluator does not know the pattern {other}"),
    }
}
