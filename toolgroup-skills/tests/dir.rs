//! `load_skills_dir`, `resolve_under` and `unknown_allowed_tools`.

mod common;

use common::{TempDir, assert_has, skill_md};
use toolgroup_skills::{load_skills_dir, parse_skill_md, resolve_under, unknown_allowed_tools};

#[test]
fn a_folder_of_skills_loads_the_good_and_reports_the_bad() {
    let tmp = TempDir::new("dir");
    tmp.write("good/SKILL.md", skill_md("good", "Body.\n"));
    tmp.write(
        "bad/SKILL.md",
        skill_md("Bad_Name", "See references/none.md\n"),
    );
    tmp.write("not-a-skill/notes.txt", "x");
    tmp.write("loose-file.md", "x");
    tmp.write(".hidden/SKILL.md", "not even frontmatter");
    let (loaded, failed) = load_skills_dir(tmp.path());
    let names: Vec<&str> = loaded.iter().map(|s| s.name()).collect();
    assert_eq!(names, ["good"]);
    assert_eq!(failed.len(), 1, "{failed:#?}");
    let (folder, problems) = &failed[0];
    assert_eq!(folder, "bad");
    assert_eq!(problems.len(), 3, "{problems:#?}");
    assert_has(problems, Some(2), "lowercase letters");
    assert_has(problems, Some(2), "the skill's folder is `bad`");
    assert_has(problems, Some(5), "`references/none.md` names no file");
}

#[cfg(unix)]
#[test]
fn a_second_folder_of_the_same_skill_is_a_duplicate() {
    let tmp = TempDir::new("dup");
    tmp.write("pdf/SKILL.md", skill_md("pdf", "Body.\n"));
    // The name is checked against the real folder, so the alias loads as `pdf` a second time.
    std::os::unix::fs::symlink(tmp.path().join("pdf"), tmp.path().join("pdf-alias")).unwrap();
    let (loaded, failed) = load_skills_dir(tmp.path());
    assert_eq!(loaded.len(), 1);
    assert_eq!(failed.len(), 1, "{failed:#?}");
    assert_eq!(failed[0].0, "pdf-alias");
    assert_has(&failed[0].1, None, "the skill name `pdf` is already used");
}

#[test]
fn the_root_must_be_a_folder() {
    let tmp = TempDir::new("root");
    let missing = tmp.path().join("missing");
    let (loaded, failed) = load_skills_dir(&missing);
    assert!(loaded.is_empty());
    assert_eq!(failed.len(), 1);
    assert_eq!(failed[0].0, missing.display().to_string());
    assert_eq!(failed[0].1.len(), 1);
    assert_has(&failed[0].1, None, "the skills folder");
    let file = tmp.write("file", "x");
    let (_, failed) = load_skills_dir(&file);
    assert_has(&failed[0].1, None, "is not a folder");
    let (loaded, failed) = load_skills_dir(tmp.path());
    assert!(
        loaded.is_empty() && failed.is_empty(),
        "an empty folder of skills is fine"
    );
}

#[test]
fn resolve_under_refuses_what_leaves_the_root() {
    let tmp = TempDir::new("resolve");
    tmp.write("skill/references/a.md", "x");
    tmp.write("secret.txt", "x");
    let root = tmp.path().join("skill");
    let canonical = std::fs::canonicalize(&root).unwrap();
    assert_eq!(
        resolve_under(&root, "references/a.md").unwrap(),
        canonical.join("references/a.md")
    );
    assert_eq!(
        resolve_under(&root, "./references/a.md").unwrap(),
        canonical.join("references/a.md")
    );
    for (path, needle) in [
        ("/etc/passwd", "is absolute"),
        ("../secret.txt", "`..` component"),
        ("a/../../x", "`..` component"),
        ("references/../../secret.txt", "`..` component"),
        ("", "is empty"),
        ("references/missing.md", "no file"),
        (".git/config", "hidden entry"),
    ] {
        let refused = resolve_under(&root, path).expect_err(path);
        assert!(refused.message.contains(needle), "{path}: {refused}");
        assert_eq!(refused.file, path);
    }
}

#[cfg(unix)]
#[test]
fn resolve_under_refuses_a_symlink_escape() {
    let tmp = TempDir::new("resolve-link");
    tmp.write("skill/SKILL.md", "x");
    tmp.write("secret.txt", "x");
    let root = tmp.path().join("skill");
    std::os::unix::fs::symlink(tmp.path().join("secret.txt"), root.join("link.txt")).unwrap();
    std::os::unix::fs::symlink(tmp.path(), root.join("up")).unwrap();
    for path in ["link.txt", "up/secret.txt"] {
        let refused = resolve_under(&root, path).expect_err(path);
        assert!(
            refused.message.contains("outside the skill folder"),
            "{refused}"
        );
    }
}

#[test]
fn allowed_tools_typos_are_suggested_and_patterns_ignored() {
    let text = "---\nname: pdf\ndescription: d\nlicense: MIT\nallowed-tools: Bash(git:*) mcp__x__* \
                Read, serch fill_form Write:x zzz\n---\nBody.\n";
    let md = parse_skill_md(text, None).unwrap();
    let found = unknown_allowed_tools(&md, &["search", "fill_form", "Read"]);
    assert_eq!(found.len(), 2, "{found:#?}");
    assert_has(
        &found,
        Some(5),
        "`allowed-tools` names `serch`, which is no tool here: did you mean `search`?",
    );
    assert_has(
        &found,
        Some(5),
        "`zzz`, which is no tool here: remove it, or write one of `search`",
    );
    assert!(found[0].to_string().starts_with("SKILL.md:5: "));
}

#[test]
fn no_allowed_tools_means_nothing_to_report() {
    let md = parse_skill_md(&skill_md("pdf", "Body.\n"), None).unwrap();
    assert!(unknown_allowed_tools(&md, &[]).is_empty());
}
