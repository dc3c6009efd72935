//! MCP input schemas name their dialect (`"$schema"`: JSON Schema 2020-12) beside their
//! `$defs`, as MCP's conformance suite expects; no other provider's schemas carry `$schema`.

use crate::support::*;

const DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

fn mcp_tools<R: Registry>(kit: &Toolkit<R>) -> Value {
    Rendered::new(kit, Provider::Mcp).all_tools_value()
}

#[test]
fn every_mcp_input_schema_names_the_2020_12_dialect() {
    for listing in [mcp_tools(&kit()), mcp_tools(&zoo::kit())] {
        let tools = listing.as_array().expect("a list of tools");
        assert!(!tools.is_empty());
        for tool in tools {
            let schema = tool["inputSchema"].as_object().expect("an object schema");
            assert_eq!(
                schema.get("$schema"),
                Some(&json!(DIALECT)),
                "{}",
                tool["name"]
            );
            if preserve_order() {
                assert_eq!(
                    schema.keys().next().map(String::as_str),
                    Some("$schema"),
                    "{}",
                    tool["name"]
                );
            }
        }
    }
}

#[test]
fn an_mcp_input_schema_keeps_its_defs_beside_the_dialect() {
    // `tree` takes a recursive `Node`: its schema references `$defs`.
    let tree = definition(&Rendered::new(&kit(), Provider::Mcp), "tree");
    let schema = &tree["inputSchema"];
    assert_eq!(schema["$schema"], DIALECT);
    assert!(schema["$defs"].get("Node").is_some(), "{schema}");
    assert_eq!(schema["type"], "object");
    assert_eq!(schema["additionalProperties"], false);
}

#[test]
fn reset_tools_names_the_dialect_over_mcp_and_keeps_its_fixed_shape_elsewhere() {
    let kit = kit();
    let mcp = definition(&Rendered::new(&kit, Provider::Mcp), "reset_tools");
    let mut schema = mcp["inputSchema"].clone();
    assert_eq!(schema["$schema"], DIALECT);
    schema.as_object_mut().unwrap().remove("$schema");
    let anthropic = definition(&Rendered::new(&kit, Provider::Anthropic), "reset_tools");
    // MCP's form leaves every group optional (a group left out becomes inactive); the rest
    // of the shape is the same.
    let mut fixed = anthropic["input_schema"].clone();
    assert_eq!(fixed["required"], json!(["web", "data"]));
    fixed.as_object_mut().unwrap().remove("required");
    assert_eq!(schema, fixed);
}

#[test]
fn a_schema_that_names_its_own_dialect_keeps_it() {
    let mut definition = kit().definition("ping").expect("ping").clone();
    definition.input_schema = json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "properties": {},
    });
    let rendered = Provider::Mcp.render_definition(&definition);
    assert_eq!(
        rendered["inputSchema"]["$schema"],
        "http://json-schema.org/draft-07/schema#"
    );
}

#[test]
fn no_other_provider_renders_a_schema_keyword() {
    fn has_schema_keyword(value: &Value) -> bool {
        match value {
            Value::Object(map) => {
                map.contains_key("$schema") || map.values().any(has_schema_keyword)
            }
            Value::Array(items) => items.iter().any(has_schema_keyword),
            _ => false,
        }
    }
    for &provider in Provider::ALL {
        if provider == Provider::Mcp {
            continue;
        }
        for kit_tools in [
            {
                let kit = kit();
                Rendered::new(&kit, provider).all_tools_value()
            },
            {
                let kit = zoo::kit();
                Rendered::new(&kit, provider).all_tools_value()
            },
        ] {
            assert!(!has_schema_keyword(&kit_tools), "{provider}: {kit_tools}");
        }
    }
}
