//! Before anything is timed: every side of each benchmark computes the same thing.
//! (No timing here.)

use serde_json::{Value, json};
use toolgroup_bench::*;

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime")
}

/// The JSON of a complete rmcp result.
fn complete(response: rmcp::model::CallToolResponse) -> Value {
    match response {
        rmcp::model::CallToolResponse::Complete(result) => serde_json::to_value(result).unwrap(),
        _ => panic!("not a complete result"),
    }
}

#[test]
fn call_sides_agree() {
    let rt = runtime();
    let (kit, mut session) = ours_call_setup();
    let ours = rt.block_on(kit.call(&mut session, "add", ADD_ARGS));
    let baseline = baseline_call(ADD_ARGS);
    assert!(!ours.is_error, "{}", ours.text_joined());
    assert_eq!(ours, baseline);
    assert_eq!(
        ours.structured_content,
        Some(json!({"label": "answer", "sum": 42}))
    );

    let peer = rt.block_on(async { rmcp_peer() });
    let router = RmcpCalc::tool_router();
    for response in [
        rt.block_on(rmcp_call(&router, &RmcpCalc, &peer, ADD_ARGS)),
        rt.block_on(rmcp_default_handler_call(&RmcpCalc, &peer, ADD_ARGS)),
    ] {
        let response = complete(response.expect("rmcp call"));
        assert_eq!(
            response["structuredContent"],
            json!({"label": "answer", "sum": 42})
        );
        assert_eq!(
            response["content"][0]["text"],
            ours.content[0].as_text().unwrap()
        );
    }
}

#[test]
fn cheap_call_sides_agree() {
    let rt = runtime();
    let (kit, mut session) = ours_cheap_setup();
    let ours = rt.block_on(kit.call(&mut session, "forecast", FORECAST_ARGS));
    assert!(!ours.is_error, "{}", ours.text_joined());
    assert_eq!(ours.text_joined(), "Paris: 21 C");
    assert_eq!(ours, baseline_cheap_call("forecast", FORECAST_ARGS));
    assert!(
        baseline_cheap_call("forecast", r#"{"city":"x","days":1,"metric":true,"y":1}"#).is_error
    );
    assert!(
        rt.block_on(kit.call(
            &mut session,
            "forecast",
            r#"{"city":"x","days":1,"metric":true,"y":1}"#
        ))
        .is_error
    );
}

#[test]
fn cheap_sides_agree_on_every_tool() {
    let rt = runtime();
    let (kit, mut session) = ours_cheap_setup();
    let names: Vec<&'static str> = kit
        .definitions(&session)
        .map(|d| d.name)
        .filter(|&n| n != toolgroup::meta::RESET_TOOLS)
        .collect();
    assert_eq!(names.len(), 20, "{names:?}");
    for name in names {
        let arguments = if name == "forecast" {
            r#"{"city":"Oslo","days":5,"metric":false}"#
        } else {
            r#"{"x":42}"#
        };
        let ours = rt.block_on(kit.call(&mut session, name, arguments));
        assert!(!ours.is_error, "{name}: {}", ours.text_joined());
        assert_eq!(ours, baseline_cheap_call(name, arguments), "{name}");
        // The same arguments with an unknown field.
        let bad = format!("{},\"y\":1}}", &arguments[..arguments.len() - 1]);
        let bad = bad.as_str();
        assert!(
            rt.block_on(kit.call(&mut session, name, bad)).is_error,
            "{name}"
        );
        assert!(baseline_cheap_call(name, bad).is_error, "{name}");
    }
}

#[test]
fn call_sides_refuse_unknown_fields() {
    let rt = runtime();
    let bad = r#"{"a": 1, "b": 2, "label": "x", "c": 3}"#;
    let (kit, mut session) = ours_call_setup();
    assert!(rt.block_on(kit.call(&mut session, "add", bad)).is_error);
    assert!(baseline_call(bad).is_error);
    let peer = rt.block_on(async { rmcp_peer() });
    let response = rt
        .block_on(rmcp_call(&RmcpCalc::tool_router(), &RmcpCalc, &peer, bad))
        .expect("an error result, not a protocol error");
    assert_eq!(complete(response)["isError"], true);
}

#[test]
fn list_sides_show_the_same_tools() {
    let (kit, session) = ours_big_setup();
    let rendered = ours_rendered(&kit);
    let serialised: Value = serde_json::from_str(&ours_list_serialised(&kit, &session)).unwrap();
    let ours: Value = serde_json::from_str(&ours_list_openai_chat(&rendered, &session)).unwrap();
    let names = |v: &Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|t| t["function"]["name"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(names(&ours), names(&serialised));
    let ours = ours.as_array().unwrap();
    assert_eq!(ours.len(), 101, "reset_tools and 5 groups of 20");
    assert_eq!(ours[0]["function"]["name"], "reset_tools");
    assert_eq!(ours[0]["type"], "function");
    let mut ours_names: Vec<&str> = ours[1..]
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap())
        .collect();

    let rmcp: Value = serde_json::from_str(&rmcp_list(&rmcp_big_router())).unwrap();
    let rmcp_names: Vec<&str> = rmcp["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    ours_names.sort_unstable();
    assert_eq!(ours_names, rmcp_names);
    assert_eq!(ours_names[0], "t0000");
    assert_eq!(ours_names[20], "t0200");

    // Same descriptions and argument descriptions on both sides.
    let rmcp_t0200 = &rmcp["tools"][20];
    let ours_t0200 = ours
        .iter()
        .find(|t| t["function"]["name"] == "t0200")
        .unwrap();
    assert_eq!(
        rmcp_t0200["description"],
        ours_t0200["function"]["description"]
    );
    for field in ["query", "limit"] {
        assert_eq!(
            rmcp_t0200["inputSchema"]["properties"][field]["description"],
            ours_t0200["function"]["parameters"]["properties"][field]["description"]
        );
    }
}

#[test]
fn reset_is_accepted_and_the_floor_sees_every_group() {
    let rt = runtime();
    let (kit, mut session) = ours_big_setup();
    let arguments = reset_arguments();
    let result = rt.block_on(kit.call(&mut session, "reset_tools", arguments.as_str()));
    assert!(!result.is_error, "{}", result.text_joined());
    let active: Vec<&str> = session.active_names().collect();
    assert_eq!(active, ["g05", "g06", "g07", "g08", "g09"]);
    let structured = result.structured_content.unwrap();
    assert_eq!(
        structured["deactivated"],
        json!(["g00", "g10", "g20", "g30", "g40"])
    );

    let floor = reset_floor(&arguments);
    assert_eq!(floor.len(), 50);
    assert_eq!(floor.values().filter(|on| **on).count(), 5);
}
