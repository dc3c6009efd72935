//! A tool's Markdown fragment, from its model: what its marker's, its group's and its
//! toolkit's rustdoc show of it.

use syn::{Attribute, Ident, Type};

use super::model::{Role, Tool};
use crate::attr::TaskSupport;
use crate::docs;
use crate::scopes;
use crate::tokens::unraw;

/// The tool's Markdown fragment for the generated rustdoc.
pub(crate) fn fragment(tool: &Tool) -> String {
    let mut args = Vec::new();
    let mut whole = None;
    for param in tool.params() {
        match &param.role {
            Role::Field { ident, attrs } => args.push(arg_doc(ident, &param.ty, attrs)),
            Role::Whole => whole = Some(docs::type_text(&param.ty)),
            Role::Context { .. } | Role::Extension { .. } | Role::Unnamed => {}
        }
    }
    let a = &tool.args;
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
        name: &tool.name,
        description: &tool.description,
        args,
        whole,
        hints,
        timeout_ms: a.timeout_ms.as_ref().map(|t| t.value),
        task: a.task.as_ref().map(|t| match t.value.support {
            TaskSupport::Optional => "optional",
            TaskSupport::Required => "required",
        }),
        scopes: scopes::values(a.scopes.as_ref().map(|s| &s.value)),
        returns: tool.returns.clone(),
    })
}

/// An argument's name (after `#[serde(rename)]`), type, whether it is required (not an
/// `Option`, no `#[serde(default)]`) and description (its doc comment).
fn arg_doc(ident: &Ident, ty: &Type, attrs: &[Attribute]) -> docs::ArgDoc {
    let mut name = unraw(ident);
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
