//! What a failed expansion emits: the user's item (the attributes the macros consume already
//! stripped) beside the errors, and stubs of the impls the item would have had, so that one
//! mistake gives one error: a failed `#[tool]` listed in a group, or a failed group in a
//! toolkit, still implements its trait, and rust-analyzer keeps working (thiserror's
//! `fallback.rs`, tokio-macros' `token_stream_with_error`). A stub is never run: the crate
//! does not compile.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};
use syn::{Ident, ItemFn, Type, Visibility};

use crate::attr::{self, ToolArgs};
use crate::docs;
use crate::group::expand::{self as group_expand, Facts};
use crate::group::model::{self as group_model, ImplGroup, StructGroup};
use crate::names;
use crate::tokens::unraw;
use crate::tool::expand::{self as tool_expand, Info};
use crate::tool::model::{Owner, Tool};
use crate::toolkit::expand as toolkit_expand;
use crate::toolkit::model::Toolkit;

/// The input was not an item the macro takes: the item as written, beside the error.
pub(crate) fn not_an_item(item: TokenStream, message: &str) -> TokenStream {
    let error = syn::Error::new(proc_macro2::Span::call_site(), message);
    with_errors(error, item, TokenStream::new())
}

fn with_errors(error: syn::Error, item: impl ToTokens, stubs: TokenStream) -> TokenStream {
    let mut out = error.to_compile_error();
    item.to_tokens(&mut out);
    out.extend(stubs);
    out
}

/// A failed free `#[tool]`: the function, and a stub `Tool` impl with its doc macro, so a
/// group listing it reports nothing more.
pub(crate) fn free_tool(tool: &Tool, func: ItemFn, error: syn::Error, site: u64) -> TokenStream {
    // A function with a receiver sits in an impl block, where no struct can be declared.
    let stub = if tool.has_receiver() {
        TokenStream::new()
    } else {
        tool_stub(tool, site)
    };
    with_errors(error, func, stub)
}

fn tool_stub(tool: &Tool, site: u64) -> TokenStream {
    let krate = attr::krate(&tool.args.krate);
    let p = quote!(#krate::__private);
    // A valid name, so the group's and the toolkit's checks of names report nothing more.
    let name = if names::check_tool_name(&tool.name).is_none() {
        tool.name.clone()
    } else {
        format!("__toolgroup_stub_{}", unraw(&tool.fn_ident))
    };
    let unit = quote!(());
    let info = tool_expand::info(
        &krate,
        &Info {
            name: &name,
            description: "",
            args: &ToolArgs::default(),
            args_ty: unit.clone(),
            output_schema: quote!(#p::None),
        },
    );
    let marker = &tool.marker;
    let tool_impl = tool_expand::tool_impl(
        &krate,
        marker,
        &tool_expand::state_ty(Owner::Free),
        &unit,
        &info,
        &tool_expand::ready_call_sync(&krate),
        &TokenStream::new(),
    );
    let vis = &tool.vis;
    let doc_macro = if docs::has_doc_macro(&tool.fn_ident) {
        let hidden = docs::hidden_ident("doc", &tool.fn_ident, site);
        let arms = docs::tool_macro_arms(&unraw(&tool.fn_ident), "");
        docs::define_doc_macro(vis, &tool.fn_ident, &hidden, arms)
    } else {
        TokenStream::new()
    };
    quote! {
        #[doc(hidden)]
        #[allow(non_camel_case_types)]
        #vis struct #marker {}
        #tool_impl
        #doc_macro
    }
}

/// A failed group of methods: the impl block, and a stub `ToolGroup` impl (no tools) with
/// its doc macro, unless the type is generic or not named.
pub(crate) fn impl_group(group: ImplGroup, error: syn::Error, site: u64) -> TokenStream {
    let stub = match &group.ident {
        Some(ident) if group.item.generics.params.is_empty() => {
            let vis: Visibility = syn::parse_quote!(pub);
            group_stub(&group.args, &group.self_ty, ident, &vis, &group.meta, site)
        }
        _ => TokenStream::new(),
    };
    with_errors(error, group.item, stub)
}

/// A failed group on a struct: the struct, and a stub `ToolGroup` impl (or a dynamic group's
/// `DynamicGroup` impl), unless the struct is generic.
pub(crate) fn struct_group(group: StructGroup, error: syn::Error, site: u64) -> TokenStream {
    let item = &group.item;
    let stub = if !item.generics.params.is_empty() {
        TokenStream::new()
    } else if group.dynamic {
        let krate = attr::krate(&group.args.krate);
        let name = stub_group_name(&group.meta, &item.ident);
        let meta = Facts {
            name: &name,
            description: "",
            instructions: None,
            skills: None,
            scopes: &[],
            turn_scoped: false,
        };
        group_expand::dynamic_impl(&krate, &item.ident, &meta)
    } else {
        let ident = &item.ident;
        let self_ty: Type = syn::parse_quote!(#ident);
        group_stub(&group.args, &self_ty, ident, &item.vis, &group.meta, site)
    };
    with_errors(error, &group.item, stub)
}

fn group_stub(
    args: &attr::GroupArgs,
    self_ty: &Type,
    ident: &Ident,
    vis: &Visibility,
    meta: &group_model::Meta,
    site: u64,
) -> TokenStream {
    let krate = attr::krate(&args.krate);
    let name = stub_group_name(meta, ident);
    let meta = Facts {
        name: &name,
        description: "",
        instructions: None,
        skills: None,
        scopes: &[],
        turn_scoped: false,
    };
    let group_impl = group_expand::group_impl(&krate, self_ty, &meta, &[], &[]);
    let doc_macro = if docs::has_doc_macro(ident) {
        docs::define_group_macro(vis, ident, site, "", &[], "")
    } else {
        TokenStream::new()
    };
    quote! {
        #group_impl
        #doc_macro
    }
}

/// The stub group's name: its own if valid, so that the toolkit's check that a switchable
/// field is named after its group passes; else the type's name in snake case, the field's
/// most likely name.
fn stub_group_name(meta: &group_model::Meta, ident: &Ident) -> String {
    if meta.name_lit.is_some() && names::check_group_name(&meta.name).is_none() {
        return meta.name.clone();
    }
    let snake = snake(&unraw(ident));
    if names::check_group_name(&snake).is_none() {
        snake
    } else {
        "__toolgroup_stub".to_owned()
    }
}

/// `WebSearch` -> `web_search`.
fn snake(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_uppercase() && i > 0 {
            out.push('_');
        }
        out.extend(c.to_lowercase());
    }
    out
}

/// A failed toolkit: the struct, and the registry of its named fields (none if they are not
/// named; no compile-time checks), unless the struct is generic.
pub(crate) fn toolkit(toolkit: Toolkit, error: syn::Error) -> TokenStream {
    let stub = if toolkit.item.generics.params.is_empty() {
        toolkit_expand::registry(&toolkit)
    } else {
        TokenStream::new()
    };
    with_errors(error, toolkit.item, stub)
}

#[cfg(test)]
mod tests {
    use super::snake;

    #[test]
    fn snake_case() {
        assert_eq!(snake("WebSearch"), "web_search");
        assert_eq!(snake("Web"), "web");
        assert_eq!(snake("db"), "db");
    }
}
