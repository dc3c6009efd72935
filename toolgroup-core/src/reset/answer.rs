//! The texts and structured content a model reads after a `reset_tools` call.

use std::fmt::Write as _;

use serde_json::{Map, Value, json};

use crate::meta::GroupInfo;
use crate::registry::bit;
use crate::result::{CallResult, Content};
use crate::skill::SkillInfo;
use crate::skill::text;
use crate::suggest::{did_you_mean, list_names};

use super::GroupNames;
use super::parse::Problem;

/// The answer to a refused call: every problem, the real names, and the unchanged state.
/// Each problem's `message` in the structured content is its line of the text, so a client
/// that shows the model only one of them (pydantic-ai shows the structured content) shows
/// the whole refusal.
pub(crate) fn refusal(
    problems: &[Problem],
    groups: &GroupNames,
    active: &[&'static str],
) -> CallResult {
    // Only the groups the principal may use: a suggestion or a list must not disclose others.
    let shown = groups.shown();
    let names = &shown[..];
    let all = &groups.names;
    let mut text = String::from("reset_tools refused; nothing changed.\n");
    let mut items = Vec::with_capacity(problems.len());
    for p in problems {
        let (message, mut item) = match p {
            Problem::Malformed(detail) => (
                format!("the arguments are not valid JSON ({detail})"),
                json!({"problem": "malformed_json", "detail": detail}),
            ),
            Problem::NotObject(found) => (
                format!(
                    "the arguments must be a JSON object of group names to true/false, got {found}"
                ),
                json!({"problem": "not_an_object", "found": found}),
            ),
            Problem::Unknown(name) => {
                let shown = crate::echo::echo(name, 64);
                let suggestion = did_you_mean(name, names.iter().copied());
                let message = match suggestion {
                    Some(s) => format!("unknown group `{shown}`: did you mean `{s}`?"),
                    None => format!("unknown group `{shown}`"),
                };
                (
                    message,
                    json!({"problem": "unknown_group", "name": shown, "did_you_mean": suggestion}),
                )
            }
            Problem::NotBool { slot, found } => {
                let group = all[*slot];
                (
                    format!("`{group}` must be true or false, got {found}"),
                    json!({"problem": "not_boolean", "group": group, "found": found}),
                )
            }
            Problem::Duplicate { slot } => {
                let group = all[*slot];
                (
                    format!("`{group}` is given more than once"),
                    json!({"problem": "duplicate_group", "group": group}),
                )
            }
            Problem::NotEntitled { slot } => {
                let group = all[*slot];
                let missing = groups.missing(*slot).cloned().unwrap_or_default();
                let list: Vec<String> = missing.iter().map(|s| format!("`{s}`")).collect();
                let plural = if missing.len() == 1 { "" } else { "s" };
                (
                    format!(
                        "`{group}` requires the scope{plural} {}, which the user has not been granted: leave it out",
                        list.join(", ")
                    ),
                    json!({
                        "problem": "insufficient_scope",
                        "group": group,
                        "missing_scopes": missing.iter().collect::<Vec<_>>(),
                    }),
                )
            }
        };
        let _ = writeln!(text, "- {message}");
        if let Value::Object(map) = &mut item {
            map.insert("message".to_owned(), Value::String(message));
        }
        items.push(item);
    }
    let example = example(names);
    let _ = writeln!(
        text,
        "The groups are {}. Give each group's final state as true or false, for example {}.",
        list_names(names.iter().copied()),
        example
    );
    text.push_str("Active groups (unchanged): ");
    push_list(&mut text, active);
    CallResult::new(vec![Content::text(text)])
        .with_structured(json!({
            "refused": true,
            "problems": items,
            "groups": names,
            "active": active,
            "example": example,
        }))
        .into_error()
}

fn example(names: &[&str]) -> String {
    let mut out = String::from("{");
    for (i, n) in names.iter().take(3).enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "\"{n}\": {}", i == 0);
    }
    if names.len() > 3 {
        out.push_str(", ...");
    }
    out.push('}');
    out
}

/// The answer to an accepted call. Written for a model to read in either form (clients
/// such as Claude Code and Codex pass on the structured content, not the text): what is
/// active now, what changed, and for each group the call made available its tools and
/// instructions.
pub(crate) fn accepted(
    groups: &[GroupInfo],
    switchable: &[usize],
    names: &GroupNames,
    old: &[u64],
    new: &[u64],
    disclose: &dyn Disclose,
) -> CallResult {
    let n = switchable.len();
    let (mut active, mut activated, mut deactivated, mut kept) = (
        Vec::with_capacity(n),
        Vec::new(),
        Vec::new(),
        Vec::with_capacity(n),
    );
    for (slot, &g) in switchable.iter().enumerate() {
        if !names.entitled(slot) {
            continue;
        }
        let name = groups[g].name;
        match (bit(old, slot), bit(new, slot)) {
            (false, true) => {
                activated.push(name);
                active.push(name);
            }
            (true, true) => {
                kept.push(name);
                active.push(name);
            }
            (true, false) => deactivated.push(name),
            (false, false) => {}
        }
    }
    let changed = !activated.is_empty() || !deactivated.is_empty();
    let mut text = String::with_capacity(64 + 24 * n);
    if !changed {
        text.push_str("No change.\n");
    }
    for (label, list) in [
        ("Active groups: ", &active),
        ("\nActivated: ", &activated),
        ("\nDeactivated: ", &deactivated),
        ("\nKept: ", &kept),
    ] {
        text.push_str(label);
        push_list(&mut text, list);
    }
    // The newly active groups; on a call that changes nothing, every active group (a model
    // that asks for the state it has has likely lost what it was told).
    let mut available = Vec::new();
    for (slot, &g) in switchable.iter().enumerate() {
        if names.entitled(slot) && bit(new, slot) && (!changed || !bit(old, slot)) {
            let entry = Available::of(&groups[g], g, disclose);
            entry.write(&mut text);
            available.push(entry.to_json());
        }
    }
    let mut structured = Map::with_capacity(6);
    structured.insert("changed".to_owned(), Value::Bool(changed));
    structured.insert("active".to_owned(), names_value(&active));
    structured.insert("activated".to_owned(), names_value(&activated));
    structured.insert("deactivated".to_owned(), names_value(&deactivated));
    structured.insert("kept".to_owned(), names_value(&kept));
    structured.insert("available".to_owned(), Value::Array(available));
    CallResult::new(vec![Content::text(text)]).with_structured(Value::Object(structured))
}

/// What the answer says about one group that became available: its tools and instructions.
pub(crate) struct Available {
    group: &'static str,
    tools: Vec<&'static str>,
    instructions: Option<String>,
}

impl Available {
    /// The group `g` (an index into the registry's groups), as `disclose` sees it now.
    pub(crate) fn of(info: &GroupInfo, g: usize, disclose: &dyn Disclose) -> Self {
        let instructions = match (info.instructions, disclose.source_instructions(g)) {
            (Some(own), Some(more)) => Some(format!("{own}\n\n{more}")),
            (Some(own), None) => Some(own.to_owned()),
            (None, more) => more,
        };
        Available {
            group: info.name,
            tools: disclose.tools(g),
            instructions,
        }
    }

    /// The group's name.
    pub(crate) fn group(&self) -> &'static str {
        self.group
    }

    /// The text block: `<group name="...">`, the tools, the instructions, `</group>`.
    pub(crate) fn write(&self, text: &mut String) {
        let _ = write!(text, "\n<group name=\"{}\">\nTools: ", self.group);
        push_list(text, &self.tools);
        text.push('.');
        if let Some(instructions) = &self.instructions {
            text.push('\n');
            text.push_str(instructions);
        }
        text.push_str("\n</group>");
    }

    /// `{"group", "tools", "instructions"}` (no `instructions` when the group has none).
    pub(crate) fn to_json(&self) -> Value {
        let mut entry = Map::with_capacity(3);
        entry.insert("group".to_owned(), Value::from(self.group));
        entry.insert("tools".to_owned(), names_value(&self.tools));
        if let Some(instructions) = &self.instructions {
            entry.insert(
                "instructions".to_owned(),
                Value::from(instructions.as_str()),
            );
        }
        Value::Object(entry)
    }
}

/// What only the toolkit knows about a group: the tools it has now (those found at run time
/// included) and what its run-time source adds to its instructions.
pub(crate) trait Disclose {
    /// The group's tools the model may call once it is active, in listing order.
    fn tools(&self, group: usize) -> Vec<&'static str>;
    /// Instructions the group's run-time source adds, if any.
    fn source_instructions(&self, group: usize) -> Option<String>;
}

/// The skills the newly active groups bring, after their instructions (text and
/// structured content), so a system prompt need not be rewritten to disclose them.
pub(crate) fn add_skills(answer: &mut CallResult, brought: &[&SkillInfo]) {
    if let Some(block) = text::reset_block(brought)
        && let Some(Content::Text { text, .. }) = answer.content.first_mut()
    {
        text.push('\n');
        text.push_str(&block);
    }
    if let Some(Value::Object(map)) = &mut answer.structured_content {
        map.insert("skills".to_owned(), text::reset_structured(brought));
    }
}

/// `a, b, c` (or `none`), as plain words: the answer's lists.
fn push_list(text: &mut String, names: &[&str]) {
    if names.is_empty() {
        text.push_str("none");
    }
    for (i, name) in names.iter().enumerate() {
        if i > 0 {
            text.push_str(", ");
        }
        text.push_str(name);
    }
}

fn names_value(names: &[&str]) -> Value {
    Value::Array(
        names
            .iter()
            .map(|n| Value::String((*n).to_owned()))
            .collect(),
    )
}
