//! `#[tool_group]`: on an impl block of `#[tool]` methods (a group with state), or on a
//! struct naming free `#[tool]` functions with `tools = [...]` (a stateless group).

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote, quote_spanned};
use syn::spanned::Spanned as _;
use syn::{Attribute, Ident, ImplItem, Item, ItemImpl, ItemStruct, Path, Type, Visibility};

use crate::attr::{self, GroupArgs};
use crate::ctxt::{Errors, with_errors};
use crate::docs;
use crate::names;
use crate::tool::{self, Owner, ToolModel};

pub(crate) fn expand(attr: TokenStream, item: TokenStream, site: u64) -> TokenStream {
    let mut errors = Errors::default();
    let args = attr::parse_group_args(attr, &mut errors);
    match syn::parse2::<Item>(item.clone()) {
        Ok(Item::Impl(imp)) => expand_impl(args, imp, errors, site),
        Ok(Item::Struct(s)) => expand_struct(args, s, errors, site),
        _ => with_errors(
            item,
            syn::Error::new(
                Span::call_site(),
                "`#[tool_group]` goes on an impl block of `#[tool]` methods, or on a struct that lists free `#[tool]` functions with `tools = [...]`",
            ),
        ),
    }
}

/// Whether `attr` is `#[tool]` in any spelling (`tool`, `toolgroup::tool`, `::toolgroup::tool`).
fn is_tool_attr(attr: &Attribute) -> bool {
    attr.path()
        .segments
        .last()
        .is_some_and(|s| s.ident == "tool")
}

struct Meta {
    name: String,
    description: String,
    instructions: Option<String>,
}

fn group_meta(
    args: &GroupArgs,
    item_attrs: &[Attribute],
    blame: &dyn ToTokens,
    errors: &mut Errors,
) -> Meta {
    let name = match &args.name {
        Some(n) => {
            let name = n.value.value();
            if let Some(problem) = names::check_group_name(&name) {
                errors.spanned(&n.value, problem);
            }
            name
        }
        None => {
            errors.spanned(
                blame,
                "`#[tool_group]` needs `name = \"...\"`: the name the model switches the group by",
            );
            String::new()
        }
    };
    let description = match &args.description {
        Some(d) => d.value.value().trim().to_owned(),
        None => docs::parse(item_attrs).description,
    };
    if description.is_empty() {
        let span = args
            .name
            .as_ref()
            .map_or_else(|| blame.to_token_stream().span(), |n| n.value.span());
        errors.at(
            span,
            "`#[tool_group]` needs `description = \"...\"` (or a doc comment): the model reads it to decide whether to activate the group",
        );
    }
    let instructions = args
        .instructions
        .as_ref()
        .map(|i| i.value.value().trim().to_owned());
    Meta {
        name,
        description,
        instructions,
    }
}

fn expand_impl(args: GroupArgs, mut imp: ItemImpl, mut errors: Errors, site: u64) -> TokenStream {
    if let Some(remote) = &args.remote {
        errors.at(
            remote.key,
            "`remote` goes on a unit struct (`struct Files;`): a remote group's tools come from its source at run time, not from methods",
        );
    }
    if let Some((_, path, _)) = &imp.trait_ {
        errors.spanned(path, "`#[tool_group]` goes on an inherent impl block (`impl MyGroup { ... }`), not a trait impl");
    }
    if !imp.generics.params.is_empty() {
        errors.spanned(&imp.generics, "a `#[tool_group]` type cannot be generic: the toolkit needs one concrete type per group");
    }
    let self_ty = (*imp.self_ty).clone();
    let group_ident = match &self_ty {
        Type::Path(p) if p.qself.is_none() => p.path.segments.last().map(|s| s.ident.clone()),
        _ => None,
    };
    let Some(group_ident) = group_ident else {
        errors.spanned(
            &self_ty,
            "`#[tool_group]` needs a named type (`impl Database { ... }`)",
        );
        return with_errors(strip_tool_attrs(imp), errors.finish().unwrap_err());
    };
    let meta = group_meta(&args, &imp.attrs, &self_ty, &mut errors);

    let mut models: Vec<ToolModel> = Vec::new();
    let mut saw_tool = false;
    for item in &mut imp.items {
        let ImplItem::Fn(f) = item else { continue };
        let mut tool_attrs = Vec::new();
        f.attrs.retain(|a| {
            if is_tool_attr(a) {
                tool_attrs.push(a.clone());
                false
            } else {
                true
            }
        });
        let Some(first) = tool_attrs.first() else {
            continue;
        };
        saw_tool = true;
        for extra in &tool_attrs[1..] {
            errors.spanned(extra, "duplicate `#[tool]` attribute");
        }
        let tokens = match &first.meta {
            syn::Meta::Path(_) => TokenStream::new(),
            syn::Meta::List(l) => l.tokens.clone(),
            syn::Meta::NameValue(nv) => {
                errors.spanned(nv, "write `#[tool]` or `#[tool(key = value, ...)]`");
                continue;
            }
        };
        let tool_args = attr::parse_tool_args(tokens, &mut errors);
        let owner = Owner::Method(&self_ty, &group_ident);
        if let Some(model) =
            tool::analyze(&mut f.sig, &f.attrs, &f.vis, tool_args, owner, &mut errors)
        {
            tool::inline_sync(&f.sig, &mut f.attrs);
            if let Some(first) = models.iter().find(|m| m.name == model.name) {
                let _ = first;
                errors.at(
                    model.name_span,
                    format!("group `{}` already has a tool named `{}`: rename one with `#[tool(name = \"...\")]`", meta.name, model.name),
                );
            }
            models.push(model);
        }
    }
    let free: Vec<Path> = args
        .tools
        .as_ref()
        .map(|t| t.value.clone())
        .unwrap_or_default();
    // With `#[tool]` methods that failed, their errors say enough.
    if models.is_empty() && free.is_empty() && !saw_tool {
        errors.spanned(
            &self_ty,
            "this tool group has no tools: mark `&self` methods with `#[tool]`, or list free `#[tool]` functions with `tools = [...]`",
        );
    }
    if let Err(e) = errors.finish() {
        return with_errors(imp, e);
    }

    let krate = attr::krate(&args.krate);
    // The type's visibility is not known here: its doc macro is public (`#[macro_export]`).
    let vis: Visibility = syn::parse_quote!(pub);
    let (doc, doc_macro) = group_docs(&meta, &models, &free, &vis, &group_ident, site);
    imp.attrs.push(doc);
    let generated: Vec<TokenStream> = models
        .iter()
        .map(|m| tool::generate(m, Owner::Method(&self_ty, &group_ident)))
        .collect();
    let group_impl = group_impl(&krate, &self_ty, &meta, &models, &free);
    quote! {
        #imp
        #(#generated)*
        #group_impl
        #doc_macro
    }
}

fn expand_struct(
    args: GroupArgs,
    mut item: ItemStruct,
    mut errors: Errors,
    site: u64,
) -> TokenStream {
    if !item.generics.params.is_empty() {
        errors.spanned(&item.generics, "a `#[tool_group]` type cannot be generic: the toolkit needs one concrete type per group");
    }
    let meta = group_meta(&args, &item.attrs, &item.ident, &mut errors);
    if args.remote.as_ref().is_some_and(|r| r.value) {
        return expand_remote(&args, item, &meta, errors);
    }
    let free: Vec<Path> = args
        .tools
        .as_ref()
        .map(|t| t.value.clone())
        .unwrap_or_default();
    if free.is_empty() {
        errors.spanned(
            &item.ident,
            "this tool group has no tools: list free `#[tool]` functions with `tools = [...]`, or put `#[tool_group]` on an impl block of `#[tool]` methods",
        );
    }
    if let Err(e) = errors.finish() {
        return with_errors(item, e);
    }
    let krate = attr::krate(&args.krate);
    let (doc, doc_macro) = group_docs(&meta, &[], &free, &item.vis, &item.ident, site);
    item.attrs.push(doc);
    let ident = &item.ident;
    let self_ty: Type = syn::parse_quote!(#ident);
    let group_impl = group_impl(&krate, &self_ty, &meta, &[], &free);
    quote! {
        #item
        #group_impl
        #doc_macro
    }
}

/// `#[tool_group(..., remote)]` on a unit struct: the compile-time facts of a group whose
/// tools are found at run time.
fn expand_remote(
    args: &GroupArgs,
    mut item: ItemStruct,
    meta: &Meta,
    mut errors: Errors,
) -> TokenStream {
    if let Some(tools) = &args.tools {
        errors.at(
            tools.key,
            "a `remote` group's tools are found at run time: remove `tools = [...]` (or `remote`)",
        );
    }
    if !matches!(item.fields, syn::Fields::Unit) {
        errors.spanned(
            &item.fields,
            "a `remote` group is declared on a unit struct (`struct Files;`): its connection lives in the group type that serves it, such as `Dynamic<Files, Remote>`",
        );
    }
    if let Err(e) = errors.finish() {
        return with_errors(item, e);
    }
    let krate = attr::krate(&args.krate);
    let p = quote!(#krate::__private);
    let Meta {
        name,
        description,
        instructions,
    } = meta;
    let instructions_value = instructions_tokens(&p, instructions.as_deref());
    let doc = format!(
        "\n\n# Tool group `{name}` (generated by `#[tool_group]`)\n\n{description}{}\n\n## Tools\n\nFound at run time, from the group's source (a remote MCP server, for one).",
        instructions
            .as_deref()
            .map(|i| format!("\n\n**Instructions for the model:** {i}"))
            .unwrap_or_default()
    );
    item.attrs.push(syn::parse_quote!(#[doc = #doc]));
    let ident = &item.ident;
    quote! {
        #item
        impl #krate::dynamic::DynamicGroup for #ident {
            const NAME: &'static str = #name;
            const DESCRIPTION: &'static str = #description;
            const INSTRUCTIONS: #p::Option<&'static str> = #instructions_value;
        }
    }
}

/// A group's instructions as an `Option<&'static str>` expression.
fn instructions_tokens(p: &TokenStream, instructions: Option<&str>) -> TokenStream {
    match instructions {
        Some(i) => quote!(#p::Some(#i)),
        None => quote!(#p::None),
    }
}

fn strip_tool_attrs(mut imp: ItemImpl) -> ItemImpl {
    for item in &mut imp.items {
        if let ImplItem::Fn(f) = item {
            f.attrs.retain(|a| !is_tool_attr(a));
        }
    }
    imp
}

fn group_impl(
    krate: &Path,
    self_ty: &Type,
    meta: &Meta,
    models: &[ToolModel],
    free: &[Path],
) -> TokenStream {
    let p = quote!(#krate::__private);
    let Meta {
        name,
        description,
        instructions,
    } = meta;
    let instructions = instructions_tokens(&p, instructions.as_deref());
    let mut infos = Vec::new();
    let mut arms = Vec::new();
    let tools = models
        .iter()
        .map(|m| {
            let marker = &m.marker;
            (quote!(<#marker as #krate::Tool>), quote!(self))
        })
        .chain(free.iter().map(|path| {
            // Spanned on the user's path, so "`f` is not a tool" lands there. Only the type
            // is: the locals below keep this macro's hygiene (a path written inside a
            // `macro_rules!` would otherwise not see them).
            (
                quote_spanned!(path.span()=> <#path as #krate::Tool>),
                quote!(&()),
            )
        }));
    let mut sync_arms = Vec::new();
    for (index, (tool, state)) in tools.enumerate() {
        arms.push(quote! {
            #index => {
                let __toolgroup_args = __toolgroup_args.parse::<#tool::Args>()?;
                #p::Ok(#tool::call(#state, __toolgroup_ctx, __toolgroup_args).await)
            }
        });
        // `SYNC` is a constant: each arm compiles to one branch of `call_sync_into`.
        sync_arms.push(quote! {
            #index => #tool::call_sync_into(#state, __toolgroup_ctx, __toolgroup_args, __toolgroup_out),
        });
        infos.push(quote!(&#tool::INFO));
    }
    quote! {
        impl #krate::ToolGroup for #self_ty {
            const NAME: &'static str = #name;
            const DESCRIPTION: &'static str = #description;
            const INSTRUCTIONS: #p::Option<&'static str> = #instructions;
            const TOOL_INFOS: &'static [&'static #krate::meta::ToolInfo] = &[#(#infos),*];

            fn call_tool<'__toolgroup>(
                &'__toolgroup self,
                __toolgroup_tool: usize,
                __toolgroup_ctx: #krate::ToolContext<'__toolgroup>,
                __toolgroup_args: #krate::args::Arguments<'__toolgroup>,
            ) -> impl #p::Future<Output = #p::Result<#krate::CallResult, #krate::args::ArgumentError>> + #p::Send + '__toolgroup {
                async move {
                    match __toolgroup_tool {
                        #(#arms)*
                        _ => ::core::panic!("toolgroup: tool index out of range (a bug in the caller of `ToolGroup::call_tool`)"),
                    }
                }
            }

            // `#[inline]`: compiled in the crate that calls the toolkit, beside the call
            // future. Compiled beside the tools instead, the cheap call gained 2-3 ns but the
            // structured call lost ~20 ns (0.99x -> 1.10x a hand-written dispatcher,
            // BENCHMARKS.md). A plain-`fn` tool still inlines into its arm from here: `#[tool]`
            // marks it `#[inline]`.
            #[inline]
            fn call_tool_sync<'__toolgroup>(
                &'__toolgroup self,
                __toolgroup_tool: usize,
                __toolgroup_ctx: &#krate::ToolContext<'__toolgroup>,
                __toolgroup_args: &#krate::args::Arguments<'__toolgroup>,
                __toolgroup_out: &mut #p::Option<#krate::CallResult>,
            ) -> #p::SyncCall {
                match __toolgroup_tool {
                    #(#sync_arms)*
                    _ => ::core::panic!("toolgroup: tool index out of range (a bug in the caller of `ToolGroup::call_tool_sync`)"),
                }
            }
        }
        const _: () = #p::check_group(#name, <#self_ty as #krate::ToolGroup>::TOOL_INFOS);
    }
}

/// The rustdoc added to a group (its name, description, instructions, and each tool with its
/// description and arguments), and the group's doc macro for the toolkit's docs.
fn group_docs(
    meta: &Meta,
    models: &[ToolModel],
    free: &[Path],
    vis: &Visibility,
    ident: &Ident,
    site: u64,
) -> (Attribute, TokenStream) {
    let mut tools: Vec<docs::Piece> = models
        .iter()
        .map(|m| docs::Piece::Text(m.doc_fragment()))
        .collect();
    for path in free {
        tools.push(match docs::doc_macro_call(path, TokenStream::new()) {
            Some(_) => docs::Piece::Tool(path.clone()),
            None => docs::Piece::Text(docs::unlinked_tool_fragment(path)),
        });
    }
    let instructions = meta.instructions.as_deref();
    let title = format!(
        "\n\n# Tool group `{}` (generated by `#[tool_group]`)",
        meta.name
    );
    let head = docs::group_head(None, &meta.description, instructions);
    let tools_title = "\n\n## Tools";
    let pieces = docs::concat_args(&tools);
    let doc: Attribute = syn::parse_quote!(
        #[doc = ::core::concat!(#title, #head, #tools_title, #(#pieces),*)]
    );
    let doc_macro = if docs::has_doc_macro(&ident.to_string()) {
        docs::define_group_macro(
            vis,
            ident,
            site,
            &docs::group_head(Some(&meta.name), &meta.description, instructions),
            &tools,
            &docs::one_line(&meta.description),
        )
    } else {
        TokenStream::new()
    };
    (doc, doc_macro)
}
