//! `load_skill`: files, links against them, symlinks, hidden entries and caps.

mod common;

use common::{TempDir, assert_has, skill_md};
use toolgroup_skills::{Diagnostic, LoadedSkill, MAX_FILES, MAX_TOTAL_BYTES, load_skill};

/// A skill folder `pdf-tools` inside a fresh temp dir (kept alive by the returned guard).
fn skill(body: &str) -> (TempDir, std::path::PathBuf) {
    let tmp = TempDir::new("load");
    let dir = tmp.path().join("pdf-tools");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("SKILL.md"), skill_md("pdf-tools", body)).unwrap();
    (tmp, dir)
}

fn write(dir: &std::path::Path, relative: &str, content: &[u8]) {
    let path = dir.join(relative);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, content).unwrap();
}

fn load_ok(dir: &std::path::Path) -> LoadedSkill {
    load_skill(dir).unwrap_or_else(|found| panic!("{found:#?}"))
}

fn load_err(dir: &std::path::Path) -> Vec<Diagnostic> {
    load_skill(dir).expect_err("should fail")
}

#[test]
fn files_are_listed_sorted_with_hash_type_and_text() {
    let (_tmp, dir) = skill("See [forms](references/forms.md) and run `python scripts/fill.py`.\n");
    write(&dir, "references/forms.md", b"# Forms\n");
    write(&dir, "scripts/fill.py", b"abc");
    write(&dir, "assets/logo.png", &[0x89, b'P', b'N', b'G', 0xff]);
    write(&dir, "assets-list.txt", b"x");
    let skill = load_ok(&dir);
    assert_eq!(skill.name(), "pdf-tools");
    assert_eq!(skill.dir, std::fs::canonicalize(&dir).unwrap());
    let paths: Vec<&str> = skill.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "SKILL.md",
            "assets-list.txt",
            "assets/logo.png",
            "references/forms.md",
            "scripts/fill.py"
        ]
    );
    let script = skill.file("scripts/fill.py").unwrap();
    assert_eq!(
        script.sha256,
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
    assert_eq!(
        (script.size, script.mime, script.text),
        (3, "text/x-python", true)
    );
    assert_eq!(script.bytes, b"abc");
    assert_eq!(script.abs, skill.dir.join("scripts/fill.py"));
    let logo = skill.file("assets/logo.png").unwrap();
    assert_eq!((logo.mime, logo.text), ("image/png", false));
    let main = skill.file("SKILL.md").unwrap();
    assert_eq!((main.mime, main.text), ("text/markdown", true));
    assert!(skill.file("missing.md").is_none());
}

#[test]
fn broken_links_and_bare_paths_are_reported_with_lines() {
    // SKILL.md: frontmatter on lines 1-4, so the body starts on line 5.
    let body = "Intro.\n\
                Read [the guide](references/guide.md) first.\n\
                Then `python scripts/missing.py input.pdf`.\n\
                ![logo](assets/logo.png)\n\
                [ok](references/ok.md) [up](../secret.md) [abs](/etc/passwd)\n";
    let (_tmp, dir) = skill(body);
    write(&dir, "references/ok.md", b"ok");
    let found = load_err(&dir);
    assert_eq!(found.len(), 5, "{found:#?}");
    assert_has(
        &found,
        Some(6),
        "`references/guide.md` names no file or folder in the skill",
    );
    assert_has(
        &found,
        Some(7),
        "`scripts/missing.py` names no file or folder",
    );
    assert_has(&found, Some(8), "`assets/logo.png` names no file");
    assert_has(&found, Some(9), "`../secret.md` leaves the skill folder");
    assert_has(&found, Some(9), "`/etc/passwd` is an absolute path");
    assert!(found.iter().all(|d| d.file == "SKILL.md"));
}

#[test]
fn a_near_miss_link_gets_a_suggestion() {
    let (_tmp, dir) = skill("See references/froms.md.\n");
    write(&dir, "references/forms.md", b"x");
    assert_has(
        &load_err(&dir),
        Some(5),
        "did you mean `references/forms.md`?",
    );
}

#[test]
fn fine_links_pass() {
    let body = "[site](https://example.com/x) [mail](mailto:a@b.c) [top](#usage)\n\
                [file](references/a%20b.md#part) [dir](references/) [dir2](assets)\n\
                [self](./SKILL.md) [<angle>](<references/a b.md> \"Title\")\n\
                Put outputs in scripts/ and see assets/img.png.\n\
                ## Usage\n";
    let (_tmp, dir) = skill(body);
    write(&dir, "references/a b.md", b"x");
    write(&dir, "assets/img.png", b"x");
    write(&dir, "scripts/run.sh", b"x");
    load_ok(&dir);
}

#[test]
fn frontmatter_and_link_problems_come_together() {
    let tmp = TempDir::new("together");
    tmp.write(
        "pdf-tools/SKILL.md",
        "---\nname: pdf\ndescription: d\n---\nSee references/x.md\n",
    );
    let found = load_err(&tmp.path().join("pdf-tools"));
    assert_eq!(found.len(), 2, "{found:#?}");
    assert_has(&found, Some(2), "the skill's folder is `pdf-tools`");
    assert_has(&found, Some(5), "`references/x.md` names no file");
}

#[test]
fn hidden_entries_are_skipped() {
    let (_tmp, dir) = skill("Body.\n");
    write(&dir, ".git/config", b"x");
    write(&dir, ".env", b"SECRET=1");
    write(&dir, "references/.DS_Store", b"x");
    write(&dir, "references/a.md", b"x");
    let skill = load_ok(&dir);
    let paths: Vec<&str> = skill.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(paths, ["SKILL.md", "references/a.md"]);
}

#[test]
fn a_link_to_a_hidden_file_is_broken() {
    let (_tmp, dir) = skill("See [env](.env).\n");
    write(&dir, ".env", b"x");
    assert_has(&load_err(&dir), Some(5), "`.env` names no file or folder");
}

#[test]
fn a_missing_skill_md_says_so() {
    let tmp = TempDir::new("missing");
    tmp.write("pdf-tools/skill.md", "x");
    let found = load_err(&tmp.path().join("pdf-tools"));
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(found[0].message.contains("no SKILL.md"), "{found:#?}");
    assert!(
        found[0]
            .message
            .contains("found `skill.md`: rename it to `SKILL.md`"),
        "{found:#?}"
    );
    let tmp = TempDir::new("missing-none");
    std::fs::create_dir(tmp.path().join("x")).unwrap();
    assert_has(&load_err(&tmp.path().join("x")), None, "add one");
    assert_has(
        &load_err(&tmp.path().join("nope")),
        None,
        "cannot be opened",
    );
}

#[test]
fn skill_md_must_be_utf8() {
    let tmp = TempDir::new("utf8");
    tmp.write("pdf-tools/SKILL.md", [0xff, 0xfe, b'-']);
    assert_has(
        &load_err(&tmp.path().join("pdf-tools")),
        None,
        "not valid UTF-8",
    );
}

#[test]
fn the_file_cap_is_reported_once() {
    let (_tmp, dir) = skill("Body.\n");
    for i in 0..MAX_FILES {
        write(&dir, &format!("assets/f{i:03}.txt"), b"x");
    }
    let found = load_err(&dir);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].file, "");
    assert!(
        found[0].message.contains("more than 512 files"),
        "{found:#?}"
    );
}

#[test]
fn exactly_the_file_cap_loads() {
    let (_tmp, dir) = skill("Body.\n");
    for i in 0..MAX_FILES - 1 {
        write(&dir, &format!("assets/f{i:03}.txt"), b"x");
    }
    assert_eq!(load_ok(&dir).files.len(), MAX_FILES);
}

#[test]
fn the_size_cap_is_reported_once() {
    let (_tmp, dir) = skill("Body.\n");
    std::fs::create_dir(dir.join("assets")).unwrap();
    for name in ["assets/a.bin", "assets/b.bin"] {
        // Sparse: the length costs no disk. With SKILL.md, the two pass the cap at `b.bin`.
        std::fs::File::create(dir.join(name))
            .unwrap()
            .set_len(MAX_TOTAL_BYTES / 2)
            .unwrap();
    }
    let found = load_err(&dir);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(
        found[0]
            .message
            .contains("more than 16 MiB (at `assets/b.bin`)"),
        "{found:#?}"
    );
}

#[cfg(unix)]
mod unix {
    use std::os::unix::fs::symlink;

    use super::*;

    #[test]
    fn a_symlink_outside_is_an_error() {
        let (tmp, dir) = skill("Body.\n");
        tmp.write("outside/secret.txt", "x");
        symlink(tmp.path().join("outside/secret.txt"), dir.join("leak.txt")).unwrap();
        symlink(tmp.path().join("outside"), dir.join("leakdir")).unwrap();
        symlink(tmp.path().join("nowhere"), dir.join("dangling")).unwrap();
        let found = load_err(&dir);
        assert_eq!(found.len(), 3, "{found:#?}");
        let leak = found
            .iter()
            .find(|d| d.file == "leak.txt")
            .expect("leak.txt");
        assert!(leak.message.contains("outside the skill folder"), "{leak}");
        assert!(
            found
                .iter()
                .any(|d| d.file == "leakdir" && d.message.contains("outside"))
        );
        assert!(
            found
                .iter()
                .any(|d| d.file == "dangling" && d.message.contains("does not exist"))
        );
    }

    #[test]
    fn a_symlink_inside_is_followed() {
        let (_tmp, dir) = skill("See references/alias.md and assets/more/real.md.\n");
        write(&dir, "references/real.md", b"abc");
        std::fs::create_dir(dir.join("assets")).unwrap();
        symlink(
            dir.join("references/real.md"),
            dir.join("references/alias.md"),
        )
        .unwrap();
        symlink(dir.join("references"), dir.join("assets/more")).unwrap();
        let skill = load_ok(&dir);
        let alias = skill.file("references/alias.md").unwrap();
        assert_eq!(alias.abs, skill.dir.join("references/real.md"));
        assert_eq!(
            alias.sha256,
            skill.file("references/real.md").unwrap().sha256
        );
        assert!(skill.file("assets/more/real.md").is_some());
    }

    #[test]
    fn a_symlink_loop_is_an_error() {
        let (_tmp, dir) = skill("Body.\n");
        std::fs::create_dir_all(dir.join("references")).unwrap();
        symlink(&dir, dir.join("references/loop")).unwrap();
        assert!(
            load_err(&dir)
                .iter()
                .any(|d| d.file == "references/loop" && d.message.contains("loop"))
        );
    }

    #[test]
    fn a_socket_is_an_error() {
        let (_tmp, dir) = skill("Body.\n");
        // A socket: the non-regular file std makes without a libc call (the file stays after
        // the listener closes, which is all the walk needs).
        drop(std::os::unix::net::UnixListener::bind(dir.join("pipe")).unwrap());
        let found = load_err(&dir);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert_eq!(found[0].file, "pipe");
        assert!(
            found[0].message.contains("not a regular file"),
            "{found:#?}"
        );
    }

    #[test]
    fn a_name_that_is_not_utf8_is_an_error() {
        use std::os::unix::ffi::OsStrExt;
        let (_tmp, dir) = skill("Body.\n");
        let name = std::ffi::OsStr::from_bytes(b"bad\xffname.txt");
        if std::fs::write(dir.join(name), b"x").is_err() {
            return; // A file system that refuses such names cannot hold the problem.
        }
        assert_has(&load_err(&dir), None, "is not valid UTF-8");
    }
}
