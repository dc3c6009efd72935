//! `#[toolkit]`: a struct whose fields are groups becomes a typed registry, with the group
//! enum, the typed reset value and compile-time checks across all groups. Phases: the
//! attribute's keys ([`crate::attr`]), the [`model`], the [`check`]s, then [`expand`](mod@expand) (or the
//! fallback, on error).

pub(crate) mod check;
pub(crate) mod expand;
pub(crate) mod model;

use proc_macro2::TokenStream;
use syn::ItemStruct;

use crate::attr;
use crate::ctxt::Ctxt;
use crate::fallback;
use model::Toolkit;

pub(crate) fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    let Ok(item) = syn::parse2::<ItemStruct>(item.clone()) else {
        return fallback::not_an_item(
            item,
            "`#[toolkit]` goes on a struct with named fields, one `#[tool_group]` per field",
        );
    };
    let cx = Ctxt::new();
    let toolkit = Toolkit::new(attr::parse_toolkit_args(attr, &cx), item);
    check::toolkit(&cx, &toolkit);
    match cx.check() {
        Ok(()) => expand::toolkit(toolkit),
        Err(e) => fallback::toolkit(toolkit, e),
    }
}
