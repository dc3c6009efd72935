//! `#[tool_group]`: on an impl block of `#[tool]` methods (a group with state), or on a
//! struct naming free `#[tool]` functions with `tools = [...]` (a stateless group, or with
//! `dynamic` one whose tools are found at run time). Phases: the attribute's keys
//! ([`crate::attr`]), the [`model`] (with each method's tool model), the [`check`]s, then
//! [`expand`](mod@expand) (or the fallback, on error).

pub(crate) mod check;
pub(crate) mod expand;
pub(crate) mod model;

use proc_macro2::TokenStream;
use syn::Item;

use crate::attr;
use crate::ctxt::Ctxt;
use crate::fallback;
use model::{ImplGroup, StructGroup};

pub(crate) fn expand(attr: TokenStream, item: TokenStream, site: u64) -> TokenStream {
    match syn::parse2::<Item>(item.clone()) {
        Ok(Item::Impl(imp)) => {
            let cx = Ctxt::new();
            let group = ImplGroup::new(attr::parse_group_args(attr, &cx), imp);
            check::impl_group(&cx, &group);
            match cx.check() {
                Ok(()) => expand::impl_group(group, site),
                Err(e) => fallback::impl_group(group, e, site),
            }
        }
        Ok(Item::Struct(s)) => {
            let cx = Ctxt::new();
            let group = StructGroup::new(attr::parse_group_args(attr, &cx), s);
            check::struct_group(&cx, &group);
            match cx.check() {
                Ok(()) => expand::struct_group(group, site),
                Err(e) => fallback::struct_group(group, e, site),
            }
        }
        _ => fallback::not_an_item(
            item,
            "`#[tool_group]` goes on an impl block of `#[tool]` methods, or on a struct that lists free `#[tool]` functions with `tools = [...]`",
        ),
    }
}
