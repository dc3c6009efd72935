//! Text that came from the model and goes back to it (names of unknown tools, groups and
//! arguments): control characters escaped and length capped, so a model's output cannot forge
//! lines in a transcript or send escape sequences to a terminal log.

/// `s` with control characters escaped (`\n`, `\u{1b}`) and cut to `max` characters (marked
/// with `…`).
pub(crate) fn echo(s: &str, max: usize) -> String {
    let mut out = String::with_capacity(s.len().min(max * 2));
    for (n, c) in s.chars().enumerate() {
        if n == max {
            out.push('…');
            break;
        }
        if c.is_control()
            || matches!(c, '\u{2028}' | '\u{2029}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
        {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::echo;

    #[test]
    fn escapes_and_caps() {
        assert_eq!(echo("web\nsearch", 64), "web\\nsearch");
        assert_eq!(echo("\u{1b}[31mred", 64), "\\u{1b}[31mred");
        assert_eq!(echo("abcdef", 3), "abc…");
        assert_eq!(echo("plain_name", 64), "plain_name");
        assert_eq!(echo("a\u{202e}b", 64), "a\\u{202e}b");
    }
}
