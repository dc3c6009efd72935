//! The hidden macros that carry the Markdown fragments of tools and groups from one item to
//! another.
//!
//! A macro cannot read another item, but `#[doc = m!()]` accepts a macro that expands to a
//! string literal, and `concat!` expands the macros among its arguments. So:
//!
//! - `#[tool] fn search` also defines a hidden `macro_rules!` whose `()` arm expands to the
//!   tool's Markdown fragment, and imports it under the function's own name (`use ... as
//!   search;`), in the macro namespace. Wherever the path `a::search` names the tool (or its
//!   marker struct), `a::search!()` names its fragment, `use` imports included.
//! - `#[tool_group]` writes `#[doc = concat!(.., a::search!(), ..)]` on its own item, and
//!   defines a macro named like the group type with its whole fragment. Because paths inside a
//!   `macro_rules!` body resolve where the macro is called, that macro cannot itself call
//!   `a::search!()`; instead the group walks its tools with callbacks (each tool macro's
//!   `@chain` arm appends its fragment and calls the next step), and the last step defines the
//!   group macro with string literals only.
//! - `#[toolkit]` calls the group macros of its field types.
//!
//! Visibility follows the item: a `pub` item's macro is `#[macro_export]` (under a name unique
//! in the crate) and re-exported with `pub use` next to the item, so other crates reach it by
//! the item's path; other items get a plain `macro_rules!` and a `use` with the item's
//! visibility.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::spanned::Spanned as _;
use syn::{Ident, Path, Visibility};

use crate::tokens::unraw;

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

/// Whether an item named `ident` gets a doc macro under that name.
pub(crate) fn has_doc_macro(ident: &Ident) -> bool {
    !SHADOWING.contains(&unraw(ident).as_str())
}

/// `path!(args)`, resolved where the user wrote `path` (and blamed there if it is not a
/// `#[tool]` / `#[tool_group]`); `None` when the path's item has no doc macro.
pub(crate) fn doc_macro_call(path: &Path, args: TokenStream) -> Option<TokenStream> {
    let last = path.segments.last()?;
    if !has_doc_macro(&last.ident)
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

/// The hidden name of a doc macro: `__toolgroup_<kind>_<item>_<site>`, unique in the crate
/// because [`site`] is unique to one expansion.
pub(crate) fn hidden_ident(kind: &str, item: &Ident, site: u64) -> Ident {
    Ident::new(
        &format!("__toolgroup_{kind}_{}_{site:016x}", unraw(item)),
        Span::call_site(),
    )
}

/// A number for one expansion of a macro, from its call site and item: hidden doc macros are
/// named with it, so that their `#[macro_export]` names are unique in the crate. The call
/// site's `Debug` names the expansion's hygiene context, so two expansions of one
/// `macro_rules!` body (the same place, the same text) get two numbers; nothing outside the
/// expansion is read, so expanding it again gives the same number.
pub(crate) fn site(item: &proc_macro::TokenStream) -> u64 {
    use std::hash::{Hash as _, Hasher as _};
    let span = proc_macro::Span::call_site();
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    span.file().hash(&mut hasher);
    span.line().hash(&mut hasher);
    span.column().hash(&mut hasher);
    format!("{span:?}").hash(&mut hasher);
    item.to_string().hash(&mut hasher);
    hasher.finish()
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
#[derive(Clone)]
pub(crate) enum Piece {
    Text(String),
    Tool(Path),
}

/// How many pieces one chain of callbacks gathers at most. Each free tool in a chain costs
/// two macro levels (the step, then the tool's macro), so a chain's depth, not the group's
/// size, is what counts against the recursion limit (128 by default).
const FAN_IN: usize = 16;

/// The group's doc macro (named like the group type), with arms `()` (the whole fragment)
/// and `(description)`. Free tools' fragments are gathered by chains of callbacks, so the
/// macro holds only literals and works wherever it is called.
///
/// A group with more than [`FAN_IN`] pieces is gathered as a tree: each chain of at most
/// `FAN_IN` pieces defines a local *part* macro that answers `@chain` as a tool's macro
/// does, with its pieces already joined by one `concat!`; the next level chains the parts.
/// Every chain is invoked at the group's own level (a part is found by its textual scope),
/// so the macro depth stays that of one chain and each piece's text is passed along a
/// bounded number of times, whatever the group's size.
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
    let mut chains = TokenStream::new();
    let mut level: Vec<Piece> = tools.to_vec();
    let mut depth = 0;
    while level.len() > FAN_IN {
        let mut next = Vec::new();
        for (i, chunk) in level.chunks(FAN_IN).enumerate() {
            let part = Ident::new(&format!("{hidden}_part{depth}_{i}"), Span::call_site());
            let items = chain_items(chunk);
            chains.extend(quote! {
                #step! { {} [$ #part] #(#items)* }
            });
            next.push(Piece::Tool(part.into()));
        }
        level = next;
        depth += 1;
    }
    let items = chain_items(&level);
    quote! {
        #[doc(hidden)]
        #[allow(unused_macros)]
        macro_rules! #step {
            ({ $($acc:tt)* } []) => { #last };
            ({ $($acc:tt)* } [$d:tt $part:ident]) => {
                macro_rules! $part {
                    (@chain $d cb:ident { $d ($d acc:tt)* } $d ($d rest:tt)*) => {
                        $d cb! { { $d ($d acc)* ::core::concat!($($acc)*), } $d ($d rest)* }
                    };
                }
            };
            ({ $($acc:tt)* } $target:tt = $text:literal, $($rest:tt)*) => {
                #step! { { $($acc)* $text, } $target $($rest)* }
            };
            ({ $($acc:tt)* } $target:tt $next:path, $($rest:tt)*) => {
                $next! { @chain #step { $($acc)* } $target $($rest)* }
            };
        }
        #chains
        #step! { {} [] #(#items)* }
    }
}

/// A chain's input: `= "text",` for a literal fragment, `path,` for a doc macro.
fn chain_items(pieces: &[Piece]) -> Vec<TokenStream> {
    pieces
        .iter()
        .map(|p| match p {
            Piece::Text(t) => quote!(= #t,),
            Piece::Tool(path) => quote!(#path,),
        })
        .collect()
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

#[cfg(test)]
mod tests {
    use super::*;
    use syn::parse_quote;

    #[test]
    fn doc_macros_skip_names_that_would_shadow() {
        assert!(has_doc_macro(&parse_quote!(search)));
        assert!(has_doc_macro(&parse_quote!(WebSearch)));
        assert!(!has_doc_macro(&parse_quote!(write)));
        assert!(!has_doc_macro(&parse_quote!(r#format)));
        assert!(!has_doc_macro(&parse_quote!(json)));
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

    /// The name depends on its inputs only: expanding the same item again (as rust-analyzer
    /// does on every edit) gives the same name.
    #[test]
    fn hidden_names_are_a_function_of_the_site() {
        let ident: Ident = parse_quote!(r#search);
        let a = hidden_ident("doc", &ident, 7);
        assert_eq!(a.to_string(), "__toolgroup_doc_search_0000000000000007");
        assert_eq!(hidden_ident("doc", &ident, 7), a);
        assert_ne!(hidden_ident("doc", &ident, 8), a);
    }
}
