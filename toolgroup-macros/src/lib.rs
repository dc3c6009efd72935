//! Procedural macros of [`toolgroup`](https://docs.rs/toolgroup). Use them through the
//! `toolgroup` crate, which documents them; this crate's API is an implementation detail.
//!
//! Each macro runs in phases, as serde_derive and thiserror do: the attribute's keys
//! (`attr`) -> a model of the item, with spans (`tool::model`, `group::model`,
//! `toolkit::model`) -> the checks, one function per rule, all errors collected (`ctxt`) ->
//! the generated code (`*::expand`), or on error the item beside stub impls (`fallback`).

#![warn(missing_docs, unreachable_pub)]
#![cfg_attr(docsrs, feature(doc_cfg))]

use proc_macro::TokenStream;

mod attr;
mod ctxt;
mod docs;
mod fallback;
mod group;
mod names;
mod scopes;
mod skills;
mod tokens;
mod tool;
mod toolkit;

#[cfg(test)]
mod tests;

/// Turn a function into a tool. Documented in the `toolgroup` crate.
#[proc_macro_attribute]
pub fn tool(attr: TokenStream, item: TokenStream) -> TokenStream {
    let site = docs::macros::site(&item);
    tool::expand(attr.into(), item.into(), site).into()
}

/// Turn an impl block of `#[tool]` methods, or a struct listing tools, into a tool group.
/// Documented in the `toolgroup` crate.
#[proc_macro_attribute]
pub fn tool_group(attr: TokenStream, item: TokenStream) -> TokenStream {
    let site = docs::macros::site(&item);
    group::expand(attr.into(), item.into(), site).into()
}

/// Compose tool groups into a toolkit. Documented in the `toolgroup` crate.
#[proc_macro_attribute]
pub fn toolkit(attr: TokenStream, item: TokenStream) -> TokenStream {
    toolkit::expand(attr.into(), item.into()).into()
}
