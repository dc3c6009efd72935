//! Strict mode through the public API: which tools are strict and why the others fall back,
//! Anthropic's per-request budgets, the strict-mode rules on every schema marked strict, and
//! `openai_strict` on hand-written schemas.

use crate::support::*;

// ---------------------------------------------------------------------------------------
// Which tools are strict, and why the others are not.
// ---------------------------------------------------------------------------------------

const MAP_REASON: &str = "is an object with free-form keys (a map such as `HashMap<String, _>`); strict mode needs every property declared";

/// Why `tag` falls back: its first property that strict mode cannot take, in the order of the
/// build's `serde_json::Map` (declaration order with `preserve_order`, else sorted).
fn tag_reason() -> String {
    if preserve_order() {
        format!("fallback: `/properties/weights` {MAP_REASON}")
    } else {
        "fallback: `/properties/extra` has no type (it accepts any JSON value); strict mode needs a typed schema".to_owned()
    }
}

fn table(rows: &[(&'static str, &str)]) -> Vec<(&'static str, String)> {
    rows.iter().map(|(n, s)| (*n, (*s).to_owned())).collect()
}

#[test]
fn strictness_of_each_tool() {
    let kit = kit();
    let openai = table(&[
        ("reset_tools", "strict"),
        ("ping", "strict"),
        ("search", "strict"),
        ("tag", &tag_reason()),
        ("tree", "strict"),
        (
            "numbers",
            "fallback: `/properties/retries` may be omitted but cannot be null (a `#[serde(default)]` field that is not an `Option`); OpenAI strict mode requires every property, optional ones as a union with null",
        ),
    ]);
    assert_eq!(
        strictness_table(&Rendered::new(&kit, Provider::OpenAiChat)),
        openai
    );
    assert_eq!(
        strictness_table(&Rendered::new(&kit, Provider::OpenAiResponses)),
        openai
    );
    assert_eq!(
        strictness_table(&Rendered::new(&kit, Provider::AnthropicStrict)),
        table(&[
            ("reset_tools", "strict"),
            ("ping", "strict"),
            ("search", "strict"),
            ("tag", &tag_reason()),
            (
                "tree",
                "fallback: `/$defs/Node` is recursive (the type contains itself); Anthropic strict mode does not support recursive schemas",
            ),
            ("numbers", "strict"),
        ])
    );
    for provider in [
        Provider::Anthropic,
        Provider::Gemini,
        Provider::GeminiLegacy,
        Provider::Mcp,
    ] {
        let rendered = Rendered::new(&kit, provider);
        assert!(
            rendered
                .entries()
                .all(|e| *e.strictness == Strictness::NotApplicable),
            "{provider}"
        );
    }
}

#[test]
fn strictness_of_more_argument_shapes() {
    let zoo = zoo::kit();
    let prefix = |who: &str| {
        format!(
            "fallback: `/properties/both` uses `prefixItems`, which {who} strict mode does not support"
        )
    };
    let not_object = |who: &str| {
        format!(
            "fallback: the schema has a root that is not `\"type\": \"object\"`, which {who} strict mode requires"
        )
    };
    let any_value = "fallback: `/properties/items/items` accepts any JSON value (a `serde_json::Value`); strict mode needs a typed schema";
    assert_eq!(
        strictness_table(&Rendered::new(&zoo, Provider::OpenAiChat)),
        table(&[
            ("set", "strict"),
            ("pair", &prefix("OpenAI")),
            ("maybe", "strict"),
            (
                "btree",
                &format!("fallback: `/properties/map` {MAP_REASON}")
            ),
            ("enums", "strict"),
            ("flat", "strict"),
            ("scalars", "strict"),
            ("constrained", "strict"),
            ("values", any_value),
            ("linked", "strict"),
            (
                "deep",
                "fallback: the schema nests objects 13 levels deep; OpenAI strict mode allows 10"
            ),
            ("command", &not_object("OpenAI")),
        ])
    );
    assert_eq!(
        strictness_table(&Rendered::new(&zoo, Provider::AnthropicStrict)),
        table(&[
            ("set", "strict"),
            ("pair", &prefix("Anthropic")),
            ("maybe", "strict"),
            (
                "btree",
                &format!("fallback: `/properties/map` {MAP_REASON}")
            ),
            ("enums", "strict"),
            ("flat", "strict"),
            ("scalars", "strict"),
            ("constrained", "strict"),
            ("values", any_value),
            (
                "linked",
                "fallback: `/$defs/Link` is recursive (the type contains itself); Anthropic strict mode does not support recursive schemas",
            ),
            ("deep", "strict"),
            ("command", &not_object("Anthropic")),
        ])
    );
}

#[test]
fn constraints_and_formats_in_strict_schemas() {
    let zoo = zoo::kit();
    let constrained = |provider| {
        let def = definition(&Rendered::new(&zoo, provider), "constrained");
        let def = if provider == Provider::OpenAiChat {
            def["function"].clone()
        } else {
            def
        };
        let key = if provider == Provider::OpenAiChat {
            "parameters"
        } else {
            "input_schema"
        };
        def[key]["properties"].clone()
    };
    // OpenAI: lengths, patterns, ranges, item counts and the `uri` format are dropped.
    assert_eq!(
        constrained(Provider::OpenAiChat),
        json!({
            "name": {"type": "string", "description": "A name."},
            "count": {"type": "integer", "description": "A count."},
            "email": {"type": "string", "format": "email", "description": "An email address."},
            "url": {"type": "string", "description": "A web address."},
            "rgb": {"type": "array", "items": {"type": "integer"}, "description": "Three bytes."},
            "words": {"type": "array", "items": {"type": "string"}, "description": "At least one word."},
        })
    );
    // Anthropic keeps `uri` and a `minItems` of 0 or 1, not a `minItems` of 3.
    assert_eq!(
        constrained(Provider::AnthropicStrict),
        json!({
            "name": {"type": "string", "description": "A name."},
            "count": {"type": "integer", "description": "A count."},
            "email": {"type": "string", "format": "email", "description": "An email address."},
            "url": {"type": "string", "format": "uri", "description": "A web address."},
            "rgb": {"type": "array", "items": {"type": "integer"}, "description": "Three bytes."},
            "words": {"type": "array", "items": {"type": "string"}, "minItems": 1, "description": "At least one word."},
        })
    );
}

#[test]
fn a_non_strict_tool_keeps_its_full_schema() {
    let kit = kit();
    let tag = kit
        .all_definitions()
        .find(|d| d.name == "tag")
        .expect("tag");
    let rendered = definition(&Rendered::new(&kit, Provider::OpenAiResponses), "tag");
    assert_eq!(rendered["strict"], json!(false));
    // Only the `true` subschema of `serde_json::Value` is spelled as `{}` (here it carries a
    // description, so nothing changes at all).
    assert_eq!(rendered["parameters"], tag.input_schema);
}

// ---------------------------------------------------------------------------------------
// Anthropic's per-request budgets of strict tools.
// ---------------------------------------------------------------------------------------

mod budget {
    use super::*;

    macro_rules! simple_tools {
        ($($name:ident),*) => {$(
            /// A tool with one required parameter.
            #[tool]
            pub fn $name(x: u8) -> u8 {
                x
            }
        )*};
    }
    simple_tools!(
        t01, t02, t03, t04, t05, t06, t07, t08, t09, t10, t11, t12, t13, t14, t15, t16, t17, t18,
        t19, t20, t21
    );

    #[tool_group(
        name = "many",
        description = "Many tools.",
        tools = [t01, t02, t03, t04, t05, t06, t07, t08, t09, t10, t11, t12, t13, t14, t15, t16, t17, t18, t19, t20, t21]
    )]
    pub struct Many;

    #[toolkit]
    pub struct ManyKit {
        #[basic]
        pub many: Many,
    }

    macro_rules! optional_tools {
        ($($name:ident: $($p:ident),*;)*) => {$(
            /// A tool with optional parameters that are not unions.
            #[tool]
            pub fn $name($(#[serde(default)] $p: u8),*) -> u32 {
                0 $(+ u32::from($p))*
            }
        )*};
    }
    optional_tools! {
        opt_a: a, b, c, d, e;
        opt_b: a, b, c, d, e;
        opt_c: a, b, c, d, e;
        opt_d: a, b, c, d, e;
        opt_e: a, b, c, d, e;
        opt_f: a, b, c, d;
    }

    #[tool_group(name = "optional", description = "Optional parameters.", tools = [opt_a, opt_b, opt_c, opt_d, opt_e, opt_f])]
    pub struct Optional;

    #[toolkit]
    pub struct OptionalKit {
        #[basic]
        pub optional: Optional,
    }

    macro_rules! union_tools {
        ($($name:ident),*) => {$(
            /// A tool with five `Option` parameters: optional, and unions with null.
            #[tool]
            pub fn $name(a: Option<u8>, b: Option<u8>, c: Option<u8>, d: Option<u8>, e: Option<u8>) -> usize {
                [a, b, c, d, e].iter().flatten().count()
            }
        )*};
    }
    union_tools!(uni_a, uni_b, uni_c, uni_d);

    #[tool_group(name = "unions", description = "Union parameters.", tools = [uni_a, uni_b, uni_c, uni_d])]
    pub struct Unions;

    #[toolkit]
    pub struct UnionKit {
        #[basic]
        pub unions: Unions,
    }
}

fn fallbacks<R: Registry>(rendered: &Rendered<R>) -> Vec<(&'static str, String)> {
    strictness_table(rendered)
        .into_iter()
        .filter(|(_, s)| s != "strict")
        .collect()
}

#[test]
fn anthropic_strict_budgets_are_spent_in_listing_order() {
    let many = Toolkit::new(budget::ManyKit { many: budget::Many });
    let rendered = Rendered::new(&many, Provider::AnthropicStrict);
    assert_eq!(rendered.len(), 21);
    assert_eq!(
        fallbacks(&rendered),
        table(&[(
            "t21",
            "fallback: the schema would pass Anthropic's per-request limit of 20 strict tools, used up by the strict tools listed before it",
        )])
    );
    assert_eq!(ANTHROPIC_MAX_STRICT_TOOLS, 20);

    let optional = Toolkit::new(budget::OptionalKit {
        optional: budget::Optional,
    });
    let rendered = Rendered::new(&optional, Provider::AnthropicStrict);
    // 4 x 5 optional parameters fit in 24; a fifth tool of 5 does not; one of 4 still fits.
    assert_eq!(
        fallbacks(&rendered),
        table(&[(
            "opt_e",
            "fallback: the schema would pass Anthropic's per-request limit of 24 optional parameters across strict tools, used up by the strict tools listed before it",
        )])
    );
    assert_eq!(ANTHROPIC_MAX_STRICT_OPTIONAL_PARAMS, 24);

    let unions = Toolkit::new(budget::UnionKit {
        unions: budget::Unions,
    });
    let rendered = Rendered::new(&unions, Provider::AnthropicStrict);
    assert_eq!(
        fallbacks(&rendered),
        table(&[(
            "uni_d",
            "fallback: the schema would pass Anthropic's per-request limit of 16 union-typed parameters across strict tools, used up by the strict tools listed before it",
        )])
    );
    assert_eq!(ANTHROPIC_MAX_STRICT_UNION_PARAMS, 16);

    // OpenAI has no such budget.
    assert!(fallbacks(&Rendered::new(&many, Provider::OpenAiChat)).is_empty());
}

#[test]
fn the_strict_rule_checks_catch_violations() {
    let fine = json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": false});
    assert_eq!(
        strict_violations(Rules::OpenAi, &fine),
        Vec::<String>::new()
    );
    let open = json!({"type": "object", "properties": {"a": {"type": "string", "minLength": 1}}, "required": []});
    assert_eq!(
        strict_violations(Rules::OpenAi, &open),
        [
            ": not `additionalProperties: false`",
            ": `required` is not every property",
            "/properties/a: `minLength`",
        ]
    );
    let recursive = json!({
        "type": "object", "properties": {"n": {"$ref": "#/$defs/N"}}, "required": ["n"], "additionalProperties": false,
        "$defs": {"N": {"type": "object", "properties": {"next": {"$ref": "#/$defs/N"}}, "required": ["next"], "additionalProperties": false}},
    });
    assert_eq!(
        strict_violations(Rules::OpenAi, &recursive),
        Vec::<String>::new()
    );
    assert_eq!(
        strict_violations(Rules::Anthropic, &recursive),
        vec!["#/$defs/N: recursive".to_owned()]
    );
    let sibling = json!({"type": "object", "properties": {"n": {"$ref": "#/$defs/N", "description": "d"}}, "required": ["n"], "additionalProperties": false, "$defs": {"N": {"type": "string"}}});
    assert_eq!(
        strict_violations(Rules::Anthropic, &sibling),
        vec!["/properties/n: `$ref` with sibling keywords".to_owned()]
    );
}

#[test]
fn strict_rules_hold_on_every_schema_marked_strict() {
    let kit = kit();
    let zoo = zoo::kit();
    // How many schemas each provider marks strict across the four toolkits.
    for (provider, rules, expected) in [
        (Provider::OpenAiChat, Rules::OpenAi, 15),
        (Provider::OpenAiResponses, Rules::OpenAi, 15),
        (Provider::AnthropicStrict, Rules::Anthropic, 19),
    ] {
        let listings = [
            Rendered::new(&kit, provider).all_tools_value(),
            Rendered::new(&zoo, provider).all_tools_value(),
            listing(
                &Toolkit::new(budget::OptionalKit {
                    optional: budget::Optional,
                }),
                provider,
            ),
            listing(
                &Toolkit::new(budget::UnionKit {
                    unions: budget::Unions,
                }),
                provider,
            ),
        ];
        let mut checked = 0;
        for listing in &listings {
            let mut spent = (0, 0, 0);
            for found in schemas_of(provider, listing)
                .into_iter()
                .filter(|f| f.strict)
            {
                let problems = strict_violations(rules, &found.schema);
                assert!(
                    problems.is_empty(),
                    "{provider} `{}` {}: {problems:#?}",
                    found.tool,
                    found.field
                );
                let (optional, unions) = anthropic_costs(&found.schema);
                spent = (spent.0 + 1, spent.1 + optional, spent.2 + unions);
                checked += 1;
            }
            if rules == Rules::Anthropic {
                assert!(spent.0 <= ANTHROPIC_MAX_STRICT_TOOLS, "{spent:?}");
                assert!(spent.1 <= ANTHROPIC_MAX_STRICT_OPTIONAL_PARAMS, "{spent:?}");
                assert!(spent.2 <= ANTHROPIC_MAX_STRICT_UNION_PARAMS, "{spent:?}");
            }
        }
        assert_eq!(checked, expected, "{provider}: strict schemas checked");
    }
}
#[test]
fn openai_strict_on_hand_written_schemas() {
    // A reference to the root is kept (OpenAI accepts recursion); its sibling is dropped.
    let schema = json!({
        "type": "object",
        "properties": {"child": {"anyOf": [{"$ref": "#", "description": "The same again."}, {"type": "null"}]}},
        "required": ["child"],
    });
    assert_eq!(
        openai_strict(&schema),
        Ok(json!({
            "type": "object",
            "properties": {"child": {"anyOf": [{"$ref": "#"}, {"type": "null"}]}},
            "required": ["child"],
            "additionalProperties": false,
        }))
    );
    let missing = openai_strict(
        &json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/Missing"}}, "required": ["a"]}),
    )
    .expect_err("a dangling reference");
    assert_eq!(missing.path, "/properties/a");
    assert_eq!(
        missing.reason,
        "refers to `#/$defs/Missing`, which does not exist"
    );
    let err = openai_strict(
        &json!({"type": "object", "properties": {"a": {"type": "string", "not": {"const": ""}}}}),
    )
    .expect_err("`not` has no strict form");
    assert_eq!(
        err.to_string(),
        "`/properties/a` uses `not`, which OpenAI strict mode does not support"
    );
    let err = anthropic_strict(&json!({"type": "object"})).expect_err("free-form");
    assert_eq!(
        err.to_string(),
        "the schema is a free-form object (no declared properties); strict mode needs every property declared"
    );
}

/// Every definition of `kit` for `provider`, as the mask mode sends them.
fn listing<R: toolgroup::Registry>(kit: &Toolkit<R>, provider: Provider) -> serde_json::Value {
    Rendered::new(kit, provider).all_tools_value()
}
