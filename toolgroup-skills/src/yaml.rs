//! The frontmatter as a small tree of nodes that keep their line and scalar style, built from
//! saphyr's events: a value loader would lose both, and "quote it" needs the style.

use std::borrow::Cow;

use saphyr_parser::{Event, Parser, ScalarStyle, Span, Tag};

use crate::diagnostic::Diagnostic;

/// A YAML node with its 1-based line in SKILL.md.
#[derive(Debug)]
pub(crate) struct Node {
    pub(crate) line: usize,
    pub(crate) kind: Kind,
}

#[derive(Debug)]
pub(crate) enum Kind {
    Scalar {
        value: String,
        style: ScalarStyle,
        tag: Option<String>,
    },
    Mapping(Vec<(Node, Node)>),
    Sequence,
    Alias,
}

impl Node {
    /// What a message calls this node when it is not the type expected.
    pub(crate) fn kind_name(&self) -> &'static str {
        match &self.kind {
            Kind::Scalar { .. } => "a scalar",
            Kind::Mapping(_) => "a mapping",
            Kind::Sequence => "a sequence",
            Kind::Alias => "an alias (`*name`)",
        }
    }
}

/// Parses the frontmatter text; `line_offset` is added to the parser's 1-based lines (1, since
/// the frontmatter starts on line 2 of SKILL.md). `Ok(None)` for an empty document.
pub(crate) fn parse(text: &str, line_offset: usize) -> Result<Option<Node>, Diagnostic> {
    let mut events = Events {
        parser: Parser::new_from_str(text),
        line_offset,
        last_line: 1,
    };
    let mut root = None;
    let mut documents = 0;
    loop {
        let (event, line) = events.next()?;
        match event {
            Event::StreamStart | Event::DocumentEnd | Event::Nothing => {}
            Event::StreamEnd => break,
            Event::DocumentStart(_) => {
                documents += 1;
                if documents > 1 {
                    return Err(Diagnostic::skill_md(
                        Some(line),
                        "the frontmatter holds a second YAML document (a `---` or `...` line \
                         with more after it): keep one mapping of fields between the `---` lines",
                    ));
                }
            }
            other => root = Some(events.node(other, line, 0)?),
        }
    }
    // A document of nothing (only comments) is an empty plain scalar: treat it as no fields.
    Ok(root.filter(|node| {
        !matches!(&node.kind, Kind::Scalar { value, style: ScalarStyle::Plain, tag: None }
            if value.is_empty())
    }))
}

struct Events<'input> {
    parser: Parser<'input, saphyr_parser::StrInput<'input>>,
    line_offset: usize,
    last_line: usize,
}

/// Deeper than any frontmatter needs; bounds the recursion on hostile input.
const MAX_DEPTH: usize = 64;

impl<'input> Events<'input> {
    fn next(&mut self) -> Result<(Event<'input>, usize), Diagnostic> {
        match self.parser.next_event() {
            Some(Ok((event, span))) => {
                let line = self.line(span);
                self.last_line = line;
                Ok((event, line))
            }
            Some(Err(error)) => {
                let line = error.marker().line() + self.line_offset;
                Err(Diagnostic::skill_md(
                    Some(line),
                    format!(
                        "the frontmatter is not valid YAML: {} (column {}); a value holding `: `, \
                         ` #` or starting with one of `[]{{}}*&!|>'\"%@` must be quoted, e.g. \
                         `description: \"Use when: ...\"`",
                        error.info(),
                        error.marker().col() + 1
                    ),
                ))
            }
            None => Ok((Event::StreamEnd, self.last_line)),
        }
    }

    fn line(&self, span: Span) -> usize {
        span.start.line() + self.line_offset
    }

    fn node(
        &mut self,
        event: Event<'input>,
        line: usize,
        depth: usize,
    ) -> Result<Node, Diagnostic> {
        if depth > MAX_DEPTH {
            return Err(Diagnostic::skill_md(
                Some(line),
                format!("the frontmatter nests deeper than {MAX_DEPTH} levels: flatten it"),
            ));
        }
        let kind = match event {
            Event::Scalar(value, style, _, tag) => Kind::Scalar {
                value: value.into_owned(),
                style,
                tag: tag.map(tag_text),
            },
            Event::Alias(_) => Kind::Alias,
            Event::SequenceStart(..) => {
                loop {
                    match self.next()? {
                        (Event::SequenceEnd, _) => break,
                        (Event::StreamEnd, end) => return Err(truncated(end)),
                        (item, item_line) => {
                            self.node(item, item_line, depth + 1)?;
                        }
                    }
                }
                Kind::Sequence
            }
            Event::MappingStart(..) => {
                let mut entries = Vec::new();
                loop {
                    let key = match self.next()? {
                        (Event::MappingEnd, _) => break,
                        (Event::StreamEnd, end) => return Err(truncated(end)),
                        (key, key_line) => self.node(key, key_line, depth + 1)?,
                    };
                    let value = match self.next()? {
                        (Event::StreamEnd, end) => return Err(truncated(end)),
                        (value, value_line) => self.node(value, value_line, depth + 1)?,
                    };
                    entries.push((key, value));
                }
                Kind::Mapping(entries)
            }
            _ => return Err(truncated(line)),
        };
        Ok(Node { line, kind })
    }
}

fn truncated(line: usize) -> Diagnostic {
    Diagnostic::skill_md(
        Some(line),
        "the frontmatter YAML ends in the middle of a value",
    )
}

fn tag_text(tag: Cow<'_, Tag>) -> String {
    format!("{}{}", tag.handle, tag.suffix)
}

/// The type a PLAIN scalar resolves to when it is not a string: under YAML 1.2's core schema,
/// or under YAML 1.1 as PyYAML reads it (hosts written in Python parse SKILL.md so), e.g.
/// `yes`, `off`, `1_000`, `1:30`, `2024-01-31`. `None` when every reader sees a string.
pub(crate) fn non_string_type(plain: &str) -> Option<&'static str> {
    let lower = plain.to_ascii_lowercase();
    if matches!(plain, "" | "~" | "null" | "Null" | "NULL") {
        return Some("null");
    }
    if matches!(
        plain,
        "true" | "True" | "TRUE" | "false" | "False" | "FALSE"
    ) {
        return Some("a boolean");
    }
    // YAML 1.1 booleans; `y`/`n` are in the 1.1 type repository though PyYAML skips them,
    // and other 1.1 readers (Go's yaml.v2, Ruby's Psych in places) honour them.
    if matches!(lower.as_str(), "yes" | "no" | "on" | "off" | "y" | "n") {
        return Some("a YAML 1.1 boolean");
    }
    if is_int(plain) {
        return Some("an integer");
    }
    if is_float(plain) {
        return Some("a float");
    }
    if is_date(plain) {
        return Some("a YAML 1.1 timestamp");
    }
    None
}

fn strip_sign(s: &str) -> &str {
    s.strip_prefix(['-', '+']).unwrap_or(s)
}

fn all(s: &str, allowed: impl Fn(char) -> bool) -> bool {
    !s.is_empty() && s.chars().all(allowed)
}

fn is_int(s: &str) -> bool {
    let unsigned = strip_sign(s);
    if let Some(hex) = unsigned.strip_prefix("0x") {
        return all(hex, |c| c.is_ascii_hexdigit() || c == '_');
    }
    if let Some(octal) = unsigned.strip_prefix("0o") {
        return all(octal, |c| c.is_digit(8));
    }
    if let Some(binary) = unsigned.strip_prefix("0b") {
        return all(binary, |c| c == '0' || c == '1' || c == '_');
    }
    // Decimal (1.2), with 1.1's `_` separators, and 1.1's base-60 `1:30:00`.
    let starts_with_digit = unsigned.starts_with(|c: char| c.is_ascii_digit());
    if starts_with_digit && all(unsigned, |c| c.is_ascii_digit() || c == '_') {
        return true;
    }
    starts_with_digit && is_sexagesimal(unsigned)
}

fn is_sexagesimal(s: &str) -> bool {
    let mut parts = s.split(':');
    let head = parts.next().unwrap_or_default();
    let mut rest = parts.peekable();
    rest.peek().is_some()
        && all(head, |c| c.is_ascii_digit() || c == '_')
        && rest.all(|p| {
            let p = p.split_once('.').map_or(p, |(whole, _)| whole);
            (1..=2).contains(&p.len()) && all(p, |c| c.is_ascii_digit())
        })
}

fn is_float(s: &str) -> bool {
    let unsigned = strip_sign(s);
    if matches!(unsigned, ".inf" | ".Inf" | ".INF") || matches!(s, ".nan" | ".NaN" | ".NAN") {
        return true;
    }
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(at) => (&unsigned[..at], Some(&unsigned[at + 1..])),
        None => (unsigned, None),
    };
    if let Some(exponent) = exponent
        && !all(strip_sign(exponent), |c| c.is_ascii_digit())
    {
        return false;
    }
    let digit = |c: char| c.is_ascii_digit() || c == '_';
    match mantissa.split_once('.') {
        Some((whole, fraction)) => {
            (whole.is_empty() || all(whole, digit) || is_sexagesimal(whole))
                && (fraction.is_empty() || all(fraction, digit))
                && !(whole.is_empty() && fraction.is_empty())
        }
        // 1.2 reads `1e3` as a float.
        None => exponent.is_some() && all(mantissa, digit),
    }
}

/// 1.1 timestamps start with `YYYY-M-D` (PyYAML turns `2024-01-31` into a date).
fn is_date(s: &str) -> bool {
    let date = s.split(['T', 't', ' ']).next().unwrap_or_default();
    let parts: Vec<&str> = date.split('-').collect();
    parts.len() == 3
        && parts[0].len() == 4
        && parts[1..].iter().all(|p| (1..=2).contains(&p.len()))
        && parts.iter().all(|p| all(p, |c| c.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_scalars_that_are_not_strings() {
        for (text, kind) in [
            ("", "null"),
            ("~", "null"),
            ("null", "null"),
            ("true", "a boolean"),
            ("FALSE", "a boolean"),
            ("on", "a YAML 1.1 boolean"),
            ("Yes", "a YAML 1.1 boolean"),
            ("N", "a YAML 1.1 boolean"),
            ("12", "an integer"),
            ("-12", "an integer"),
            ("0x1F", "an integer"),
            ("0o17", "an integer"),
            ("0b101", "an integer"),
            ("1_000", "an integer"),
            ("1:30", "an integer"),
            ("1.5", "a float"),
            (".5", "a float"),
            ("1.", "a float"),
            ("1e3", "a float"),
            ("-1.5E-3", "a float"),
            (".inf", "a float"),
            ("-.Inf", "a float"),
            (".nan", "a float"),
            ("2024-01-31", "a YAML 1.1 timestamp"),
        ] {
            assert_eq!(non_string_type(text), Some(kind), "{text:?}");
        }
    }

    #[test]
    fn plain_scalars_that_are_strings() {
        for text in [
            "pdf-tools",
            "1.2.3",
            "v1",
            "yesterday",
            "nope",
            "0x",
            "1e",
            ".",
            "e3",
            "12:3x",
            "2024-1",
            "1-2-3",
            "truee",
            ".infinity",
            "12 monkeys",
        ] {
            assert_eq!(non_string_type(text), None, "{text:?}");
        }
    }

    #[test]
    fn nodes_keep_lines_and_styles() {
        let node = parse("name: pdf\ndescription: 'x'\nmetadata:\n  a: b\n", 1)
            .unwrap()
            .unwrap();
        let Kind::Mapping(entries) = node.kind else {
            panic!("not a mapping")
        };
        assert_eq!(entries.len(), 3);
        assert_eq!(entries[0].0.line, 2);
        assert_eq!(entries[1].1.line, 3);
        assert!(matches!(
            entries[1].1.kind,
            Kind::Scalar {
                style: ScalarStyle::SingleQuoted,
                ..
            }
        ));
        assert_eq!(entries[2].0.line, 4);
        assert!(matches!(entries[2].1.kind, Kind::Mapping(ref m) if m[0].0.line == 5));
    }

    #[test]
    fn syntax_errors_carry_the_skill_md_line() {
        let error = parse("name: a\ndescription: Use when: x\n", 1).unwrap_err();
        assert_eq!(error.line, Some(3), "{error}");
        assert!(error.message.contains("must be quoted"), "{error}");
    }

    #[test]
    fn comments_only_is_empty() {
        assert!(parse("# nothing\n", 1).unwrap().is_none());
    }
}
