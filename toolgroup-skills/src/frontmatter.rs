//! SKILL.md: the `---` delimiters, the frontmatter fields and the body.

use saphyr_parser::ScalarStyle;

use crate::diagnostic::{Diagnostic, show};
use crate::name::{find_xml_tag, name_problems};
use crate::yaml::{self, Kind, Node, non_string_type};
use crate::{HOST_KEYS, MAX_COMPATIBILITY_CHARS, MAX_DESCRIPTION_CHARS, SPEC_KEYS};

/// The frontmatter's fields, checked.
#[derive(Debug, Clone)]
pub struct Frontmatter {
    /// The skill's name (equal to its folder's name).
    pub name: String,
    /// What the skill does and when to use it.
    pub description: String,
    /// `license`, verbatim.
    pub license: Option<String>,
    /// `compatibility`: what the skill needs of its environment.
    pub compatibility: Option<String>,
    /// `metadata`, in file order.
    pub metadata: Vec<(String, String)>,
    /// Entries of `allowed-tools`, verbatim, split on whitespace.
    pub allowed_tools: Vec<String>,
    /// The YAML text between the delimiters, verbatim (host keys included).
    pub raw: String,
}

/// SKILL.md split and parsed (no file-system access).
#[derive(Debug, Clone)]
pub struct SkillMd {
    /// The checked frontmatter.
    pub frontmatter: Frontmatter,
    /// The Markdown after the closing `---` line.
    pub body: String,
    /// Byte offset of the body in the SKILL.md text (so `&text[body_offset..] == body`).
    pub body_offset: usize,
    /// 1-based line where the body starts.
    pub body_line: usize,
}

impl SkillMd {
    /// The number of lines of the body, to compare with [`RECOMMENDED_MAX_BODY_LINES`]
    /// (a recommendation, so no diagnostic).
    ///
    /// [`RECOMMENDED_MAX_BODY_LINES`]: crate::RECOMMENDED_MAX_BODY_LINES
    pub fn body_line_count(&self) -> usize {
        self.body.lines().count()
    }
}

/// Where the parts of SKILL.md are, before any YAML is read.
#[derive(Debug)]
pub(crate) struct Split<'a> {
    pub(crate) raw: &'a str,
    pub(crate) body: &'a str,
    pub(crate) body_offset: usize,
    pub(crate) body_line: usize,
    /// The line of the closing `---`.
    pub(crate) close_line: usize,
}

/// Whether `line` (without its `\n`) is a delimiter: `---`, then only spaces, tabs or `\r`.
fn is_delimiter(line: &str) -> bool {
    line.strip_prefix("---")
        .is_some_and(|rest| rest.chars().all(|c| matches!(c, ' ' | '\t' | '\r')))
}

/// Finds the delimiters by whole lines, so a `---` inside a value (`"a --- b"`) stays a value.
pub(crate) fn split(text: &str) -> Result<Split<'_>, Diagnostic> {
    let start = if text.starts_with('\u{feff}') {
        '\u{feff}'.len_utf8()
    } else {
        0
    };
    let mut lines = text[start..].split_inclusive('\n');
    let first = lines.next().unwrap_or_default();
    if !is_delimiter(first.trim_end_matches('\n')) {
        let found = first.trim_end_matches(['\n', '\r']);
        return Err(Diagnostic::skill_md(
            Some(1),
            format!(
                "SKILL.md must start with a `---` line opening the YAML frontmatter, found {}: \
                 begin the file with `---`, then `name:` and `description:`, then `---`",
                show(found)
            ),
        ));
    }
    let raw_start = start + first.len();
    let mut offset = raw_start;
    for (index, line) in lines.enumerate() {
        let line_number = index + 2;
        if is_delimiter(line.trim_end_matches('\n')) {
            let body_offset = offset + line.len();
            return Ok(Split {
                raw: &text[raw_start..offset],
                body: &text[body_offset..],
                body_offset,
                body_line: line_number + 1,
                close_line: line_number,
            });
        }
        offset += line.len();
    }
    Err(Diagnostic::skill_md(
        Some(1),
        "the frontmatter opened by the `---` on line 1 is never closed: add a line `---` after \
         the last field (a `---` inside a line does not count)",
    ))
}

/// Everything parsing found: the pieces that could be read, and every problem.
#[derive(Debug)]
pub(crate) struct Parsed<'a> {
    pub(crate) split: Option<Split<'a>>,
    pub(crate) frontmatter: Option<Frontmatter>,
    pub(crate) problems: Vec<Diagnostic>,
}

pub(crate) fn parse<'a>(text: &'a str, dir_name: Option<&str>) -> Parsed<'a> {
    let split = match split(text) {
        Ok(split) => split,
        Err(problem) => {
            return Parsed {
                split: None,
                frontmatter: None,
                problems: vec![problem],
            };
        }
    };
    let mut problems = Vec::new();
    let frontmatter = fields(split.raw, dir_name, &mut problems);
    if split.body.trim().is_empty() {
        problems.push(Diagnostic::skill_md(
            Some(split.close_line),
            "the body after the frontmatter is empty: write the instructions the agent follows \
             when it uses the skill",
        ));
    }
    let frontmatter = if problems.is_empty() {
        frontmatter
    } else {
        None
    };
    Parsed {
        split: Some(split),
        frontmatter,
        problems,
    }
}

/// Parse and check a SKILL.md text; `dir_name` is the folder's name (checked against `name`;
/// `None` skips that check). Every problem is reported, each with its line in SKILL.md.
pub fn parse_skill_md(text: &str, dir_name: Option<&str>) -> Result<SkillMd, Vec<Diagnostic>> {
    let parsed = parse(text, dir_name);
    match (parsed.split, parsed.frontmatter) {
        (Some(split), Some(frontmatter)) if parsed.problems.is_empty() => Ok(SkillMd {
            frontmatter,
            body: split.body.to_owned(),
            body_offset: split.body_offset,
            body_line: split.body_line,
        }),
        _ => Err(parsed.problems),
    }
}

/// The frontmatter's first line in SKILL.md is 2: the parser's line 1 is SKILL.md's line 2.
const LINE_OFFSET: usize = 1;

fn fields(
    raw: &str,
    dir_name: Option<&str>,
    problems: &mut Vec<Diagnostic>,
) -> Option<Frontmatter> {
    let root = match yaml::parse(raw, LINE_OFFSET) {
        Ok(Some(root)) => root,
        Ok(None) => {
            problems.push(Diagnostic::skill_md(
                Some(1),
                "the frontmatter is empty: add `name:` and `description:` between the `---` lines",
            ));
            return None;
        }
        Err(problem) => {
            problems.push(problem);
            return None;
        }
    };
    let Kind::Mapping(entries) = root.kind else {
        problems.push(Diagnostic::skill_md(
            Some(root.line),
            format!(
                "the frontmatter is {}, not a mapping of fields: write `key: value` lines such as \
                 `name: my-skill`",
                root.kind_name()
            ),
        ));
        return None;
    };
    let start = problems.len();
    let mut seen: Vec<(&str, usize)> = Vec::new();
    let mut fm = Frontmatter {
        name: String::new(),
        description: String::new(),
        license: None,
        compatibility: None,
        metadata: Vec::new(),
        allowed_tools: Vec::new(),
        raw: raw.to_owned(),
    };
    let (mut has_name, mut has_description) = (false, false);
    for (key_node, value) in &entries {
        let Some(key) = key_text(key_node, problems) else {
            continue;
        };
        if let Some((_, first)) = seen.iter().find(|(k, _)| *k == key) {
            problems.push(Diagnostic::skill_md(
                Some(key_node.line),
                format!("duplicate key `{key}` (first on line {first}): keep one of them"),
            ));
            continue;
        }
        seen.push((key, key_node.line));
        match key {
            "name" => {
                has_name = true;
                if let Some(name) = string_value(key, value, problems) {
                    for problem in name_problems(&name, dir_name) {
                        problems.push(Diagnostic::skill_md(Some(value.line), problem));
                    }
                    fm.name = name;
                }
            }
            "description" => {
                has_description = true;
                if let Some(text) = string_value(key, value, problems) {
                    description_problems(&text, value.line, problems);
                    fm.description = text;
                }
            }
            "license" => fm.license = string_value(key, value, problems),
            "compatibility" => {
                fm.compatibility = string_value(key, value, problems);
                if let Some(text) = &fm.compatibility {
                    let chars = text.chars().count();
                    let why = if text.trim().is_empty() {
                        Some("is empty".to_owned())
                    } else {
                        (chars > MAX_COMPATIBILITY_CHARS).then(|| format!("has {chars} characters"))
                    };
                    if let Some(why) = why {
                        problems.push(Diagnostic::skill_md(
                            Some(value.line),
                            format!(
                                "`compatibility` {why}: write 1-{MAX_COMPATIBILITY_CHARS} \
                                 characters (what the skill needs: tools, network, platform), or \
                                 remove the key"
                            ),
                        ));
                    }
                }
            }
            "metadata" => fm.metadata = metadata(value, problems),
            "allowed-tools" => {
                if let Some(text) = string_value(key, value, problems) {
                    fm.allowed_tools = text.split_whitespace().map(str::to_owned).collect();
                }
            }
            // Accepted and kept verbatim in `raw`: their shapes are each host's business.
            _ if HOST_KEYS.contains(&key) => {}
            _ => problems.push(unknown_key(key, key_node.line)),
        }
    }
    if !has_name {
        let example = dir_name.unwrap_or("my-skill");
        problems.push(Diagnostic::skill_md(
            Some(1),
            format!("the frontmatter has no `name`: add `name: {example}` (the folder's name)"),
        ));
    }
    if !has_description {
        problems.push(Diagnostic::skill_md(
            Some(1),
            "the frontmatter has no `description`: add `description:` saying what the skill does \
             and when to use it",
        ));
    }
    (problems.len() == start).then_some(fm)
}

fn unknown_key(key: &str, line: usize) -> Diagnostic {
    let accepted = SPEC_KEYS.iter().chain(HOST_KEYS).copied();
    let hint = match crate::did_you_mean(key, accepted.clone()) {
        Some(close) => format!("did you mean `{close}`?"),
        None => "remove it, or move it under `metadata:`".to_owned(),
    };
    let list: Vec<String> = accepted.map(|k| format!("`{k}`")).collect();
    Diagnostic::skill_md(
        Some(line),
        format!(
            "unknown frontmatter key {}: {hint} (accepted: {})",
            show(key),
            list.join(", ")
        ),
    )
}

fn description_problems(text: &str, line: usize, problems: &mut Vec<Diagnostic>) {
    let chars = text.chars().count();
    if text.trim().is_empty() {
        problems.push(Diagnostic::skill_md(
            Some(line),
            "`description` is empty: say what the skill does and when to use it",
        ));
    } else if chars > MAX_DESCRIPTION_CHARS {
        problems.push(Diagnostic::skill_md(
            Some(line),
            format!(
                "`description` has {chars} characters: shorten it to at most \
                 {MAX_DESCRIPTION_CHARS} and move details into the body"
            ),
        ));
    }
    if let Some(tag) = find_xml_tag(text) {
        problems.push(Diagnostic::skill_md(
            Some(line),
            format!(
                "`description` contains the XML tag {}: Anthropic's platform refuses tags in \
                 descriptions; remove it or say it in words",
                show(tag)
            ),
        ));
    }
}

/// A key that is a string, or a problem.
fn key_text<'n>(key: &'n Node, problems: &mut Vec<Diagnostic>) -> Option<&'n str> {
    match &key.kind {
        Kind::Scalar { value, .. } => Some(value),
        _ => {
            problems.push(Diagnostic::skill_md(
                Some(key.line),
                format!(
                    "a frontmatter key is {}: keys are plain words such as `name`",
                    key.kind_name()
                ),
            ));
            None
        }
    }
}

/// The value of `key` as a string, or a problem naming what was found and what to write.
fn string_value(key: &str, value: &Node, problems: &mut Vec<Diagnostic>) -> Option<String> {
    match string_or_problem(value) {
        Ok(text) => Some(text),
        Err(why) => {
            problems.push(Diagnostic::skill_md(
                Some(value.line),
                format!("`{key}` {why}"),
            ));
            None
        }
    }
}

/// A node as a string; `Err` completes "`key` ..." with what is wrong and what to write.
fn string_or_problem(value: &Node) -> Result<String, String> {
    match &value.kind {
        Kind::Scalar {
            value: text,
            style,
            tag,
        } => {
            match tag.as_deref() {
                Some("!!str" | "tag:yaml.org,2002:str") => return Ok(text.clone()),
                Some(tag) => {
                    return Err(format!(
                        "has the tag `{tag}`: remove the tag and quote the value, e.g. `\"{}\"`",
                        text.escape_default()
                    ));
                }
                None => {}
            }
            if *style != ScalarStyle::Plain {
                return Ok(text.clone());
            }
            match non_string_type(text) {
                None => Ok(text.clone()),
                Some("null") if text.is_empty() => {
                    Err("has no value: write a string after the colon".to_owned())
                }
                Some(kind) => Err(format!(
                    "is {}, which YAML reads as {kind}, not a string: quote it, e.g. `\"{}\"`",
                    show(text),
                    text.escape_default()
                )),
            }
        }
        _ => Err(format!(
            "is {} where a string is due: write one line of text (quote it if it holds `: `), \
             or a `>` block for several lines",
            value.kind_name()
        )),
    }
}

fn metadata(value: &Node, problems: &mut Vec<Diagnostic>) -> Vec<(String, String)> {
    let Kind::Mapping(entries) = &value.kind else {
        problems.push(Diagnostic::skill_md(
            Some(value.line),
            format!(
                "`metadata` is {} where a mapping of strings to strings is due: write indented \
                 `key: \"value\"` lines under `metadata:`",
                value.kind_name()
            ),
        ));
        return Vec::new();
    };
    let mut out: Vec<(String, String)> = Vec::new();
    for (key, item) in entries {
        let key_string = match string_or_problem(key) {
            Ok(text) => text,
            Err(why) => {
                problems.push(Diagnostic::skill_md(
                    Some(key.line),
                    format!("a `metadata` key {why}"),
                ));
                continue;
            }
        };
        if out.iter().any(|(k, _)| *k == key_string) {
            problems.push(Diagnostic::skill_md(
                Some(key.line),
                format!(
                    "duplicate `metadata` key {}: keep one of them",
                    show(&key_string)
                ),
            ));
            continue;
        }
        match string_or_problem(item) {
            Ok(text) => out.push((key_string, text)),
            Err(why) => problems.push(Diagnostic::skill_md(
                Some(item.line),
                format!("`metadata.{key_string}` {why}"),
            )),
        }
    }
    out
}

/// The line in SKILL.md of the top-level `key` of a frontmatter text, if it is there.
pub(crate) fn key_line(raw: &str, key: &str) -> Option<usize> {
    let Ok(Some(Node {
        kind: Kind::Mapping(entries),
        ..
    })) = yaml::parse(raw, LINE_OFFSET)
    else {
        return None;
    };
    entries.iter().find_map(|(k, _)| match &k.kind {
        Kind::Scalar { value, .. } if value == key => Some(k.line),
        _ => None,
    })
}
