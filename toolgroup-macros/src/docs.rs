//! Doc comments in (a tool's description and its `# Arguments` list), and the rustdoc the
//! macros generate (Markdown fragments of tools and groups, carried by hidden macros).

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote, quote_spanned};
use syn::spanned::Spanned as _;
use syn::{Attribute, Expr, ExprLit, Ident, Lit, Meta, Path, Type, Visibility};

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

// ---------------------------------------------------------------------------------------------
// Generated rustdoc: the Markdown fragments of tools and groups, and the hidden macros that
// carry them from one item to another.
//
// A macro cannot read another item, but `#[doc = m!()]` accepts a macro that expands to a
// string literal, and `concat!` expands the macros among its arguments. So:
//
// - `#[tool] fn search` also defines a hidden `macro_rules!` whose `()` arm expands to the
//   tool's Markdown fragment, and imports it under the function's own name (`use ... as
//   search;`), in the macro namespace. Wherever the path `a::search` names the tool (or its
//   marker struct), `a::search!()` names its fragment, `use` imports included.
// - `#[tool_group]` writes `#[doc = concat!(.., a::search!(), ..)]` on its own item, and
//   defines a macro named like the group type with its whole fragment. Because paths inside a
//   `macro_rules!` body resolve where the macro is called, that macro cannot itself call
//   `a::search!()`; instead the group walks its tools with callbacks (each tool macro's
//   `@chain` arm appends its fragment and calls the next step), and the last step defines the
//   group macro with string literals only.
// - `#[toolkit]` calls the group macros of its field types.
//
// Visibility follows the item: a `pub` item's macro is `#[macro_export]` (under a name unique
// in the crate) and re-exported with `pub use` next to the item, so other crates reach it by
// the item's path; other items get a plain `macro_rules!` and a `use` with the item's
// visibility.
// ---------------------------------------------------------------------------------------------

/// Names of bang macros that are in scope nearly everywhere: the standard prelude's, and a few
/// that crates often import (`json!`, `tracing`/`log`, `tokio`, `anyhow`). An item with one of
/// these names gets no doc macro, because a macro imported under its name would shadow the
/// real one in the item's module; its group's docs then name it without its details.
const SHADOWING: &[&str] = &[
    // std prelude
    "asm",
    "assert",
    "assert_eq",
    "assert_ne",
    "cfg",
    "cfg_select",
    "column",
    "compile_error",
    "concat",
    "concat_bytes",
    "concat_idents",
    "const_format_args",
    "dbg",
    "debug_assert",
    "debug_assert_eq",
    "debug_assert_ne",
    "env",
    "eprint",
    "eprintln",
    "file",
    "format",
    "format_args",
    "format_args_nl",
    "global_asm",
    "include",
    "include_bytes",
    "include_str",
    "is_x86_feature_detected",
    "line",
    "log_syntax",
    "matches",
    "module_path",
    "naked_asm",
    "option_env",
    "panic",
    "print",
    "println",
    "stringify",
    "thread_local",
    "todo",
    "trace_macros",
    "try",
    "unimplemented",
    "unreachable",
    "vec",
    "write",
    "writeln",
    // common imports
    "json",
    "trace",
    "debug",
    "info",
    "warn",
    "error",
    "event",
    "span",
    "log",
    "select",
    "join",
    "try_join",
    "pin",
    "anyhow",
    "bail",
    "ensure",
    "quote",
];

/// Whether an item named `name` gets a doc macro under that name.
pub(crate) fn has_doc_macro(name: &str) -> bool {
    !SHADOWING.contains(&name.trim_start_matches("r#"))
}

/// `path!(args)`, resolved where the user wrote `path` (and blamed there if it is not a
/// `#[tool]` / `#[tool_group]`); `None` when the path's item has no doc macro.
pub(crate) fn doc_macro_call(path: &Path, args: TokenStream) -> Option<TokenStream> {
    let last = path.segments.last()?;
    if !has_doc_macro(&last.ident.to_string())
        || path
            .segments
            .iter()
            .any(|s| !matches!(s.arguments, syn::PathArguments::None))
    {
        return None;
    }
    let span = path.span();
    Some(quote_spanned!(span=> #path!(#args)))
}

/// The hidden name of a doc macro: `__toolgroup_<kind>_<item>_<hash>`, unique in the crate
/// (the hash covers the item's place and text; a repeat in one compilation gets a suffix).
pub(crate) fn hidden_ident(kind: &str, item: &Ident, site: u64) -> Ident {
    use std::collections::HashSet;
    use std::sync::Mutex;
    static SEEN: Mutex<Option<HashSet<String>>> = Mutex::new(None);
    let base = format!(
        "__toolgroup_{kind}_{}_{site:016x}",
        item.to_string().trim_start_matches("r#")
    );
    let mut seen = SEEN.lock().unwrap_or_else(|e| e.into_inner());
    let seen = seen.get_or_insert_with(HashSet::new);
    let mut name = base.clone();
    let mut n = 1u32;
    while !seen.insert(name.clone()) {
        n += 1;
        name = format!("{base}_{n}");
    }
    Ident::new(&name, Span::call_site())
}

/// A `macro_rules!` named `hidden` with `arms`, imported as `item` with the item's visibility.
pub(crate) fn define_doc_macro(
    vis: &Visibility,
    item: &Ident,
    hidden: &Ident,
    arms: TokenStream,
) -> TokenStream {
    let export = if matches!(vis, Visibility::Public(_)) {
        quote!(#[macro_export] #[allow(non_local_definitions)])
    } else {
        quote!(#[allow(unused_macros)])
    };
    quote! {
        #[doc(hidden)]
        #export
        macro_rules! #hidden { #arms }
        #[doc(hidden)]
        #[allow(unused_imports, unreachable_pub)]
        #vis use #hidden as #item;
    }
}

/// The arms of a free tool's doc macro: `()` gives its fragment; `@chain` appends it to a
/// group's list and calls the group's next step; anything else is a mistake (most likely a
/// call meant for another macro of the same name, which this one shadows).
pub(crate) fn tool_macro_arms(fn_name: &str, fragment: &str) -> TokenStream {
    let misuse = format!(
        "`{fn_name}!` here is the hidden documentation macro of the `#[tool]` function `{fn_name}`, which shares the function's name; call the other `{fn_name}!` by its full path, or rename the function and keep the tool's name with `#[tool(name = \"{fn_name}\")]`"
    );
    quote! {
        () => { #fragment };
        (@chain $cb:ident { $($acc:tt)* } $($rest:tt)*) => { $cb! { { $($acc)* #fragment, } $($rest)* } };
        ($($other:tt)*) => { ::core::compile_error!(#misuse) };
    }
}

/// One piece of a group's tool list: a literal fragment, or a free tool's doc macro.
pub(crate) enum Piece {
    Text(String),
    Tool(Path),
}

/// The group's doc macro (named like the group type), with arms `()` (the whole fragment)
/// and `(description)`. Free tools' fragments are gathered by a chain of callbacks, so the
/// macro holds only literals and works wherever it is called.
pub(crate) fn define_group_macro(
    vis: &Visibility,
    group: &Ident,
    site: u64,
    head: &str,
    tools: &[Piece],
    description: &str,
) -> TokenStream {
    let hidden = hidden_ident("group_doc", group, site);
    let define = |parts: TokenStream| {
        define_doc_macro(
            vis,
            group,
            &hidden,
            quote! {
                () => { ::core::concat!(#head, #parts) };
                (description) => { #description };
            },
        )
    };
    if tools.iter().all(|p| matches!(p, Piece::Text(_))) {
        let texts = tools.iter().map(|p| match p {
            Piece::Text(t) => quote!(#t,),
            Piece::Tool(_) => unreachable!(),
        });
        return define(quote!(#(#texts)*));
    }
    let step = hidden_ident("group_step", group, site);
    let last = define(quote!($($acc)*));
    let items = tools.iter().map(|p| match p {
        Piece::Text(t) => quote!(= #t,),
        Piece::Tool(path) => quote!(#path,),
    });
    quote! {
        #[doc(hidden)]
        #[allow(unused_macros)]
        macro_rules! #step {
            ({ $($acc:tt)* }) => { #last };
            ({ $($acc:tt)* } = $text:literal, $($rest:tt)*) => { #step! { { $($acc)* $text, } $($rest)* } };
            ({ $($acc:tt)* } $next:path, $($rest:tt)*) => { $next! { @chain #step { $($acc)* } $($rest)* } };
        }
        #step! { {} #(#items)* }
    }
}

/// `concat!` arguments for `pieces` (literals, and doc macro calls for free tools).
pub(crate) fn concat_args(pieces: &[Piece]) -> Vec<TokenStream> {
    pieces
        .iter()
        .map(|p| match p {
            Piece::Text(t) => quote!(#t),
            Piece::Tool(path) => {
                doc_macro_call(path, TokenStream::new()).expect("a `Piece::Tool` has a doc macro")
            }
        })
        .collect()
}

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

/// The fragment of a tool listed by path whose doc macro does not exist (see [`SHADOWING`]).
pub(crate) fn unlinked_tool_fragment(path: &Path) -> String {
    format!(
        "\n\n**Tool `{}`**\n\n(Its description and arguments are in its own documentation.)\n",
        path_text(path)
    )
}

/// The start of a group's fragment: its name (unless the page is the group's own),
/// description and instructions.
pub(crate) fn group_head(
    name: Option<&str>,
    description: &str,
    instructions: Option<&str>,
) -> String {
    let mut out = String::new();
    if let Some(name) = name {
        out.push_str(&format!("\n\n**Group `{name}`**"));
    }
    out.push_str(&format!("\n\n{}\n", markdown_block(description)));
    if let Some(i) = instructions {
        out.push_str(&format!(
            "\n*Instructions, given to the model when the group becomes active:*\n\n{}\n",
            markdown_block(i)
        ));
    }
    out
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
            returns: Some("Vec<String>".into()),
        };
        assert_eq!(
            tool_fragment(&doc),
            "\n\n**Tool `search`**\n\nSearch.\n\nSecond | paragraph.\n\n*Hints: read-only; timeout: 1500 ms; returns `Vec<String>`.*\n\n| Argument | Type | Required | Description |\n|---|---|---|---|\n| `query` | `String` | yes | What to search \\| for. |\n| `limit` | `Option<u8>` | no |  |\n"
        );
        let whole = ToolDoc {
            whole: Some("Params".into()),
            args: Vec::new(),
            hints: Vec::new(),
            timeout_ms: None,
            returns: None,
            ..doc
        };
        assert_eq!(
            tool_fragment(&whole),
            "\n\n**Tool `search`**\n\nSearch.\n\nSecond | paragraph.\n\nArguments: the fields of `Params`.\n"
        );
    }

    #[test]
    fn doc_macros_skip_names_that_would_shadow() {
        assert!(has_doc_macro("search"));
        assert!(has_doc_macro("WebSearch"));
        assert!(!has_doc_macro("write"));
        assert!(!has_doc_macro("r#format"));
        assert!(!has_doc_macro("json"));
        let path: Path = parse_quote!(tools::write);
        assert!(doc_macro_call(&path, TokenStream::new()).is_none());
        let path: Path = parse_quote!(tools::search);
        assert_eq!(
            doc_macro_call(&path, TokenStream::new())
                .unwrap()
                .to_string(),
            "tools :: search ! ()"
        );
    }

    #[test]
    fn hidden_names_are_unique() {
        let ident: Ident = parse_quote!(search);
        let a = hidden_ident("test_unique", &ident, 7);
        let b = hidden_ident("test_unique", &ident, 7);
        assert_eq!(
            a.to_string(),
            "__toolgroup_test_unique_search_0000000000000007"
        );
        assert_eq!(
            b.to_string(),
            "__toolgroup_test_unique_search_0000000000000007_2"
        );
    }
}
