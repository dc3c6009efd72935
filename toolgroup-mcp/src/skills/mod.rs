//! The toolkit's skills over the MCP skills extension (SEP-2640): `skills/list`,
//! `skills/get`, and the skill files as `skill://` resources.
//!
//! Everything is built once from the skills embedded in the binary, so every connection is
//! served the same answers, whatever its active groups: the extension is a catalog for the
//! host, while the model's own access (the `Skill` and `read_skill_file` tools) follows the
//! groups.

mod frontmatter;

use std::collections::HashMap;

use base64::Engine as _;
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, percent_decode_str, utf8_percent_encode};
use rmcp::model::{
    ErrorData, GetSkillResult, MetaObject, ReadResourceResult, Resource, ResourceContents, Skill,
    SkillFrontmatter, SkillResource, SkillResources,
};
use serde_json::Value;
use toolgroup_core::skill::{SKILL_MD, SkillInfo};

use crate::{GROUP_META_KEY, did_you_mean, echo};

/// The URI scheme of skill files.
pub(crate) const SCHEME: &str = "skill://";

/// What is left unencoded in a URI path segment: RFC 3986's unreserved characters.
const SEGMENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// How much of a URI a message shows back.
const ECHO_CHARS: usize = 200;

/// One skill as the extension serves it.
struct Entry {
    info: &'static SkillInfo,
    skill: Skill,
    listing: Resource,
}

/// The skills of a toolkit, ready to serve.
pub(crate) struct Catalog {
    entries: Vec<Entry>,
    by_name: HashMap<&'static str, usize>,
}

impl Catalog {
    pub(crate) fn new(skills: impl Iterator<Item = &'static SkillInfo>) -> Self {
        let mut entries = Vec::new();
        let mut by_name = HashMap::new();
        for info in skills {
            let skill = skill_of(info);
            // The checks a skill passed when it was read are the extension's rules (the name,
            // the files' places); a skill that still fails them is left out of the extension
            // rather than failing every `skills/list`, and stays reachable through the tools.
            if let Err(problem) = skill.validate() {
                tracing::warn!(skill = info.name, %problem, "skill not served over the MCP skills extension");
                continue;
            }
            let md = info.skill_md();
            let listing = Resource::new(skill.uri.clone(), info.name)
                .with_description(info.description)
                .with_mime_type(mime_of(info, SKILL_MD))
                .with_size(md.len() as u64)
                .with_meta(group_meta(info.group));
            by_name.insert(info.name, entries.len());
            entries.push(Entry {
                info,
                skill,
                listing,
            });
        }
        Catalog { entries, by_name }
    }

    /// Whether there is a skill to serve (the extension and `resources` are declared).
    pub(crate) fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Every skill `shown` lets the request see, in the toolkit's order.
    pub(crate) fn skills(&self, shown: &dyn Fn(&SkillInfo) -> bool) -> Vec<Skill> {
        self.entries
            .iter()
            .filter(|e| shown(e.info))
            .map(|e| e.skill.clone())
            .collect()
    }

    /// The `SKILL.md` of each skill `shown` lets the request see, the entry point of the
    /// skill (its other files are in its `skills/get` manifest).
    pub(crate) fn resources(&self, shown: &dyn Fn(&SkillInfo) -> bool) -> Vec<Resource> {
        self.entries
            .iter()
            .filter(|e| shown(e.info))
            .map(|e| e.listing.clone())
            .collect()
    }

    /// The skill whose `SKILL.md` is at `uri`, if `shown` lets the request see it.
    pub(crate) fn get(
        &self,
        uri: &str,
        shown: &dyn Fn(&SkillInfo) -> bool,
    ) -> Result<GetSkillResult, ErrorData> {
        let (entry, path) = self.locate(uri, shown)?;
        if path != SKILL_MD {
            return Err(invalid(format!(
                "`{}` is not the SKILL.md of the skill `{}`: `skills/get` takes `{}`",
                echo(uri, ECHO_CHARS),
                entry.info.name,
                entry.skill.uri
            )));
        }
        Ok(GetSkillResult::new(entry.skill.clone()))
    }

    /// The file at `uri`: text as text, other files base64-encoded, each with its MIME type
    /// (of a skill `shown` lets the request see).
    pub(crate) fn read(
        &self,
        uri: &str,
        shown: &dyn Fn(&SkillInfo) -> bool,
    ) -> Result<ReadResourceResult, ErrorData> {
        let (entry, path) = self.locate(uri, shown)?;
        let Some(file) = entry.info.file(&path) else {
            let mut message = format!(
                "the skill `{}` has no file `{}`",
                entry.info.name,
                echo(&path, ECHO_CHARS)
            );
            if let Some(guess) = did_you_mean(&path, entry.info.files.iter().map(|f| f.path)) {
                message.push_str(&format!(
                    " (did you mean `{}`?)",
                    file_uri(entry.info, guess)
                ));
            }
            message.push_str(": its files are listed by `skills/get`");
            return Err(invalid(message));
        };
        let uri = file_uri(entry.info, file.path);
        let contents = match file.as_text() {
            Some(text) => ResourceContents::text(text, uri),
            None => ResourceContents::blob(
                base64::engine::general_purpose::STANDARD.encode(file.bytes),
                uri,
            ),
        };
        Ok(ReadResourceResult::new(vec![
            contents.with_mime_type(file.mime),
        ]))
    }

    /// The skill and the decoded path inside it that `uri` names; `-32602` for a URI outside
    /// `skill://`, an unknown skill (one `shown` hides included: its name is not confirmed),
    /// or a path with empty or dot segments.
    fn locate(
        &self,
        uri: &str,
        visible: &dyn Fn(&SkillInfo) -> bool,
    ) -> Result<(&Entry, String), ErrorData> {
        let shown = echo(uri, ECHO_CHARS);
        let rest = uri
            .get(..SCHEME.len())
            .filter(|scheme| scheme.eq_ignore_ascii_case(SCHEME))
            .map(|_| &uri[SCHEME.len()..])
            .ok_or_else(|| {
                invalid(format!(
                    "`{shown}` is not a skill URI: this server's resources are skill files, \
                     `skill://<skill>/<path>`, as `skills/list` and `skills/get` list them"
                ))
            })?;
        if rest.contains(['?', '#']) {
            return Err(invalid(format!(
                "`{shown}` has a query or a fragment: a skill file's URI is \
                 `skill://<skill>/<path>` alone"
            )));
        }
        let (name, path) = rest.split_once('/').unwrap_or((rest, ""));
        let name = decode(name, &shown)?;
        let found = self
            .by_name
            .get(name.as_str())
            .filter(|&&i| visible(self.entries[i].info));
        let Some(&i) = found else {
            let listed = || self.entries.iter().filter(|e| visible(e.info));
            let mut message = format!("unknown skill `{}`", echo(&name, 64));
            if let Some(guess) = did_you_mean(&name, listed().map(|e| e.info.name)) {
                message.push_str(&format!(" (did you mean `{guess}`?)"));
            }
            message.push_str("; the skills are ");
            let names: Vec<String> = listed().map(|e| format!("`{}`", e.info.name)).collect();
            message.push_str(&names.join(", "));
            return Err(invalid(message));
        };
        let entry = &self.entries[i];
        if path.is_empty() {
            return Err(invalid(format!(
                "`{shown}` names no file: the skill's instructions are `{}`",
                entry.skill.uri
            )));
        }
        let path = decode(path, &shown)?;
        if path
            .split('/')
            .any(|segment| matches!(segment, "" | "." | ".."))
        {
            return Err(invalid(format!(
                "`{shown}` has an empty, `.` or `..` segment: a skill file is named by its \
                 path inside the skill, as `skills/get` lists it"
            )));
        }
        Ok((entry, path))
    }
}

fn invalid(message: String) -> ErrorData {
    ErrorData::invalid_params(message, None)
}

fn decode(part: &str, shown: &str) -> Result<String, ErrorData> {
    percent_decode_str(part)
        .decode_utf8()
        .map(|s| s.into_owned())
        .map_err(|_| {
            invalid(format!(
                "`{shown}` has a percent-encoding that is not UTF-8"
            ))
        })
}

/// `{"toolgroup/group": <group>}`, the key tools carry too.
fn group_meta(group: &str) -> MetaObject {
    let mut meta = MetaObject::new();
    meta.0.insert(GROUP_META_KEY.to_owned(), Value::from(group));
    meta
}

/// The URI of the file at `path` of `skill`, each segment percent-encoded.
pub(crate) fn file_uri(skill: &SkillInfo, path: &str) -> String {
    let mut uri = format!("{SCHEME}{}", utf8_percent_encode(skill.name, SEGMENT));
    for segment in path.split('/') {
        uri.push('/');
        uri.extend(utf8_percent_encode(segment, SEGMENT));
    }
    uri
}

fn mime_of(skill: &SkillInfo, path: &str) -> &'static str {
    skill.file(path).map_or("text/markdown", |f| f.mime)
}

/// The extension's entry for `info`: the frontmatter as JSON, every file with the digest and
/// size computed when it was embedded, and the group in `_meta`.
fn skill_of(info: &'static SkillInfo) -> Skill {
    let mut frontmatter = SkillFrontmatter::new(info.name, info.description);
    match frontmatter::to_json(info.frontmatter) {
        Ok(mut fields) => {
            fields.remove("name");
            fields.remove("description");
            frontmatter.extra = fields;
        }
        // Read and checked with the skill, so this does not happen; the entry keeps the
        // name and description rather than losing the skill.
        Err(problem) => {
            tracing::warn!(skill = info.name, %problem, "skill frontmatter not converted to JSON");
        }
    }
    let files = info
        .files
        .iter()
        .map(|f| {
            SkillResource::new(
                file_uri(info, f.path),
                format!("sha256:{}", f.sha256),
                f.size() as u64,
            )
        })
        .collect();
    Skill::new(
        file_uri(info, SKILL_MD),
        frontmatter,
        SkillResources::Files(files),
    )
    .with_meta(group_meta(info.group))
}
