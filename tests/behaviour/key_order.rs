//! JSON key order: `toolgroup` must not change the `serde_json::Map` of the crates it is
//! built with (serde_json's `preserve_order` is opt-in, behind toolgroup's own
//! `preserve_order` feature), and with that feature definitions keep declaration order.

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

#[tool_group(name = "travel", description = "Travel.", tools = [book])]
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

/// With `preserve_order`, schema properties follow the parameters and `reset_tools` the
/// toolkit's groups.
#[cfg(feature = "preserve_order")]
#[test]
fn declaration_order_is_kept_with_the_feature() {
    let kit = Toolkit::new(Trip {
        travel: Travel,
        alerts: Alerts,
    });
    let rendered = Rendered::new(&kit, Provider::Mcp);
    let tool = |name: &str| -> Value {
        serde_json::from_str(rendered.get(name).expect("a tool").json.get()).expect("JSON")
    };
    assert_eq!(
        keys(&tool("book")["inputSchema"]["properties"]),
        ["zeta", "alpha", "middle"]
    );
    assert_eq!(
        keys(&tool("reset_tools")["inputSchema"]["properties"]),
        ["travel", "alerts"]
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
            .map(|&p| Rendered::new(&kit, p).all_tools_json(&kit).into_owned())
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
