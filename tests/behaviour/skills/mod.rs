//! Skills in groups: the builtin `Skill` and `read_skill_file` tools, the catalog, the
//! `reset_tools` skills block, the activation policy, the generated skill enum and skills read
//! at run time.

mod model;
mod runtime;

use serde_json::{Value, json};
use toolgroup::prelude::*;

/// Fetch a page.
#[tool(read_only)]
fn page_fetch(
    /// The page's URL.
    url: String,
) -> String {
    format!("fetched {url}")
}

/// Write a note.
#[tool]
fn note_write(
    /// The note.
    text: String,
) -> String {
    format!("noted {text}")
}

/// Search the web.
#[tool(read_only)]
fn web_search(
    /// The query.
    query: String,
) -> String {
    format!("results for {query}")
}

#[tool_group(
    name = "docs",
    description = "Working with documents.",
    instructions = "Cite the page of every value you copy.",
    tools = [page_fetch],
    skills = ["tests/skills/pdf-tools"]
)]
#[derive(Debug)]
pub struct Docs;

#[tool_group(
    name = "writing",
    description = "Writing text.",
    tools = [note_write],
    skills = ["tests/skills/release-notes"]
)]
#[derive(Debug)]
pub struct Writing;

#[tool_group(name = "web", description = "Searching the web.", tools = [web_search])]
#[derive(Debug)]
pub struct Web;

#[toolkit]
#[derive(Debug)]
pub struct Kit {
    #[basic]
    writing: Writing,
    docs: Docs,
    web: Web,
}

pub fn kit() -> Toolkit<Kit> {
    Toolkit::new(Kit {
        writing: Writing,
        docs: Docs,
        web: Web,
    })
}

pub fn names(toolkit: &Toolkit<Kit>, session: &Session<Kit>) -> Vec<&'static str> {
    toolkit.definitions(session).map(|d| d.name).collect()
}

pub fn skill_enum(toolkit: &Toolkit<Kit>, session: &Session<Kit>) -> Vec<String> {
    let def = toolkit
        .definitions(session)
        .find(|d| d.name == "Skill")
        .expect("Skill is listed");
    def.input_schema["properties"]["skill"]["enum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect()
}

pub fn text(result: &CallResult) -> String {
    result.text_joined()
}

#[test]
fn a_basic_groups_skill_lists_skill_right_after_reset_tools() {
    let toolkit = kit();
    let session = toolkit.session();
    // `release-notes` has no file besides SKILL.md: no `read_skill_file` yet.
    assert_eq!(
        names(&toolkit, &session),
        ["reset_tools", "Skill", "note_write"]
    );
    assert_eq!(skill_enum(&toolkit, &session), ["release-notes"]);
}

#[test]
fn an_active_groups_skills_join_the_enum_and_bring_read_skill_file() {
    let toolkit = kit();
    let mut session = toolkit.session();
    session.activate(KitGroup::Docs);
    assert_eq!(
        names(&toolkit, &session),
        [
            "reset_tools",
            "Skill",
            "read_skill_file",
            "note_write",
            "page_fetch"
        ]
    );
    assert_eq!(
        skill_enum(&toolkit, &session),
        ["release-notes", "pdf-tools"]
    );
    let file = toolkit
        .definitions(&session)
        .find(|d| d.name == "read_skill_file")
        .unwrap();
    assert_eq!(
        file.input_schema,
        json!({
            "type": "object",
            "properties": {"path": {
                "type": "string",
                "enum": ["pdf-tools/assets/logo.png", "pdf-tools/references/forms.md"],
                "description": "The file, as `<skill>/<path inside the skill>`.",
            }},
            "required": ["path"],
            "additionalProperties": false,
        })
    );
}

#[test]
fn the_mask_mode_lists_every_skill_whatever_is_active() {
    let toolkit = kit();
    let all: Vec<&str> = toolkit.all_definitions().map(|d| d.name).collect();
    assert_eq!(
        all,
        [
            "reset_tools",
            "Skill",
            "read_skill_file",
            "note_write",
            "page_fetch",
            "web_search"
        ]
    );
    let skill = toolkit.definition("Skill").unwrap();
    assert_eq!(
        skill.input_schema["properties"]["skill"]["enum"],
        json!(["release-notes", "pdf-tools"])
    );
    assert_eq!(skill.annotations.read_only, Some(true));
}

#[tokio::test]
async fn a_skill_of_an_inactive_group_is_refused_with_the_group_to_activate() {
    let toolkit = kit();
    let mut session = toolkit.session();
    let before = session;
    let result = toolkit
        .call(&mut session, "Skill", r#"{"skill": "pdf-tools"}"#)
        .await;
    assert!(result.is_error);
    let t = text(&result);
    assert!(
        t.contains("belongs to the group `docs`, which is not active"),
        "{t}"
    );
    assert!(
        t.contains("Call `reset_tools` with `docs` set to true"),
        "{t}"
    );
    assert_eq!(session, before);
}

#[tokio::test]
async fn reset_tools_lists_the_skills_the_new_groups_bring() {
    let toolkit = kit();
    let mut session = toolkit.session();
    let result = toolkit
        .call(
            &mut session,
            "reset_tools",
            r#"{"docs": true, "web": false}"#,
        )
        .await;
    assert!(!result.is_error);
    let t = text(&result);
    assert!(
        t.contains("<new-skills>\n<skill group=\"docs\"><name>pdf-tools</name><description>Fill in and check PDF forms. Use it when a task mentions a PDF form.</description></skill>\n</new-skills>"),
        "{t}"
    );
    // After the group's instructions.
    assert!(t.find("<group name=\"docs\">").unwrap() < t.find("<new-skills>").unwrap());
    let structured = result.structured_content.unwrap();
    assert_eq!(
        structured["skills"],
        json!([{"name": "pdf-tools", "group": "docs", "description": "Fill in and check PDF forms. Use it when a task mentions a PDF form."}])
    );
    // A call that activates nothing new brings no skill.
    let again = toolkit
        .call(
            &mut session,
            "reset_tools",
            r#"{"docs": true, "web": true}"#,
        )
        .await;
    assert!(!text(&again).contains("<new-skills>"));
    assert_eq!(again.structured_content.unwrap()["skills"], json!([]));
}

#[tokio::test]
async fn loading_a_skill_answers_its_body_and_files_then_says_it_is_loaded() {
    let toolkit = kit();
    let mut session = toolkit.session();
    session.activate(KitGroup::Docs);
    let result = toolkit
        .call(&mut session, "Skill", r#"{"skill": "pdf-tools"}"#)
        .await;
    assert!(!result.is_error, "{}", text(&result));
    let t = text(&result);
    assert!(
        t.starts_with("<skill_content name=\"pdf-tools\">\n# Filling PDF forms\n"),
        "{t}"
    );
    assert!(
        t.contains("3. The logo to stamp is `assets/logo.png`.\n</skill_content>"),
        "{t}"
    );
    assert!(
        t.contains("- pdf-tools/references/forms.md (text/markdown, "),
        "{t}"
    );
    assert!(
        t.contains("- pdf-tools/assets/logo.png (image/png, 73 bytes)"),
        "{t}"
    );
    assert!(
        !t.contains("Field guide"),
        "a file's contents are not inlined: {t}"
    );
    let structured = result.structured_content.clone().unwrap();
    assert_eq!(structured["skill"], "pdf-tools");
    assert_eq!(structured["group"], "docs");
    assert_eq!(structured["files"][0]["path"], "pdf-tools/assets/logo.png");
    assert_eq!(structured["files"][0]["size"], 73);
    assert!(toolkit.is_skill_loaded(&session, DocsSkill::PdfTools));

    let second = toolkit
        .call(&mut session, "Skill", r#"{"skill": "pdf-tools"}"#)
        .await;
    assert!(!second.is_error);
    assert!(
        text(&second).contains("is already loaded"),
        "{}",
        text(&second)
    );
    assert_eq!(second.structured_content.unwrap()["already_loaded"], true);

    // `reset_tools` sets groups; which skills were loaded survives it.
    toolkit
        .call(
            &mut session,
            "reset_tools",
            r#"{"docs": true, "web": true}"#,
        )
        .await;
    assert!(toolkit.is_skill_loaded(&session, DocsSkill::PdfTools));
    assert!(session.is_active(KitGroup::Web));
}

#[tokio::test]
async fn read_skill_file_serves_text_as_text_and_images_as_images() {
    let toolkit = kit();
    let mut session = toolkit.session();
    session.activate(KitGroup::Docs);
    let result = toolkit
        .call(
            &mut session,
            "read_skill_file",
            r#"{"path": "pdf-tools/references/forms.md"}"#,
        )
        .await;
    assert!(!result.is_error);
    assert!(text(&result).starts_with("# Field guide"));
    let structured = result.structured_content.unwrap();
    assert_eq!(structured["uri"], "skill://pdf-tools/references/forms.md");
    assert_eq!(structured["sha256"].as_str().unwrap().len(), 64);

    let image = toolkit
        .call(
            &mut session,
            "read_skill_file",
            r#"{"path": "pdf-tools/assets/logo.png"}"#,
        )
        .await;
    assert!(!image.is_error);
    match &image.content[0] {
        Content::Image {
            mime_type, data, ..
        } => {
            assert_eq!(mime_type, "image/png");
            assert_eq!(
                data.as_slice(),
                std::fs::read("tests/skills/pdf-tools/assets/logo.png").unwrap()
            );
        }
        other => panic!("expected an image, got {other:?}"),
    }
}

#[tokio::test]
async fn every_model_mistake_is_an_error_result_that_changes_nothing() {
    let toolkit = kit();
    let mut session = toolkit.session();
    session.activate(KitGroup::Docs);
    let before = session;
    let cases: &[(&str, &str, &str)] = &[
        (
            "Skill",
            r#"{"skill": "pdf-tool"}"#,
            "unknown skill `pdf-tool`. Did you mean `pdf-tools`?",
        ),
        (
            "Skill",
            r#"{"skill": "<script>\u001b[31m"}"#,
            "unknown skill `&lt;script&gt;\\u{1b}[31m`.",
        ),
        ("Skill", r#"{"skill": 3}"#, "`Skill` was not run"),
        (
            "Skill",
            r#"{"skill": "pdf-tools", "extra": 1}"#,
            "`Skill` was not run",
        ),
        ("Skill", r#"{"skill": "#, "`Skill` was not run"),
        ("Skill", "[]", "`Skill` was not run"),
        (
            "read_skill_file",
            r#"{"path": "pdf-tools/SKILL.md"}"#,
            "no skill file `pdf-tools/SKILL.md`",
        ),
        (
            "read_skill_file",
            r#"{"path": "pdf-tools/references/form.md"}"#,
            "Did you mean `pdf-tools/references/forms.md`?",
        ),
        (
            "read_skill_file",
            r#"{"path": "../../etc/passwd"}"#,
            "no skill file `../../etc/passwd`",
        ),
        (
            "read_skill_file",
            r#"{"path": 7}"#,
            "`read_skill_file` was not run",
        ),
    ];
    for (tool, args, expected) in cases {
        let result = toolkit.call(&mut session, tool, *args).await;
        assert!(result.is_error, "{tool} {args}");
        assert!(
            text(&result).contains(expected),
            "{tool} {args}: {}",
            text(&result)
        );
        assert_eq!(session, before, "{tool} {args}");
    }
}

#[test]
fn the_catalog_shows_the_visible_skills_escaped_and_nothing_without_them() {
    let toolkit = kit();
    let mut session = toolkit.session();
    let catalog = toolkit.skills_prompt(&session);
    assert_eq!(
        catalog,
        "<agent-skills>\n<skill><name>release-notes</name><description>Write release notes: one line per change, newest first.</description><dir>skill://release-notes/</dir></skill>\n</agent-skills>\n**IMPORTANT**: Skills are NOT tools. Do not call a skill by its name: load it with the `Skill` tool (`{\"skill\": \"<name>\"}`), then follow its instructions."
    );
    session.activate(KitGroup::Docs);
    assert!(
        toolkit
            .skills_prompt(&session)
            .contains("<name>pdf-tools</name>")
    );
}

#[test]
fn the_generated_skill_enum_names_each_skill() {
    assert_eq!(DocsSkill::ALL, &[DocsSkill::PdfTools]);
    assert_eq!(DocsSkill::PdfTools.name(), "pdf-tools");
    assert_eq!(WritingSkill::ReleaseNotes.to_string(), "release-notes");
    let info = DocsSkill::PdfTools.info();
    assert_eq!(info.group, "docs");
    assert_eq!(info.allowed_tools, &["page_fetch", "Bash(python:*)"]);
    assert!(info.frontmatter.contains("owner: \"docs-team\""));
    let paths: Vec<&str> = info.files.iter().map(|f| f.path).collect();
    assert_eq!(
        paths,
        ["SKILL.md", "assets/logo.png", "references/forms.md"]
    );
    assert_eq!("pdf-tools".parse::<DocsSkill>(), Ok(DocsSkill::PdfTools));
    let err = "pdf-tool".parse::<DocsSkill>().unwrap_err().to_string();
    assert_eq!(
        err,
        "unknown skill `pdf-tool` (did you mean `pdf-tools`?); the skills are `pdf-tools`"
    );
    let _ = Value::Null;
}

#[test]
fn without_skills_there_is_no_skill_tool_and_no_catalog() {
    #[toolkit]
    struct Plain {
        web: Web,
    }
    let toolkit = Toolkit::new(Plain { web: Web });
    let mut session = toolkit.session();
    session.activate(PlainGroup::Web);
    assert_eq!(toolkit.skills_prompt(&session), "");
    let all: Vec<&str> = toolkit.all_definitions().map(|d| d.name).collect();
    assert_eq!(all, ["reset_tools", "web_search"]);
    assert!(toolkit.definition("Skill").is_none());
    assert!(!toolkit.is_available(&session, "Skill"));
}

#[tokio::test]
async fn without_skills_a_call_of_skill_is_an_unknown_tool() {
    #[toolkit]
    struct Plain {
        web: Web,
    }
    let toolkit = Toolkit::new(Plain { web: Web });
    let mut session = toolkit.session();
    let r = toolkit
        .call(&mut session, "Skill", r#"{"skill": "x"}"#)
        .await;
    assert!(r.is_error);
    assert!(
        text(&r).starts_with("unknown tool `Skill`."),
        "{}",
        text(&r)
    );
}
