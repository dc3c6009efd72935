//! The README as GitHub and crates.io show it: every Rust block is the program the doc tests
//! run (no hidden lines), and the texts it shares with the crate docs are copies of their one
//! source under `docs/api/`.

use std::path::Path;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn read(path: &str) -> String {
    std::fs::read_to_string(Path::new(ROOT).join(path))
        .unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
}

/// rustdoc's own code block attributes (besides `ignore-*` and `edition*`).
const RUSTDOC_ATTRS: &[&str] = &[
    "should_panic",
    "no_run",
    "compile_fail",
    "test_harness",
    "standalone_crate",
];

/// Whether rustdoc compiles a fenced block with this info string as Rust (and so hides its
/// `# ` lines): no language, `rust`, or only rustdoc's own attributes (`ignore`, `no_run`, ...).
fn is_rust(info: &str) -> bool {
    let tokens: Vec<&str> = info
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .collect();
    tokens.contains(&"rust")
        || tokens.iter().all(|t| {
            RUSTDOC_ATTRS.contains(t) || t.starts_with("ignore") || t.starts_with("edition")
        })
}

/// The lines rustdoc hides in the Rust blocks of `markdown`, as (line number, line).
fn hidden_lines(markdown: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    // The opening fence (its character and length) and whether the block is Rust.
    let mut open: Option<(char, usize, bool)> = None;
    for (i, line) in markdown.lines().enumerate() {
        let trimmed = line.trim_start();
        let fence = trimmed
            .chars()
            .next()
            .filter(|c| *c == '`' || *c == '~')
            .map(|c| (c, trimmed.chars().take_while(|&d| d == c).count()))
            .filter(|&(_, n)| n >= 3);
        match (open, fence) {
            (None, Some((c, n))) => open = Some((c, n, is_rust(&trimmed[n..]))),
            (Some((c, n, _)), Some((d, m)))
                if c == d && m >= n && trimmed[m..].trim().is_empty() =>
            {
                open = None
            }
            (Some((_, _, true)), _) if trimmed == "#" || trimmed.starts_with("# ") => {
                found.push((i + 1, line.to_owned()))
            }
            _ => {}
        }
    }
    found
}

#[test]
fn readme_rust_blocks_have_no_hidden_lines() {
    // The guides GitHub renders from `docs/` follow the same rule as the README.
    let mut pages = vec!["README.md".to_owned()];
    for entry in std::fs::read_dir(Path::new(ROOT).join("docs")).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if name.ends_with(".md") {
            pages.push(format!("docs/{name}"));
        }
    }
    let mut problems = Vec::new();
    for page in &pages {
        for (line, text) in hidden_lines(&read(page)) {
            problems.push(format!("{page}:{line}: {text}"));
        }
    }
    assert!(
        problems.is_empty(),
        "rustdoc hides these lines, GitHub and crates.io show them: write the block as a \
         complete program (`fn main`, `#[tokio::main]`) instead\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_hidden_line_check_finds_hidden_lines() {
    let page = "```rust\nlet a = 1;\n# fn main() {}\n```\n\n```sh\n# a shell comment\n```\n\n\
                ````\n```\n#\n````\n\n```rust,ignore\n    # let b = 2;\n```\n";
    assert_eq!(
        hidden_lines(page),
        [
            (3, "# fn main() {}".to_owned()),
            (12, "#".to_owned()),
            (16, "    # let b = 2;".to_owned()),
        ]
    );
}

/// The README's copies of `docs/api/` files: `(file, text between the markers)`.
fn shared_regions(readme: &str) -> Vec<(String, String)> {
    let start = "<!-- from docs/api/";
    let mut out = Vec::new();
    let mut rest = readme;
    while let Some(at) = rest.find(start) {
        let after = &rest[at + start.len()..];
        let name = &after[..after.find(':').expect("`<!-- from docs/api/NAME: ...`")];
        let body_start = after.find("-->\n").expect("the marker ends") + 4;
        let end = format!("<!-- end of docs/api/{name} -->");
        let body_end = after
            .find(&end)
            .unwrap_or_else(|| panic!("README: no `{end}` after the copy of {name}"));
        out.push((name.to_owned(), after[body_start..body_end].to_owned()));
        rest = &after[body_end..];
    }
    out
}

#[test]
fn readme_copies_of_the_crate_docs_are_identical() {
    let readme = read("README.md");
    let lib = read("src/lib.rs");
    let regions = shared_regions(&readme);
    let names: Vec<&str> = regions.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["features.md", "tour.md", "skills.md"]);
    for (name, copy) in &regions {
        let source = read(&format!("docs/api/{name}"));
        // The README puts a blank line inside each marker, for Markdown's sake.
        assert_eq!(
            copy.trim_matches('\n'),
            source.trim_matches('\n'),
            "README.md's copy of docs/api/{name} differs: edit docs/api/{name}, then copy it \
             between the README's markers"
        );
        assert!(
            lib.contains(&format!("include_str!(\"../docs/api/{name}\")")),
            "the crate docs include docs/api/{name}"
        );
    }
}
