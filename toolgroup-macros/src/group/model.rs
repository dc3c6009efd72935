//! `#[tool_group]`'s model: the group's facts, and for an impl block each `#[tool]` method as
//! a [`Tool`]. Building it reports nothing itself; what a method's `#[tool(...)]` keys get
//! wrong is kept with the method, so that [`check`](super::check) reports each method's errors
//! together, in source order.

use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use syn::spanned::Spanned as _;
use syn::{Ident, ImplItem, ItemImpl, ItemStruct, LitStr, Path, Type};

use crate::attr::{self, GroupArgs};
use crate::ctxt::Ctxt;
use crate::docs;
use crate::scopes;
use crate::skills::{self, model::Skill};
use crate::tool::model::{Owner, Tool};

/// What the model reads of a group: its name, description and instructions.
pub(crate) struct Meta {
    /// The name as written (`None` if missing).
    pub(crate) name_lit: Option<LitStr>,
    /// The name (empty if missing).
    pub(crate) name: String,
    pub(crate) description: String,
    /// Where a missing description is blamed.
    pub(crate) description_span: Span,
    pub(crate) instructions: Option<String>,
    /// Where a missing name is blamed.
    pub(crate) blame: TokenStream,
    /// `skills = [...]`, each folder read.
    pub(crate) skills: Vec<Skill>,
    /// `scopes = [...]`, the string literals' values.
    pub(crate) scopes: Vec<String>,
    /// `turn_scoped`: a lifecycle switches the group off when a turn ends.
    pub(crate) turn_scoped: bool,
}

impl Meta {
    fn new(args: &GroupArgs, item_attrs: &[syn::Attribute], blame: &dyn ToTokens) -> Meta {
        let name_lit = args.name.as_ref().map(|n| n.value.clone());
        let description = match &args.description {
            Some(d) => d.value.value().trim().to_owned(),
            None => docs::parse(item_attrs).description,
        };
        let blame = blame.to_token_stream();
        Meta {
            name: name_lit.as_ref().map(LitStr::value).unwrap_or_default(),
            description_span: name_lit.as_ref().map_or_else(|| blame.span(), LitStr::span),
            name_lit,
            description,
            instructions: args
                .instructions
                .as_ref()
                .map(|i| i.value.value().trim().to_owned()),
            blame,
            skills: args
                .skills
                .as_ref()
                .map(|s| skills::model::read(&s.value))
                .unwrap_or_default(),
            scopes: scopes::values(args.scopes.as_ref().map(|s| &s.value)),
            turn_scoped: args.turn_scoped.as_ref().is_some_and(|t| t.value),
        }
    }
}

/// `#[tool_group]` on an impl block of `#[tool]` methods.
pub(crate) struct ImplGroup {
    pub(crate) args: GroupArgs,
    /// The impl block, the attributes the macros consume stripped.
    pub(crate) item: ItemImpl,
    pub(crate) self_ty: Type,
    /// The type's name (`None` if it is not a path).
    pub(crate) ident: Option<Ident>,
    pub(crate) meta: Meta,
    pub(crate) methods: Vec<Method>,
    /// Free tools listed with `tools = [...]`.
    pub(crate) free: Vec<Path>,
}

/// A method marked `#[tool]`.
pub(crate) struct Method {
    /// Its position in the impl block.
    pub(crate) index: usize,
    /// What its `#[tool]` attributes' form and keys got wrong.
    pub(crate) attr_errors: Option<syn::Error>,
    /// The tool (`None` if the attribute is not `#[tool]` or `#[tool(...)]`).
    pub(crate) tool: Option<Tool>,
}

impl ImplGroup {
    pub(crate) fn new(args: GroupArgs, mut item: ItemImpl) -> ImplGroup {
        let self_ty = (*item.self_ty).clone();
        let ident = match &self_ty {
            Type::Path(p) if p.qself.is_none() => p.path.segments.last().map(|s| s.ident.clone()),
            _ => None,
        };
        let meta = Meta::new(&args, &item.attrs, &self_ty);
        let krate = args.krate.as_ref().map(|k| &k.value);
        let mut methods = Vec::new();
        for (index, impl_item) in item.items.iter_mut().enumerate() {
            let ImplItem::Fn(f) = impl_item else { continue };
            let mut tool_attrs = Vec::new();
            f.attrs.retain(|a| {
                if attr::is_tool_attr(a, krate) {
                    tool_attrs.push(a.clone());
                    false
                } else {
                    true
                }
            });
            let (Some(first), Some(group)) = (tool_attrs.first(), &ident) else {
                continue;
            };
            let cx = Ctxt::new();
            for extra in &tool_attrs[1..] {
                cx.spanned(extra, "duplicate `#[tool]` attribute");
            }
            let tokens = match &first.meta {
                syn::Meta::Path(_) => Some(TokenStream::new()),
                syn::Meta::List(l) => Some(l.tokens.clone()),
                syn::Meta::NameValue(nv) => {
                    cx.spanned(nv, "write `#[tool]` or `#[tool(key = value, ...)]`");
                    None
                }
            };
            let tool = tokens.map(|tokens| {
                let tool_args = attr::parse_tool_args(tokens, &cx);
                let owner = Owner::Method(&self_ty, group);
                Tool::from_sig(&mut f.sig, &f.attrs, &f.vis, tool_args, owner)
            });
            methods.push(Method {
                index,
                attr_errors: cx.check().err(),
                tool,
            });
        }
        ImplGroup {
            free: free_tools(&args),
            args,
            item,
            self_ty,
            ident,
            meta,
            methods,
        }
    }
}

/// `#[tool_group]` on a struct: a group of free tools, or with `dynamic` a group whose tools
/// are found at run time.
pub(crate) struct StructGroup {
    pub(crate) args: GroupArgs,
    pub(crate) item: ItemStruct,
    pub(crate) meta: Meta,
    pub(crate) free: Vec<Path>,
    pub(crate) dynamic: bool,
}

impl StructGroup {
    pub(crate) fn new(args: GroupArgs, item: ItemStruct) -> StructGroup {
        StructGroup {
            meta: Meta::new(&args, &item.attrs, &item.ident),
            free: free_tools(&args),
            dynamic: args.dynamic.as_ref().is_some_and(|r| r.value),
            args,
            item,
        }
    }
}

fn free_tools(args: &GroupArgs) -> Vec<Path> {
    args.tools
        .as_ref()
        .map(|t| t.value.clone())
        .unwrap_or_default()
}
