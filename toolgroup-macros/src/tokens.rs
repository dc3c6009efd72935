//! Token helpers every macro uses: an identifier's name as the model sees it, and generated
//! tokens moved onto the user's code.

use proc_macro2::{Group, Span, TokenStream, TokenTree};
use syn::Ident;
use syn::ext::IdentExt as _;

/// The identifier without its raw prefix (`r#type` -> `type`): the name a JSON argument,
/// a tool or a `reset_tools` field gets.
pub(crate) fn unraw(ident: &Ident) -> String {
    ident.unraw().to_string()
}

/// `tokens` with every span set to `span`, so an error inside points at the user's token.
pub(crate) fn respan(tokens: TokenStream, span: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut tt| {
            if let TokenTree::Group(g) = &tt {
                let mut group = Group::new(g.delimiter(), respan(g.stream(), span));
                group.set_span(span);
                tt = TokenTree::Group(group);
            } else {
                tt.set_span(span);
            }
            tt
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::unraw;

    #[test]
    fn raw_prefix_is_dropped() {
        assert_eq!(unraw(&syn::parse_quote!(r#type)), "type");
        assert_eq!(unraw(&syn::parse_quote!(query)), "query");
    }
}
