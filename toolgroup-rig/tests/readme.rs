//! The root README's rig example is this crate's README example (which the doc tests compile
//! and run): the root's copy is marked `ignore` there, since the main crate has no rig.

fn rust_block_after(text: &str, heading: &str) -> String {
    let from = text.find(heading).expect("the heading is there");
    let rest = &text[from..];
    let start = rest.find("```rust").expect("a rust block follows");
    let body = &rest[start..];
    let open = body.find('\n').expect("the fence line ends") + 1;
    let close = body[open..].find("\n```").expect("the block closes");
    body[open..open + close].to_owned()
}

#[test]
fn the_root_readme_shows_the_compiled_example() {
    let ours = include_str!("../README.md");
    let root = include_str!("../../README.md");
    let compiled = rust_block_after(ours, "# toolgroup-rig");
    let shown = rust_block_after(root, "## Using toolgroup with rig");
    assert_eq!(shown, compiled);
    assert!(root.contains("## Using toolgroup with rig\n"));
    let section = &root[root.find("## Using toolgroup with rig").unwrap()..];
    assert!(section.contains("```rust,ignore\n"));
}
