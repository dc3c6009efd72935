//! `#[toolkit]`'s generated code: the toolkit's rustdoc, its group enum and typed reset value,
//! the `Registry` impl, and one compile-time check per field.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::{Ident, Type};

use super::model::{Field, Toolkit};
use crate::attr;
use crate::docs;
use crate::names;
use crate::tokens::{respan, unraw};

/// The toolkit: the struct with its catalog as rustdoc, the registry, the field checks.
pub(crate) fn toolkit(mut toolkit: Toolkit) -> TokenStream {
    let catalog = catalog_doc(&toolkit.fields);
    toolkit
        .item
        .attrs
        .push(syn::parse_quote!(#[doc = ::core::concat!(#(#catalog),*)]));
    let registry = registry(&toolkit);
    let checks = field_checks(&toolkit);
    let item = &toolkit.item;
    quote! {
        #item

        #registry

        #checks
    }
}

/// One check per field, with every token on the field so that a compile-time failure points
/// at the field that introduces the clash. The fields' names and the index of every name of
/// the toolkit (where each was first used) are constants computed once, which the checks
/// share: each check reads its own group's entries, so the checks together cost time and
/// tokens linear in the toolkit's size.
fn field_checks(toolkit: &Toolkit) -> TokenStream {
    let krate = attr::krate(&toolkit.args.krate);
    let p = quote!(#krate::__private);
    let ident = &toolkit.item.ident;
    let fields = &toolkit.fields;
    let field_names: Vec<String> = fields.iter().map(|f| unraw(&f.ident)).collect();
    let groups = quote!(<#ident as #krate::Registry>::GROUPS);
    let shared = quote! {
        impl #ident {
            /// The toolkit's field names, in order (for the field checks).
            #[doc(hidden)]
            const __TOOLGROUP_FIELDS: &'static [&'static str] = &[#(#field_names),*];
            #[doc(hidden)]
            const __TOOLGROUP_INDEX_LEN: usize = #p::toolkit_index_len(#groups);
            /// Where each name of the toolkit was first used (for the field checks).
            #[doc(hidden)]
            const __TOOLGROUP_INDEX: [usize; #ident::__TOOLGROUP_INDEX_LEN] =
                #p::toolkit_index(#groups);
        }
    };
    let checks = fields.iter().enumerate().map(|(g, f)| {
        let (ty, basic, pinned) = (&f.ty, f.basic, f.pinned);
        // The field's own type is named here too, so that a type that is no group is
        // reported at the field, as every other problem of the field is.
        let check = quote! {
            const _: () = #p::check_toolkit(
                #ident::__TOOLGROUP_FIELDS,
                #groups,
                &#ident::__TOOLGROUP_INDEX,
                #g,
                #p::group_info::<#ty>(#basic, #pinned),
            );
            // Basic groups may come after the field: its skills' `allowed-tools` see them all.
            const _: () = #p::check_allowed_tools(#ident::__TOOLGROUP_FIELDS, #groups, #g);
        };
        respan(check, f.ident.span())
    });
    quote! {
        #shared
        #(#checks)*
    }
}

/// The generated items that make the struct a toolkit: its doc constant, the group enum, the
/// typed reset value and the `Registry` impl.
pub(crate) fn registry(toolkit: &Toolkit) -> TokenStream {
    let krate = attr::krate(&toolkit.args.krate);
    let fields = &toolkit.fields;
    let item = &toolkit.item;
    let p = quote!(#krate::__private);
    let ident = &item.ident;
    let vis = &item.vis;
    let group_enum = format_ident!("{}Group", ident);
    let reset_ty = format_ident!("{}Reset", ident);
    let switchable: Vec<(usize, &Field)> = toolkit.switchable().collect();
    let n_switch = switchable.len();

    let variants: Vec<Ident> = switchable
        .iter()
        .map(|(_, f)| format_ident!("{}", names::pascal(&f.ident), span = f.ident.span()))
        .collect();
    let sw_types: Vec<&Type> = switchable.iter().map(|(_, f)| &f.ty).collect();
    let sw_fields: Vec<&Ident> = switchable.iter().map(|(_, f)| &f.ident).collect();
    let sw_index: Vec<usize> = switchable.iter().map(|(i, _)| *i).collect();
    let slots: Vec<usize> = (0..switchable.len()).collect();
    let word: Vec<usize> = slots.iter().map(|s| s / 64).collect();
    let shift: Vec<u32> = slots.iter().map(|s| (s % 64) as u32).collect();

    let all_types: Vec<&Type> = fields.iter().map(|f| &f.ty).collect();
    let all_basic: Vec<bool> = fields.iter().map(|f| f.basic).collect();
    let all_pinned: Vec<bool> = fields.iter().map(|f| f.pinned).collect();

    // Spanned on each field's type, so "`X` is not a tool group" points there.
    let dispatch_arms: Vec<TokenStream> = fields
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let (ty, ident) = (&f.ty, &f.ident);
            let arm = quote! {
                #i => <#ty as #krate::ToolGroup>::call_tool(&self.#ident, tool, ctx, args).await,
            };
            respan(arm, syn::spanned::Spanned::span(ty))
        })
        .collect();
    let dynamic_arms: Vec<TokenStream> = fields
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let (ty, ident) = (&f.ty, &f.ident);
            let arm = quote! {
                #i => <#ty as #krate::ToolGroup>::dynamic_tools(&self.#ident),
            };
            respan(arm, syn::spanned::Spanned::span(ty))
        })
        .collect();
    let sync_arms: Vec<TokenStream> = fields
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let (ty, ident) = (&f.ty, &f.ident);
            let arm = quote! {
                #i => <#ty as #krate::ToolGroup>::call_tool_sync(&self.#ident, tool, ctx, args, out),
            };
            respan(arm, syn::spanned::Spanned::span(ty))
        })
        .collect();
    let serde_path = quote!(#p::serde).to_string();
    let catalog = catalog_doc(fields);
    let enum_doc = format!("The switchable groups of [`{ident}`] (generated by `#[toolkit]`).");
    let reset_doc = format!(
        "The typed `reset_tools` value of [`{ident}`]: the final state of every switchable group (generated by `#[toolkit]`). A group name that does not exist cannot be written."
    );
    let variant_docs: Vec<TokenStream> = switchable
        .iter()
        .map(|(_, f)| {
            let head = format!("The `{}` group", unraw(&f.ident));
            match group_doc_call(&f.ty, quote!(description)) {
                Some(call) => quote!(::core::concat!(#head, ": ", #call)),
                None => quote!(::core::concat!(#head, ".")),
            }
        })
        .collect();
    let reset_field_docs: Vec<TokenStream> = switchable
        .iter()
        .map(|(_, f)| {
            let head = format!("Whether the `{}` group is active", unraw(&f.ident));
            match group_doc_call(&f.ty, quote!(description)) {
                Some(call) => quote!(::core::concat!(#head, ": ", #call)),
                None => quote!(::core::concat!(#head, ".")),
            }
        })
        .collect();

    let words = quote!(#ident::__TOOLGROUP_WORDS);
    quote! {
        impl #ident {
            /// The rustdoc `#[toolkit]` adds to the toolkit (hidden; for tests of the docs).
            #[doc(hidden)]
            #[allow(dead_code, unreachable_pub)]
            pub const __TOOLGROUP_DOC: &'static str = ::core::concat!(#(#catalog),*);

            /// The words of a session's state: the switchable groups, then the skills' marks.
            #[doc(hidden)]
            #[allow(dead_code, unreachable_pub)]
            pub const __TOOLGROUP_WORDS: usize = #p::state_words(
                #n_switch,
                &[#( #krate::__private::group_info::<#all_types>(#all_basic, #all_pinned), )*],
            );
        }

        #[doc = #enum_doc]
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #vis enum #group_enum {
            #( #[doc = #variant_docs] #variants, )*
        }

        impl #group_enum {
            /// Every switchable group, in declaration order.
            pub const ALL: &'static [Self] = &[#(Self::#variants),*];

            /// The group's name (its `reset_tools` argument).
            pub const fn name(self) -> &'static str {
                match self { #(Self::#variants => <#sw_types as #krate::ToolGroup>::NAME,)* }
            }

            /// The group's description.
            pub const fn description(self) -> &'static str {
                match self { #(Self::#variants => <#sw_types as #krate::ToolGroup>::DESCRIPTION,)* }
            }

            /// The group's instructions for the model.
            pub const fn instructions(self) -> #p::Option<&'static str> {
                match self { #(Self::#variants => <#sw_types as #krate::ToolGroup>::INSTRUCTIONS,)* }
            }

            /// The group's tools, in source order.
            pub const fn tools(self) -> &'static [&'static #krate::meta::ToolInfo] {
                match self { #(Self::#variants => <#sw_types as #krate::ToolGroup>::TOOL_INFOS,)* }
            }
        }

        impl #krate::registry::GroupId for #group_enum {
            const ALL: &'static [Self] = #group_enum::ALL;
            fn slot(self) -> usize {
                match self { #(Self::#variants => #slots,)* }
            }
            fn name(self) -> &'static str {
                #group_enum::name(self)
            }
        }

        impl ::core::fmt::Display for #group_enum {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(#group_enum::name(*self))
            }
        }

        impl ::core::str::FromStr for #group_enum {
            type Err = #krate::registry::UnknownGroup;
            fn from_str(s: &str) -> #p::Result<Self, #krate::registry::UnknownGroup> {
                #krate::__private::parse_group::<Self>(s)
            }
        }

        #[doc = #reset_doc]
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, #p::serde::Serialize, #p::serde::Deserialize)]
        #[serde(crate = #serde_path, deny_unknown_fields)]
        #vis struct #reset_ty {
            #( #[doc = #reset_field_docs] pub #sw_fields: bool, )*
        }

        impl #krate::Registry for #ident {
            type Group = #group_enum;
            type Reset = #reset_ty;
            type Bits = [u64; #words];
            const EMPTY: [u64; #words] = [0; #words];
            const GROUPS: &'static [#krate::meta::GroupInfo] = &[
                #( #krate::__private::group_info::<#all_types>(#all_basic, #all_pinned), )*
            ];
            const SWITCHABLE: &'static [usize] = &[#(#sw_index),*];

            fn dispatch<'__toolgroup>(
                &'__toolgroup self,
                group: usize,
                tool: usize,
                ctx: #krate::ToolContext<'__toolgroup>,
                args: #krate::args::Arguments<'__toolgroup>,
            ) -> impl #p::Future<Output = #p::Result<#krate::CallResult, #krate::args::ArgumentError>> + #p::Send + '__toolgroup {
                async move {
                    match group {
                        #( #dispatch_arms )*
                        _ => ::core::panic!("toolgroup: group index out of range (a bug in the caller of `Registry::dispatch`)"),
                    }
                }
            }

            #[inline]
            fn dispatch_sync<'__toolgroup>(
                &'__toolgroup self,
                group: usize,
                tool: usize,
                ctx: &#krate::ToolContext<'__toolgroup>,
                args: &#krate::args::Arguments<'__toolgroup>,
                out: &mut #p::Option<#krate::CallResult>,
            ) -> #p::SyncCall {
                match group {
                    #( #sync_arms )*
                    _ => ::core::panic!("toolgroup: group index out of range (a bug in the caller of `Registry::dispatch_sync`)"),
                }
            }

            fn dynamic_tools(&self, group: usize) -> #p::Option<&dyn #krate::dynamic::DynamicTools> {
                match group {
                    #( #dynamic_arms )*
                    _ => #p::None,
                }
            }

            #[allow(unused_variables, unused_mut)]
            fn reset_to_bits(reset: &#reset_ty) -> [u64; #words] {
                let mut bits = [0u64; #words];
                #( if reset.#sw_fields { bits[#word] |= 1u64 << #shift; } )*
                bits
            }

            #[allow(unused_variables)]
            fn bits_to_reset(bits: &[u64; #words]) -> #reset_ty {
                #reset_ty { #( #sw_fields: bits[#word] & (1u64 << #shift) != 0, )* }
            }
        }
    }
}

/// The toolkit's generated rustdoc, as `concat!` arguments: a table of its groups, then each
/// group with its description, instructions and tools (from the group's doc macro).
fn catalog_doc(fields: &[Field]) -> Vec<TokenStream> {
    let mut doc = String::from(
        "\n\n# Tool groups (generated by `#[toolkit]`)\n\n| Field | Group | Shown to the model |\n|---|---|---|\n",
    );
    for f in fields {
        let ty = docs::type_text(&f.ty);
        let field = unraw(&f.ident);
        if f.basic {
            doc.push_str(&format!("| `{field}` | `{ty}` | always (basic) |\n"));
        } else {
            doc.push_str(&format!(
                "| `{field}` | `{ty}` | when active: `reset_tools` argument `{field}` |\n"
            ));
        }
    }
    let mut pieces = vec![quote!(#doc)];
    for f in fields {
        let field = unraw(&f.ident);
        let title = if f.basic {
            format!("\n\n## `{field}`: always active (basic)")
        } else {
            format!("\n\n## `{field}`: switched by `reset_tools`")
        };
        pieces.push(quote!(#title));
        match group_doc_call(&f.ty, TokenStream::new()) {
            Some(call) => pieces.push(call),
            None => {
                let text = format!(
                    "\n\nThe group `{}` (its documentation lists its tools).",
                    docs::type_text(&f.ty)
                );
                pieces.push(quote!(#text));
            }
        }
    }
    pieces
}

/// The call of a field's group doc macro (`Type!(args)`), if the type is a plain path.
fn group_doc_call(ty: &Type, args: TokenStream) -> Option<TokenStream> {
    match ty {
        Type::Path(p) if p.qself.is_none() => docs::doc_macro_call(&p.path, args),
        _ => None,
    }
}
