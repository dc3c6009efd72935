//! Procedural macros of [`toolgroup`](https://docs.rs/toolgroup). Use them through the
//! `toolgroup` crate, which documents them; this crate's API is an implementation detail.

#![warn(missing_docs, unreachable_pub)]
#![cfg_attr(docsrs, feature(doc_cfg))]

use proc_macro::TokenStream;

mod attr;
mod ctxt;
mod docs;
mod group;
mod names;
mod tool;
mod toolkit;

#[cfg(test)]
mod tests;

/// Turn a function into a tool. Documented in the `toolgroup` crate.
#[proc_macro_attribute]
pub fn tool(attr: TokenStream, item: TokenStream) -> TokenStream {
    let site = site(&item);
    tool::expand(attr.into(), item.into(), site).into()
}

/// Turn an impl block of `#[tool]` methods, or a struct listing tools, into a tool group.
/// Documented in the `toolgroup` crate.
#[proc_macro_attribute]
pub fn tool_group(attr: TokenStream, item: TokenStream) -> TokenStream {
    let site = site(&item);
    group::expand(attr.into(), item.into(), site).into()
}

/// Compose tool groups into a toolkit. Documented in the `toolgroup` crate.
#[proc_macro_attribute]
pub fn toolkit(attr: TokenStream, item: TokenStream) -> TokenStream {
    toolkit::expand(attr.into(), item.into()).into()
}

/// A number for the macro's call site and item: hidden doc macros are named with it, so that
/// their `#[macro_export]` names are unique in the crate.
fn site(item: &TokenStream) -> u64 {
    use std::hash::{Hash as _, Hasher as _};
    let span = proc_macro::Span::call_site();
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    span.file().hash(&mut hasher);
    span.line().hash(&mut hasher);
    span.column().hash(&mut hasher);
    item.to_string().hash(&mut hasher);
    hasher.finish()
}
