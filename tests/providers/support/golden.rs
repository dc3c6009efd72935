//! Golden files, with a bless switch, in the build's key order.

use serde_json::Value;

/// Whether this build's `serde_json::Map` keeps insertion order (some crate in the build
/// enabled serde_json's `preserve_order`); without it, keys are sorted.
pub fn preserve_order() -> bool {
    let map: serde_json::Map<String, Value> =
        serde_json::from_str(r#"{"b": 1, "a": 2}"#).expect("valid JSON");
    map.keys().next().map(String::as_str) == Some("b")
}

/// Compare the JSON text `actual` with its golden file, or write the file when
/// `TOOLGROUP_BLESS` is set (then review the diff).
///
/// The default build's goldens are `tests/golden/<name>.json`, with sorted keys; a build with
/// serde_json's `preserve_order` (toolgroup's `preserve_order` feature) has its own,
/// `tests/golden/preserve_order/<name>.json`, in declaration order. The comparison is of the
/// exact text, pretty-printed in the build's key order, so it checks key order too.
pub fn assert_golden(name: &str, actual: &str) {
    let mut path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    if preserve_order() {
        path.push("preserve_order");
    }
    let path = path.join(format!("{name}.json"));
    let value: Value = serde_json::from_str(actual)
        .unwrap_or_else(|e| panic!("{name}: not valid JSON ({e}): {actual}"));
    let pretty = serde_json::to_string_pretty(&value).expect("a value serialises") + "\n";
    if std::env::var_os("TOOLGROUP_BLESS").is_some() {
        std::fs::create_dir_all(path.parent().expect("a parent"))
            .expect("create the golden directory");
        std::fs::write(&path, &pretty).expect("write the golden file");
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|_| {
        panic!(
            "no golden file {}; run with TOOLGROUP_BLESS=1 and review it",
            path.display()
        )
    });
    assert!(
        pretty == expected,
        "{name} changed; run with TOOLGROUP_BLESS=1 and review the diff of {}\n{pretty}",
        path.display()
    );
}
