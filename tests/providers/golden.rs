//! Golden definitions: every tool of the golden toolkit, rendered for every provider, exactly
//! as the request's `tools` value (`tests/golden/definitions/<provider>.json`). Refresh with
//! `TOOLGROUP_BLESS=1 cargo test -p toolgroup --test providers golden::` and review the diff.

use crate::support::*;

#[test]
fn golden_definitions_of_every_provider() {
    let kit = kit();
    for &provider in Provider::ALL {
        let rendered = Rendered::new(&kit, provider);
        assert_golden(
            &format!("definitions/{}", provider.name()),
            &rendered.all_tools_json(&kit),
        );
    }
}

#[test]
fn the_goldens_cover_every_tool() {
    // The golden toolkit's tools, `reset_tools` first: a golden file that lost a tool fails
    // the comparison above, this pins what the toolkit holds.
    let kit = kit();
    let names: Vec<&str> = kit.all_definitions().map(|d| d.name).collect();
    assert_eq!(
        names,
        ["reset_tools", "ping", "search", "tag", "tree", "numbers"]
    );
}
