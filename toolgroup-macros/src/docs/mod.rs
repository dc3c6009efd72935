//! Doc comments in (a tool's description and its `# Arguments` list), and the rustdoc the
//! macros generate: Markdown fragments of tools and groups ([`render`]), carried from one item
//! to another by hidden macros ([`macros`]).

use syn::{Attribute, Expr, ExprLit, Lit, Meta};

pub(crate) mod macros;
pub(crate) mod render;

pub(crate) use macros::{
    Piece, concat_args, define_doc_macro, define_group_macro, doc_macro_call, has_doc_macro,
    hidden_ident, tool_macro_arms,
};
pub(crate) use render::{
    ArgDoc, ToolDoc, group_head, one_line, scopes_line, tool_fragment, type_text,
    unlinked_tool_fragment,
};

/// The lines of the `#[doc = "..."]` attributes, one leading space removed.
pub(crate) fn doc_lines(attrs: &[Attribute]) -> Vec<String> {
    let mut lines = Vec::new();
    for attr in attrs {
        if !attr.path().is_ident("doc") {
            continue;
        }
        if let Meta::NameValue(nv) = &attr.meta
            && let Expr::Lit(ExprLit {
                lit: Lit::Str(s), ..
            }) = &nv.value
        {
            for line in s.value().split('\n') {
                lines.push(line.strip_prefix(' ').unwrap_or(line).trim_end().to_owned());
            }
        }
    }
    lines
}

/// A doc comment split into the description (text before `# Arguments`) and the
/// `(parameter, description)` pairs of the `# Arguments` list.
pub(crate) struct ToolDocs {
    pub(crate) description: String,
    pub(crate) arguments: Vec<(String, String)>,
}

pub(crate) fn parse(attrs: &[Attribute]) -> ToolDocs {
    let lines = doc_lines(attrs);
    let mut description = Vec::new();
    let mut arguments: Vec<(String, String)> = Vec::new();
    let mut in_args = false;
    let mut after_args = false;
    for line in &lines {
        let trimmed = line.trim();
        if let Some(heading) = trimmed.strip_prefix('#') {
            let heading = heading.trim_start_matches('#').trim();
            if heading.eq_ignore_ascii_case("arguments")
                || heading.eq_ignore_ascii_case("parameters")
            {
                in_args = true;
                continue;
            }
            if in_args {
                in_args = false;
                after_args = true;
            }
        }
        if in_args {
            if let Some(item) = trimmed
                .strip_prefix("* ")
                .or_else(|| trimmed.strip_prefix("- "))
            {
                if let Some(pair) = parse_item(item) {
                    arguments.push(pair);
                }
            } else if !trimmed.is_empty()
                && let Some((_, text)) = arguments.last_mut()
            {
                text.push(' ');
                text.push_str(trimmed);
            }
        } else if !after_args {
            description.push(line.as_str());
        }
    }
    ToolDocs {
        description: description.join("\n").trim().to_owned(),
        arguments,
    }
}

/// `` `name` - text ``, `name: text`, `` `name`: text `` or `name - text`.
fn parse_item(item: &str) -> Option<(String, String)> {
    let item = item.trim();
    let (name, rest) = if let Some(rest) = item.strip_prefix('`') {
        let end = rest.find('`')?;
        (&rest[..end], &rest[end + 1..])
    } else {
        let end = item.find(|c: char| !(c.is_alphanumeric() || c == '_'))?;
        (&item[..end], &item[end..])
    };
    let text = rest
        .trim_start()
        .trim_start_matches([':', '-', '\u{2013}', '\u{2014}'])
        .trim();
    (!name.is_empty()).then(|| (name.to_owned(), text.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use syn::parse_quote;

    #[test]
    fn description_and_arguments() {
        let f: syn::ItemFn = parse_quote! {
            /// Search the web.
            ///
            /// Returns hits.
            ///
            /// # Arguments
            ///
            /// * `query` - What to search for.
            /// * `limit`: How many
            ///   results.
            /// - page - Page number.
            ///
            /// # Errors
            /// Fails offline.
            fn f() {}
        };
        let d = parse(&f.attrs);
        assert_eq!(d.description, "Search the web.\n\nReturns hits.");
        assert_eq!(
            d.arguments,
            vec![
                ("query".to_owned(), "What to search for.".to_owned()),
                ("limit".to_owned(), "How many results.".to_owned()),
                ("page".to_owned(), "Page number.".to_owned()),
            ]
        );
    }
}
