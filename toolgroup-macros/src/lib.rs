//! Procedural macros of [`toolgroup`](https://docs.rs/toolgroup). Use them through the
//! `toolgroup` crate, which documents them; this crate's API is an implementation detail.

#![warn(missing_docs, unreachable_pub)]

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
    tool::expand(attr.into(), item.into()).into()
}

/// Turn an impl block of `#[tool]` methods, or a struct listing tools, into a tool group.
/// Documented in the `toolgroup` crate.
#[proc_macro_attribute]
pub fn tool_group(attr: TokenStream, item: TokenStream) -> TokenStream {
    group::expand(attr.into(), item.into()).into()
}

/// Compose tool groups into a toolkit. Documented in the `toolgroup` crate.
#[proc_macro_attribute]
pub fn toolkit(attr: TokenStream, item: TokenStream) -> TokenStream {
    toolkit::expand(attr.into(), item.into()).into()
}
