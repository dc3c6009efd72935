//! `#[tool]`: a model of one tool function (parsed and checked), and its generated code.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};
use syn::spanned::Spanned as _;
use syn::{
    Attribute, FnArg, GenericArgument, Ident, ItemFn, Pat, PathArguments, ReturnType, Signature,
    Type, Visibility,
};

use crate::attr::{self, ToolArgs};
use crate::ctxt::{Errors, with_errors};
use crate::docs;
use crate::names;

/// Where a tool function lives.
#[derive(Clone, Copy)]
pub(crate) enum Owner<'a> {
    /// A free function.
    Free,
    /// A `&self` method of a `#[tool_group]` impl for this type.
    Method(&'a Type, &'a Ident),
}

enum Param {
    /// A model-supplied argument: a field of the generated arguments struct.
    Field {
        ident: Ident,
        ty: Box<Type>,
        attrs: Vec<Attribute>,
    },
    /// The injected `ToolContext`.
    Context { by_ref: bool },
    /// An `Extension<T>` from the call's per-call data.
    Extension { ty: Box<Type>, inner: Box<Type> },
    /// `#[args]`: the parameter's type is the whole arguments struct.
    Whole { ty: Box<Type> },
}

enum Output {
    /// `-> T` (or no return type): converted by `IntoCallResult`, else serialised.
    Value(Box<Type>),
    /// `-> Result<T, E>`: `Ok` as above, `Err` by its `Display`.
    Result { ok: Box<Output>, err: Span },
}

pub(crate) struct ToolModel {
    fn_ident: Ident,
    vis: Visibility,
    /// The tool's name, and the span to blame for it.
    pub(crate) name: String,
    pub(crate) name_span: Span,
    pub(crate) description: String,
    is_async: bool,
    params: Vec<Param>,
    output: Output,
    args: ToolArgs,
    args_ident: Ident,
    /// The type implementing `Tool`.
    pub(crate) marker: Ident,
    /// The return type as written, for the docs (`None` for `()`).
    returns: Option<String>,
}

/// `#[tool]` on a free function.
pub(crate) fn expand(attr: TokenStream, item: TokenStream, site: u64) -> TokenStream {
    let mut errors = Errors::default();
    let args = attr::parse_tool_args(attr, &mut errors);
    let mut func: ItemFn = match syn::parse2(item.clone()) {
        Ok(f) => f,
        Err(_) => {
            let e = syn::Error::new(
                Span::call_site(),
                "`#[tool]` goes on a function (`fn` or `async fn`), or on a `&self` method inside a `#[tool_group(...)]` impl block",
            );
            return with_errors(item, e);
        }
    };
    let model = analyze(
        &mut func.sig,
        &func.attrs,
        &func.vis,
        args,
        Owner::Free,
        &mut errors,
    );
    match (errors.finish(), model) {
        (Ok(()), Some(model)) => {
            inline_sync(&func.sig, &mut func.attrs);
            let generated = generate(&model, Owner::Free);
            let doc_macro = doc_macro(&model, site);
            quote!(#func #generated #doc_macro)
        }
        (Err(e), _) => with_errors(func, e),
        (Ok(()), None) => unreachable!("analyze reports why it made no model"),
    }
}

/// Marks a plain-`fn` tool `#[inline]`, unless it has an `inline` attribute of its own.
///
/// The generated dispatch (`call_tool_sync` and the toolkit's `match`) is instantiated where
/// the toolkit is called, often another crate than the one defining the tools (an agent
/// binary, an MCP server over a library of tools). There a function without `#[inline]`
/// cannot be inlined into its dispatch arm, which a hand-written `match` beside the tools
/// can do: measured on the benchmarks' cheap call, the hint takes 14 instructions and about
/// 5% of the time off each call (paired rounds, 1.16-1.18x -> 1.11-1.13x the hand-written
/// `match`), the real call having moved the tool's argument and result through memory.
/// It is only a hint: LLVM still decides by size, and a large tool stays
/// a call. `async` tools are left alone (their body is a future the arm does not inline).
/// An `inline` under `cfg_attr` counts as the function's own too: a second one would be a
/// duplicate-attribute warning whenever the condition holds.
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

/// Parse and check a tool function; strips the parameter attributes it consumes from `sig`.
pub(crate) fn analyze(
    sig: &mut Signature,
    fn_attrs: &[Attribute],
    vis: &Visibility,
    args: ToolArgs,
    owner: Owner<'_>,
    outer: &mut Errors,
) -> Option<ToolModel> {
    let mut local = Errors::default();
    let errors = &mut local;
    if !sig.generics.params.is_empty() || sig.generics.where_clause.is_some() {
        errors.spanned(
            &sig.generics,
            "a `#[tool]` function cannot be generic: its arguments must be one concrete type with one JSON schema",
        );
    }
    if let Some(u) = &sig.unsafety {
        errors.spanned(
            u,
            "a `#[tool]` function cannot be `unsafe`: a model's call cannot uphold its contract",
        );
    }
    if let Some(abi) = &sig.abi {
        errors.spanned(abi, "a `#[tool]` function cannot have an `extern` ABI");
    }
    if let Some(v) = &sig.variadic {
        errors.spanned(v, "a `#[tool]` function cannot be variadic");
    }

    let docs = docs::parse(fn_attrs);
    let mut documented: Vec<(String, String, bool)> = docs
        .arguments
        .into_iter()
        .map(|(n, d)| (n, d, false))
        .collect();

    let mut params = Vec::new();
    let mut has_receiver = false;
    for input in sig.inputs.iter_mut() {
        match input {
            FnArg::Receiver(recv) => {
                has_receiver = true;
                match owner {
                    Owner::Free => errors.spanned(
                        &*recv,
                        "`#[tool]` on a method needs `#[tool_group(name = \"...\", description = \"...\")]` on its impl block",
                    ),
                    Owner::Method(..) => {
                        let ok = recv.reference.is_some() && recv.mutability.is_none() && recv.colon_token.is_none();
                        if !ok {
                            errors.spanned(
                                &*recv,
                                "a tool method takes `&self`: one group is shared by every session at once, so `self` and `&mut self` cannot work; keep mutable state behind a `Mutex` or an atomic",
                            );
                        }
                    }
                }
            }
            FnArg::Typed(pt) => {
                let mut attrs = Vec::new();
                let mut whole = false;
                pt.attrs.retain(|a| {
                    let p = a.path();
                    if p.is_ident("doc") || p.is_ident("serde") || p.is_ident("schemars") {
                        attrs.push(a.clone());
                        false
                    } else if p.is_ident("args") {
                        if !matches!(a.meta, syn::Meta::Path(_)) {
                            errors.spanned(a, "`#[args]` takes no arguments");
                        }
                        whole = true;
                        false
                    } else {
                        true
                    }
                });
                if let Some(inner) = extension_type(&pt.ty) {
                    // Any pattern works: the value is passed to the function, which binds it.
                    params.push(Param::Extension {
                        ty: pt.ty.clone(),
                        inner: Box::new(inner.clone()),
                    });
                    continue;
                }
                let ident = match &*pt.pat {
                    Pat::Ident(pi) if pi.by_ref.is_none() && pi.subpat.is_none() => {
                        Some(pi.ident.clone())
                    }
                    other => {
                        errors.spanned(
                            other,
                            "a `#[tool]` parameter must be a plain name (`query: String`): its name becomes the JSON argument's name",
                        );
                        None
                    }
                };
                if let Some(by_ref) = context_type(&pt.ty) {
                    params.push(Param::Context { by_ref });
                    continue;
                }
                if whole {
                    params.push(Param::Whole { ty: pt.ty.clone() });
                    continue;
                }
                if let Type::Reference(r) = &*pt.ty {
                    errors.spanned(
                        r,
                        "a `#[tool]` parameter must be an owned type (`String`, not `&str`): arguments are parsed from the model's JSON",
                    );
                }
                if let Type::ImplTrait(t) = &*pt.ty {
                    errors.spanned(t, "a `#[tool]` function cannot be generic: use a concrete parameter type, not `impl Trait`");
                }
                let Some(ident) = ident else { continue };
                let plain = ident.to_string().trim_start_matches("r#").to_owned();
                let has_doc = attrs.iter().any(|a| a.path().is_ident("doc"));
                for entry in documented.iter_mut().filter(|e| e.0 == plain) {
                    entry.2 = true;
                    if !has_doc && !entry.1.is_empty() {
                        let text = &entry.1;
                        attrs.push(syn::parse_quote!(#[doc = #text]));
                    }
                }
                params.push(Param::Field {
                    ident,
                    ty: pt.ty.clone(),
                    attrs,
                });
            }
        }
    }
    if let Owner::Method(..) = owner
        && !has_receiver
    {
        errors.spanned(
                &sig.ident,
                "a tool in a `#[tool_group]` impl takes `&self`; for a function without state, make it a free `#[tool]` function and list it with `tools = [...]`",
            );
    }
    let wholes = params
        .iter()
        .filter(|p| matches!(p, Param::Whole { .. }))
        .count();
    let fields = params
        .iter()
        .filter(|p| matches!(p, Param::Field { .. }))
        .count();
    if wholes > 1 || (wholes == 1 && fields > 0) {
        errors.spanned(
            &sig.inputs,
            "a tool with an `#[args]` parameter takes no other arguments (only a `ToolContext` besides it): put every argument in that struct",
        );
    }
    for (name, _, used) in &documented {
        if !used && !params_mention(sig, name) {
            errors.spanned(
                &sig.ident,
                format!("the doc comment's `# Arguments` list names `{name}`, which is not a parameter of this function"),
            );
        }
    }

    let name_override = args
        .name
        .as_ref()
        .map(|n| (n.value.value(), n.value.span()));
    let (name, name_span) = name_override.unwrap_or_else(|| {
        (
            sig.ident.to_string().trim_start_matches("r#").to_owned(),
            sig.ident.span(),
        )
    });
    if let Some(problem) = names::check_tool_name(&name) {
        errors.at(name_span, problem);
    }
    let description = match &args.description {
        Some(d) => d.value.value().trim().to_owned(),
        None => docs.description,
    };
    if description.is_empty() {
        errors.spanned(
            &sig.ident,
            "`#[tool]` needs a description: add a doc comment or `description = \"...\"` (a model cannot use an undescribed tool)",
        );
    }
    if let (Some(read_only), Some(destructive)) = (&args.read_only, &args.destructive)
        && read_only.value
        && destructive.value
    {
        errors.at(
            destructive.key,
            "a tool cannot be both `read_only` and `destructive`: a read-only tool changes nothing, so it destroys nothing; drop one of them",
        );
    }
    let output = classify(&sig.output);
    let returns = match &sig.output {
        ReturnType::Type(_, ty) if !matches!(&**ty, Type::Tuple(t) if t.elems.is_empty()) => {
            Some(docs::type_text(ty))
        }
        _ => None,
    };

    let failed = !errors.is_empty();
    if let Err(e) = local.finish() {
        outer.push(e);
    }
    if failed {
        return None;
    }
    let base = names::pascal(&sig.ident.to_string());
    let args_ident = format_ident!("{}Args", base, span = sig.ident.span());
    let marker = match owner {
        Owner::Free => sig.ident.clone(),
        Owner::Method(_, group) => format_ident!("__toolgroup_{}_{}", group, sig.ident),
    };
    Some(ToolModel {
        fn_ident: sig.ident.clone(),
        vis: vis.clone(),
        name,
        name_span,
        description,
        is_async: sig.asyncness.is_some(),
        params,
        output,
        args,
        args_ident,
        marker,
        returns,
    })
}

fn params_mention(sig: &Signature, name: &str) -> bool {
    sig.inputs.iter().any(|i| match i {
        FnArg::Typed(pt) => matches!(&*pt.pat, Pat::Ident(pi) if pi.ident == name),
        FnArg::Receiver(_) => false,
    })
}

/// `Some(by_ref)` if the type is `ToolContext` or a reference to it.
fn context_type(ty: &Type) -> Option<bool> {
    match ty {
        Type::Reference(r) => context_type(&r.elem).map(|_| true),
        Type::Path(p) => (p.qself.is_none()
            && p.path
                .segments
                .last()
                .is_some_and(|s| s.ident == "ToolContext"))
        .then_some(false),
        Type::Paren(p) => context_type(&p.elem),
        _ => None,
    }
}

/// `Some(T)` if the type is `Extension<T>`.
fn extension_type(ty: &Type) -> Option<&Type> {
    match ty {
        Type::Path(p) if p.qself.is_none() => {
            let last = p.path.segments.last()?;
            if last.ident != "Extension" {
                return None;
            }
            match &last.arguments {
                PathArguments::AngleBracketed(a) if a.args.len() == 1 => match &a.args[0] {
                    GenericArgument::Type(t) => Some(t),
                    _ => None,
                },
                _ => None,
            }
        }
        Type::Paren(p) => extension_type(&p.elem),
        _ => None,
    }
}

fn classify(ret: &ReturnType) -> Output {
    match ret {
        ReturnType::Default => Output::Value(Box::new(syn::parse_quote!(()))),
        ReturnType::Type(_, ty) => classify_type(ty),
    }
}

fn classify_type(ty: &Type) -> Output {
    match ty {
        Type::Paren(p) => classify_type(&p.elem),
        Type::Path(p) if p.qself.is_none() => {
            let last = p.path.segments.last().expect("a path has a segment");
            let generic_types: Vec<&Type> = match &last.arguments {
                PathArguments::AngleBracketed(a) => a
                    .args
                    .iter()
                    .filter_map(|g| match g {
                        GenericArgument::Type(t) => Some(t),
                        _ => None,
                    })
                    .collect(),
                _ => Vec::new(),
            };
            match (last.ident.to_string().as_str(), generic_types.as_slice()) {
                ("Result", [ok, rest @ ..]) if rest.len() <= 1 => Output::Result {
                    ok: Box::new(classify_type(ok)),
                    err: rest.first().map_or_else(|| ty.span(), |e| e.span()),
                },
                _ => Output::Value(Box::new(ty.clone())),
            }
        }
        _ => Output::Value(Box::new(ty.clone())),
    }
}

/// The generated arguments struct, tool marker and `Tool` impl.
pub(crate) fn generate(model: &ToolModel, owner: Owner<'_>) -> TokenStream {
    let krate = attr::krate(&model.args.krate);
    let p = quote!(#krate::__private);
    let vis = &model.vis;
    let name = &model.name;
    let description = &model.description;
    let fn_ident = &model.fn_ident;
    let marker = &model.marker;
    let args_ident = &model.args_ident;

    let whole = model.params.iter().find_map(|p| match p {
        Param::Whole { ty } => Some(ty.clone()),
        _ => None,
    });
    let mut field_idents = Vec::new();
    let mut call_args = Vec::new();
    let mut extensions = Vec::new();
    let mut fields = Vec::new();
    for param in &model.params {
        match param {
            Param::Field { ident, ty, attrs } => {
                fields.push(quote!(#(#attrs)* pub #ident: #ty,));
                // Bound to an invented name: a parameter named like the function would
                // otherwise shadow the function being called.
                let local = format_ident!("__toolgroup_arg_{}", field_idents.len());
                field_idents.push(quote!(#ident: #local));
                call_args.push(quote!(#local));
            }
            Param::Context { by_ref: true } => call_args.push(quote!(&__toolgroup_ctx)),
            Param::Context { by_ref: false } => call_args.push(quote!(__toolgroup_ctx)),
            Param::Extension { ty, inner } => {
                let local = format_ident!("__toolgroup_ext_{}", extensions.len());
                // Spanned on the parameter's type: "`T: Clone` is not satisfied" lands there.
                let fetch = crate::toolkit::respan(
                    quote!(#p::extension::<#inner>(&__toolgroup_ctx)),
                    ty.span(),
                );
                extensions.push(quote! {
                    let #local = match #fetch {
                        #p::Ok(__toolgroup_value) => __toolgroup_value,
                        #p::Err(__toolgroup_missing) => return __toolgroup_missing,
                    };
                });
                call_args.push(quote!(#local));
            }
            Param::Whole { .. } => call_args.push(quote!(__toolgroup_args)),
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

    let (state_ty, callee) = match owner {
        Owner::Free => (quote!(()), quote!(#fn_ident(#(#call_args),*))),
        Owner::Method(self_ty, _) => (
            quote!(#self_ty),
            quote!(<#self_ty>::#fn_ident(__toolgroup_state, #(#call_args),*)),
        ),
    };
    // The future is bound to a name spanned on the function's name, so "future cannot be
    // sent between threads safely" points at the tool, not at the attribute.
    let invoke = if model.is_async {
        let future = Ident::new("__toolgroup_future", fn_ident.span());
        let assert = crate::toolkit::respan(quote!(#p::assert_send), fn_ident.span());
        quote!({
            let #future = #callee;
            #assert(#future).await
        })
    } else {
        callee
    };
    let convert = conversion(&model.output, &p, quote!(__toolgroup_value));
    // A sync tool gets `call_sync`, which the toolkit calls without any future; its `call`
    // runs it when the future is created and returns a ready future.
    let (body, sync) = if model.is_async {
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
        let body = quote! {
            #p::ready(<Self as #krate::Tool>::call_sync(__toolgroup_state, __toolgroup_ctx, __toolgroup_args))
        };
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
        (body, sync)
    };
    let output_schema = match &model.output {
        Output::Value(ty) => probe(ty, &p),
        Output::Result { ok, .. } => match &**ok {
            Output::Value(ty) => probe(ty, &p),
            Output::Result { .. } => quote!(#p::None),
        },
    };
    let hint = |v: &Option<attr::Spanned<bool>>| match v {
        Some(b) => {
            let b = b.value;
            quote!(#p::Some(#b))
        }
        None => quote!(#p::None),
    };
    let (read_only, destructive, idempotent, open_world) = (
        hint(&model.args.read_only),
        hint(&model.args.destructive),
        hint(&model.args.idempotent),
        hint(&model.args.open_world),
    );
    let timeout = match &model.args.timeout_ms {
        Some(ms) => {
            let ms = ms.value;
            quote!(#p::Some(#p::Duration::from_millis(#ms)))
        }
        None => quote!(#p::None),
    };
    let marker_def = match owner {
        Owner::Free => {
            let doc = format!(
                "The `{name}` tool (generated by `#[tool]`): what the model sees of it.{}",
                model.doc_fragment()
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

    quote! {
        #args_struct
        #marker_def

        impl #krate::Tool for #marker {
            type State = #state_ty;
            type Args = #args_ty;
            const INFO: #krate::meta::ToolInfo = #krate::meta::ToolInfo {
                name: #name,
                description: #description,
                annotations: #krate::meta::ToolAnnotations {
                    read_only: #read_only,
                    destructive: #destructive,
                    idempotent: #idempotent,
                    open_world: #open_world,
                },
                timeout: #timeout,
                schemas: {
                    fn __toolgroup_schemas() -> &'static #krate::meta::ToolSchemas {
                        static __TOOLGROUP_SCHEMAS: #p::SchemaCell = #p::SchemaCell::new();
                        __TOOLGROUP_SCHEMAS.get_or_init(|| #p::build_schemas::<#args_ty>(#output_schema))
                    }
                    __toolgroup_schemas
                },
            };

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

impl ToolModel {
    /// The tool's Markdown fragment for the generated rustdoc.
    pub(crate) fn doc_fragment(&self) -> String {
        let mut args = Vec::new();
        let mut whole = None;
        for param in &self.params {
            match param {
                Param::Field { ident, ty, attrs } => args.push(arg_doc(ident, ty, attrs)),
                Param::Whole { ty } => whole = Some(docs::type_text(ty)),
                Param::Context { .. } | Param::Extension { .. } => {}
            }
        }
        let a = &self.args;
        let hints = [
            (&a.read_only, "read-only", "not read-only"),
            (&a.destructive, "destructive", "not destructive"),
            (&a.idempotent, "idempotent", "not idempotent"),
            (&a.open_world, "open world", "closed world"),
        ]
        .into_iter()
        .filter_map(|(v, yes, no)| v.as_ref().map(|v| if v.value { yes } else { no }))
        .collect();
        docs::tool_fragment(&docs::ToolDoc {
            name: &self.name,
            description: &self.description,
            args,
            whole,
            hints,
            timeout_ms: a.timeout_ms.as_ref().map(|t| t.value),
            returns: self.returns.clone(),
        })
    }
}

/// An argument's name (after `#[serde(rename)]`), type, whether it is required (not an
/// `Option`, no `#[serde(default)]`) and description (its doc comment).
fn arg_doc(ident: &Ident, ty: &Type, attrs: &[Attribute]) -> docs::ArgDoc {
    let mut name = ident.to_string().trim_start_matches("r#").to_owned();
    let mut required = !matches!(classify_option(ty), Some(true));
    let mut flatten = false;
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        let _ = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("rename") {
                if let Ok(value) = meta.value() {
                    if let Ok(lit) = value.parse::<syn::LitStr>() {
                        name = lit.value();
                    }
                } else {
                    // `rename(deserialize = "...")`
                    meta.parse_nested_meta(|inner| {
                        let lit: syn::LitStr = inner.value()?.parse()?;
                        if inner.path.is_ident("deserialize") {
                            name = lit.value();
                        }
                        Ok(())
                    })?;
                }
            } else if meta.path.is_ident("default") {
                required = false;
                if meta.input.peek(syn::Token![=]) {
                    meta.value()?.parse::<syn::Expr>()?;
                }
            } else if meta.path.is_ident("flatten") {
                flatten = true;
            } else if meta.input.peek(syn::Token![=]) {
                meta.value()?.parse::<syn::Expr>()?;
            } else if meta.input.peek(syn::token::Paren) {
                meta.input.parse::<proc_macro2::Group>()?;
            }
            Ok(())
        });
    }
    let mut description = docs::doc_lines(attrs).join(" ").trim().to_owned();
    if flatten {
        description = format!("(flattened: the fields of this type are arguments) {description}");
    }
    docs::ArgDoc {
        name,
        ty: docs::type_text(ty),
        required,
        description,
    }
}

/// `Some(true)` if `ty` is `Option<..>` (the schema does not require it).
fn classify_option(ty: &Type) -> Option<bool> {
    match ty {
        Type::Path(p) if p.qself.is_none() => {
            Some(p.path.segments.last().is_some_and(|s| s.ident == "Option"))
        }
        Type::Paren(p) => classify_option(&p.elem),
        _ => None,
    }
}

/// A free tool's hidden doc macro, imported under the function's name (see `docs`).
fn doc_macro(model: &ToolModel, site: u64) -> TokenStream {
    let fn_name = model.fn_ident.to_string();
    if !docs::has_doc_macro(&fn_name) {
        return TokenStream::new();
    }
    let hidden = docs::hidden_ident("doc", &model.fn_ident, site);
    let arms = docs::tool_macro_arms(fn_name.trim_start_matches("r#"), &model.doc_fragment());
    docs::define_doc_macro(&model.vis, &model.fn_ident, &hidden, arms)
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
            crate::toolkit::respan(convert, ty.span())
        }
        Output::Result { ok, err } => {
            let ok = conversion(ok, p, quote!(__toolgroup_ok));
            let err = crate::toolkit::respan(quote!(#p::error_output(&__toolgroup_err)), *err);
            quote! {
                match #value {
                    #p::Ok(__toolgroup_ok) => #ok,
                    #p::Err(__toolgroup_err) => #err,
                }
            }
        }
    }
}
