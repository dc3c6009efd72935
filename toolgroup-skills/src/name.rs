//! The rules for a skill's `name` and the XML-tag rule for `name`/`description`.

use crate::MAX_NAME_CHARS;
use crate::diagnostic::show;

/// Words Anthropic's platform refuses in skill names (reserved for its own skills).
pub const RESERVED_NAME_WORDS: &[&str] = &["anthropic", "claude"];

/// Every rule `name` breaks, one message each. `dir_name` is the folder's name, when known.
pub(crate) fn name_problems(name: &str, dir_name: Option<&str>) -> Vec<String> {
    let mut problems = Vec::new();
    let chars = name.chars().count();
    let example = slug(name);
    let for_example = if example.is_empty() || example == name {
        String::new()
    } else {
        format!(" (for example `{example}`)")
    };
    if name.is_empty() {
        problems.push(match dir_name {
            Some(dir) => format!("`name` is empty: write the folder's name, `name: {dir}`"),
            None => "`name` is empty: write 1-64 lowercase letters, digits and `-`".to_owned(),
        });
        return problems;
    }
    if chars > MAX_NAME_CHARS {
        problems.push(format!(
            "`name` has {chars} characters: use at most {MAX_NAME_CHARS}{for_example}"
        ));
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    {
        problems.push(format!(
            "`name` is {}: use 1-{MAX_NAME_CHARS} lowercase letters, digits and `-`{for_example}",
            show(name)
        ));
    }
    if name.starts_with('-') || name.ends_with('-') {
        problems.push(format!(
            "`name` is {}: it must not start or end with `-`{for_example}",
            show(name)
        ));
    }
    if name.contains("--") {
        problems.push(format!(
            "`name` is {}: it must not contain `--` (consecutive hyphens){for_example}",
            show(name)
        ));
    }
    let lower = name.to_lowercase();
    for word in RESERVED_NAME_WORDS {
        if lower.contains(word) {
            problems.push(format!(
                "`name` is {}: the word `{word}` is reserved in skill names (Anthropic's platform \
                 refuses it); choose another name",
                show(name)
            ));
        }
    }
    if let Some(dir) = dir_name
        && dir != name
    {
        problems.push(format!(
            "`name` is {} but the skill's folder is {}: they must be equal; rename the folder or \
             write `name: {dir}`",
            show(name),
            show(dir)
        ));
    }
    problems
}

/// A valid name close to `name`, for the "for example" of a message: lowercase, runs of other
/// characters become one `-`, no `-` at the ends, at most 64 characters.
pub(crate) fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        let c = c.to_ascii_lowercase();
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    out.truncate(MAX_NAME_CHARS);
    out.trim_end_matches('-').to_owned()
}

/// The first thing in `text` that looks like an XML/HTML tag: `<b>`, `</x>`, `<br/>`,
/// `<foo bar="1">`. A `<` not followed by a letter (`a < b`, `<3`, `<=`) is no tag.
pub(crate) fn find_xml_tag(text: &str) -> Option<&str> {
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(offset) = text[from..].find('<') {
        let start = from + offset;
        from = start + 1;
        let mut i = start + 1;
        if bytes.get(i) == Some(&b'/') {
            i += 1;
        }
        if !bytes.get(i).is_some_and(u8::is_ascii_alphabetic) {
            continue;
        }
        while bytes
            .get(i)
            .is_some_and(|b| b.is_ascii_alphanumeric() || b"_:.-".contains(b))
        {
            i += 1;
        }
        match bytes.get(i) {
            Some(b'>') => return Some(&text[start..=i]),
            Some(b'/') if bytes.get(i + 1) == Some(&b'>') => return Some(&text[start..i + 2]),
            Some(b' ' | b'\t' | b'\n') => {
                // Attributes: up to the `>` closing the tag, if it comes before another `<`.
                let rest = &text[i..];
                let close = rest.find('>');
                let next_open = rest.find('<');
                if let Some(close) = close
                    && next_open.is_none_or(|open| close < open)
                {
                    return Some(&text[start..i + close + 1]);
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_names_pass() {
        for name in ["pdf", "pdf-tools", "a1-b2", "x"] {
            assert!(name_problems(name, Some(name)).is_empty(), "{name}");
        }
        assert!(name_problems(&"a".repeat(64), None).is_empty());
    }

    #[test]
    fn each_rule_reports() {
        let p = name_problems("Pdf_Tools", None);
        assert_eq!(p.len(), 1, "{p:?}");
        assert!(
            p[0].contains("`Pdf_Tools`") && p[0].contains("`pdf-tools`"),
            "{p:?}"
        );
        assert!(name_problems("a--b", None)[0].contains("`--`"));
        assert!(name_problems("-a", None)[0].contains("start or end"));
        assert!(name_problems(&"a".repeat(65), None)[0].contains("65 characters"));
        assert!(name_problems("my-claude-helper", None)[0].contains("`claude` is reserved"));
        assert!(name_problems("pdf", Some("pdfs"))[0].contains("folder is `pdfs`"));
        assert!(name_problems("", Some("pdf"))[0].contains("`name: pdf`"));
        // Two rules broken, two messages.
        assert_eq!(name_problems("Bad--", None).len(), 3);
    }

    #[test]
    fn slug_makes_a_valid_name() {
        assert_eq!(slug("Pdf_Tools"), "pdf-tools");
        assert_eq!(slug("--a  b--"), "a-b");
        assert_eq!(slug(&"ab".repeat(40)).len(), 64);
    }

    #[test]
    fn xml_tags_are_found() {
        assert_eq!(find_xml_tag("use <b>bold</b>"), Some("<b>"));
        assert_eq!(find_xml_tag("end </x> here"), Some("</x>"));
        assert_eq!(find_xml_tag("a <br/> b"), Some("<br/>"));
        assert_eq!(
            find_xml_tag(r#"a <foo bar="1"> b"#),
            Some(r#"<foo bar="1">"#)
        );
        for text in ["a < b", "<3 you", "x <= y", "plain", "a <b c"] {
            assert_eq!(find_xml_tag(text), None, "{text}");
        }
    }
}
