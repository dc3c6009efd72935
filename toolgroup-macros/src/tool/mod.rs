//! `#[tool]`: one tool function. Phases: its attribute's keys ([`crate::attr`]), the
//! [`model`] of the function, the [`check`]s, then [`expand`](mod@expand) (or the fallback, on error).
//! `#[tool_group]` runs the same phases for each `#[tool]` method.

pub(crate) mod check;
pub(crate) mod expand;
pub(crate) mod model;
pub(crate) mod rustdoc;

use proc_macro2::TokenStream;
use syn::ItemFn;

use crate::attr;
use crate::ctxt::Ctxt;
use crate::fallback;
use model::{Owner, Tool};

/// `#[tool]` on a free function.
pub(crate) fn expand(attr: TokenStream, item: TokenStream, site: u64) -> TokenStream {
    let Ok(mut func) = syn::parse2::<ItemFn>(item.clone()) else {
        return fallback::not_an_item(
            item,
            "`#[tool]` goes on a function (`fn` or `async fn`), or on a `&self` method inside a `#[tool_group(...)]` impl block",
        );
    };
    let cx = Ctxt::new();
    let args = attr::parse_tool_args(attr, &cx);
    let tool = Tool::from_sig(&mut func.sig, &func.attrs, &func.vis, args, Owner::Free);
    check::tool(&cx, &tool);
    match cx.check() {
        Ok(()) => expand::free(&tool, func, site),
        Err(e) => fallback::free_tool(&tool, func, e, site),
    }
}
