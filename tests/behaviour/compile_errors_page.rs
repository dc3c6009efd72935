//! `docs/compile-errors.md` agrees with the code: it quotes the messages of the compile-fail
//! tests (`tests/ui/fail/*.stderr`) exactly, and documents every one of them. (The page's Rust
//! blocks are compiled as doc tests of the `toolgroup` crate.)

use std::collections::BTreeSet;
use std::path::Path;

/// The `error...` lines of a compiler output or of a page's `text` blocks.
fn error_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines().filter(|l| l.starts_with("error"))
}

/// A message with every `` `code` `` span blanked: the shape shared by all instances of one
/// error (`invalid tool name `web.search`` and `invalid tool name `1st``).
fn shape(message: &str) -> String {
    let mut out = String::new();
    for (i, part) in message.split('`').enumerate() {
        out.push_str(if i % 2 == 1 { "`_`" } else { part });
    }
    out
}

/// The lines inside the page's ```` ```text ```` blocks.
fn text_blocks(page: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for line in page.lines() {
        if inside && line == "```" {
            inside = false;
        } else if inside {
            out.push_str(line);
            out.push('\n');
        } else if line == "```text" {
            inside = true;
        }
    }
    out
}

fn ui_errors() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ui/fail");
    let mut lines = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "stderr") {
            let text = std::fs::read_to_string(&path).unwrap();
            lines.extend(error_lines(&text).map(str::to_owned));
        }
    }
    assert!(!lines.is_empty(), "no compile-fail outputs in {dir:?}");
    lines
}

fn page() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/compile-errors.md");
    text_blocks(&std::fs::read_to_string(path).unwrap())
}

#[test]
fn every_quoted_message_is_a_real_one() {
    let real: BTreeSet<String> = ui_errors().into_iter().collect();
    let page = page();
    let quoted: Vec<&str> = error_lines(&page).collect();
    assert!(quoted.len() > 20, "too few messages found: {quoted:?}");
    for line in quoted {
        assert!(
            real.contains(line),
            "docs/compile-errors.md quotes a message no compile-fail test produces (reword it \
             from tests/ui/fail/*.stderr):\n{line}"
        );
    }
}

#[test]
fn every_compile_error_is_documented() {
    let page = page();
    let documented: BTreeSet<String> = error_lines(&page).map(shape).collect();
    for line in ui_errors() {
        assert!(
            documented.contains(&shape(&line)),
            "docs/compile-errors.md does not document this compile error (add its message, \
             cause and fix):\n{line}"
        );
    }
}

#[test]
fn shapes_blank_code_spans_only() {
    assert_eq!(
        shape("invalid tool name `1st`: a tool name (the `_` rule)"),
        "invalid tool name `_`: a tool name (the `_` rule)"
    );
    assert_eq!(shape("no code"), "no code");
}
