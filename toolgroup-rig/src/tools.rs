//! The rig tools of a toolkit: one `DynamicTool` per toolkit tool plus `reset_tools`, each
//! built once, each call run by `Toolkit::call` on the conversation attached to the run.

use std::sync::Arc;

use rig_agent::core::message::ToolName;
use rig_agent::core::tool::{DynamicTool, ToolContext, ToolExecutionError};
use serde_json::Value;
use toolgroup::provider::Provider;
use toolgroup::registry::Registry;
use toolgroup::{ToolDefinition, Toolkit};

use crate::output::to_rig;
use crate::state::Shared;

/// What a tool answers when the run carries no conversation of its toolkit.
pub(crate) const NO_CONVERSATION: &str = "this tool belongs to a toolgroup toolkit, and this rig run has no conversation of that toolkit attached: start the run with `Conversation::prompt` or `Conversation::attach`";

/// rig's own per-call data (the run's `ToolContext` values), given to toolgroup tools as an
/// extension: a tool takes `Extension<RigContext>` and reads it with rig's
/// [`ToolContext::get`].
///
/// It is there whenever the run's tool context holds values (set with
/// `AgentRunner::tool_context`, or through [`Conversation::attach_with`](crate::Conversation::attach_with));
/// a call without any has no `RigContext`, and a tool that needs one answers an error
/// naming the type.
#[derive(Debug, Clone)]
pub struct RigContext(pub ToolContext);

/// The toolkit's definitions as rig tools, in the toolkit's stable listing order.
pub(crate) fn rig_tools<R: Registry + 'static>(
    toolkit: &Arc<Toolkit<R>>,
    provider: Option<Provider>,
) -> Vec<DynamicTool> {
    toolkit
        .all_definitions()
        .filter_map(|definition| rig_tool(toolkit, definition, provider))
        .collect()
}

fn rig_tool<R: Registry + 'static>(
    toolkit: &Arc<Toolkit<R>>,
    definition: &ToolDefinition,
    provider: Option<Provider>,
) -> Option<DynamicTool> {
    // toolgroup's names are checked at compile time (never empty); a name rig refused
    // could not be called anyway.
    let rig_name = ToolName::new(definition.name).ok()?;
    let name: &'static str = definition.name;
    let kit = Arc::clone(toolkit);
    Some(DynamicTool::new_with_context(
        rig_name,
        definition.description,
        parameters(definition, provider),
        move |context: &mut ToolContext, arguments: Value| {
            let kit = Arc::clone(&kit);
            let shared = context.scope::<Shared<R>>();
            let rig = (!context.is_empty()).then(|| RigContext(context.for_dispatch()));
            Box::pin(async move {
                let Some(shared) = shared else {
                    return Err(ToolExecutionError::other(NO_CONVERSATION));
                };
                to_rig(shared.call(&kit, name, (&arguments).into(), rig).await)
            })
        },
    ))
}

/// The arguments' schema as toolgroup renders it for `provider` (its strict-mode rewrite
/// where the tool can be strict), or the canonical schema.
fn parameters(definition: &ToolDefinition, provider: Option<Provider>) -> Value {
    let Some(provider) = provider else {
        return definition.input_schema.clone();
    };
    let rendered = provider.render_definition(definition);
    let schema = match provider {
        Provider::OpenAiChat => rendered.pointer("/function/parameters"),
        Provider::OpenAiResponses | Provider::GeminiLegacy => rendered.get("parameters"),
        Provider::Anthropic | Provider::AnthropicStrict => rendered.get("input_schema"),
        Provider::Gemini => rendered.get("parametersJsonSchema"),
        Provider::Mcp => rendered.get("inputSchema"),
        // A provider added to toolgroup later: its canonical schema.
        _ => None,
    };
    // A tool without parameters declares none for some providers (Gemini); rig wants a
    // schema, and the canonical one says the same.
    schema
        .cloned()
        .unwrap_or_else(|| definition.input_schema.clone())
}
