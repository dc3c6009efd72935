//! Rules shared by the toolgroup crates: the tool-name rule, the scope-token rule and "did
//! you mean".
//!
//! toolgroup-skills is the leaf every other toolgroup crate depends on (the macros, the
//! runtime and the MCP adapter), and a procedural-macro crate cannot depend on the runtime.
//! So the one definition of each rule lives here: the macros check names and suggest with
//! these functions at compile time, the runtime and the MCP adapter at run time, and
//! `toolgroup-core`'s const checks call the `const fn`s. Messages that state the tool-name
//! rule quote [`TOOL_NAME_RULE`].

/// The longest tool name every provider accepts, in bytes (OpenAI and Anthropic: 64,
/// Gemini: 64). A valid name is ASCII, so this is also its length in characters.
pub const MAX_TOOL_NAME_LEN: usize = 64;

/// The tool-name rule, as every message that states it words it.
///
/// It is `^[A-Za-z_][A-Za-z0-9_-]{0,63}$`: the intersection of what OpenAI and Anthropic
/// accept (`^[a-zA-Z0-9_-]{1,64}$`) and what Gemini accepts (a letter or `_` first, then
/// letters, digits, `_ . : -`, at most 64).
pub const TOOL_NAME_RULE: &str = "a tool name is 1 to 64 ASCII letters, digits, `_` or `-`, \
    starting with a letter or `_` (the rule every provider accepts)";

/// Why a name breaks the [tool-name rule](TOOL_NAME_RULE).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ToolNameError {
    /// The name is empty.
    Empty,
    /// The name starts with something other than an ASCII letter or `_` (a digit, `-`), or
    /// has a character other than ASCII letters, digits, `_` and `-` (a dot, a colon, a
    /// space, a non-ASCII letter...).
    Invalid,
    /// The characters are right, but there are more than [`MAX_TOOL_NAME_LEN`] of them.
    TooLong {
        /// The name's length in bytes (= characters, as they are all ASCII).
        len: usize,
    },
}

/// Checks `name` against the [tool-name rule](TOOL_NAME_RULE): empty first, then the
/// characters, then the length (so a long name with a dot is [`ToolNameError::Invalid`]).
///
/// ```
/// use toolgroup_skills::shared::{ToolNameError, check_tool_name};
///
/// assert_eq!(check_tool_name("web_search"), Ok(()));
/// assert_eq!(check_tool_name("1st"), Err(ToolNameError::Invalid));
/// assert_eq!(check_tool_name(&"a".repeat(65)), Err(ToolNameError::TooLong { len: 65 }));
/// ```
pub const fn check_tool_name(name: &str) -> Result<(), ToolNameError> {
    let bytes = name.as_bytes();
    if bytes.is_empty() {
        return Err(ToolNameError::Empty);
    }
    if !(bytes[0].is_ascii_alphabetic() || bytes[0] == b'_') {
        return Err(ToolNameError::Invalid);
    }
    let mut i = 1;
    while i < bytes.len() {
        let b = bytes[i];
        if !(b.is_ascii_alphanumeric() || b == b'_' || b == b'-') {
            return Err(ToolNameError::Invalid);
        }
        i += 1;
    }
    if bytes.len() > MAX_TOOL_NAME_LEN {
        return Err(ToolNameError::TooLong { len: bytes.len() });
    }
    Ok(())
}

/// Whether `name` follows the [tool-name rule](TOOL_NAME_RULE),
/// `^[A-Za-z_][A-Za-z0-9_-]{0,63}$`.
pub const fn is_valid_tool_name(name: &str) -> bool {
    check_tool_name(name).is_ok()
}

/// Names and whether they follow the [tool-name rule](TOOL_NAME_RULE): the one table the
/// crates that check tool names test their checks against.
#[doc(hidden)]
pub const TOOL_NAME_CASES: &[(&str, bool)] = &[
    ("a", true),
    ("Z", true),
    ("_", true),
    ("_x", true),
    ("web_search", true),
    ("read_file-2", true),
    ("a-b", true),
    ("trailing-", true),
    ("_-_", true),
    ("CamelCase9", true),
    // 64 characters.
    (
        "a123456789012345678901234567890123456789012345678901234567890123",
        true,
    ),
    (
        "_123456789012345678901234567890123456789012345678901234567890123",
        true,
    ),
    // 65 characters.
    (
        "a1234567890123456789012345678901234567890123456789012345678901234",
        false,
    ),
    ("", false),
    ("1tool", false),
    ("9", false),
    ("-x", false),
    ("-", false),
    ("a.b", false),
    ("fs.read", false),
    ("ns:tool", false),
    ("a/b", false),
    ("é", false),
    ("naïve", false),
    ("名前", false),
    ("a b", false),
    (" a", false),
    ("a ", false),
    ("a\n", false),
    ("a\u{0}", false),
    ("bad name!", false),
];

/// The scope-token rule, as every message that states it words it.
///
/// It is RFC 6749 §3.3's `scope-token = 1*( %x21 / %x23-5B / %x5D-7E )`: one or more
/// printable ASCII characters other than space, `"` and `\`. A token is case-sensitive.
pub const SCOPE_TOKEN_RULE: &str = "a scope is 1 or more printable ASCII characters other than space, `\"` and `\\` (RFC 6749 section 3.3)";

/// Why a string breaks the [scope-token rule](SCOPE_TOKEN_RULE).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ScopeTokenError {
    /// The scope is empty.
    Empty,
    /// The scope has a character the rule excludes, at this byte offset (a space, `"`, `\`,
    /// a control character or a non-ASCII one).
    Invalid {
        /// The byte offset of the first such character.
        at: usize,
    },
}

/// Checks `scope` against the [scope-token rule](SCOPE_TOKEN_RULE).
///
/// ```
/// use toolgroup_skills::shared::{ScopeTokenError, check_scope_token};
///
/// assert_eq!(check_scope_token("files:write"), Ok(()));
/// assert_eq!(check_scope_token(""), Err(ScopeTokenError::Empty));
/// assert_eq!(check_scope_token("a b"), Err(ScopeTokenError::Invalid { at: 1 }));
/// ```
pub const fn check_scope_token(scope: &str) -> Result<(), ScopeTokenError> {
    let bytes = scope.as_bytes();
    if bytes.is_empty() {
        return Err(ScopeTokenError::Empty);
    }
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if !(b == 0x21 || (b >= 0x23 && b <= 0x5b) || (b >= 0x5d && b <= 0x7e)) {
            return Err(ScopeTokenError::Invalid { at: i });
        }
        i += 1;
    }
    Ok(())
}

/// Strings and whether they follow the [scope-token rule](SCOPE_TOKEN_RULE): the one table
/// the crates that check scopes test their checks against.
#[doc(hidden)]
pub const SCOPE_TOKEN_CASES: &[(&str, bool)] = &[
    ("files:write", true),
    ("read", true),
    ("https://api.example.com/files.read", true),
    ("!", true),
    ("~", true),
    ("#[]", true),
    ("a^b", true),
    ("", false),
    (" ", false),
    ("a b", false),
    ("a\"b", false),
    ("a\\b", false),
    ("tab\there", false),
    ("new\nline", false),
    ("\u{7f}", false),
    ("caf\u{e9}", false),
];

/// Inputs longer than this many bytes get no suggestion: names are at most 64 characters,
/// so a longer input is no typo (and comparing it would cost time).
pub const MAX_TYPO_INPUT_BYTES: usize = 128;

/// The most edits a suggestion may be away from the input.
pub const MAX_TYPO_EDITS: usize = 3;

/// Characters compared: the input's at most, plus the edits a candidate may add.
const CAP: usize = MAX_TYPO_INPUT_BYTES + MAX_TYPO_EDITS;

/// The candidate closest to `input` if it is a plausible typo of it (see [`typo_distance`]);
/// ties go to the earliest candidate.
///
/// ```
/// use toolgroup_skills::did_you_mean;
///
/// let keys = ["name", "description", "license"];
/// assert_eq!(did_you_mean("nmae", keys), Some("name"));
/// assert_eq!(did_you_mean("descripton", keys), Some("description"));
/// assert_eq!(did_you_mean("foo", keys), None);
/// ```
pub fn did_you_mean<'a>(
    input: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let mut best: Option<(usize, &'a str)> = None;
    for candidate in candidates {
        if let Some(distance) = typo_distance(input, candidate)
            && best.is_none_or(|(d, _)| distance < d)
        {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, candidate)| candidate)
}

/// The edit distance from `input` to `candidate` when `candidate` is a plausible typo of
/// it, else `None`.
///
/// The distance is the optimal string alignment distance (inserting, deleting or replacing
/// a character, or swapping two adjacent ones, costs 1), counted in characters, with ASCII
/// letters compared case-insensitively. Plausible means at most a third of the input's
/// characters, at least 1 and at most [`MAX_TYPO_EDITS`]; an input over
/// [`MAX_TYPO_INPUT_BYTES`] bytes has no plausible candidate.
///
/// ```
/// use toolgroup_skills::shared::typo_distance;
///
/// assert_eq!(typo_distance("nmae", "name"), Some(1));
/// assert_eq!(typo_distance("Name", "name"), Some(0));
/// assert_eq!(typo_distance("foo", "bar"), None);
/// ```
pub const fn typo_distance(input: &str, candidate: &str) -> Option<usize> {
    if input.len() > MAX_TYPO_INPUT_BYTES {
        return None;
    }
    let mut a = [0u32; CAP];
    let mut b = [0u32; CAP];
    let Some(n) = decode_folded(input, &mut a) else {
        return None;
    };
    let limit = {
        let third = n / 3;
        if third < 1 {
            1
        } else if third > MAX_TYPO_EDITS {
            MAX_TYPO_EDITS
        } else {
            third
        }
    };
    // A candidate too long for `b` is more than `limit` longer than the input anyway.
    let Some(m) = decode_folded(candidate, &mut b) else {
        return None;
    };
    if n.abs_diff(m) > limit {
        return None;
    }
    let distance = osa(&a, n, &b, m);
    if distance <= limit {
        Some(distance)
    } else {
        None
    }
}

/// The code points of `s` into `out`, ASCII letters lowered; `None` if they do not fit.
const fn decode_folded(s: &str, out: &mut [u32; CAP]) -> Option<usize> {
    let bytes = s.as_bytes();
    let mut i = 0;
    let mut n = 0;
    while i < bytes.len() {
        if n == CAP {
            return None;
        }
        let lead = bytes[i];
        // `s` is valid UTF-8, so the lead byte says how many continuation bytes follow.
        let (mut point, len) = if lead < 0x80 {
            (lead as u32, 1)
        } else if lead >= 0xF0 {
            ((lead & 0x07) as u32, 4)
        } else if lead >= 0xE0 {
            ((lead & 0x0F) as u32, 3)
        } else {
            ((lead & 0x1F) as u32, 2)
        };
        let mut k = 1;
        while k < len {
            point = (point << 6) | (bytes[i + k] & 0x3F) as u32;
            k += 1;
        }
        if point >= b'A' as u32 && point <= b'Z' as u32 {
            point += (b'a' - b'A') as u32;
        }
        out[n] = point;
        n += 1;
        i += len;
    }
    Some(n)
}

/// Optimal string alignment distance of `a[..n]` and `b[..m]`.
const fn osa(a: &[u32; CAP], n: usize, b: &[u32; CAP], m: usize) -> usize {
    // Three rows of the distance matrix: the one before the previous (for swaps), the
    // previous and the current.
    let mut before = [0usize; CAP + 1];
    let mut previous = [0usize; CAP + 1];
    let mut current = [0usize; CAP + 1];
    let mut j = 0;
    while j <= m {
        previous[j] = j;
        j += 1;
    }
    let mut i = 1;
    while i <= n {
        current[0] = i;
        let mut j = 1;
        while j <= m {
            let cost = if a[i - 1] == b[j - 1] { 0 } else { 1 };
            let mut d = previous[j - 1] + cost;
            if previous[j] + 1 < d {
                d = previous[j] + 1;
            }
            if current[j - 1] + 1 < d {
                d = current[j - 1] + 1;
            }
            if i > 1
                && j > 1
                && a[i - 1] == b[j - 2]
                && a[i - 2] == b[j - 1]
                && before[j - 2] + 1 < d
            {
                d = before[j - 2] + 1;
            }
            current[j] = d;
            j += 1;
        }
        before = previous;
        previous = current;
        i += 1;
    }
    previous[m]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_checks_the_rule() {
        for &(name, ok) in TOOL_NAME_CASES {
            assert_eq!(is_valid_tool_name(name), ok, "{name:?}");
        }
        // The table covers the lengths around the bounds.
        let lengths: Vec<usize> = TOOL_NAME_CASES.iter().map(|(n, _)| n.len()).collect();
        for len in [0, 1, MAX_TOOL_NAME_LEN, MAX_TOOL_NAME_LEN + 1] {
            assert!(lengths.contains(&len), "no case of length {len}");
        }
    }

    #[test]
    fn errors_say_which_part_of_the_rule() {
        assert_eq!(check_tool_name(""), Err(ToolNameError::Empty));
        assert_eq!(check_tool_name("-x"), Err(ToolNameError::Invalid));
        assert_eq!(check_tool_name("a.b"), Err(ToolNameError::Invalid));
        let long = "x".repeat(70);
        assert_eq!(
            check_tool_name(&long),
            Err(ToolNameError::TooLong { len: 70 })
        );
        assert_eq!(
            check_tool_name(&format!("{long}.")),
            Err(ToolNameError::Invalid)
        );
    }

    #[test]
    fn a_swap_is_one_edit() {
        assert_eq!(typo_distance("nmae", "name"), Some(1));
        assert_eq!(did_you_mean("nmae", ["name", "none"]), Some("name"));
        assert_eq!(typo_distance("ab", "ba"), Some(1));
    }

    #[test]
    fn osa_counts_edits() {
        let distance = |a: &str, b: &str| {
            let (mut x, mut y) = ([0u32; CAP], [0u32; CAP]);
            let n = decode_folded(a, &mut x).unwrap();
            let m = decode_folded(b, &mut y).unwrap();
            osa(&x, n, &y, m)
        };
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(distance("", "abc"), 3);
        assert_eq!(distance("abc", ""), 3);
        assert_eq!(distance("same", "same"), 0);
        assert_eq!(distance("SAME", "same"), 0);
        // OSA, not full Damerau: a swapped pair is not edited again.
        assert_eq!(distance("ca", "abc"), 3);
        // Characters, not bytes: one accented letter is one edit.
        assert_eq!(distance("café", "cafe"), 1);
        assert_eq!(distance("名前", "名"), 1);
    }

    #[test]
    fn close_enough_is_a_third_from_one_to_three() {
        // A third of the input's characters, at least 1.
        assert_eq!(typo_distance("ab", "xy"), None);
        assert_eq!(typo_distance("ab", "ax"), Some(1));
        assert_eq!(typo_distance("abcdef", "abcxyf"), Some(2));
        assert_eq!(typo_distance("abcde", "abxye"), None);
        // At most 3, however long the input.
        let long = "abcdefghijklmnopqrstuvwx";
        assert_eq!(typo_distance(long, "xyzdefghijklmnopqrstuvwx"), Some(3));
        assert_eq!(typo_distance(long, "xyzwefghijklmnopqrstuvwx"), None);
        // A candidate longer than the input by more than the limit.
        assert_eq!(typo_distance("abc", "abcde"), None);
        assert_eq!(typo_distance("abc", &"a".repeat(1000)), None);
    }

    #[test]
    fn long_inputs_get_no_suggestion() {
        let at_cap = "a".repeat(MAX_TYPO_INPUT_BYTES);
        assert_eq!(
            did_you_mean(&at_cap, [at_cap.as_str()]),
            Some(at_cap.as_str())
        );
        let over = "a".repeat(MAX_TYPO_INPUT_BYTES + 1);
        assert_eq!(did_you_mean(&over, [over.as_str()]), None);
        // Multi-byte characters count toward the byte cap.
        let wide = "é".repeat(65);
        assert_eq!(did_you_mean(&wide, [wide.as_str()]), None);
    }

    #[test]
    fn suggestions_pick_the_closest_then_the_first() {
        let keys = ["name", "description", "license"];
        assert_eq!(did_you_mean("descripton", keys), Some("description"));
        assert_eq!(did_you_mean("Name", keys), Some("name"));
        assert_eq!(did_you_mean("foo", keys), None);
        assert_eq!(
            did_you_mean("when-to-use", ["when_to_use"]),
            Some("when_to_use")
        );
        assert_eq!(
            did_you_mean("web_serch", ["web_seek", "web_search"]),
            Some("web_search")
        );
        assert_eq!(did_you_mean("abcd", ["abce", "abcf"]), Some("abce"));
        assert_eq!(did_you_mean("x", []), None);
    }

    #[test]
    fn works_in_const_context() {
        const D: Option<usize> = typo_distance("serch", "search");
        const OK: bool = is_valid_tool_name("web_search");
        const BAD: bool = is_valid_tool_name("1st");
        assert_eq!(D, Some(1));
        assert_eq!((OK, BAD), (true, false));
    }
}

#[cfg(test)]
mod scope_tests {
    use super::{SCOPE_TOKEN_CASES, check_scope_token};

    #[test]
    fn the_scope_rule_matches_its_table() {
        for &(scope, ok) in SCOPE_TOKEN_CASES {
            assert_eq!(check_scope_token(scope).is_ok(), ok, "{scope:?}");
        }
        // Every ASCII byte: exactly %x21, %x23-5B and %x5D-7E are allowed.
        for b in 0u8..=0x7f {
            let s = (b as char).to_string();
            let allowed = b == 0x21 || (0x23..=0x5b).contains(&b) || (0x5d..=0x7e).contains(&b);
            assert_eq!(check_scope_token(&s).is_ok(), allowed, "byte {b:#x}");
        }
    }
}
