//! "Did you mean" suggestions for misspelled names.

/// The candidate closest to `input` if it is a plausible typo: one algorithm and threshold
/// for every message of every toolgroup crate (see `toolgroup_skills::shared`).
pub use toolgroup_skills::did_you_mean;

/// `` `a`, `b`, `c` `` (or "none").
pub(crate) fn list_names<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    let mut out = String::new();
    for n in names {
        if !out.is_empty() {
            out.push_str(", ");
        }
        out.push('`');
        out.push_str(n);
        out.push('`');
    }
    if out.is_empty() {
        out.push_str("none");
    }
    out
}
