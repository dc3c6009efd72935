//! `#[tool]`'s generated code: the arguments struct, the marker type with its `Tool` impl, and
//! the free tool's doc macro.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::spanned::Spanned as _;
use syn::{Attribute, Ident, ItemFn, Path, Signature, Type};

use super::model::{Output, Owner, Role, Tool};
use crate::attr;
use crate::docs;
use crate::scopes;
use crate::tokens::{respan, unraw};

/// A free tool: the function (marked `#[inline]` if it is a plain `fn`), its generated items
/// and its doc macro.
pub(crate) fn free(tool: &Tool, mut func: ItemFn, site: u64) -> TokenStream {
    inline_sync(&func.sig, &mut func.attrs);
    let generated = generate(tool, Owner::Free);
    let doc_macro = doc_macro(tool, site);
    quote!(#func #generated #doc_macro)
}

/// Marks a plain-`fn` tool `#[inline]`, unless it has an `inline` attribute of its own.
///
/// Invariant: a plain-`fn` tool is `#[inline]`: the generated dispatch (`call_tool_sync` and the toolkit's `match`) is
/// instantiated in the crate that calls the toolkit, often not the one defining the tools, and
/// there only an inlinable function can be inlined into its dispatch arm, as it would be in a
/// hand-written `match`. It is a hint: LLVM still decides by size. `async` tools are left
/// alone (their body is a future the arm does not inline). An `inline` under `cfg_attr`
/// counts as the function's own too: a second one would be a duplicate-attribute warning
/// whenever the condition holds.
pub(crate) fn inline_sync(sig: &Signature, attrs: &mut Vec<Attribute>) {
    if sig.asyncness.is_none() && !attrs.iter().any(names_inline) {
        attrs.push(syn::parse_quote!(#[inline]));
    }
}

/// `#[inline...]`, or a `#[cfg_attr(..)]` with an `inline` among its attributes.
fn names_inline(attr: &Attribute) -> bool {
    if attr.path().is_ident("inline") {
        return true;
    }
    attr.path().is_ident("cfg_attr")
        && attr.meta.require_list().is_ok_and(|list| {
            list.tokens
                .clone()
                .into_iter()
                .any(|t| matches!(t, proc_macro2::TokenTree::Ident(i) if i == "inline"))
        })
}

/// What a tool's `ToolInfo` holds.
pub(crate) struct Info<'a> {
    pub(crate) name: &'a str,
    pub(crate) description: &'a str,
    pub(crate) args: &'a attr::ToolArgs,
    /// The arguments type, whose schema is the input schema.
    pub(crate) args_ty: TokenStream,
    /// An `Option<Value>` expression: the output schema.
    pub(crate) output_schema: TokenStream,
}

/// The `ToolInfo` expression of a tool.
pub(crate) fn info(krate: &Path, info: &Info<'_>) -> TokenStream {
    let p = quote!(#krate::__private);
    let Info {
        name,
        description,
        args,
        args_ty,
        output_schema,
    } = info;
    let hint = |v: &Option<attr::Spanned<bool>>| match v {
        Some(b) => {
            let b = b.value;
            quote!(#p::Some(#b))
        }
        None => quote!(#p::None),
    };
    let (read_only, destructive, idempotent, open_world) = (
        hint(&args.read_only),
        hint(&args.destructive),
        hint(&args.idempotent),
        hint(&args.open_world),
    );
    let timeout = match &args.timeout_ms {
        Some(ms) => {
            let ms = ms.value;
            quote!(#p::Some(#p::Duration::from_millis(#ms)))
        }
        None => quote!(#p::None),
    };
    let scopes = scopes::values(args.scopes.as_ref().map(|s| &s.value));
    let task = match args.task.as_ref().map(|t| t.value.support) {
        None => quote!(Forbidden),
        Some(attr::TaskSupport::Optional) => quote!(Optional),
        Some(attr::TaskSupport::Required) => quote!(Required),
    };
    quote! {
        #krate::meta::ToolInfo {
            name: #name,
            description: #description,
            annotations: #krate::meta::ToolAnnotations {
                read_only: #read_only,
                destructive: #destructive,
                idempotent: #idempotent,
                open_world: #open_world,
            },
            timeout: #timeout,
            scopes: &[#(#scopes),*],
            task: #krate::meta::TaskSupport::#task,
            schemas: {
                fn __toolgroup_schemas() -> &'static #krate::meta::ToolSchemas {
                    static __TOOLGROUP_SCHEMAS: #p::SchemaCell = #p::SchemaCell::new();
                    __TOOLGROUP_SCHEMAS.get_or_init(|| #p::build_schemas::<#args_ty>(#output_schema))
                }
                __toolgroup_schemas
            },
        }
    }
}

/// `impl Tool for marker`, given its parts: `body` is `call`'s, `sync` the `SYNC` items.
pub(crate) fn tool_impl(
    krate: &Path,
    marker: &Ident,
    state_ty: &TokenStream,
    args_ty: &TokenStream,
    info: &TokenStream,
    body: &TokenStream,
    sync: &TokenStream,
) -> TokenStream {
    let p = quote!(#krate::__private);
    quote! {
        impl #krate::Tool for #marker {
            type State = #state_ty;
            type Args = #args_ty;
            const INFO: #krate::meta::ToolInfo = #info;

            #[allow(clippy::unused_async)]
            fn call<'__toolgroup>(
                __toolgroup_state: &'__toolgroup Self::State,
                __toolgroup_ctx: #krate::ToolContext<'__toolgroup>,
                __toolgroup_args: Self::Args,
            ) -> impl #p::Future<Output = #krate::CallResult> + #p::Send + '__toolgroup {
                #body
            }

            #sync
        }
    }
}

/// The `State` of a tool: `()` for a free function, the group for a method.
pub(crate) fn state_ty(owner: Owner<'_>) -> TokenStream {
    match owner {
        Owner::Free => quote!(()),
        Owner::Method(self_ty, _) => quote!(#self_ty),
    }
}

/// The generated arguments struct, tool marker and `Tool` impl.
pub(crate) fn generate(tool: &Tool, owner: Owner<'_>) -> TokenStream {
    let krate = attr::krate(&tool.args.krate);
    let p = quote!(#krate::__private);
    let vis = &tool.vis;
    let name = &tool.name;
    let fn_ident = &tool.fn_ident;
    let marker = &tool.marker;
    let args_ident = &tool.args_ident;

    let whole = tool.params().find_map(|p| match p.role {
        Role::Whole => Some(p.ty.clone()),
        _ => None,
    });
    let mut field_idents = Vec::new();
    let mut call_args = Vec::new();
    let mut extensions = Vec::new();
    let mut fields = Vec::new();
    for param in tool.params() {
        match &param.role {
            Role::Field { ident, attrs } => {
                let ty = &param.ty;
                fields.push(quote!(#(#attrs)* pub #ident: #ty,));
                // Bound to an invented name: a parameter named like the function would
                // otherwise shadow the function being called.
                let local = format_ident!("__toolgroup_arg_{}", field_idents.len());
                field_idents.push(quote!(#ident: #local));
                call_args.push(quote!(#local));
            }
            Role::Context { by_ref: true } => call_args.push(quote!(&__toolgroup_ctx)),
            Role::Context { by_ref: false } => call_args.push(quote!(__toolgroup_ctx)),
            Role::Extension { inner } => {
                let local = format_ident!("__toolgroup_ext_{}", extensions.len());
                // Spanned on the parameter's type: "`T: Clone` is not satisfied" lands there.
                let fetch = respan(
                    quote!(#p::extension::<#inner>(&__toolgroup_ctx)),
                    param.ty.span(),
                );
                extensions.push(quote! {
                    let #local = match #fetch {
                        #p::Ok(__toolgroup_value) => __toolgroup_value,
                        #p::Err(__toolgroup_missing) => return __toolgroup_missing,
                    };
                });
                call_args.push(quote!(#local));
            }
            Role::Whole => call_args.push(quote!(__toolgroup_args)),
            Role::Unnamed => {}
        }
    }

    let (args_struct, args_ty, unpack) = match &whole {
        Some(ty) => (quote!(), quote!(#ty), quote!()),
        None => {
            let serde_path = quote!(#p::serde).to_string();
            let schemars_path = quote!(#p::schemars).to_string();
            let doc = format!("Arguments of the `{name}` tool (generated by `#[tool]`).");
            (
                quote! {
                    #[doc = #doc]
                    #[derive(#p::serde::Deserialize, #p::schemars::JsonSchema)]
                    #[serde(crate = #serde_path, deny_unknown_fields)]
                    #[schemars(crate = #schemars_path)]
                    #vis struct #args_ident {
                        #(#fields)*
                    }
                },
                quote!(#args_ident),
                quote!(let #args_ident { #(#field_idents),* } = __toolgroup_args;),
            )
        }
    };

    let callee = match owner {
        Owner::Free => quote!(#fn_ident(#(#call_args),*)),
        Owner::Method(self_ty, _) => {
            quote!(<#self_ty>::#fn_ident(__toolgroup_state, #(#call_args),*))
        }
    };
    // The future is bound to a name spanned on the function's name, so "future cannot be
    // sent between threads safely" points at the tool, not at the attribute.
    let invoke = if tool.is_async {
        let future = Ident::new("__toolgroup_future", fn_ident.span());
        let assert = respan(quote!(#p::assert_send), fn_ident.span());
        quote!({
            let #future = #callee;
            #assert(#future).await
        })
    } else {
        callee
    };
    let convert = conversion(&tool.output, &p, quote!(__toolgroup_value));
    // A sync tool gets `call_sync`, which the toolkit calls without any future; its `call`
    // runs it when the future is created and returns a ready future.
    let (body, sync) = if tool.is_async {
        let body = quote! {
            async move {
                #unpack
                #(#extensions)*
                let __toolgroup_value = #invoke;
                #convert
            }
        };
        (body, TokenStream::new())
    } else {
        let sync = quote! {
            const SYNC: bool = true;

            #[inline]
            fn call_sync(
                __toolgroup_state: &Self::State,
                __toolgroup_ctx: #krate::ToolContext<'_>,
                __toolgroup_args: Self::Args,
            ) -> #krate::CallResult {
                #unpack
                #(#extensions)*
                let __toolgroup_value = #invoke;
                #convert
            }
        };
        (ready_call_sync(&krate), sync)
    };
    let output_schema = match &tool.output {
        Output::Value(ty) => probe(ty, &p),
        Output::Result { ok, .. } => match &**ok {
            Output::Value(ty) => probe(ty, &p),
            Output::Result { .. } => quote!(#p::None),
        },
    };
    let info = info(
        &krate,
        &Info {
            name,
            description: &tool.description,
            args: &tool.args,
            args_ty: args_ty.clone(),
            output_schema,
        },
    );
    let marker_def = match owner {
        Owner::Free => {
            let doc = format!(
                "The `{name}` tool (generated by `#[tool]`): what the model sees of it.{}",
                super::rustdoc::fragment(tool)
            );
            quote! {
                #[doc = #doc]
                #[allow(non_camel_case_types)]
                #vis struct #marker {}
            }
        }
        Owner::Method(..) => quote! {
            #[doc(hidden)]
            #[allow(non_camel_case_types)]
            #vis struct #marker {}
        },
    };
    let tool_impl = tool_impl(
        &krate,
        marker,
        &state_ty(owner),
        &args_ty,
        &info,
        &body,
        &sync,
    );
    quote! {
        #args_struct
        #marker_def

        #tool_impl
    }
}

/// `call`'s body for a tool that runs in `call_sync`: a ready future.
pub(crate) fn ready_call_sync(krate: &Path) -> TokenStream {
    quote! {
        #krate::__private::ready(<Self as #krate::Tool>::call_sync(__toolgroup_state, __toolgroup_ctx, __toolgroup_args))
    }
}

/// A free tool's hidden doc macro, imported under the function's name (see `docs::macros`).
fn doc_macro(tool: &Tool, site: u64) -> TokenStream {
    if !docs::has_doc_macro(&tool.fn_ident) {
        return TokenStream::new();
    }
    let hidden = docs::hidden_ident("doc", &tool.fn_ident, site);
    let arms = docs::tool_macro_arms(&unraw(&tool.fn_ident), &super::rustdoc::fragment(tool));
    docs::define_doc_macro(&tool.vis, &tool.fn_ident, &hidden, arms)
}

/// The output schema: none for `IntoCallResult` types, the schema of a `JsonSchema` one,
/// none for other `Serialize` types (autoref specialisation, most `&` first).
fn probe(ty: &Type, p: &TokenStream) -> TokenStream {
    quote!({
        #[allow(unused_imports)]
        use #p::{ViaIntoCallResult as _, ViaJsonSchema as _, ViaNoSchema as _};
        (&&&#p::OutputProbe::<#ty>::new()).output_schema()
    })
}

fn conversion(output: &Output, p: &TokenStream, value: TokenStream) -> TokenStream {
    match output {
        Output::Value(ty) => {
            // Every token on the return type, so "`T: Serialize` is not satisfied" lands there.
            let convert = quote!({
                #[allow(unused_imports)]
                use #p::{ViaIntoCallResult as _, ViaSerialize as _};
                (&&&#p::OutputProbe::of(&#value)).tool_result(#value)
            });
            respan(convert, ty.span())
        }
        Output::Result { ok, err } => {
            let ok = conversion(ok, p, quote!(__toolgroup_ok));
            let err = respan(quote!(#p::error_output(&__toolgroup_err)), *err);
            quote! {
                match #value {
                    #p::Ok(__toolgroup_ok) => #ok,
                    #p::Err(__toolgroup_err) => #err,
                }
            }
        }
    }
}
