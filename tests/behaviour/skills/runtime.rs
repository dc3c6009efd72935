//! Skills read at run time: a user's folder of skills given to a group.

use std::fs;
use std::path::{Path, PathBuf};

use toolgroup::prelude::*;
use toolgroup::skill::SkillDir;

use super::{KitGroup, Web, kit, skill_enum, text};

/// A fresh folder under the system's temporary directory, removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn new(label: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!(
            "toolgroup-skill-tests-{}-{label}",
            std::process::id()
        ));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn skill(&self, name: &str, skill_md: &str) -> PathBuf {
        let dir = self.0.join(name);
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join("SKILL.md"), skill_md).unwrap();
        dir
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn md(name: &str, extra: &str) -> String {
    format!(
        "---\nname: {name}\ndescription: Search tips for {name}.\n{extra}---\nSearch with care.\n"
    )
}

#[tokio::test]
async fn a_folder_of_skills_joins_a_group_and_is_served_like_compiled_ones() {
    let scratch = Scratch::new("ok");
    let dir = scratch.skill(
        "search-tips",
        &md("search-tips", "allowed-tools: web_search\n"),
    );
    fs::create_dir_all(dir.join("references")).unwrap();
    fs::write(dir.join("references/operators.md"), "Use quotes.").unwrap();
    let skills = SkillDir::load(&scratch.0).unwrap();
    assert_eq!(skills.names().collect::<Vec<_>>(), ["search-tips"]);
    let toolkit = kit().with_skills::<Web>(skills).unwrap();
    let mut session = toolkit.session();
    assert_eq!(skill_enum(&toolkit, &session), ["release-notes"]);
    session.activate(KitGroup::Web);
    assert_eq!(
        skill_enum(&toolkit, &session),
        ["release-notes", "search-tips"]
    );
    let loaded = toolkit
        .call(&mut session, "Skill", r#"{"skill": "search-tips"}"#)
        .await;
    assert!(!loaded.is_error, "{}", text(&loaded));
    assert!(text(&loaded).contains("Search with care."));
    let file = toolkit
        .call(
            &mut session,
            "read_skill_file",
            r#"{"path": "search-tips/references/operators.md"}"#,
        )
        .await;
    assert_eq!(text(&file), "Use quotes.");
    // No host path reaches the model.
    let root = scratch.0.to_string_lossy().into_owned();
    assert!(!text(&loaded).contains(&root));
    assert!(!toolkit.skills_prompt(&session).contains(&root));
}

#[test]
fn every_problem_of_every_skill_comes_back_to_the_application() {
    let scratch = Scratch::new("bad");
    scratch.skill("Bad_Name", "---\nname: Bad_Name\ndescriptoin: x\n---\n\n");
    scratch.skill(
        "links",
        &md("links", "").replace("Search with care.", "See [x](references/missing.md)."),
    );
    let err = SkillDir::load(&scratch.0).unwrap_err();
    let shown = err.to_string();
    assert!(shown.contains("Bad_Name"), "{shown}");
    assert!(shown.contains("descriptoin"), "{shown}");
    assert!(shown.contains("did you mean `description`"), "{shown}");
    assert!(shown.contains("references/missing.md"), "{shown}");
    let folders: Vec<&str> = err.problems.iter().map(|(f, _)| f.as_str()).collect();
    assert_eq!(folders, ["Bad_Name", "links"]);
    assert!(err.problems[0].1.len() >= 3, "{:?}", err.problems[0].1);
}

#[cfg(unix)]
#[test]
fn a_symlink_leaving_the_skill_folder_is_refused() {
    let scratch = Scratch::new("escape");
    let outside = Scratch::new("outside");
    fs::write(outside.0.join("secret.txt"), "hunter2").unwrap();
    let dir = scratch.skill("leaky", &md("leaky", ""));
    std::os::unix::fs::symlink(outside.0.join("secret.txt"), dir.join("secret.txt")).unwrap();
    let err = SkillDir::load(&scratch.0).unwrap_err();
    assert!(err.to_string().contains("secret.txt"), "{err}");
    assert!(!err.to_string().contains("hunter2"));
}

#[test]
fn a_taken_name_an_unknown_allowed_tool_or_a_stranger_group_is_refused() {
    let scratch = Scratch::new("clash");
    scratch.skill("pdf-tools", &md("pdf-tools", ""));
    let err = kit()
        .with_skills::<Web>(SkillDir::load(&scratch.0).unwrap())
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("already has a skill named `pdf-tools`"),
        "{err}"
    );

    let scratch = Scratch::new("allowed");
    scratch.skill(
        "tips",
        &md("tips", "allowed-tools: web_serch Bash(git:*)\n"),
    );
    let err = kit()
        .with_skills::<Web>(SkillDir::load(&scratch.0).unwrap())
        .unwrap_err();
    let shown = err.to_string();
    assert!(shown.contains("web_serch"), "{shown}");
    assert!(shown.contains("web_search"), "did-you-mean: {shown}");
    assert!(!shown.contains("Bash"), "{shown}");

    #[tool_group(name = "elsewhere", description = "Not in the kit.", tools = [super::web_search])]
    struct Elsewhere;
    let scratch = Scratch::new("stranger");
    scratch.skill("tips", &md("tips", ""));
    let err = kit()
        .with_skills::<Elsewhere>(SkillDir::load(&scratch.0).unwrap())
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("`elsewhere` is not a group of this toolkit"),
        "{err}"
    );
}

#[test]
fn a_missing_folder_is_one_clear_problem() {
    let err = SkillDir::load(Path::new("/nonexistent/toolgroup/skills")).unwrap_err();
    assert_eq!(err.problems.len(), 1, "{err}");
}
