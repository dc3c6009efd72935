//! `#[toolkit]`'s rules, one function each, in source order. What needs the groups' own facts
//! (names, tools) is checked at compile time by the generated `check_toolkit` calls.

use super::model::{Field, Toolkit};
use crate::ctxt::Ctxt;
use crate::names;
use crate::tokens::unraw;

pub(crate) fn toolkit(cx: &Ctxt, toolkit: &Toolkit) {
    not_generic(cx, toolkit);
    for field in &toolkit.fields {
        bare_basic(cx, field);
        pinned(cx, field);
        field_named_like_a_group(cx, field);
    }
    named_fields(cx, toolkit);
    // Only when nothing else is wrong: a struct without named fields has none either.
    if toolkit.fields.is_empty() && cx.count() == 0 {
        cx.spanned(
            &toolkit.item.ident,
            "a toolkit needs at least one group: add a field whose type is a `#[tool_group]`",
        );
    }
}

fn not_generic(cx: &Ctxt, toolkit: &Toolkit) {
    if !toolkit.item.generics.params.is_empty() {
        cx.spanned(
            &toolkit.item.generics,
            "a `#[toolkit]` struct cannot be generic",
        );
    }
}

fn bare_basic(cx: &Ctxt, field: &Field) {
    for attr in &field.basic_with_arguments {
        cx.spanned(attr, "`#[basic]` takes no arguments");
    }
}

/// `#[pinned]` takes no arguments, once, on a switchable group.
fn pinned(cx: &Ctxt, field: &Field) {
    for (i, attr) in field.pinned_attrs.iter().enumerate() {
        if !matches!(attr.meta, syn::Meta::Path(_)) {
            cx.spanned(attr, "`#[pinned]` takes no arguments");
        } else if i > 0 {
            cx.spanned(attr, "`#[pinned]` is given twice; remove one");
        } else if field.basic {
            cx.spanned(
                attr,
                "a `#[basic]` group is always active: it needs no `#[pinned]`; remove one of them",
            );
        }
    }
}

/// A switchable field's name is its group's `reset_tools` argument.
fn field_named_like_a_group(cx: &Ctxt, field: &Field) {
    if !field.basic
        && let Some(problem) = names::check_group_name(&unraw(&field.ident))
    {
        cx.spanned(&field.ident, problem);
    }
}

fn named_fields(cx: &Ctxt, toolkit: &Toolkit) {
    if !matches!(toolkit.item.fields, syn::Fields::Named(_)) {
        cx.spanned(
            &toolkit.item.fields,
            "`#[toolkit]` needs named fields: each switchable group's field name is its `reset_tools` argument",
        );
    }
}
