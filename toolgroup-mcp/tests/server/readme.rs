//! The README's axum example is `examples/mcp_axum.rs` word for word (that file is compiled by
//! CI with the facade's `mcp` feature; the README block itself is not doc-tested, since the
//! facade's doc tests run without that feature).

#[test]
fn the_readme_axum_example_is_the_compiled_example() {
    let readme = include_str!("../../../README.md");
    let example = include_str!("../../../examples/mcp_axum.rs");
    let marker = "[`examples/mcp_axum.rs`](examples/mcp_axum.rs)";
    let at = readme.find(marker).expect("the README names the example");
    let start = readme[at..]
        .find("```rust,ignore\n")
        .expect("a code block follows")
        + at
        + 15;
    let end = readme[start..].find("```\n").expect("the block ends") + start;
    let block = &readme[start..end];
    let code: String = example
        .lines()
        .skip_while(|l| l.starts_with("//!"))
        .skip_while(|l| l.is_empty())
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(block, code, "README block and examples/mcp_axum.rs differ");
}
