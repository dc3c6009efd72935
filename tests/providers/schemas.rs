//! Schema validity through the public API: every produced schema against the JSON Schema
//! 2020-12 meta-schema, Gemini's legacy dialect rules, MCP's object schemas, and the public
//! transforms on hand-written schemas.

use crate::support::*;

/// The checker itself: it accepts valid schemas and rejects each kind of invalid one, naming
/// the offending value and the meta-schema keyword it fails.
#[test]
fn the_meta_schema_check_accepts_valid_and_rejects_invalid_schemas() {
    for valid in [
        json!(true),
        json!({}),
        json!({"type": ["integer", "null"], "minimum": 0, "format": "uint32"}),
        json!({"$id": "https://example.com/s#", "$anchor": "_a-1.b", "$defs": {"x": false}, "$ref": "#/$defs/x"}),
        json!({"properties": {"a": {"anyOf": [{"const": 1}, {"enum": [null]}]}}, "required": ["a"], "x-custom": 1}),
        json!({"type": "object", "nullable": true, "properties": {}}),
    ] {
        assert_eq!(meta::errors(&valid), Vec::<String>::new(), "{valid}");
    }
    for (invalid, error) in [
        (json!(3), ": type"),
        (json!({"type": "strin"}), "/type: anyOf"),
        (json!({"type": []}), "/type: anyOf"),
        (json!({"required": "a"}), "/required: type"),
        (json!({"required": ["a", "a"]}), "/required: uniqueItems"),
        (json!({"properties": {"a": 5}}), "/properties/a: type"),
        (
            json!({"properties": {"a": {"properties": {"b": {"type": 1}}}}}),
            "/properties/a/properties/b/type: anyOf",
        ),
        (json!({"minLength": -1}), "/minLength: minimum"),
        (json!({"maxItems": 1.5}), "/maxItems: type"),
        (json!({"items": [{"type": "string"}]}), "/items: type"),
        (json!({"anyOf": []}), "/anyOf: minItems"),
        (json!({"enum": 3}), "/enum: type"),
        (json!({"multipleOf": 0}), "/multipleOf: exclusiveMinimum"),
        (json!({"$defs": {"a": "b"}}), "/$defs/a: type"),
        (
            json!({"additionalProperties": {"format": 3}}),
            "/additionalProperties/format: type",
        ),
        (json!({"$anchor": "1a"}), "/$anchor: pattern"),
        (json!({"$id": "a#b"}), "/$id: pattern"),
        (
            json!({"dependentRequired": {"a": [1]}}),
            "/dependentRequired/a/0: type",
        ),
    ] {
        assert_eq!(meta::errors(&invalid), vec![error.to_owned()], "{invalid}");
    }
}
#[test]
fn every_produced_schema_is_valid_json_schema_2020_12() {
    let schemas = every_schema();
    // 18 tools x 2 canonical entries at most, then every provider's schemas.
    assert!(schemas.len() > 150, "{}", schemas.len());
    for (label, schema) in &schemas {
        assert_eq!(
            meta::errors(schema),
            Vec::<String>::new(),
            "{label}: {schema}"
        );
    }
}

#[test]
fn gemini_legacy_on_hand_written_schemas() {
    let schema = json!({
        "type": "object",
        "properties": {
            "level": {"enum": [1, 2, 3], "description": "The level."},
            "mode": {"const": "fast"},
            "either": {"type": ["string", "integer", "null"]},
            "anything": true,
            "both": {"allOf": [
                {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
                {"properties": {"b": {"type": "number", "exclusiveMinimum": 0}}, "required": ["b"]},
            ]},
            "tuple": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}, {"type": "string"}], "minItems": 3},
            "list": {"type": "array"},
        },
        "additionalProperties": false,
    });
    assert_eq!(
        gemini_legacy_schema(&schema),
        json!({
            "type": "object",
            "properties": {
                "level": {"type": "integer", "description": "The level. One of: 1, 2, 3."},
                "mode": {"type": "string", "enum": ["fast"]},
                "either": {"nullable": true, "anyOf": [{"type": "string"}, {"type": "integer"}]},
                "anything": {"type": "object"},
                "both": {
                    "type": "object",
                    "properties": {"a": {"type": "string"}, "b": {"type": "number"}},
                    "required": ["a", "b"],
                },
                "tuple": {
                    "type": "array",
                    "items": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
                    "minItems": 3,
                },
                "list": {"type": "array", "items": {"type": "object"}},
            },
        })
    );
}

#[test]
fn mcp_output_schemas_are_objects() {
    // Every output schema admits a first use's activation, an optional object.
    let object = json!({"type": "object", "properties": {"a": {"type": "integer"}}});
    let kept = mcp_output_schema(&object);
    assert_eq!(
        (kept.schema, kept.wrapped, kept.reserved_key_taken),
        (
            json!({"type": "object", "properties": {
                "a": {"type": "integer"}, "activated_group": {"type": "object"}}}),
            false,
            false
        )
    );
    let closed = json!({"type": "object", "properties": {"a": {"type": "integer"}},
                        "required": ["a"], "additionalProperties": false});
    let kept = mcp_output_schema(&closed);
    assert_eq!(
        kept.schema["properties"]["activated_group"],
        json!({"type": "object"})
    );
    assert_eq!(kept.schema["additionalProperties"], false);
    assert_eq!(kept.schema["required"], json!(["a"]));
    // A field of that name is the tool's own, and said to be.
    let clash = json!({"type": "object", "properties": {"activated_group": {"type": "string"}}});
    let kept = mcp_output_schema(&clash);
    assert!(kept.reserved_key_taken);
    assert_eq!(kept.schema, clash);
    let list = json!({"type": "array", "items": {"$ref": "#/$defs/Item"}, "$defs": {"Item": {"type": "string"}}});
    let wrapped = mcp_output_schema(&list);
    assert!(wrapped.wrapped);
    assert_eq!(
        wrapped.schema,
        json!({
            "type": "object",
            "properties": {
                "result": {"type": "array", "items": {"$ref": "#/$defs/Item"}},
                "activated_group": {"type": "object"},
            },
            "required": ["result"],
            "additionalProperties": false,
            "$defs": {"Item": {"type": "string"}},
        })
    );
}

#[test]
fn gemini_legacy_rules_hold_on_every_schema() {
    let mut checked = 0;
    for listing in [
        {
            let kit = kit();
            Rendered::new(&kit, Provider::GeminiLegacy).all_tools_value()
        },
        {
            let kit = zoo::kit();
            Rendered::new(&kit, Provider::GeminiLegacy).all_tools_value()
        },
    ] {
        for found in schemas_of(Provider::GeminiLegacy, &listing) {
            let mut problems = Vec::new();
            legacy_violations(&found.schema, "", &mut problems);
            assert!(
                problems.is_empty(),
                "`{}`: {problems:#?}\n{}",
                found.tool,
                found.schema
            );
            assert_eq!(found.schema["type"], "object", "`{}`", found.tool);
            checked += 1;
        }
    }
    // Every tool but the parameterless `ping` declares parameters.
    assert_eq!(checked, 5 + 12);
    let mut problems = Vec::new();
    legacy_violations(
        &json!({"type": ["string", "null"], "oneOf": [], "enum": [1]}),
        "",
        &mut problems,
    );
    assert_eq!(
        problems,
        [
            ": `oneOf`",
            ": type Some(Array [String(\"string\"), String(\"null\")])",
            ": an enum of other values than strings"
        ]
    );
}

#[test]
fn mcp_schemas_are_object_schemas() {
    // An `#[args]` enum: the unit variant (a bare string) cannot be called, since arguments
    // are always an object, so the object root keeps the two object alternatives.
    let command = definition(&Rendered::new(&zoo::kit(), Provider::Mcp), "command");
    let schema = &command["inputSchema"];
    assert_eq!(schema["type"], "object");
    let alternatives: Vec<&Value> = schema["oneOf"]
        .as_array()
        .expect("alternatives")
        .iter()
        .collect();
    assert_eq!(alternatives.len(), 2);
    assert_eq!(alternatives[0]["required"], json!(["go"]));
    assert_eq!(alternatives[1]["required"], json!(["wait"]));

    for listing in [
        {
            let kit = kit();
            Rendered::new(&kit, Provider::Mcp).all_tools_value()
        },
        {
            let kit = zoo::kit();
            Rendered::new(&kit, Provider::Mcp).all_tools_value()
        },
    ] {
        for found in schemas_of(Provider::Mcp, &listing) {
            assert_eq!(
                found.schema["type"], "object",
                "`{}` {}",
                found.tool, found.field
            );
        }
    }
}
