//! What the OpenAI Responses API sends back with a function call, for the scripted models
//! of the `deferred` example, the token benchmark and the provider tests (one copy).

use serde_json::Value;

/// The namespace of the function `name` in an OpenAI Responses `request`: its own name when
/// an `additional_tools` item of the input appended it, the namespace's name when it is
/// inside a `namespace` tool, none for a function of the top-level `tools`.
pub fn responses_namespace(request: &Value, name: &str) -> Option<String> {
    let defines = |tool: &Value| tool["type"] == "function" && tool["name"] == name;
    let namespaced = |tools: &Value| {
        tools.as_array().into_iter().flatten().find_map(|tool| {
            let inside = tool["type"] == "namespace"
                && tool["tools"].as_array().into_iter().flatten().any(defines);
            inside.then(|| {
                tool["name"]
                    .as_str()
                    .expect("a namespace's name")
                    .to_owned()
            })
        })
    };
    let appended = request["input"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|item| item["type"] == "additional_tools")
        .find_map(|item| {
            if item["tools"].as_array().into_iter().flatten().any(defines) {
                Some(name.to_owned())
            } else {
                namespaced(&item["tools"])
            }
        });
    appended.or_else(|| namespaced(&request["tools"]))
}
