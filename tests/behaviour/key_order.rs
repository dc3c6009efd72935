//! JSON key order: `toolgroup` must not change the `serde_json::Map` of the crates it is
//! built with (serde_json's `preserve_order` is opt-in, behind toolgroup's own
//! `preserve_order` feature), and with that feature definitions and results keep declaration
//! order. The provider goldens (`tests/golden/`) are compared as JSON values, in which key
//! order does not count: this file is where the order is checked.

use serde_json::Value;
use toolgroup::prelude::*;
use toolgroup::provider::{Provider, Rendered};

/// Arguments in anything but alphabetical order.
#[tool]
fn book(
    /// Where to.
    zeta: String,
    /// When.
    alpha: String,
    /// How many.
    middle: u8,
) -> String {
    format!("{zeta} {alpha} {middle}")
}

/// A stop, fields in anything but alphabetical order.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
struct Stop {
    /// The city.
    town: String,
    /// How long.
    days: u8,
}

/// What a trip costs, fields in anything but alphabetical order.
#[derive(Debug, serde::Serialize, schemars::JsonSchema)]
struct Fare {
    /// The total.
    total: u32,
    /// Its currency.
    currency: String,
}

/// Price a trip.
#[tool]
fn price(
    /// Where it stops.
    stops: Vec<Stop>,
    /// Who travels.
    party: u8,
) -> Fare {
    Fare {
        total: u32::from(party) * 10 * stops.len() as u32,
        currency: "EUR".to_owned(),
    }
}

#[tool_group(name = "travel", description = "Travel.", tools = [book, price])]
struct Travel;

/// Ring.
#[tool]
fn ring() -> String {
    "ring".to_owned()
}

#[tool_group(name = "alerts", description = "Alerts.", tools = [ring])]
struct Alerts;

#[toolkit]
struct Trip {
    travel: Travel,
    alerts: Alerts,
}

fn keys(value: &Value) -> Vec<&str> {
    value
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect()
}

/// Building and rendering a toolkit leaves a user's maps as serde_json makes them by
/// default: keys sorted, whatever the insertion or parsing order.
#[cfg(not(feature = "preserve_order"))]
#[test]
fn a_user_crate_s_map_stays_sorted() {
    let kit = Toolkit::new(Trip {
        travel: Travel,
        alerts: Alerts,
    });
    let _ = Rendered::new(&kit, Provider::OpenAiChat);
    let parsed: serde_json::Map<String, Value> =
        serde_json::from_str(r#"{"zeta": 1, "alpha": 2, "middle": 3}"#).expect("valid JSON");
    assert_eq!(
        parsed.keys().map(String::as_str).collect::<Vec<_>>(),
        ["alpha", "middle", "zeta"]
    );
    let mut built = serde_json::Map::new();
    built.insert("b".to_owned(), Value::Null);
    built.insert("a".to_owned(), Value::Null);
    assert_eq!(
        built.keys().map(String::as_str).collect::<Vec<_>>(),
        ["a", "b"]
    );
}

fn trip() -> Toolkit<Trip> {
    Toolkit::new(Trip {
        travel: Travel,
        alerts: Alerts,
    })
}

/// A tool's input schema in each provider's definition.
fn input_schema(provider: Provider, tool: &Value) -> &Value {
    match provider {
        Provider::Mcp => &tool["inputSchema"],
        Provider::OpenAiChat => &tool["function"]["parameters"],
        Provider::OpenAiResponses => &tool["parameters"],
        Provider::Gemini => &tool["parametersJsonSchema"],
        Provider::GeminiLegacy => &tool["parameters"],
        _ => &tool["input_schema"],
    }
}

/// Every tool of every provider's rendering, by name.
fn definitions(provider: Provider) -> Vec<(String, Value)> {
    let kit = trip();
    let all: Value =
        serde_json::from_str(&Rendered::new(&kit, provider).all_tools_json()).expect("JSON");
    let tools = match provider {
        Provider::Gemini | Provider::GeminiLegacy => all[0]["functionDeclarations"].clone(),
        _ => all,
    };
    tools
        .as_array()
        .expect("a list of tools")
        .iter()
        .map(|tool| {
            let name = tool["name"]
                .as_str()
                .or_else(|| tool["function"]["name"].as_str())
                .expect("a name");
            (name.to_owned(), tool.clone())
        })
        .collect()
}

fn strings(value: &Value) -> Vec<&str> {
    value
        .as_array()
        .expect("an array")
        .iter()
        .map(|v| v.as_str().expect("a string"))
        .collect()
}

/// With `preserve_order`, for every provider: schema properties follow the parameters, a
/// nested type's properties its fields, `reset_tools`'s properties the toolkit's groups, and
/// a `required` list (every property, under OpenAI strict mode) the same order.
#[cfg(feature = "preserve_order")]
#[test]
fn declaration_order_is_kept_with_the_feature() {
    for &provider in Provider::ALL {
        let tools = definitions(provider);
        let tool = |name: &str| {
            let (_, tool) = tools.iter().find(|(n, _)| n == name).expect("a tool");
            input_schema(provider, tool).clone()
        };
        let (book, price, reset) = (tool("book"), tool("price"), tool("reset_tools"));
        assert_eq!(
            keys(&book["properties"]),
            ["zeta", "alpha", "middle"],
            "{provider}"
        );
        assert_eq!(
            strings(&book["required"]),
            ["zeta", "alpha", "middle"],
            "{provider}"
        );
        assert_eq!(keys(&price["properties"]), ["stops", "party"], "{provider}");
        // The nested type, inlined or under `$defs`.
        let stop = match price["$defs"].get("Stop") {
            Some(defined) => defined.clone(),
            None => price["properties"]["stops"]["items"].clone(),
        };
        assert_eq!(keys(&stop["properties"]), ["town", "days"], "{provider}");
        assert_eq!(strings(&stop["required"]), ["town", "days"], "{provider}");
        assert_eq!(
            keys(&reset["properties"]),
            ["travel", "alerts"],
            "{provider}"
        );
        if let Some(required) = reset.get("required") {
            assert_eq!(strings(required), ["travel", "alerts"], "{provider}");
        }
    }
}

/// Without the feature every object's keys are sorted, in every provider's rendering; so is
/// OpenAI strict mode's `required`, which lists every property in the properties' order (the
/// goldens, written by this build, compare it as a set in a `preserve_order` build).
#[cfg(not(feature = "preserve_order"))]
#[test]
fn without_the_feature_keys_are_sorted() {
    for &provider in Provider::ALL {
        let tools = definitions(provider);
        let tool = |name: &str| {
            let (_, tool) = tools.iter().find(|(n, _)| n == name).expect("a tool");
            input_schema(provider, tool).clone()
        };
        let (book, price, reset) = (tool("book"), tool("price"), tool("reset_tools"));
        assert_eq!(
            keys(&book["properties"]),
            ["alpha", "middle", "zeta"],
            "{provider}"
        );
        let stop = match price["$defs"].get("Stop") {
            Some(defined) => defined.clone(),
            None => price["properties"]["stops"]["items"].clone(),
        };
        assert_eq!(keys(&stop["properties"]), ["days", "town"], "{provider}");
        assert_eq!(
            keys(&reset["properties"]),
            ["alerts", "travel"],
            "{provider}"
        );
        if matches!(provider, Provider::OpenAiChat | Provider::OpenAiResponses) {
            assert_eq!(
                strings(&book["required"]),
                ["alpha", "middle", "zeta"],
                "{provider}"
            );
        }
    }
}

/// With `preserve_order`, a tool's structured result and its MCP output schema follow the
/// output type's fields (the schema then admits a first use's `activated_group`).
#[cfg(feature = "preserve_order")]
#[tokio::test]
async fn a_structured_result_keeps_its_field_order_with_the_feature() {
    let kit = trip();
    let mut session = kit.session();
    session.activate(TripGroup::Travel);
    let result = kit
        .call(
            &mut session,
            "price",
            r#"{"stops": [{"town": "Oslo", "days": 2}], "party": 2}"#,
        )
        .await;
    assert!(!result.is_error, "{}", result.text_joined());
    let structured = result
        .structured_content
        .as_ref()
        .expect("a structured result");
    assert_eq!(keys(structured), ["total", "currency"]);
    let tools = definitions(Provider::Mcp);
    let (_, price) = tools.iter().find(|(n, _)| n == "price").expect("price");
    // The output type's fields, then the optional key a first use's activation takes.
    assert_eq!(
        keys(&price["outputSchema"]["properties"]),
        ["total", "currency", "activated_group"]
    );
}

/// Whatever the build, rendering is deterministic: the same toolkit renders the same text.
#[test]
fn renderings_are_deterministic() {
    let render = || {
        let kit = Toolkit::new(Trip {
            travel: Travel,
            alerts: Alerts,
        });
        Provider::ALL
            .iter()
            .map(|&p| Rendered::new(&kit, p).all_tools_json().into_owned())
            .collect::<Vec<_>>()
    };
    let first = render();
    assert_eq!(first, render());
    let book: Value = serde_json::from_str(&first[0]).expect("JSON");
    let properties = &book[1]["function"]["parameters"]["properties"];
    let mut names = keys(properties);
    names.sort_unstable();
    assert_eq!(names, ["alpha", "middle", "zeta"]);
}
