//! `#[tool]`'s model: one tool function as parsed, with the spans its checks blame. Building it
//! reports nothing; [`check`](super::check) does.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens as _, format_ident};
use syn::spanned::Spanned as _;
use syn::{
    Abi, Attribute, FnArg, GenericArgument, Generics, Ident, Pat, PathArguments, Receiver,
    ReturnType, Signature, Token, Type, Variadic, Visibility,
};

use crate::attr::ToolArgs;
use crate::docs;
use crate::names;
use crate::tokens::unraw;

/// Where a tool function lives.
#[derive(Clone, Copy)]
pub(crate) enum Owner<'a> {
    /// A free function.
    Free,
    /// A `&self` method of a `#[tool_group]` impl for this type.
    Method(&'a Type, &'a Ident),
}

/// One tool function.
pub(crate) struct Tool {
    pub(crate) fn_ident: Ident,
    pub(crate) vis: Visibility,
    pub(crate) is_async: bool,
    /// Whether the function is a method of a `#[tool_group]` impl.
    pub(crate) in_group: bool,
    /// The signature's generics, if it has any (a tool cannot).
    pub(crate) generics: Option<Generics>,
    pub(crate) unsafety: Option<Token![unsafe]>,
    pub(crate) abi: Option<Abi>,
    pub(crate) variadic: Option<Variadic>,
    pub(crate) inputs: Vec<Input>,
    /// All of the parameters, to blame for a conflict between them.
    pub(crate) inputs_tokens: TokenStream,
    /// The names the doc comment's `# Arguments` list documents.
    pub(crate) documented: Vec<Documented>,
    /// The tool's name, and the span to blame for it.
    pub(crate) name: String,
    pub(crate) name_span: Span,
    pub(crate) description: String,
    pub(crate) output: Output,
    /// The return type as written, for the docs (`None` for `()`).
    pub(crate) returns: Option<String>,
    pub(crate) args: ToolArgs,
    /// The generated arguments struct.
    pub(crate) args_ident: Ident,
    /// The type implementing `Tool`.
    pub(crate) marker: Ident,
}

pub(crate) enum Input {
    Receiver(Receiver),
    Typed(Param),
}

/// A typed parameter.
pub(crate) struct Param {
    pub(crate) role: Role,
    pub(crate) ty: Box<Type>,
    /// Each `#[args(...)]` given arguments (it takes none).
    pub(crate) args_with_arguments: Vec<Attribute>,
    /// The pattern, when it is not a plain name (an `Extension` parameter may have any).
    pub(crate) bad_pattern: Option<Box<Pat>>,
}

pub(crate) enum Role {
    /// A model-supplied argument: a field of the generated arguments struct.
    Field { ident: Ident, attrs: Vec<Attribute> },
    /// A model-supplied argument without a plain name: reported, never generated.
    Unnamed,
    /// The injected `ToolContext`.
    Context { by_ref: bool },
    /// An `Extension<T>` from the call's per-call data.
    Extension { inner: Box<Type> },
    /// `#[args]`: the parameter's type is the whole arguments struct.
    Whole,
}

/// A name in the doc comment's `# Arguments` list.
pub(crate) struct Documented {
    pub(crate) name: String,
    /// Whether a parameter has that name.
    pub(crate) found: bool,
}

pub(crate) enum Output {
    /// `-> T` (or no return type): converted by `IntoCallResult`, else serialised.
    Value(Box<Type>),
    /// `-> Result<T, E>`: `Ok` as above, `Err` by its `Display`.
    Result { ok: Box<Output>, err: Span },
}

impl Tool {
    /// The model of a tool function; strips from `sig` the parameter attributes it consumes
    /// (and moves a documented parameter's `# Arguments` text onto its field).
    pub(crate) fn from_sig(
        sig: &mut Signature,
        fn_attrs: &[Attribute],
        vis: &Visibility,
        args: ToolArgs,
        owner: Owner<'_>,
    ) -> Tool {
        let docs = docs::parse(fn_attrs);
        let mut documented: Vec<(String, String, bool)> = docs
            .arguments
            .into_iter()
            .map(|(n, d)| (n, d, false))
            .collect();
        let inputs = sig
            .inputs
            .iter_mut()
            .map(|input| match input {
                FnArg::Receiver(recv) => Input::Receiver(recv.clone()),
                FnArg::Typed(pt) => Input::Typed(param(pt, &mut documented)),
            })
            .collect();
        let documented = documented
            .into_iter()
            .map(|(name, _, used)| Documented {
                found: used || params_mention(sig, &name),
                name,
            })
            .collect();

        let (name, name_span) = match &args.name {
            Some(n) => (n.value.value(), n.value.span()),
            None => (unraw(&sig.ident), sig.ident.span()),
        };
        let description = match &args.description {
            Some(d) => d.value.value().trim().to_owned(),
            None => docs.description,
        };
        let returns = match &sig.output {
            ReturnType::Type(_, ty) if !matches!(&**ty, Type::Tuple(t) if t.elems.is_empty()) => {
                Some(docs::type_text(ty))
            }
            _ => None,
        };
        let generics = (!sig.generics.params.is_empty() || sig.generics.where_clause.is_some())
            .then(|| sig.generics.clone());
        let base = names::pascal(&sig.ident);
        Tool {
            fn_ident: sig.ident.clone(),
            vis: vis.clone(),
            is_async: sig.asyncness.is_some(),
            in_group: matches!(owner, Owner::Method(..)),
            generics,
            unsafety: sig.unsafety,
            abi: sig.abi.clone(),
            variadic: sig.variadic.clone(),
            inputs,
            inputs_tokens: sig.inputs.to_token_stream(),
            documented,
            name,
            name_span,
            description,
            output: classify(&sig.output),
            returns,
            args,
            args_ident: format_ident!("{}Args", base, span = sig.ident.span()),
            marker: match owner {
                Owner::Free => sig.ident.clone(),
                Owner::Method(_, group) => format_ident!("__toolgroup_{}_{}", group, sig.ident),
            },
        }
    }

    /// The typed parameters, in order.
    pub(crate) fn params(&self) -> impl Iterator<Item = &Param> {
        self.inputs.iter().filter_map(|i| match i {
            Input::Typed(p) => Some(p),
            Input::Receiver(_) => None,
        })
    }

    pub(crate) fn has_receiver(&self) -> bool {
        self.inputs.iter().any(|i| matches!(i, Input::Receiver(_)))
    }
}

/// One typed parameter; strips its `doc`, `serde`, `schemars` and `args` attributes (the first
/// three move to the generated field).
fn param(pt: &mut syn::PatType, documented: &mut [(String, String, bool)]) -> Param {
    let mut attrs = Vec::new();
    let mut whole = false;
    let mut args_with_arguments = Vec::new();
    pt.attrs.retain(|a| {
        let p = a.path();
        if p.is_ident("doc") || p.is_ident("serde") || p.is_ident("schemars") {
            attrs.push(a.clone());
            false
        } else if p.is_ident("args") {
            if !matches!(a.meta, syn::Meta::Path(_)) {
                args_with_arguments.push(a.clone());
            }
            whole = true;
            false
        } else {
            true
        }
    });
    let ty = pt.ty.clone();
    if let Some(inner) = extension_type(&pt.ty) {
        // Any pattern works: the value is passed to the function, which binds it.
        return Param {
            role: Role::Extension {
                inner: Box::new(inner.clone()),
            },
            ty,
            args_with_arguments,
            bad_pattern: None,
        };
    }
    let (ident, bad_pattern) = match &*pt.pat {
        Pat::Ident(pi) if pi.by_ref.is_none() && pi.subpat.is_none() => {
            (Some(pi.ident.clone()), None)
        }
        other => (None, Some(Box::new(other.clone()))),
    };
    let role = if let Some(by_ref) = context_type(&pt.ty) {
        Role::Context { by_ref }
    } else if whole {
        Role::Whole
    } else if let Some(ident) = ident {
        let plain = unraw(&ident);
        let has_doc = attrs.iter().any(|a| a.path().is_ident("doc"));
        for entry in documented.iter_mut().filter(|e| e.0 == plain) {
            entry.2 = true;
            if !has_doc && !entry.1.is_empty() {
                let text = &entry.1;
                attrs.push(syn::parse_quote!(#[doc = #text]));
            }
        }
        Role::Field { ident, attrs }
    } else {
        Role::Unnamed
    };
    Param {
        role,
        ty,
        args_with_arguments,
        bad_pattern,
    }
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
