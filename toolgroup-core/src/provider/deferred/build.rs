//! The stable tool array of each strategy, and the per-tool pieces a change is built from,
//! rendered once per toolkit and provider.

use serde_json::{Map, Value, json};

use super::{DeferredError, Strategy};
use crate::meta::ToolDefinition;
use crate::provider::render::Rendered;
use crate::registry::Registry;
use crate::toolkit::Toolkit;

/// One tool of the array.
pub(super) struct Piece {
    pub(super) name: &'static str,
    /// The tool's switchable slot (`None`: eager, `reset_tools` and basic tools).
    pub(super) slot: Option<usize>,
    /// The definition as the provider's list mode renders it.
    pub(super) json: Value,
}

/// What [`Deferred`](super::Deferred) renders once.
pub(super) struct Built {
    /// The request's `tools` (the application's own tools included).
    pub(super) tools: String,
    /// The application's own tools, sent eager after the toolkit's in every listing: their
    /// definitions, joined by commas (empty without any).
    pub(super) own_tools: String,
    /// Their allow-list entries, joined likewise.
    pub(super) own_allowed: String,
    pub(super) pieces: Vec<Piece>,
    /// Instructions of each switchable group, by slot.
    pub(super) instructions: Vec<(&'static str, Option<&'static str>)>,
    /// Whether the toolkit's principal may use each switchable group, by slot: a change
    /// never mentions the others (see `Toolkit::entitled`).
    pub(super) entitled: Vec<bool>,
}

pub(super) fn build<R: Registry>(
    toolkit: &Toolkit<R>,
    rendered: &Rendered<R>,
    strategy: Strategy,
    own: &[ToolDefinition],
) -> Result<Built, DeferredError> {
    for (n, def) in own.iter().enumerate() {
        let taken = toolkit.all_definitions().any(|d| d.name == def.name)
            || own[..n].iter().any(|d| d.name == def.name);
        if taken {
            return Err(DeferredError::NameTaken { name: def.name });
        }
    }
    let names = &toolkit.core.names.names;
    let all = rendered.all_tools_value();
    let instructions = R::SWITCHABLE
        .iter()
        .map(|&g| (R::GROUPS[g].name, R::GROUPS[g].instructions))
        .collect();
    let pieces: Vec<Piece> = match &all {
        Value::Array(defs) if !matches!(strategy, Strategy::Mask | Strategy::List) => toolkit
            .all_definitions()
            .zip(defs)
            .map(|(def, json)| Piece {
                name: def.name,
                slot: match (def.always_on, def.group) {
                    (false, Some(group)) => names.iter().position(|n| *n == group),
                    _ => None,
                },
                json: json.clone(),
            })
            .collect(),
        _ => Vec::new(),
    };
    let provider = rendered.provider();
    let total = rendered_len(toolkit) + own.len();
    if let Some(max) = provider.max_tools()
        && total > max
    {
        return Err(DeferredError::TooManyTools {
            provider,
            tools: total,
            max,
        });
    }
    let (own_tools, own_allowed) = rendered.render_own(own);
    let tools = match strategy {
        Strategy::AnthropicToolChanges | Strategy::AnthropicToolReferences => {
            if own_tools.is_empty() && pieces.iter().all(|p| p.slot.is_some()) {
                return Err(DeferredError::NoEagerTool);
            }
            let defs: Vec<Value> = pieces
                .iter()
                .map(|p| match p.slot {
                    None => p.json.clone(),
                    Some(_) => deferred(&p.json),
                })
                .collect();
            Value::Array(defs).to_string()
        }
        Strategy::ResponsesAdditionalTools => Value::Array(
            pieces
                .iter()
                .filter(|p| p.slot.is_none())
                .map(|p| p.json.clone())
                .collect(),
        )
        .to_string(),
        Strategy::ResponsesNamespaces => {
            let mut defs: Vec<Value> = pieces
                .iter()
                .filter(|p| p.slot.is_none())
                .map(|p| p.json.clone())
                .collect();
            for (slot, &g) in R::SWITCHABLE.iter().enumerate() {
                let group = &R::GROUPS[g];
                let functions: Vec<Value> = pieces
                    .iter()
                    .filter(|p| p.slot == Some(slot))
                    .map(|p| deferred(&p.json))
                    .collect();
                if functions.is_empty() {
                    continue;
                }
                defs.push(json!({
                    "type": "namespace",
                    "name": group.name,
                    "description": group.description,
                    "tools": functions,
                }));
            }
            defs.push(json!({ "type": "tool_search" }));
            Value::Array(defs).to_string()
        }
        Strategy::Mask => rendered.all_tools_json().into_owned(),
        Strategy::List => String::new(),
    };
    let tools = match strategy {
        Strategy::List => tools,
        _ => rendered.append_tools(tools, &own_tools),
    };
    let names = &toolkit.core.names;
    Ok(Built {
        tools,
        own_tools,
        own_allowed,
        pieces,
        instructions,
        entitled: (0..names.names.len()).map(|s| names.entitled(s)).collect(),
    })
}

fn rendered_len<R: Registry>(toolkit: &Toolkit<R>) -> usize {
    toolkit.all_definitions().count()
}

/// `definition` with `"defer_loading": true`.
fn deferred(definition: &Value) -> Value {
    let mut map: Map<String, Value> = definition.as_object().cloned().unwrap_or_default();
    map.insert("defer_loading".to_owned(), Value::Bool(true));
    Value::Object(map)
}
