//! The rig tools of a toolkit: one tool handler per toolkit tool plus `reset_tools`, each
//! built once, each call run by `Toolkit::call` on the conversation attached to the run.

use std::sync::Arc;

use rig_agent::core::effect::{
    EffectKind, FamilyDescriptor, HandlerDescriptor, Outcome, family, tool_key,
};
use rig_agent::core::error::{ErrorKind, ErrorReport};
use rig_agent::core::serve::{Dispatch, Reply, Serve};
use rig_agent::core::tool::{ToolContext, ToolExecutionError, ToolResult};
use rig_agent::tool::RegisteredTool;
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
) -> Vec<RegisteredTool> {
    toolkit
        .all_definitions()
        .filter_map(|definition| {
            RegisteredTool::from_handler(ToolkitTool {
                toolkit: Arc::clone(toolkit),
                name: definition.name,
                description: definition.description,
                parameters: parameters(definition, provider),
            })
            // toolgroup's names are checked at compile time (never empty), which is all rig
            // checks here; a tool rig refused could not be called anyway.
            .ok()
        })
        .collect()
}

/// One toolkit tool as a rig tool handler. A rig `Serve` handler rather than a
/// `DynamicTool`: it receives the model's argument text as sent, which `Toolkit::call`
/// parses once into the tool's own argument type (a `DynamicTool` is handed a parsed
/// `serde_json::Value` first).
struct ToolkitTool<R: Registry> {
    toolkit: Arc<Toolkit<R>>,
    name: &'static str,
    description: &'static str,
    parameters: Value,
}

impl<R: Registry + 'static> Serve for ToolkitTool<R> {
    type Family = family::Tool;

    fn descriptor(&self) -> HandlerDescriptor {
        HandlerDescriptor {
            key: tool_key(self.name),
            family: FamilyDescriptor::Tool {
                name: self.name.to_owned(),
                description: self.description.to_owned(),
                parameters: self.parameters.clone(),
                embedding: None,
            },
            layers: Vec::new(),
        }
    }

    async fn serve(&self, kind: EffectKind, dispatch: Dispatch) -> Reply {
        let EffectKind::ToolCall { name, args } = kind else {
            return Reply::Outcome(Err(ErrorReport::new(
                ErrorKind::Internal,
                format!("the toolgroup tool `{}` serves tool calls only", self.name),
            )));
        };
        if name != self.name {
            // Key routing must never run a different tool than the one registered.
            return Reply::Outcome(Err(ErrorReport::new(
                ErrorKind::Internal,
                format!(
                    "the toolgroup tool `{}` was asked to run `{name}`",
                    self.name
                ),
            )));
        }
        let context = dispatch.scope::<ToolContext>();
        let shared = context.as_ref().and_then(|c| c.scope::<Shared<R>>());
        let result = match shared {
            None => ToolResult::failed(ToolExecutionError::other(NO_CONVERSATION)),
            Some(shared) => {
                let rig = context
                    .filter(|c| !c.is_empty())
                    .map(|c| RigContext(c.for_dispatch()));
                let result = shared
                    .call(&self.toolkit, self.name, args.as_str().into(), rig)
                    .await;
                match to_rig(result) {
                    Ok(output) => ToolResult::success(output),
                    Err(error) => ToolResult::failed(error),
                }
            }
        };
        Reply::Outcome(Ok(Outcome::ToolResult { result }))
    }
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
