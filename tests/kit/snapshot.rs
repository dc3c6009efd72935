//! Definition snapshots: a changed doc comment fails with a readable diff, and passes once
//! blessed; broken snapshot files say what is wrong and how to fix it.

use std::path::{Path, PathBuf};

use toolgroup::provider::Provider;
use toolgroup::testing::{
    MismatchKind, compare_snapshot, definitions_snapshot, rendered_definitions,
};

/// The toolkit as it was.
mod before {
    use toolgroup::prelude::*;

    /// Search the web.
    #[tool]
    pub fn search(
        /// What to search for.
        query: String,
    ) -> String {
        query
    }

    /// Write a note.
    #[tool]
    pub fn note(
        /// The note.
        text: String,
    ) -> String {
        text
    }

    #[tool_group(name = "web", description = "The web.", tools = [search])]
    pub struct Web;

    #[tool_group(name = "notes", description = "Notes.", tools = [note])]
    pub struct Notes;

    #[toolkit]
    pub struct Kit {
        #[basic]
        pub notes: Notes,
        pub web: Web,
    }

    pub fn toolkit() -> Toolkit<Kit> {
        Toolkit::new(Kit {
            notes: Notes,
            web: Web,
        })
    }
}

/// The same toolkit after someone reworded a doc comment.
mod after {
    use toolgroup::prelude::*;

    /// Search the web and return the ten best pages.
    #[tool]
    pub fn search(
        /// What to search for.
        query: String,
    ) -> String {
        query
    }

    /// Write a note.
    #[tool]
    pub fn note(
        /// The note.
        text: String,
    ) -> String {
        text
    }

    #[tool_group(name = "web", description = "The web.", tools = [search])]
    pub struct Web;

    #[tool_group(name = "notes", description = "Notes.", tools = [note])]
    pub struct Notes;

    #[toolkit]
    pub struct Kit {
        #[basic]
        pub notes: Notes,
        pub web: Web,
    }

    pub fn toolkit() -> Toolkit<Kit> {
        Toolkit::new(Kit {
            notes: Notes,
            web: Web,
        })
    }
}

/// A fresh directory under the system's temporary one.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("toolgroup-kit-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn bless(path: &Path, text: &str) {
    compare_snapshot(path, text, true).unwrap();
}

#[test]
fn a_changed_doc_comment_fails_with_a_diff_and_passes_after_bless() {
    let dir = scratch("doc-comment");
    let path = dir.join("snapshots/anthropic.json");
    let (old, new) = (before::toolkit(), after::toolkit());

    let missing = definitions_snapshot(&old, None, Provider::Anthropic, &path).unwrap_err();
    assert_eq!(missing.kind, MismatchKind::Missing);
    assert_eq!(
        missing.to_string(),
        format!(
            "the definitions snapshot {} does not exist; run the test with TOOLGROUP_BLESS=1 to write it",
            path.display()
        )
    );

    bless(
        &path,
        &rendered_definitions(&old, None, Provider::Anthropic),
    );
    let written = std::fs::read_to_string(&path).unwrap();
    assert!(written.starts_with("[\n  {\n") && written.ends_with("]\n"));
    // Sorted by name: `note` before `search`, whatever the toolkit's order.
    assert!(written.find("\"note\"").unwrap() < written.find("\"search\"").unwrap());
    definitions_snapshot(&old, None, Provider::Anthropic, &path).unwrap();

    let changed = definitions_snapshot(&new, None, Provider::Anthropic, &path).unwrap_err();
    let MismatchKind::Differs(diff) = &changed.kind else {
        panic!("{changed}")
    };
    let lines: Vec<&str> = diff.lines().collect();
    let removed = lines.iter().position(|l| l.starts_with('-')).unwrap();
    assert_eq!(
        &lines[removed..removed + 2],
        [
            "-    \"description\": \"Search the web.\",",
            "+    \"description\": \"Search the web and return the ten best pages.\",",
        ],
        "{diff}"
    );
    assert_eq!(
        diff.lines().filter(|l| l.starts_with(['-', '+'])).count(),
        2
    );
    assert!(lines[0].starts_with("@@ -"), "{diff}");
    let message = changed.to_string();
    assert!(message.contains("(- snapshot, + now):\n@@"), "{message}");
    assert!(message.ends_with(
        "if the change is intended, run the test with TOOLGROUP_BLESS=1 to update the snapshot, and review its diff"
    ));

    bless(
        &path,
        &rendered_definitions(&new, None, Provider::Anthropic),
    );
    definitions_snapshot(&new, None, Provider::Anthropic, &path).unwrap();
    assert!(definitions_snapshot(&old, None, Provider::Anthropic, &path).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

/// With a session, only its available tools are compared: activating `web` is a change of
/// what the model sees.
#[test]
fn a_session_snapshot_follows_the_active_groups() {
    let dir = scratch("session");
    let path = dir.join("gemini.json");
    let kit = before::toolkit();
    let quiet = kit.session();
    bless(
        &path,
        &rendered_definitions(&kit, Some(&quiet), Provider::Gemini),
    );
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.contains("\"note\"") && !text.contains("\"search\""),
        "{text}"
    );
    assert!(!text.contains("functionDeclarations"), "{text}");
    definitions_snapshot(&kit, Some(&quiet), Provider::Gemini, &path).unwrap();
    let mut web = kit.session();
    web.activate(before::KitGroup::Web);
    let err = definitions_snapshot(&kit, Some(&web), Provider::Gemini, &path).unwrap_err();
    let MismatchKind::Differs(diff) = &err.kind else {
        panic!("{err}")
    };
    assert!(diff.contains("+    \"name\": \"search\","), "{diff}");
    assert!(!diff.lines().any(|l| l.starts_with('-')), "{diff}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn broken_snapshot_files_say_how_to_fix_them() {
    let dir = scratch("broken");
    std::fs::create_dir_all(&dir).unwrap();
    let kit = before::toolkit();

    let conflict = dir.join("conflict.json");
    std::fs::write(&conflict, "[\n<<<<<<< HEAD\n]\n").unwrap();
    let err = definitions_snapshot(&kit, None, Provider::OpenAiChat, &conflict).unwrap_err();
    assert!(matches!(err.kind, MismatchKind::NotJson(_)), "{err}");
    assert_eq!(
        err.to_string(),
        format!(
            "the definitions snapshot {} is not JSON (expected value at line 2 column 1); resolve a merge conflict in it, or run the test with TOOLGROUP_BLESS=1 to write it anew",
            conflict.display()
        )
    );

    // A directory where the file should be cannot be read.
    let err = definitions_snapshot(&kit, None, Provider::OpenAiChat, &dir).unwrap_err();
    assert!(matches!(err.kind, MismatchKind::Unreadable(_)), "{err}");
    assert!(err.to_string().starts_with(&format!(
        "cannot read the definitions snapshot {}: ",
        dir.display()
    )));

    // A snapshot written with CRLF line ends (a Windows checkout) still matches.
    let crlf = dir.join("crlf.json");
    let text = rendered_definitions(&kit, None, Provider::OpenAiChat).replace('\n', "\r\n");
    std::fs::write(&crlf, text).unwrap();
    definitions_snapshot(&kit, None, Provider::OpenAiChat, &crlf).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

/// The macro in a child process of this test binary: it resolves the path in the calling
/// crate, fails with the diff, and writes the file under `TOOLGROUP_BLESS=1`.
#[test]
#[ignore = "run by `the_macro_checks_and_blesses`, in a child process"]
fn snapshot_macro_in_a_child() {
    let path = PathBuf::from(std::env::var_os("KIT_SNAPSHOT").expect("set by the parent"));
    let session = after::toolkit().session();
    match std::env::var("KIT_TOOLKIT").as_deref() {
        Ok("before") => {
            toolgroup::assert_definitions_snapshot!(before::toolkit(), Provider::OpenAiChat, &path)
        }
        _ => toolgroup::assert_definitions_snapshot!(
            &after::toolkit(),
            session,
            Provider::OpenAiChat,
            &path
        ),
    }
}

#[test]
fn the_macro_checks_and_blesses() {
    let dir = scratch("macro");
    let path = dir.join("nested/openai.json");
    let child = |kit: &str, bless: bool| {
        let mut command = std::process::Command::new(std::env::current_exe().unwrap());
        command
            .args([
                "--exact",
                "snapshot::snapshot_macro_in_a_child",
                "--include-ignored",
            ])
            .env("KIT_SNAPSHOT", &path)
            .env("KIT_TOOLKIT", kit)
            .env_remove("TOOLGROUP_BLESS");
        if bless {
            command.env("TOOLGROUP_BLESS", "1");
        }
        let out = command.output().unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let (ok, out) = child("before", false);
    assert!(
        !ok && out.contains("does not exist; run the test with TOOLGROUP_BLESS=1"),
        "{out}"
    );
    assert!(child("before", true).0);
    assert!(path.is_file());
    assert!(child("before", false).0);
    // `after` with its session: only the basic `note` is available, whose doc is unchanged,
    // so the first line removed is `search`'s definition.
    let (ok, out) = child("after", false);
    assert!(!ok && out.contains("-    \"function\": {"), "{out}");
    assert!(child("after", true).0);
    assert!(child("after", false).0);
    let _ = std::fs::remove_dir_all(&dir);
}
