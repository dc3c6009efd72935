//! The texts and structured content a model reads after a `reset_tools` call.

use std::fmt::Write as _;

use serde_json::{Map, Value, json};

use crate::meta::GroupInfo;
use crate::registry::bit;
use crate::result::{CallResult, Content};
use crate::skill::SkillInfo;
use crate::skill::text;
use crate::suggest::{did_you_mean, list_names};

use super::parse::Problem;

/// The answer to a refused call: every problem, the real names, and the unchanged state.
pub(crate) fn refusal(
    problems: &[Problem],
    names: &[&'static str],
    active: &[&'static str],
) -> CallResult {
    let mut text = String::from("reset_tools refused; nothing changed.\n");
    let mut items = Vec::with_capacity(problems.len());
    for p in problems {
        let _ = match p {
            Problem::Malformed(detail) => {
                items.push(json!({"problem": "malformed_json", "detail": detail}));
                writeln!(text, "- the arguments are not valid JSON ({detail})")
            }
            Problem::NotObject(found) => {
                items.push(json!({"problem": "not_an_object", "found": found}));
                writeln!(
                    text,
                    "- the arguments must be a JSON object of group names to true/false, got {found}"
                )
            }
            Problem::Unknown(name) => {
                let shown = crate::echo::echo(name, 64);
                let suggestion = did_you_mean(name, names.iter().copied());
                items.push(
                    json!({"problem": "unknown_group", "name": shown, "did_you_mean": suggestion}),
                );
                match suggestion {
                    Some(s) => writeln!(text, "- unknown group `{shown}`: did you mean `{s}`?"),
                    None => writeln!(text, "- unknown group `{shown}`"),
                }
            }
            Problem::NotBool { slot, found } => {
                let group = names[*slot];
                items.push(json!({"problem": "not_boolean", "group": group, "found": found}));
                writeln!(text, "- `{group}` must be true or false, got {found}")
            }
            Problem::Duplicate { slot } => {
                let group = names[*slot];
                items.push(json!({"problem": "duplicate_group", "group": group}));
                writeln!(text, "- `{group}` is given more than once")
            }
        };
    }
    let _ = writeln!(
        text,
        "The groups are {}. Give each group's final state as true or false, for example {}.",
        list_names(names.iter().copied()),
        example(names)
    );
    text.push_str("Active groups (unchanged): ");
    push_list(&mut text, active);
    CallResult::new(vec![Content::text(text)])
        .with_structured(json!({
            "refused": true,
            "problems": items,
            "groups": names,
            "active": active,
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

/// The answer to an accepted call.
pub(crate) fn accepted(
    groups: &[GroupInfo],
    switchable: &[usize],
    old: &[u64],
    new: &[u64],
) -> CallResult {
    let n = switchable.len();
    let (mut active, mut activated, mut deactivated, mut kept) = (
        Vec::with_capacity(n),
        Vec::new(),
        Vec::new(),
        Vec::with_capacity(n),
    );
    for (slot, &g) in switchable.iter().enumerate() {
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
    // New groups' instructions; on a call that changes nothing, every active group's.
    let mut instructions = Vec::new();
    for (slot, &g) in switchable.iter().enumerate() {
        let shown = bit(new, slot) && (!changed || !bit(old, slot));
        let group = &groups[g];
        if let (true, Some(ins)) = (shown, group.instructions) {
            let _ = write!(text, "\n<group name=\"{}\">\n{}\n</group>", group.name, ins);
            instructions.push(json!({"group": group.name, "instructions": ins}));
        }
    }
    let mut structured = Map::with_capacity(6);
    structured.insert("active".to_owned(), names_value(&active));
    structured.insert("activated".to_owned(), names_value(&activated));
    structured.insert("deactivated".to_owned(), names_value(&deactivated));
    structured.insert("kept".to_owned(), names_value(&kept));
    structured.insert("changed".to_owned(), Value::Bool(changed));
    structured.insert("instructions".to_owned(), Value::Array(instructions));
    CallResult::new(vec![Content::text(text)]).with_structured(Value::Object(structured))
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
