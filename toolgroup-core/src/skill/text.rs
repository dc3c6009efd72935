//! What the model reads of skills: the two builtin tools' definitions, their answers, the
//! `<agent-skills>` catalog, and the skills block of a `reset_tools` answer.

use std::fmt::Write as _;

use serde_json::{Value, json};

use super::info::{READ_SKILL_FILE, SKILL_TOOL, SkillFile, SkillInfo};
use crate::echo::echo;
use crate::meta::{ToolAnnotations, ToolDefinition};
use crate::result::{CallResult, Content, ResourceContents};
use crate::suggest::{did_you_mean, list_names};

/// `Skill`'s description.
pub(crate) const SKILL_DESCRIPTION: &str = "Load a skill: returns its instructions and the paths of its files (read them with `read_skill_file`). Load a skill before a task it covers; the skills of the active groups are listed in the `reset_tools` answers.";

/// `read_skill_file`'s description.
pub(crate) const READ_SKILL_FILE_DESCRIPTION: &str = "Read one file of a skill, named `<skill>/<path>` as the skill's instructions list it: text comes back as text, images as images.";

/// The sentence of the `<agent-skills>` catalog (AgentScope's wording, with our tool names).
pub(crate) const CATALOG_NOTE: &str = "**IMPORTANT**: Skills are NOT tools. Do not call a skill by its name: load it with the `Skill` tool (`{\"skill\": \"<name>\"}`), then follow its instructions.";

/// Markup escaped (`&`, `<`, `>`, `"`), so a description cannot close the block it sits in.
pub(crate) fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
    out
}

/// A name the model sent, safe to repeat: control characters and markup escaped, capped.
pub(crate) fn echo_name(name: &str) -> String {
    escape(&echo(name, 64))
}

/// The `Skill` definition for these skills (`None` when there are none).
pub(crate) fn skill_definition(skills: &[&SkillInfo], activates: bool) -> Option<ToolDefinition> {
    if skills.is_empty() {
        return None;
    }
    let names: Vec<&str> = skills.iter().map(|s| s.name).collect();
    Some(ToolDefinition::builtin(
        SKILL_TOOL,
        SKILL_DESCRIPTION,
        json!({
            "type": "object",
            "properties": {
                "skill": {
                    "type": "string",
                    "enum": names,
                    "description": "The skill to load.",
                }
            },
            "required": ["skill"],
            "additionalProperties": false,
        }),
        ToolAnnotations {
            // Under the activation policy a load may activate a group.
            read_only: Some(!activates),
            destructive: Some(false),
            // A second load answers that the skill is already loaded.
            idempotent: Some(false),
            open_world: Some(false),
        },
    ))
}

/// The `read_skill_file` definition for these skills' files (`None` when they have none).
pub(crate) fn read_file_definition(skills: &[&SkillInfo]) -> Option<ToolDefinition> {
    let paths: Vec<String> = skills
        .iter()
        .flat_map(|s| s.resources().map(move |f| format!("{}/{}", s.name, f.path)))
        .collect();
    if paths.is_empty() {
        return None;
    }
    Some(ToolDefinition::builtin(
        READ_SKILL_FILE,
        READ_SKILL_FILE_DESCRIPTION,
        json!({
            "type": "object",
            "properties": {
                "path": {
                    "type": "string",
                    "enum": paths,
                    "description": "The file, as `<skill>/<path inside the skill>`.",
                }
            },
            "required": ["path"],
            "additionalProperties": false,
        }),
        ToolAnnotations {
            read_only: Some(true),
            destructive: Some(false),
            idempotent: Some(true),
            open_world: Some(false),
        },
    ))
}

/// The answer to a load: the body, then the files by path (never their contents).
pub(crate) fn loaded(skill: &SkillInfo) -> CallResult {
    let mut text = format!(
        "<skill_content name=\"{}\">\n{}\n</skill_content>",
        skill.name,
        skill.body().trim_end_matches('\n')
    );
    let files: Vec<Value> = skill
        .resources()
        .map(|f| json!({"path": format!("{}/{}", skill.name, f.path), "size": f.size(), "mime_type": f.mime}))
        .collect();
    if !files.is_empty() {
        text.push_str("\nThe skill's files (read one with `read_skill_file`):");
        for f in skill.resources() {
            let _ = write!(
                text,
                "\n- {}/{} ({}, {} bytes)",
                skill.name,
                f.path,
                f.mime,
                f.size()
            );
        }
    }
    CallResult::new(vec![Content::text(text)]).with_structured(json!({
        "skill": skill.name,
        "group": skill.group,
        "files": files,
    }))
}

/// The answer to a second load of the same skill in a session.
pub(crate) fn already_loaded(skill: &SkillInfo) -> CallResult {
    CallResult::new(vec![Content::text(format!(
            "The skill `{}` is already loaded in this conversation: follow the instructions in the earlier `Skill` answer.",
            skill.name
        ))]).with_structured(json!({
            "skill": skill.name,
            "group": skill.group,
            "already_loaded": true,
        }))
}

/// A skill of a group that is not active.
pub(crate) fn inactive(skill: &SkillInfo, with_reset: bool) -> CallResult {
    let how = if with_reset {
        format!(
            " Call `reset_tools` with `{}` set to true (and every group you want to keep active), then load the skill.",
            skill.group
        )
    } else {
        String::new()
    };
    CallResult::error(format!(
        "the skill `{}` was not loaded: it belongs to the group `{}`, which is not active.{how}",
        skill.name, skill.group
    ))
}

/// A file of a skill whose group is not active.
pub(crate) fn inactive_file(skill: &SkillInfo, path: &str, with_reset: bool) -> CallResult {
    let how = if with_reset {
        format!(
            " Call `reset_tools` with `{}` set to true (and every group you want to keep active), then read the file.",
            skill.group
        )
    } else {
        String::new()
    };
    CallResult::error(format!(
        "`{}/{path}` was not read: the skill `{}` belongs to the group `{}`, which is not active.{how}",
        skill.name, skill.name, skill.group
    ))
}

/// The head of a load that activated the skill's group: worded like a `reset_tools` answer
/// (the group, then its instructions in a `<group>` element).
pub(crate) fn activated(skill: &SkillInfo, instructions: Option<&str>) -> String {
    let mut head = format!(
        "Loading the skill `{}` activated its group `{}`; the other groups are unchanged. Its tools are available now; `reset_tools` sets every group's state again.",
        skill.name, skill.group
    );
    if let Some(instructions) = instructions {
        let _ = write!(
            head,
            "\n<group name=\"{}\">\n{instructions}\n</group>",
            skill.group
        );
    }
    head
}

/// A skill name that is not among the visible skills (nor any other).
pub(crate) fn unknown(name: &str, visible: &[&SkillInfo]) -> CallResult {
    let mut text = format!("unknown skill `{}`.", echo_name(name));
    if let Some(guess) = did_you_mean(name, visible.iter().map(|s| s.name)) {
        let _ = write!(text, " Did you mean `{guess}`?");
    }
    if visible.is_empty() {
        text.push_str(" No skill is available now.");
    } else {
        let _ = write!(
            text,
            " The available skills are {}.",
            list_names(visible.iter().map(|s| s.name))
        );
    }
    CallResult::error(text)
}

/// A `read_skill_file` path that names no file of a visible skill.
pub(crate) fn unknown_file(path: &str, visible: &[&SkillInfo]) -> CallResult {
    let paths: Vec<String> = visible
        .iter()
        .flat_map(|s| s.resources().map(move |f| format!("{}/{}", s.name, f.path)))
        .collect();
    let mut text = format!("no skill file `{}`.", echo_name(path));
    if let Some(guess) = did_you_mean(path, paths.iter().map(String::as_str)) {
        let _ = write!(text, " Did you mean `{guess}`?");
    }
    text.push_str(" Name a file as `<skill>/<path>`, as the skill's `Skill` answer lists it.");
    CallResult::error(text)
}

/// One file of a skill: text as text, images as an image block, anything else as a resource.
pub(crate) fn file(skill: &SkillInfo, file: &SkillFile) -> CallResult {
    let uri = format!("skill://{}/{}", skill.name, file.path);
    let block = if let Some(text) = file.as_text() {
        Content::text(text)
    } else if file.mime.starts_with("image/") {
        Content::image(file.bytes, file.mime)
    } else {
        Content::resource(ResourceContents::blob(uri.clone(), file.bytes).with_mime_type(file.mime))
    };
    CallResult::new(vec![block]).with_structured(json!({
        "skill": skill.name,
        "path": file.path,
        "uri": uri,
        "size": file.size(),
        "mime_type": file.mime,
        "sha256": file.sha256,
    }))
}

/// The `<agent-skills>` block for a system prompt (empty when `skills` is).
pub(crate) fn catalog(skills: &[&SkillInfo]) -> String {
    if skills.is_empty() {
        return String::new();
    }
    let mut out = String::from("<agent-skills>\n");
    for s in skills {
        let _ = writeln!(
            out,
            "<skill><name>{}</name><description>{}</description><dir>skill://{}/</dir></skill>",
            escape(s.name),
            escape(s.description),
            escape(s.name)
        );
    }
    out.push_str("</agent-skills>\n");
    out.push_str(CATALOG_NOTE);
    out
}

/// The skills block of a `reset_tools` answer: the skills the newly active groups bring.
pub(crate) fn reset_block(skills: &[&SkillInfo]) -> Option<String> {
    if skills.is_empty() {
        return None;
    }
    let mut out = String::from("<new-skills>\n");
    for s in skills {
        let _ = writeln!(
            out,
            "<skill group=\"{}\"><name>{}</name><description>{}</description></skill>",
            escape(s.group),
            escape(s.name),
            escape(s.description)
        );
    }
    out.push_str("</new-skills>\nLoad a skill with the `Skill` tool before a task it covers.");
    Some(out)
}

/// The structured form of [`reset_block`].
pub(crate) fn reset_structured(skills: &[&SkillInfo]) -> Value {
    Value::Array(
        skills
            .iter()
            .map(|s| json!({"name": s.name, "description": s.description, "group": s.group}))
            .collect(),
    )
}
