//! `#[tool_group]`'s rules, one function each, in source order.

use super::model::{ImplGroup, Meta, StructGroup};
use crate::attr::GroupArgs;
use crate::ctxt::Ctxt;
use crate::names;
use crate::scopes::{self, Declarer};
use crate::skills;
use crate::tool::check as tool_check;
use crate::tool::model::Tool;

/// Every rule of a group of `#[tool]` methods (and each method's own).
pub(crate) fn impl_group(cx: &Ctxt, group: &ImplGroup) {
    dynamic_on_struct(cx, group);
    inherent_impl(cx, group);
    if !group.item.generics.params.is_empty() {
        not_generic(cx, &group.item.generics);
    }
    if group.ident.is_none() {
        // Without a name there is no group to say more about.
        cx.spanned(
            &group.self_ty,
            "`#[tool_group]` needs a named type (`impl Database { ... }`)",
        );
        return;
    }
    named(cx, &group.meta);
    described(cx, &group.meta);
    group_scopes(cx, &group.args);
    skills::check::skills(cx, &group.meta.skills);
    let mut names: Vec<&str> = Vec::new();
    for method in &group.methods {
        if let Some(e) = &method.attr_errors {
            cx.push(e.clone());
        }
        let Some(tool) = &method.tool else { continue };
        let before = cx.count();
        tool_check::tool(cx, tool);
        if cx.count() == before {
            unique_tool_name(cx, &group.meta, &names, tool);
            names.push(&tool.name);
        }
    }
    // A method marked `#[tool]` that failed says enough.
    if group.methods.is_empty() && group.free.is_empty() {
        cx.spanned(
            &group.self_ty,
            "this tool group has no tools: mark `&self` methods with `#[tool]`, or list free `#[tool]` functions with `tools = [...]`",
        );
    }
}

/// Every rule of a group on a struct (free tools, or `dynamic`).
pub(crate) fn struct_group(cx: &Ctxt, group: &StructGroup) {
    if !group.item.generics.params.is_empty() {
        not_generic(cx, &group.item.generics);
    }
    named(cx, &group.meta);
    described(cx, &group.meta);
    group_scopes(cx, &group.args);
    skills::check::skills(cx, &group.meta.skills);
    if group.dynamic {
        dynamic_without_tools(cx, group);
        dynamic_on_unit_struct(cx, group);
    } else if group.free.is_empty() {
        cx.spanned(
            &group.item.ident,
            "this tool group has no tools: list free `#[tool]` functions with `tools = [...]`, or put `#[tool_group]` on an impl block of `#[tool]` methods",
        );
    }
}

fn dynamic_on_struct(cx: &Ctxt, group: &ImplGroup) {
    if let Some(dynamic) = &group.args.dynamic {
        cx.at(
            dynamic.key,
            "`dynamic` goes on a unit struct (`struct Files;`): a dynamic group's tools come from its source at run time, not from methods",
        );
    }
}

fn inherent_impl(cx: &Ctxt, group: &ImplGroup) {
    if let Some((_, path, _)) = &group.item.trait_ {
        cx.spanned(
            path,
            "`#[tool_group]` goes on an inherent impl block (`impl MyGroup { ... }`), not a trait impl",
        );
    }
}

fn not_generic(cx: &Ctxt, generics: &syn::Generics) {
    cx.spanned(
        generics,
        "a `#[tool_group]` type cannot be generic: the toolkit needs one concrete type per group",
    );
}

fn named(cx: &Ctxt, meta: &Meta) {
    match &meta.name_lit {
        Some(lit) => {
            if let Some(problem) = names::check_group_name(&meta.name) {
                cx.spanned(lit, problem);
            }
        }
        None => cx.spanned(
            &meta.blame,
            "`#[tool_group]` needs `name = \"...\"`: the name the model switches the group by",
        ),
    }
}

fn described(cx: &Ctxt, meta: &Meta) {
    if meta.description.is_empty() {
        cx.at(
            meta.description_span,
            "`#[tool_group]` needs `description = \"...\"` (or a doc comment): the model reads it to decide whether to activate the group",
        );
    }
}

fn group_scopes(cx: &Ctxt, args: &GroupArgs) {
    if let Some(list) = &args.scopes {
        scopes::check(cx, &list.value, Declarer::Group);
    }
}

fn unique_tool_name(cx: &Ctxt, meta: &Meta, earlier: &[&str], tool: &Tool) {
    if earlier.contains(&tool.name.as_str()) {
        cx.at(
            tool.name_span,
            format!(
                "group `{}` already has a tool named `{}`: rename one with `#[tool(name = \"...\")]`",
                meta.name, tool.name
            ),
        );
    }
}

fn dynamic_without_tools(cx: &Ctxt, group: &StructGroup) {
    if let Some(tools) = &group.args.tools {
        cx.at(
            tools.key,
            "a `dynamic` group's tools are found at run time: remove `tools = [...]` (or `dynamic`)",
        );
    }
}

fn dynamic_on_unit_struct(cx: &Ctxt, group: &StructGroup) {
    if !matches!(group.item.fields, syn::Fields::Unit) {
        cx.spanned(
            &group.item.fields,
            "a `dynamic` group is declared on a unit struct (`struct Files;`): its connection lives in the group type that serves it, such as `Dynamic<Files, Remote>`",
        );
    }
}
