//! The `reset_tools` meta tool: its definition, the parse of a call, and the answer to the
//! model. Everything `reset_tools` means lives here; the toolkit only routes calls to it.
//!
//! Semantics: the arguments are the *final* state of every group. The call is
//! validated completely before anything changes; every problem is reported at once; a refused
//! call changes nothing; an omitted group counts as `false`.

mod answer;
mod parse;

pub(crate) use answer::{Available, Disclose};

use serde_json::{Map, Value, json};

use crate::args::Arguments;
pub(crate) use crate::meta::RESET_TOOLS;
use crate::meta::{
    GroupInfo, RESET_TOOLS_DESCRIPTION, RESET_TOOLS_DESCRIPTION_MCP, TaskSupport, ToolAnnotations,
    ToolDefinition,
};
use crate::registry::{GroupId, Registry};
use crate::registry::{bit, set_bit};
use crate::result::{CallOutcome, CallResult};
use crate::scope::Scopes;
use crate::session::Session;
use crate::skill::table::Table;
use rustc_hash::FxHashMap;

/// The `reset_tools` definition of a registry, or `None` when it has no switchable group.
pub(crate) fn definition(groups: &[GroupInfo], switchable: &[usize]) -> Option<ToolDefinition> {
    (!switchable.is_empty()).then(|| ToolDefinition {
        name: RESET_TOOLS,
        description: RESET_TOOLS_DESCRIPTION,
        input_schema: schema(groups, switchable),
        output_schema: None,
        annotations: ToolAnnotations {
            read_only: Some(false),
            destructive: Some(false),
            idempotent: Some(true),
            open_world: Some(false),
        },
        task: TaskSupport::Forbidden,
        group: None,
        always_on: true,
        from_rust: true,
    })
}

/// The `reset_tools` input schema: one required boolean per switchable group, nothing else.
pub(crate) fn schema(groups: &[GroupInfo], switchable: &[usize]) -> Value {
    let mut properties = Map::new();
    let mut required = Vec::with_capacity(switchable.len());
    for &g in switchable {
        let group = &groups[g];
        properties.insert(
            group.name.to_owned(),
            json!({"type": "boolean", "description": group.description}),
        );
        required.push(Value::from(group.name));
    }
    json!({
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": false,
    })
}

/// The form of `reset_tools` MCP lists: no group `required` (a group left out becomes
/// inactive, as the toolkit reads it), with the description that says so. `None` for every
/// other definition. MCP has no strict mode to need every property required, and a client
/// that checks `required` itself would otherwise answer an incomplete call with a text of
/// its own instead of the toolkit's.
pub(crate) fn mcp_form(def: &ToolDefinition) -> Option<ToolDefinition> {
    if def.name != RESET_TOOLS || def.group.is_some() || !def.from_rust {
        return None;
    }
    let mut mcp = def.clone();
    mcp.description = RESET_TOOLS_DESCRIPTION_MCP;
    if let Value::Object(map) = &mut mcp.input_schema {
        map.remove("required");
    }
    Some(mcp)
}

/// The switchable groups' names in slot order, with a hash index from name to slot (a call
/// names every group, so a linear search per key would make parsing quadratic).
#[derive(Debug, Default, Clone)]
pub(crate) struct GroupNames {
    pub(crate) names: Vec<&'static str>,
    slots: FxHashMap<&'static str, usize>,
    /// In one principal's view, by slot: the scopes the principal lacks for the group (empty:
    /// entitled). `None` outside a view: every group is entitled.
    missing: Option<Vec<Scopes>>,
}

impl GroupNames {
    pub(crate) fn new(names: Vec<&'static str>) -> Self {
        let slots = names.iter().enumerate().map(|(i, n)| (*n, i)).collect();
        GroupNames {
            names,
            slots,
            missing: None,
        }
    }

    /// The same names in a view where the principal lacks `missing[slot]` for each group.
    pub(crate) fn restricted(&self, missing: Vec<Scopes>) -> Self {
        GroupNames {
            missing: Some(missing),
            ..self.clone()
        }
    }

    /// Whether the principal may use the group in slot `slot`.
    pub(crate) fn entitled(&self, slot: usize) -> bool {
        self.missing.as_ref().is_none_or(|m| m[slot].is_empty())
    }

    /// The scopes the principal lacks for the group in slot `slot`.
    pub(crate) fn missing(&self, slot: usize) -> Option<&Scopes> {
        self.missing.as_ref().map(|m| &m[slot])
    }

    /// The names of the groups the principal may use, in slot order.
    pub(crate) fn shown(&self) -> Vec<&'static str> {
        (0..self.names.len())
            .filter(|&slot| self.entitled(slot))
            .map(|slot| self.names[slot])
            .collect()
    }
}

/// The new state (if accepted) and the outcome label and answer of a `reset_tools` call,
/// given the old state. Nothing is applied: the caller does that.
pub(crate) fn answer<R: Registry>(
    names: &GroupNames,
    skills: &Table,
    disclose: &dyn Disclose,
    old: &R::Bits,
    arguments: Arguments<'_>,
) -> (Option<R::Bits>, CallResult) {
    match parse::parse(arguments, names, R::EMPTY) {
        Ok(mut bits) => {
            // Which skills were loaded is not a group's state: it outlives the call.
            skills.carry_marks(old.as_ref(), bits.as_mut());
            // A principal's call says nothing of the groups they may not use.
            for slot in (0..names.names.len()).filter(|&s| !names.entitled(s)) {
                set_bit(bits.as_mut(), slot, bit(old.as_ref(), slot));
            }
            let mut answer = answer::accepted(
                R::GROUPS,
                R::SWITCHABLE,
                names,
                old.as_ref(),
                bits.as_ref(),
                disclose,
            );
            if !skills.is_empty() {
                answer::add_skills(&mut answer, &skills.brought(old.as_ref(), bits.as_ref()));
            }
            (Some(bits), answer.labelled(CallOutcome::Ok))
        }
        Err(problems) => {
            let old = Session::<R>::from_bits(*old);
            let active: Vec<&'static str> = old
                .active()
                .filter(|g| names.entitled(g.slot()))
                .map(GroupId::name)
                .collect();
            let outcome = if problems
                .iter()
                .any(|p| matches!(p, parse::Problem::NotEntitled { .. }))
            {
                CallOutcome::InsufficientScope
            } else {
                CallOutcome::Refused
            };
            (
                None,
                answer::refusal(&problems, names, &active).labelled(outcome),
            )
        }
    }
}

/// Parse and apply a `reset_tools` call on `session`.
pub(crate) fn apply<R: Registry>(
    names: &GroupNames,
    skills: &Table,
    disclose: &dyn Disclose,
    session: &mut Session<R>,
    arguments: Arguments<'_>,
) -> CallResult {
    let (new, answer) = answer::<R>(names, skills, disclose, session.bits(), arguments);
    if let Some(new) = new {
        session.apply(new);
    }
    answer
}
