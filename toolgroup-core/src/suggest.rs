//! "Did you mean" suggestions for misspelled names.

/// The candidate closest to `input` (optimal string alignment distance, so a transposition
/// counts once), if it is close enough to be a plausible typo.
pub(crate) fn did_you_mean<'a>(
    input: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    // Names are at most 64 characters; anything much longer is no typo (and would be slow).
    if input.len() > 128 {
        return None;
    }
    let input_lower = input.to_ascii_lowercase();
    let limit = (input.chars().count() / 3).clamp(1, 3);
    candidates
        .into_iter()
        .map(|c| {
            (
                strsim::osa_distance(&input_lower, &c.to_ascii_lowercase()),
                c,
            )
        })
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

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
