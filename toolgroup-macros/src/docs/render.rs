//! The Markdown fragments of tools and groups: written once, read inside a tool's, a group's
//! and a toolkit's rustdoc.

use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::{Path, Type};

/// A tool's argument, as its docs list it.
pub(crate) struct ArgDoc {
    pub(crate) name: String,
    pub(crate) ty: String,
    pub(crate) required: bool,
    pub(crate) description: String,
}

/// Everything a tool's fragment shows.
pub(crate) struct ToolDoc<'a> {
    pub(crate) name: &'a str,
    pub(crate) description: &'a str,
    pub(crate) args: Vec<ArgDoc>,
    /// `#[args]`: the type whose fields are the arguments.
    pub(crate) whole: Option<String>,
    pub(crate) hints: Vec<&'static str>,
    pub(crate) timeout_ms: Option<u64>,
    /// Whether an MCP client may (`"optional"`) or must (`"required"`) run the call as a task
    /// (`None`: it never does).
    pub(crate) task: Option<&'static str>,
    /// The scopes the tool requires besides its group's.
    pub(crate) scopes: Vec<String>,
    pub(crate) returns: Option<String>,
}

/// A tool's Markdown fragment: name, description, hints, and its arguments as a table. No
/// headings and no intra-doc links, so it reads the same inside a group's or a toolkit's docs.
pub(crate) fn tool_fragment(doc: &ToolDoc<'_>) -> String {
    let mut out = format!(
        "\n\n**Tool `{}`**\n\n{}\n",
        doc.name,
        markdown_block(doc.description)
    );
    let mut facts = Vec::new();
    if !doc.hints.is_empty() {
        facts.push(format!("hints: {}", doc.hints.join(", ")));
    }
    if let Some(ms) = doc.timeout_ms {
        facts.push(format!("timeout: {}", duration(ms)));
    }
    if let Some(task) = doc.task {
        facts.push(format!("MCP task support: {task}"));
    }
    if !doc.scopes.is_empty() {
        facts.push(format!("requires scopes: {}", scope_list(&doc.scopes)));
    }
    if let Some(r) = &doc.returns {
        facts.push(format!("returns `{}`", code(r)));
    }
    if !facts.is_empty() {
        out.push_str(&format!("\n*{}.*\n", capitalize(&facts.join("; "))));
    }
    if let Some(whole) = &doc.whole {
        out.push_str(&format!("\nArguments: the fields of `{}`.\n", code(whole)));
    } else if doc.args.is_empty() {
        out.push_str("\nNo arguments.\n");
    } else {
        out.push_str("\n| Argument | Type | Required | Description |\n|---|---|---|---|\n");
        for a in &doc.args {
            out.push_str(&format!(
                "| `{}` | `{}` | {} | {} |\n",
                a.name,
                code(&a.ty),
                if a.required { "yes" } else { "no" },
                cell(&a.description)
            ));
        }
    }
    out
}

/// The fragment of a tool listed by path whose doc macro does not exist (its name would
/// shadow a common macro).
pub(crate) fn unlinked_tool_fragment(path: &Path) -> String {
    format!(
        "\n\n**Tool `{}`**\n\n(Its description and arguments are in its own documentation.)\n",
        path_text(path)
    )
}

/// The start of a group's fragment: its name (unless the page is the group's own),
/// description, scopes and instructions.
pub(crate) fn group_head(
    name: Option<&str>,
    description: &str,
    scopes: &[String],
    instructions: Option<&str>,
) -> String {
    let mut out = String::new();
    if let Some(name) = name {
        out.push_str(&format!("\n\n**Group `{name}`**"));
    }
    out.push_str(&format!("\n\n{}\n", markdown_block(description)));
    out.push_str(&scopes_line(scopes));
    if let Some(i) = instructions {
        out.push_str(&format!(
            "\n*Instructions, given to the model when the group becomes active:*\n\n{}\n",
            markdown_block(i)
        ));
    }
    out
}

/// A group's "requires scopes" line, with the blank line before it (empty without scopes).
pub(crate) fn scopes_line(scopes: &[String]) -> String {
    if scopes.is_empty() {
        return String::new();
    }
    format!("\n*Requires scopes: {}.*\n", scope_list(scopes))
}

/// `` `a`, `b` ``: scopes as code spans. The scope-token rule allows a backtick, which would
/// end a one-backtick span: such a scope gets a two-backtick one.
fn scope_list(scopes: &[String]) -> String {
    scopes
        .iter()
        .map(|s| {
            if s.contains('`') {
                format!("`` {s} ``")
            } else {
                format!("`{s}`")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Text on one line (for a table cell, or a short summary).
pub(crate) fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `a :: b` -> `a::b`.
pub(crate) fn path_text(path: &Path) -> String {
    tokens_text(path.to_token_stream())
}

/// A type as written, without the spaces token printing adds (`Option<Vec<u8>>`).
pub(crate) fn type_text(ty: &Type) -> String {
    tokens_text(ty.to_token_stream())
}

fn tokens_text(tokens: TokenStream) -> String {
    let raw = tokens.to_string();
    let mut out = String::with_capacity(raw.len());
    let chars: Vec<char> = raw.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if c == ' ' {
            let prev = out.chars().last().unwrap_or(' ');
            let next = chars.get(i + 1).copied().unwrap_or(' ');
            let tight_after = matches!(prev, '<' | ':' | '&' | '(' | '[');
            let word: String = out
                .chars()
                .rev()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            // `Fn(u8)`, `fn(u8)`, but `&mut (u8, u8)`.
            let call = next == '('
                && !word.is_empty()
                && !matches!(word.as_str(), "tum" | "nyd" | "lpmi" | "tsnoc");
            let tight_before = call || matches!(next, '<' | '>' | ':' | ',' | ')' | ']' | ';');
            if tight_after || tight_before {
                continue;
            }
        }
        out.push(c);
    }
    out
}

/// Text for a Markdown code span inside a table cell.
fn code(s: &str) -> String {
    s.replace('|', "\\|").replace('`', "'")
}

/// Text for a table cell: one line, `|` escaped.
pub(crate) fn cell(s: &str) -> String {
    one_line(s).replace('|', "\\|")
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

fn duration(ms: u64) -> String {
    match ms {
        ms if ms % 3_600_000 == 0 => format!("{} h", ms / 3_600_000),
        ms if ms % 60_000 == 0 => format!("{} min", ms / 60_000),
        ms if ms % 1_000 == 0 => format!("{} s", ms / 1_000),
        ms => format!("{ms} ms"),
    }
}

/// Markdown from a doc comment, made safe to include in another item's docs: headings become
/// bold lines (the including page has its own structure) and code blocks become `text` blocks
/// (so rustdoc does not run a tool's examples again as doc tests of every page that lists it).
pub(crate) fn markdown_block(text: &str) -> String {
    let mut out = Vec::new();
    let mut fence: Option<(char, usize)> = None;
    for line in text.lines() {
        let trimmed = line.trim_start();
        let indent = &line[..line.len() - trimmed.len()];
        if let Some((ch, n)) = fence {
            let t = trimmed.trim_end();
            if t.len() >= n && t.chars().all(|c| c == ch) {
                fence = None;
            }
            out.push(line.to_owned());
            continue;
        }
        if let Some(ch) = ['`', '~']
            .into_iter()
            .find(|c| trimmed.starts_with(&c.to_string().repeat(3)))
        {
            let n = trimmed.len() - trimmed.trim_start_matches(ch).len();
            fence = Some((ch, n));
            out.push(format!("{indent}{}text", ch.to_string().repeat(n)));
            continue;
        }
        if let Some(rest) = trimmed.strip_prefix('#') {
            let title = rest.trim_start_matches('#');
            if title.is_empty() || title.starts_with(' ') {
                let title = title.trim();
                if !title.is_empty() {
                    out.push(format!("{indent}**{title}**"));
                }
                continue;
            }
        }
        out.push(line.to_owned());
    }
    out.join("\n").trim().to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use syn::parse_quote;

    #[test]
    fn markdown_for_other_pages() {
        let text = "Intro.\n\n# Examples\n\n```\nlet x = 1;\n# hidden\n```\n\n~~~~rust\nfn f() {}\n~~~~\n## Notes: tight\n#hashtag";
        assert_eq!(
            markdown_block(text),
            "Intro.\n\n**Examples**\n\n```text\nlet x = 1;\n# hidden\n```\n\n~~~~text\nfn f() {}\n~~~~\n**Notes: tight**\n#hashtag"
        );
    }

    #[test]
    fn types_as_written() {
        let t = |ty: syn::Type| type_text(&ty);
        assert_eq!(t(parse_quote!(Option<Vec<u8>>)), "Option<Vec<u8>>");
        assert_eq!(
            t(parse_quote!(::std::string::String)),
            "::std::string::String"
        );
        assert_eq!(
            t(parse_quote!(&'static mut [u8; 4])),
            "&'static mut [u8; 4]"
        );
        assert_eq!(
            t(parse_quote!((u8, HashMap<String, i64>))),
            "(u8, HashMap<String, i64>)"
        );
        assert_eq!(
            t(parse_quote!(Box<dyn Fn(u8) -> u8>)),
            "Box<dyn Fn(u8) -> u8>"
        );
    }

    #[test]
    fn tool_fragment_lists_arguments() {
        let doc = ToolDoc {
            name: "search",
            description: "Search.\n\nSecond | paragraph.",
            args: vec![
                ArgDoc {
                    name: "query".into(),
                    ty: "String".into(),
                    required: true,
                    description: "What to\nsearch | for.".into(),
                },
                ArgDoc {
                    name: "limit".into(),
                    ty: "Option<u8>".into(),
                    required: false,
                    description: String::new(),
                },
            ],
            whole: None,
            hints: vec!["read-only"],
            timeout_ms: Some(1500),
            task: Some("optional"),
            scopes: vec!["files:write".into(), "a`b".into()],
            returns: Some("Vec<String>".into()),
        };
        assert_eq!(
            tool_fragment(&doc),
            "\n\n**Tool `search`**\n\nSearch.\n\nSecond | paragraph.\n\n*Hints: read-only; timeout: 1500 ms; MCP task support: optional; requires scopes: `files:write`, `` a`b ``; returns `Vec<String>`.*\n\n| Argument | Type | Required | Description |\n|---|---|---|---|\n| `query` | `String` | yes | What to search \\| for. |\n| `limit` | `Option<u8>` | no |  |\n"
        );
        let whole = ToolDoc {
            whole: Some("Params".into()),
            args: Vec::new(),
            hints: Vec::new(),
            timeout_ms: None,
            task: None,
            scopes: Vec::new(),
            returns: None,
            ..doc
        };
        assert_eq!(
            group_head(
                Some("files"),
                "Files.",
                &["files:read".into()],
                Some("Be careful.")
            ),
            "\n\n**Group `files`**\n\nFiles.\n\n*Requires scopes: `files:read`.*\n\n*Instructions, given to the model when the group becomes active:*\n\nBe careful.\n"
        );
        assert_eq!(
            tool_fragment(&whole),
            "\n\n**Tool `search`**\n\nSearch.\n\nSecond | paragraph.\n\nArguments: the fields of `Params`.\n"
        );
    }
}
