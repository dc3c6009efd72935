//! Golden files, one set for both key orders, compared as JSON values, with a bless switch.

use serde_json::Value;

/// Whether this build's `serde_json::Map` keeps insertion order (some crate in the build
/// enabled serde_json's `preserve_order`); without it, keys are sorted.
pub fn preserve_order() -> bool {
    let map: serde_json::Map<String, Value> =
        serde_json::from_str(r#"{"b": 1, "a": 2}"#).expect("valid JSON");
    map.keys().next().map(String::as_str) == Some("b")
}

/// Compare the JSON text `actual` with its golden file `tests/golden/<name>.json`, or write
/// the file when `TOOLGROUP_BLESS` is set (then review the diff).
///
/// One set of goldens serves both key orders: the files hold the default build's output
/// (keys sorted) and the comparison is of parsed values, in which object key order does not
/// count. The one array whose order follows key order, a schema's `required` (listed in
/// property order under OpenAI strict mode), is compared as a set in a `preserve_order`
/// build; `tests/behaviour/key_order.rs` pins that order, and every other declaration order,
/// explicitly. Blessing writes the default build's output; a `preserve_order` build blessing
/// only compares (its `required` lists would otherwise churn the files).
pub fn assert_golden(name: &str, actual: &str) {
    let path = golden_path(name);
    let value: Value = serde_json::from_str(actual)
        .unwrap_or_else(|e| panic!("{name}: not valid JSON ({e}): {actual}"));
    if std::env::var_os("TOOLGROUP_BLESS").is_some() && !preserve_order() {
        let pretty = serde_json::to_string_pretty(&value).expect("a value serialises") + "\n";
        std::fs::create_dir_all(path.parent().expect("a parent"))
            .expect("create the golden directory");
        std::fs::write(&path, pretty).expect("write the golden file");
        return;
    }
    let text = std::fs::read_to_string(&path).unwrap_or_else(|_| {
        panic!(
            "no golden file {}; run with TOOLGROUP_BLESS=1 (without `preserve_order`) and review it",
            path.display()
        )
    });
    let expected: Value = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{}: not valid JSON ({e})", path.display()));
    if let Some(differences) = golden_mismatch(&expected, &value, preserve_order()) {
        panic!(
            "{name} differs from {} (as JSON values):\n{differences}\nIf the change is intended, run with TOOLGROUP_BLESS=1 (without `preserve_order`) and review the diff.",
            path.display()
        );
    }
}

/// Where the golden file `name` lives.
pub fn golden_path(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/golden/{name}.json"))
}

/// How many differing paths a mismatch lists.
const SHOWN: usize = 20;

/// The differences between a golden value and an actual one, one line per JSON path
/// (`$[1].input[3].namespace: only in the golden: "web"`), or `None` when they are equal.
/// Object key order never counts; with `required_as_set`, neither does the order of a
/// `required` array of strings.
pub fn golden_mismatch(expected: &Value, actual: &Value, required_as_set: bool) -> Option<String> {
    let mut lines = Vec::new();
    diff(expected, actual, "$", None, required_as_set, &mut lines);
    if lines.is_empty() {
        return None;
    }
    let total = lines.len();
    let mut out: Vec<String> = lines
        .into_iter()
        .take(SHOWN)
        .map(|l| format!("  {l}"))
        .collect();
    if total > SHOWN {
        out.push(format!("  ... and {} more", total - SHOWN));
    }
    Some(out.join("\n"))
}

fn diff(
    expected: &Value,
    actual: &Value,
    path: &str,
    key: Option<&str>,
    required_as_set: bool,
    out: &mut Vec<String>,
) {
    match (expected, actual) {
        (Value::Object(e), Value::Object(a)) => {
            for (k, ev) in e {
                let at = format!("{path}.{k}");
                match a.get(k) {
                    Some(av) => diff(ev, av, &at, Some(k), required_as_set, out),
                    None => out.push(format!("{at}: only in the golden: {}", short(ev))),
                }
            }
            for (k, av) in a {
                if !e.contains_key(k) {
                    out.push(format!("{path}.{k}: not in the golden: {}", short(av)));
                }
            }
        }
        (Value::Array(e), Value::Array(a)) => {
            if required_as_set && key == Some("required") && strings(e) && strings(a) {
                let (mut e, mut a) = (e.clone(), a.clone());
                let by_text = |x: &Value, y: &Value| x.as_str().cmp(&y.as_str());
                e.sort_by(by_text);
                a.sort_by(by_text);
                if e != a {
                    out.push(format!(
                        "{path}: expected {} (in any order), got {}",
                        short(&Value::Array(e)),
                        short(&Value::Array(a))
                    ));
                }
                return;
            }
            for (i, (ev, av)) in e.iter().zip(a).enumerate() {
                diff(ev, av, &format!("{path}[{i}]"), None, required_as_set, out);
            }
            for (i, ev) in e.iter().enumerate().skip(a.len()) {
                out.push(format!("{path}[{i}]: only in the golden: {}", short(ev)));
            }
            for (i, av) in a.iter().enumerate().skip(e.len()) {
                out.push(format!("{path}[{i}]: not in the golden: {}", short(av)));
            }
        }
        _ if expected == actual => {}
        _ => out.push(format!(
            "{path}: expected {}, got {}",
            short(expected),
            short(actual)
        )),
    }
}

fn strings(items: &[Value]) -> bool {
    items.iter().all(Value::is_string)
}

/// A value as compact JSON, cut to a readable length.
fn short(value: &Value) -> String {
    const MAX: usize = 160;
    let text = value.to_string();
    match text.char_indices().nth(MAX) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text,
    }
}
