//! Relative references in the body of SKILL.md: Markdown links and images, reference
//! definitions, and bare `scripts/`, `references/`, `assets/` paths.

/// Prefixes of bare paths checked anywhere in the body (inline code and code blocks included),
/// the spec's three conventional folders.
pub const BARE_PATH_PREFIXES: &[&str] = &["scripts/", "references/", "assets/"];

/// A reference found in the body, before it is checked against the files.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Reference {
    /// 1-based line in SKILL.md.
    pub(crate) line: usize,
    /// As written (after `<>`, title, fragment and query are stripped).
    pub(crate) written: String,
    pub(crate) target: Target,
}

#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Target {
    /// Normalised, `/`-separated, relative to the folder; empty for the folder itself.
    Inside(String),
    Absolute,
    Escapes,
}

/// Every relative reference of `body`, whose first line is line `first_line` of SKILL.md.
///
/// Markdown link syntax inside fenced code blocks is not read (code such as `f[0](x)` is no
/// link); bare paths are read there too, since commands like `python scripts/x.py` live in
/// code blocks.
pub(crate) fn references(body: &str, first_line: usize) -> Vec<Reference> {
    let mut out: Vec<Reference> = Vec::new();
    let mut fence: Option<&str> = None;
    for (index, line) in body.lines().enumerate() {
        let line_number = first_line + index;
        let trimmed = line.trim_start();
        let marker = ["```", "~~~"].into_iter().find(|m| trimmed.starts_with(m));
        match (fence, marker) {
            (None, Some(m)) => fence = Some(m),
            (Some(open), Some(m)) if open == m => fence = None,
            _ => {}
        }
        let mut push = |written: &str| {
            if let Some(reference) = classify(written, line_number)
                && !out
                    .iter()
                    .any(|r| r.line == line_number && r.written == reference.written)
            {
                out.push(reference);
            }
        };
        if fence.is_none() && marker.is_none() {
            // Destinations are blanked before the bare-path scan, so `<assets/my pic.png>`
            // is not also read as the bare path `assets/my`.
            let mut masked = line.to_owned();
            for (start, end) in link_destinations(line) {
                push(&line[start..end]);
                masked.replace_range(start..end, &" ".repeat(end - start));
            }
            for path in bare_paths(&masked) {
                push(path);
            }
        } else {
            for path in bare_paths(line) {
                push(path);
            }
        }
    }
    out
}

/// Byte ranges in `line` of the destinations of `[text](dest "title")`, `![alt](dest)` and
/// `[id]: dest "title"`.
fn link_destinations(line: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let indent = line.len() - line.trim_start().len();
    if line[indent..].starts_with('[')
        && let Some(close) = line[indent..].find("]:")
    {
        out.extend(destination(line, indent + close + 2));
    }
    let mut from = 0;
    while let Some(at) = line[from..].find("](") {
        from += at + 2;
        out.extend(destination(line, from));
    }
    out
}

/// The range of the destination starting at `from` (after blanks): `<...>` without the
/// brackets, or up to whitespace or the `)` that balances the parentheses.
fn destination(line: &str, from: usize) -> Option<(usize, usize)> {
    let start = from + (line[from..].len() - line[from..].trim_start().len());
    let rest = &line[start..];
    if let Some(inner) = rest.strip_prefix('<') {
        return inner.find('>').map(|end| (start + 1, start + 1 + end));
    }
    let mut depth = 0usize;
    for (i, c) in rest.char_indices() {
        match c {
            '(' => depth += 1,
            ')' if depth == 0 => return Some((start, start + i)),
            ')' => depth -= 1,
            c if c.is_whitespace() => return Some((start, start + i)),
            _ => {}
        }
    }
    Some((start, line.len()))
}

/// Words of `line` that start with one of [`BARE_PATH_PREFIXES`] (after an optional `./`),
/// trailing punctuation trimmed. Words with glob or placeholder characters are skipped.
fn bare_paths(line: &str) -> Vec<&str> {
    let delimiters = |c: char| c.is_whitespace() || "`'\"()[]<>{}|=,;".contains(c);
    line.split(delimiters)
        .map(|word| word.strip_prefix("./").unwrap_or(word))
        .filter(|word| BARE_PATH_PREFIXES.iter().any(|p| word.starts_with(p)))
        .map(|word| word.trim_end_matches(['.', ',', ';', ':', '!', '?', ')', '`', '\'', '"', ']']))
        .filter(|word| !word.contains(['*', '$', '%', '{', '}', '\\']))
        .collect()
}

/// Turns a written destination into a checked reference; `None` for what is not a local path
/// (a URL with a scheme, `//host`, a pure `#anchor`, an empty destination).
fn classify(written: &str, line: usize) -> Option<Reference> {
    let without_fragment = written.split(['#', '?']).next().unwrap_or_default();
    if without_fragment.is_empty() || written.starts_with("//") || has_scheme(written) {
        return None;
    }
    let decoded = percent_decode(without_fragment);
    let target = if decoded.starts_with('/') || decoded.starts_with('\\') {
        Target::Absolute
    } else {
        normalise(&decoded).map_or(Target::Escapes, Target::Inside)
    };
    Some(Reference {
        line,
        written: decoded,
        target,
    })
}

/// `scheme:` per RFC 3986 (letter, then letters, digits, `+`, `-`, `.`).
fn has_scheme(s: &str) -> bool {
    let Some((scheme, _)) = s.split_once(':') else {
        return false;
    };
    scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
}

/// `%XX` sequences decoded; the text as written when the result would not be UTF-8.
fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok());
        match (bytes[i], hex.and_then(|h| u8::from_str_radix(h, 16).ok())) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8(out).unwrap_or_else(|_| s.to_owned())
}

/// `a/./b/../c` -> `a/c`; `None` when a `..` climbs above the start.
pub(crate) fn normalise(path: &str) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            part => parts.push(part),
        }
    }
    Some(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inside(body: &str) -> Vec<(usize, String)> {
        references(body, 10)
            .into_iter()
            .map(|r| match r.target {
                Target::Inside(p) => (r.line, p),
                other => panic!("{other:?}"),
            })
            .collect()
    }

    #[test]
    fn markdown_links_are_cleaned() {
        let body = "See [a](references/a.md#part) and ![i](<assets/my pic.png> \"Title\").\n\
                    [b](references/b%20c.md?x=1 'it') [d](./scripts/../references/d.md)\n\
                    [ref]: references/e.md \"E\"\n";
        assert_eq!(
            inside(body),
            [
                (10, "references/a.md".to_owned()),
                (10, "assets/my pic.png".to_owned()),
                (11, "references/b c.md".to_owned()),
                (11, "references/d.md".to_owned()),
                (12, "references/e.md".to_owned()),
            ]
        );
    }

    #[test]
    fn urls_and_anchors_are_not_paths() {
        let body = "[u](https://x.org/a) [m](mailto:a@b.c) [h](#usage) [n](//cdn.x/y)\n\
                    see https://example.com/scripts/x.py\n";
        assert_eq!(references(body, 1), []);
    }

    #[test]
    fn bare_paths_anywhere() {
        let body = "Run `python scripts/fill.py --in x`, then read references/forms.md.\n\
                    ```bash\nbash ./scripts/run.sh\nx = f[0](y)\n```\n\
                    Images live in assets/, e.g. (assets/logo.png); globs assets/*.png skip.\n";
        assert_eq!(
            inside(body),
            [
                (10, "scripts/fill.py".to_owned()),
                (10, "references/forms.md".to_owned()),
                (12, "scripts/run.sh".to_owned()),
                (15, "assets".to_owned()),
                (15, "assets/logo.png".to_owned()),
            ]
        );
    }

    #[test]
    fn a_link_and_its_bare_form_count_once() {
        assert_eq!(
            inside("[x](scripts/a.py)\n"),
            [(10, "scripts/a.py".to_owned())]
        );
    }

    #[test]
    fn absolute_and_escaping_paths() {
        let refs = references("[a](/etc/passwd) [b](../other/x.md) [c](a/../../x)\n", 1);
        let targets: Vec<&Target> = refs.iter().map(|r| &r.target).collect();
        assert_eq!(
            targets,
            [&Target::Absolute, &Target::Escapes, &Target::Escapes]
        );
    }
}
