//! Reading schemas, names and strictness back out of rendered definitions, and the calls the
//! tests send.

use super::*;

/// A schema found in a rendered definition.
pub struct Found {
    pub tool: String,
    /// `parameters`, `inputSchema`, `outputSchema`...
    pub field: &'static str,
    pub schema: Value,
    /// Whether the definition marks it strict.
    pub strict: bool,
}

/// Every schema of every definition in a tools array of `provider`.
pub fn schemas_of(provider: Provider, tools: &Value) -> Vec<Found> {
    let defs: Vec<Value> = match provider {
        Provider::Gemini | Provider::GeminiLegacy => match tools.as_array().and_then(|a| a.first())
        {
            Some(wrapper) => wrapper["functionDeclarations"]
                .as_array()
                .expect("declarations")
                .clone(),
            None => Vec::new(),
        },
        _ => tools.as_array().expect("a list of tools").clone(),
    };
    let mut out = Vec::new();
    for def in &defs {
        let (tool, fields, strict): (&Value, &[&'static str], bool) = match provider {
            Provider::OpenAiChat => (
                &def["function"],
                &["parameters"],
                def["function"]["strict"] == true,
            ),
            Provider::OpenAiResponses => (def, &["parameters"], def["strict"] == true),
            Provider::Anthropic | Provider::AnthropicStrict => (
                def,
                &["input_schema"],
                def.get("strict") == Some(&json!(true)),
            ),
            Provider::Gemini => (def, &["parametersJsonSchema"], false),
            Provider::GeminiLegacy => (def, &["parameters"], false),
            Provider::Mcp => (def, &["inputSchema", "outputSchema"], false),
            other => panic!("no reader for {other}"),
        };
        for field in fields {
            if let Some(schema) = tool.get(*field) {
                out.push(Found {
                    tool: tool["name"].as_str().expect("a name").to_owned(),
                    field,
                    schema: schema.clone(),
                    strict: strict && *field != "outputSchema",
                });
            }
        }
    }
    out
}

pub fn strictness_table<R: Registry>(rendered: &Rendered<R>) -> Vec<(&'static str, String)> {
    rendered
        .entries()
        .map(|e| {
            let s = match e.strictness {
                Strictness::Strict => "strict".to_owned(),
                Strictness::NotApplicable => "-".to_owned(),
                Strictness::Fallback(why) => format!("fallback: {why}"),
                other => panic!("a new kind of strictness: {other:?}"),
            };
            (e.name, s)
        })
        .collect()
}

/// One rendered definition, parsed.
pub fn definition<R: Registry>(rendered: &Rendered<R>, name: &str) -> Value {
    let tool = rendered
        .get(name)
        .unwrap_or_else(|| panic!("no tool `{name}`"));
    serde_json::from_str(tool.json.get()).expect("valid JSON")
}

/// Every schema a provider rendering contains, canonical schemas included.
pub fn every_schema() -> Vec<(String, Value)> {
    let mut out = Vec::new();
    let kit = kit();
    let zoo = zoo::kit();
    for definition in kit.all_definitions().chain(zoo.all_definitions()) {
        out.push((
            format!("canonical {}", definition.name),
            definition.input_schema.clone(),
        ));
        if let Some(output) = &definition.output_schema {
            out.push((
                format!("canonical output {}", definition.name),
                output.clone(),
            ));
        }
    }
    for provider in Provider::ALL {
        for listing in [
            Rendered::new(&kit, *provider).all_tools_value(),
            Rendered::new(&zoo, *provider).all_tools_value(),
        ] {
            for found in schemas_of(*provider, &listing) {
                out.push((
                    format!("{provider} {} {}", found.tool, found.field),
                    found.schema,
                ));
            }
        }
    }
    out
}

pub fn names_in(provider: Provider, tools: &Value) -> Vec<String> {
    let definitions = match provider {
        Provider::Gemini | Provider::GeminiLegacy => &tools[0]["functionDeclarations"],
        _ => tools,
    };
    let name = |d: &Value| {
        d.get("function").unwrap_or(d)["name"]
            .as_str()
            .expect("a name")
            .to_owned()
    };
    definitions
        .as_array()
        .expect("a list")
        .iter()
        .map(name)
        .collect()
}
pub fn text_call(id: &str, name: &str, arguments: &str) -> ToolCall {
    ToolCall::new(name, arguments).with_call_id(id)
}
pub async fn run(
    kit: &Toolkit<Kit>,
    session: &mut Session<Kit>,
    calls: &[ToolCall],
) -> Vec<CallResult> {
    kit.call_batch(session, calls).await
}
