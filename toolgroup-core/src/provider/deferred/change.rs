//! A change of the active groups, in each provider's own shape.

use std::fmt::Write as _;

use serde_json::{Value, json};

use super::build::{Built, Piece};
use super::{DeferredState, Strategy};
use crate::meta::RESET_TOOLS;
use crate::registry::{Registry, bit, set_bit};
use crate::result::CallResult;
use crate::session::Session;
use crate::toolkit::ToolCall;

/// One change of a conversation's active groups, as the provider receives it.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Change {
    /// The groups switched on, in declaration order.
    pub activated: Vec<&'static str>,
    /// The groups switched off, in declaration order.
    pub deactivated: Vec<&'static str>,
    /// What to append to the conversation after the turn's tool results: Anthropic's
    /// `{"role":"system"}` message of tool changes, OpenAI Responses' `additional_tools`
    /// item. Empty where the provider has no such message.
    pub messages: Vec<Value>,
    /// Anthropic without the beta: the `tool_reference` blocks that load the activated
    /// groups' tools, for the content of a tool result.
    pub references: Vec<Value>,
    /// The slots whose definitions this change gives the conversation.
    pub(super) loads: Vec<usize>,
}

/// The change from `state` to `session`, or `None` when they agree.
pub(super) fn between<R: Registry>(
    built: &Built,
    strategy: Strategy,
    state: &DeferredState<R>,
    session: &Session<R>,
) -> Option<Change> {
    let (old, new, loaded) = (
        state.active.bits().as_ref(),
        session.bits().as_ref(),
        state.loaded.bits().as_ref(),
    );
    let slots = built.instructions.len();
    let on: Vec<usize> = (0..slots)
        .filter(|&s| built.entitled[s] && !bit(old, s) && bit(new, s))
        .collect();
    let off: Vec<usize> = (0..slots)
        .filter(|&s| built.entitled[s] && bit(old, s) && !bit(new, s))
        .collect();
    if on.is_empty() && off.is_empty() {
        return None;
    }
    fn tools_of<'b>(built: &'b Built, slots: &'b [usize]) -> impl Iterator<Item = &'b Piece> {
        built
            .pieces
            .iter()
            .filter(move |p| p.slot.is_some_and(|s| slots.contains(&s)))
    }
    let unloaded: Vec<usize> = on.iter().copied().filter(|&s| !bit(loaded, s)).collect();
    let mut change = Change {
        activated: on.iter().map(|&s| built.instructions[s].0).collect(),
        deactivated: off.iter().map(|&s| built.instructions[s].0).collect(),
        messages: Vec::new(),
        references: Vec::new(),
        loads: Vec::new(),
    };
    match strategy {
        Strategy::AnthropicToolChanges => {
            let reference = |name: &str| json!({ "type": "tool_reference", "name": name });
            let mut blocks: Vec<Value> = tools_of(built, &off)
                .map(|p| json!({ "type": "tool_removal", "tool": reference(p.name) }))
                .collect();
            blocks.extend(
                tools_of(built, &on)
                    .map(|p| json!({ "type": "tool_addition", "tool": reference(p.name) })),
            );
            blocks.push(json!({ "type": "text", "text": announcement(built, &on, &off) }));
            change
                .messages
                .push(json!({ "role": "system", "content": blocks }));
            change.loads = on;
        }
        Strategy::AnthropicToolReferences => {
            change.references = tools_of(built, &unloaded)
                .map(|p| json!({ "type": "tool_reference", "tool_name": p.name }))
                .collect();
            change.loads = unloaded;
        }
        Strategy::ResponsesAdditionalTools => {
            let tools: Vec<Value> = tools_of(built, &unloaded).map(|p| p.json.clone()).collect();
            if !tools.is_empty() {
                change.messages.push(json!({
                    "type": "additional_tools",
                    "role": "developer",
                    "tools": tools,
                }));
            }
            change.loads = unloaded;
        }
        Strategy::ResponsesNamespaces | Strategy::Mask | Strategy::List => {}
    }
    Some(change)
}

/// Record the change's loaded groups.
pub(super) fn mark_loaded<R: Registry>(loaded: &mut Session<R>, change: &Change) {
    let mut bits = *loaded.bits();
    for &slot in &change.loads {
        set_bit(bits.as_mut(), slot, true);
    }
    loaded.apply(bits);
}

/// The system message's text: what changed, each group's tools, and the instructions of the
/// groups switched on.
fn announcement(built: &Built, on: &[usize], off: &[usize]) -> String {
    let mut text = String::from("The available tools changed.");
    for (label, slots) in [("Activated", on), ("Deactivated", off)] {
        if slots.is_empty() {
            continue;
        }
        let _ = write!(text, "\n{label}:");
        for &slot in slots {
            let tools: Vec<&str> = built
                .pieces
                .iter()
                .filter(|p| p.slot == Some(slot))
                .map(|p| p.name)
                .collect();
            let _ = write!(
                text,
                " {} ({});",
                built.instructions[slot].0,
                tools.join(", ")
            );
        }
        text.pop();
    }
    if !off.is_empty() {
        text.push_str("\nCalls of deactivated tools are refused; activate their group with reset_tools first.");
    }
    for &slot in on {
        if let (name, Some(instructions)) = built.instructions[slot] {
            let _ = write!(text, "\n<group name=\"{name}\">\n{instructions}\n</group>");
        }
    }
    text
}

/// Put `references` in the content of the Anthropic tool result of the turn's last accepted
/// `reset_tools` call (else its last result). `false` when the turn has no result to carry
/// them.
pub(super) fn attach_references(
    messages: &mut [Value],
    answered: &[(&ToolCall, &CallResult)],
    references: &[Value],
) -> bool {
    if references.is_empty() {
        return true;
    }
    let pairs = || answered.iter().copied();
    let Some(id) = pairs()
        .rfind(|(c, r)| c.tool == RESET_TOOLS && !r.is_error)
        .or_else(|| pairs().next_back())
        .and_then(|(c, _)| c.call_id.as_deref())
    else {
        return false;
    };
    let block = messages
        .iter_mut()
        .filter_map(|m| m.get_mut("content").and_then(Value::as_array_mut))
        .flatten()
        .find(|b| b["type"] == "tool_result" && b["tool_use_id"] == id);
    let Some(Value::Object(block)) = block else {
        return false;
    };
    let content = block
        .entry("content")
        .or_insert_with(|| Value::Array(Vec::new()));
    match content {
        Value::Array(blocks) => {
            blocks.extend(references.iter().cloned());
            true
        }
        _ => false,
    }
}
