//! `#[toolkit]`'s model: the struct and its fields, each a group (switchable, or `#[basic]`;
//! a switchable one may be `#[pinned]`).

use syn::{Attribute, Fields, Ident, ItemStruct, Type};

use crate::attr::ToolkitArgs;

pub(crate) struct Toolkit {
    pub(crate) args: ToolkitArgs,
    /// The struct, its `#[basic]` attributes stripped.
    pub(crate) item: ItemStruct,
    /// The named fields (none if the fields are not named).
    pub(crate) fields: Vec<Field>,
}

pub(crate) struct Field {
    pub(crate) ident: Ident,
    pub(crate) ty: Type,
    /// `#[basic]`: always active, never switched.
    pub(crate) basic: bool,
    /// Each `#[basic(...)]` given arguments (it takes none).
    pub(crate) basic_with_arguments: Vec<Attribute>,
    /// `#[pinned]`: no lifecycle rule switches it off.
    pub(crate) pinned: bool,
    /// The `#[pinned]` attributes, for the checks' spans (arguments, or on a basic field).
    pub(crate) pinned_attrs: Vec<Attribute>,
}

impl Toolkit {
    pub(crate) fn new(args: ToolkitArgs, mut item: ItemStruct) -> Toolkit {
        let mut fields = Vec::new();
        if let Fields::Named(named) = &mut item.fields {
            for f in named.named.iter_mut() {
                let mut basic = false;
                let mut basic_with_arguments = Vec::new();
                let mut pinned_attrs = Vec::new();
                f.attrs.retain(|a| {
                    if a.path().is_ident("pinned") {
                        pinned_attrs.push(a.clone());
                        false
                    } else if a.path().is_ident("basic") {
                        if !matches!(a.meta, syn::Meta::Path(_)) {
                            basic_with_arguments.push(a.clone());
                        }
                        basic = true;
                        false
                    } else {
                        true
                    }
                });
                fields.push(Field {
                    ident: f.ident.clone().expect("named field"),
                    ty: f.ty.clone(),
                    basic,
                    basic_with_arguments,
                    pinned: !pinned_attrs.is_empty(),
                    pinned_attrs,
                });
            }
        }
        Toolkit { args, item, fields }
    }

    /// The switchable fields, with their positions among all fields.
    pub(crate) fn switchable(&self) -> impl Iterator<Item = (usize, &Field)> {
        self.fields.iter().enumerate().filter(|(_, f)| !f.basic)
    }
}
