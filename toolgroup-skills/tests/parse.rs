//! `parse_skill_md`: delimiters, fields, types and the body, without a file system.

mod common;

use common::{assert_has, lines};
use toolgroup_skills::{Diagnostic, HOST_KEYS, SPEC_KEYS, parse_skill_md};

fn errors(text: &str) -> Vec<Diagnostic> {
    parse_skill_md(text, Some("pdf-tools")).expect_err("should fail")
}

#[test]
fn a_full_skill_parses_with_every_field() {
    let text = "\u{feff}---\r\nname: pdf-tools\r\ndescription: >\n  Fills PDF forms.\n  Use for forms.\n\
                license: Apache-2.0\ncompatibility: Needs python3\nmetadata:\n  author: x\n  \
                version: \"1.0\"\nallowed-tools: Bash(git:*) Read search\nargument-hint: [file]\n\
                hooks:\n  pre: [a]\n---  \r\n# PDF\nUse it.\n";
    let md = parse_skill_md(text, Some("pdf-tools")).unwrap();
    let fm = &md.frontmatter;
    assert_eq!(fm.name, "pdf-tools");
    assert_eq!(fm.description, "Fills PDF forms. Use for forms.\n");
    assert_eq!(fm.license.as_deref(), Some("Apache-2.0"));
    assert_eq!(fm.compatibility.as_deref(), Some("Needs python3"));
    assert_eq!(
        fm.metadata,
        [
            ("author".into(), "x".into()),
            ("version".into(), "1.0".into())
        ]
    );
    assert_eq!(fm.allowed_tools, ["Bash(git:*)", "Read", "search"]);
    assert!(fm.raw.starts_with("name: pdf-tools\r\n") && fm.raw.ends_with("  pre: [a]\n"));
    assert_eq!(md.body, "# PDF\nUse it.\n");
    assert_eq!(&text[md.body_offset..], md.body);
    assert_eq!(md.body_line, 16);
    assert_eq!(md.body_line_count(), 2);
}

#[test]
fn every_problem_is_reported_at_once_with_its_line() {
    let text =
        "---\nname: Pdf_Tools\ndescripton: x\ndescription: use <b>this</b>\nlicense: yes\n---\n \n";
    let found = errors(text);
    assert_eq!(found.len(), 6, "{found:#?}");
    assert_has(
        &found,
        Some(2),
        "use 1-64 lowercase letters, digits and `-` (for example `pdf-tools`)",
    );
    assert_has(&found, Some(2), "but the skill's folder is `pdf-tools`");
    assert_has(&found, Some(3), "did you mean `description`?");
    assert_has(&found, Some(4), "XML tag `<b>`");
    assert_has(
        &found,
        Some(5),
        "`license` is `yes`, which YAML reads as a YAML 1.1 boolean",
    );
    assert_has(&found, Some(6), "the body after the frontmatter is empty");
    assert!(found.iter().all(|d| d.file == "SKILL.md"));
}

#[test]
fn a_delimiter_inside_a_value_is_a_value() {
    let text = "---\nname: pdf-tools\ndescription: \"before --- after\"\n---\nbody\n";
    let md = parse_skill_md(text, None).unwrap();
    assert_eq!(md.frontmatter.description, "before --- after");
    assert_eq!(md.body, "body\n");
}

#[test]
fn the_first_line_must_open_the_frontmatter() {
    let found = errors("# Title\n---\nname: a\n---\n");
    assert_eq!(lines(&found).len(), 1);
    assert_has(&found, Some(1), "must start with a `---` line");
    assert_has(&found, Some(1), "found `# Title`");
    // An indented or longer line is no delimiter.
    assert_has(&errors(" ---\n"), Some(1), "must start with a `---` line");
    assert_has(&errors("----\n"), Some(1), "must start with a `---` line");
    assert_has(&errors(""), Some(1), "must start with a `---` line");
}

#[test]
fn an_unclosed_frontmatter_is_one_error() {
    let found = errors("---\nname: pdf-tools\ndescription: x\n--- not a delimiter\nbody\n");
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_has(&found, Some(1), "never closed");
}

#[test]
fn non_strings_say_quote_it() {
    for (value, kind) in [
        ("on", "a YAML 1.1 boolean"),
        ("true", "a boolean"),
        ("No", "a YAML 1.1 boolean"),
        ("null", "null"),
        ("~", "null"),
        ("12", "an integer"),
        ("1.5", "a float"),
        (".inf", "a float"),
        ("0x1F", "an integer"),
    ] {
        let found = errors(&format!(
            "---\nname: pdf-tools\ndescription: {value}\n---\nbody\n"
        ));
        assert_eq!(found.len(), 1, "{value}: {found:#?}");
        assert_has(
            &found,
            Some(3),
            &format!("which YAML reads as {kind}, not a string: quote it"),
        );
        assert_has(&found, Some(3), &format!("e.g. `\"{value}\"`"));
    }
    let found = errors("---\nname: on\ndescription: 12\n---\nbody\n");
    assert_has(
        &found,
        Some(2),
        "`name` is `on`, which YAML reads as a YAML 1.1 boolean",
    );
    assert_has(
        &found,
        Some(3),
        "`description` is `12`, which YAML reads as an integer",
    );
    let found = errors("---\nname: true\ndescription: d\n---\nbody\n");
    assert_has(
        &found,
        Some(2),
        "`name` is `true`, which YAML reads as a boolean, not a string: quote it",
    );
}

#[test]
fn quoted_and_block_scalars_are_strings() {
    let text = "---\nname: pdf-tools\ndescription: '12'\nlicense: \"on\"\ncompatibility: |\n  yes\n\
                metadata:\n  num: !!str 1.5\n---\nbody\n";
    let md = parse_skill_md(text, None).unwrap();
    assert_eq!(md.frontmatter.description, "12");
    assert_eq!(md.frontmatter.license.as_deref(), Some("on"));
    assert_eq!(md.frontmatter.compatibility.as_deref(), Some("yes\n"));
    assert_eq!(md.frontmatter.metadata, [("num".into(), "1.5".into())]);
}

#[test]
fn wrong_shapes_name_the_expected_type() {
    let text = "---\nname: [a, b]\ndescription:\n  x: y\nmetadata: plain\nallowed-tools:\n  - Read\n---\nbody\n";
    let found = errors(text);
    assert_eq!(found.len(), 4, "{found:#?}");
    assert_has(
        &found,
        Some(2),
        "`name` is a sequence where a string is due",
    );
    assert_has(
        &found,
        Some(4),
        "`description` is a mapping where a string is due",
    );
    assert_has(
        &found,
        Some(5),
        "`metadata` is a scalar where a mapping of strings to strings is due",
    );
    assert_has(
        &found,
        Some(7),
        "`allowed-tools` is a sequence where a string is due",
    );
}

#[test]
fn metadata_values_must_be_strings() {
    let text = "---\nname: pdf-tools\ndescription: d\nmetadata:\n  version: 1.0\n  ok: fine\n  ok: again\n---\nb\n";
    let found = errors(text);
    assert_eq!(found.len(), 2, "{found:#?}");
    assert_has(
        &found,
        Some(5),
        "`metadata.version` is `1.0`, which YAML reads as a float",
    );
    assert_has(&found, Some(7), "duplicate `metadata` key `ok`");
}

#[test]
fn missing_and_empty_fields() {
    let found = errors("---\nlicense: MIT\n---\nbody\n");
    assert_eq!(found.len(), 2, "{found:#?}");
    assert_has(&found, Some(1), "no `name`: add `name: pdf-tools`");
    assert_has(&found, Some(1), "no `description`");
    let found = errors("---\nname:\ndescription: \"  \"\n---\nbody\n");
    assert_has(&found, Some(2), "`name` has no value");
    assert_has(&found, Some(3), "`description` is empty");
    assert_has(
        &errors("---\n# only a comment\n---\nbody\n"),
        Some(1),
        "the frontmatter is empty",
    );
    assert_has(
        &errors("---\n- a\n- b\n---\nbody\n"),
        Some(2),
        "is a sequence, not a mapping",
    );
}

#[test]
fn unknown_keys_suggest_or_list() {
    let found = errors(
        "---\nname: pdf-tools\ndescription: d\ndescripton: d\nallowed_tools: x\nfoo: 1\n---\nb\n",
    );
    assert_eq!(found.len(), 3, "{found:#?}");
    assert_has(
        &found,
        Some(4),
        "unknown frontmatter key `descripton`: did you mean `description`?",
    );
    assert_has(&found, Some(5), "did you mean `allowed-tools`?");
    assert_has(
        &found,
        Some(6),
        "`foo`: remove it, or move it under `metadata:`",
    );
    assert_has(&found, Some(6), "`argument-hint`");
}

#[test]
fn a_swapped_pair_of_letters_is_one_edit() {
    // Two letters swapped cost one edit (optimal string alignment), as in every toolgroup
    // did-you-mean, so a four-letter key finds its match.
    let found = errors("---\nnmae: pdf-tools\ndescription: d\n---\nb\n");
    assert_has(
        &found,
        Some(2),
        "unknown frontmatter key `nmae`: did you mean `name`?",
    );
}

#[test]
fn host_keys_are_accepted_in_any_shape() {
    let mut text = String::from("---\nname: pdf-tools\ndescription: d\n");
    for key in HOST_KEYS {
        text.push_str(&format!("{key}:\n  nested: [1, 2]\n"));
    }
    text.push_str("---\nbody\n");
    assert!(parse_skill_md(&text, None).is_ok());
    assert_eq!(SPEC_KEYS.len(), 6);
}

#[test]
fn duplicate_keys_are_errors() {
    let found = errors("---\nname: pdf-tools\ndescription: a\nname: pdf-tools\n---\nbody\n");
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_has(&found, Some(4), "duplicate key `name` (first on line 2)");
}

#[test]
fn name_rules() {
    let check = |name: &str, dir: &str, needle: &str| {
        let text = format!("---\nname: {name}\ndescription: d\n---\nbody\n");
        let found = parse_skill_md(&text, Some(dir)).expect_err(name);
        assert_has(&found, Some(2), needle);
    };
    check(
        "pdf-tools",
        "pdf",
        "`name` is `pdf-tools` but the skill's folder is `pdf`",
    );
    check("pdf--tools", "pdf--tools", "must not contain `--`");
    check("PDF", "PDF", "lowercase letters");
    check("-pdf", "-pdf", "must not start or end with `-`");
    let long = "a".repeat(65);
    check(&long, &long, "has 65 characters: use at most 64");
    check(
        "claude-helper",
        "claude-helper",
        "the word `claude` is reserved",
    );
    check("anthropic", "anthropic", "the word `anthropic` is reserved");
    assert!(
        parse_skill_md(
            &format!("---\nname: {}\ndescription: d\n---\nb\n", "a".repeat(64)),
            None
        )
        .is_ok()
    );
}

#[test]
fn description_and_compatibility_lengths() {
    let long = "d".repeat(1025);
    let found = errors(&format!(
        "---\nname: pdf-tools\ndescription: {long}\ncompatibility: \"{}\"\n---\nb\n",
        "c".repeat(501)
    ));
    assert_eq!(found.len(), 2, "{found:#?}");
    assert_has(
        &found,
        Some(3),
        "`description` has 1025 characters: shorten it to at most 1024",
    );
    assert_has(&found, Some(4), "`compatibility` has 501 characters");
    let ok = format!(
        "---\nname: pdf-tools\ndescription: {}\n---\nb\n",
        "é".repeat(1024)
    );
    assert!(parse_skill_md(&ok, None).is_ok(), "characters, not bytes");
}

#[test]
fn yaml_syntax_errors_have_lines_and_a_hint() {
    let found = errors("---\nname: pdf-tools\ndescription: Use when: x\n---\nbody\n");
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_has(&found, Some(3), "not valid YAML");
    assert_has(&found, Some(3), "must be quoted");
}

#[test]
fn control_characters_are_escaped_in_messages() {
    let found = errors("---\nname: \"pdf\\ttools\"\ndescription: d\n---\nbody\n");
    assert_has(&found, Some(2), "`name` is \"pdf\\ttools\"");
}

#[test]
fn an_empty_body_is_an_error_at_the_closing_line() {
    let found = errors("---\nname: pdf-tools\ndescription: d\n---");
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_has(&found, Some(4), "the body after the frontmatter is empty");
    let md = parse_skill_md("---\nname: a\ndescription: d\n---\n\n\nx", None).unwrap();
    assert_eq!((md.body_line, md.body.as_str()), (5, "\n\nx"));
}

#[test]
fn diagnostics_display_with_file_and_line() {
    let found = errors("---\nname: pdf-tools\ndescription: d\nfoo: x\n---\nbody\n");
    assert!(
        found[0]
            .to_string()
            .starts_with("SKILL.md:4: unknown frontmatter key `foo`"),
        "{}",
        found[0]
    );
}
