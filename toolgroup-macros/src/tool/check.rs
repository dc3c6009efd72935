//! `#[tool]`'s rules, one function each, run over the model in source order so the errors read
//! top to bottom.

use syn::{Receiver, Type};

use super::model::{Input, Param, Role, Tool};
use crate::attr::TaskSupport;
use crate::ctxt::Ctxt;
use crate::names;
use crate::scopes::{self, Declarer};

/// Every rule of one tool.
pub(crate) fn tool(cx: &Ctxt, tool: &Tool) {
    not_generic(cx, tool);
    not_unsafe(cx, tool);
    no_abi(cx, tool);
    not_variadic(cx, tool);
    for input in &tool.inputs {
        match input {
            Input::Receiver(recv) => receiver(cx, tool, recv),
            Input::Typed(param) => {
                bare_args_attr(cx, param);
                plain_name(cx, param);
                owned_type(cx, param);
                concrete_type(cx, param);
            }
        }
    }
    method_takes_self(cx, tool);
    whole_args_alone(cx, tool);
    documented_args_exist(cx, tool);
    valid_name(cx, tool);
    described(cx, tool);
    hints_agree(cx, tool);
    required_task_is_async(cx, tool);
    if let Some(list) = &tool.args.scopes {
        scopes::check(cx, &list.value, Declarer::Tool);
    }
}

fn not_generic(cx: &Ctxt, tool: &Tool) {
    if let Some(generics) = &tool.generics {
        cx.spanned(
            generics,
            "a `#[tool]` function cannot be generic: its arguments must be one concrete type with one JSON schema",
        );
    }
}

fn not_unsafe(cx: &Ctxt, tool: &Tool) {
    if let Some(u) = &tool.unsafety {
        cx.spanned(
            u,
            "a `#[tool]` function cannot be `unsafe`: a model's call cannot uphold its contract",
        );
    }
}

fn no_abi(cx: &Ctxt, tool: &Tool) {
    if let Some(abi) = &tool.abi {
        cx.spanned(abi, "a `#[tool]` function cannot have an `extern` ABI");
    }
}

fn not_variadic(cx: &Ctxt, tool: &Tool) {
    if let Some(v) = &tool.variadic {
        cx.spanned(v, "a `#[tool]` function cannot be variadic");
    }
}

/// A free function has no receiver; a method's is `&self`.
fn receiver(cx: &Ctxt, tool: &Tool, recv: &Receiver) {
    if !tool.in_group {
        cx.spanned(
            recv,
            "`#[tool]` on a method needs `#[tool_group(name = \"...\", description = \"...\")]` on its impl block",
        );
    } else if recv.reference.is_none() || recv.mutability.is_some() || recv.colon_token.is_some() {
        cx.spanned(
            recv,
            "a tool method takes `&self`: one group is shared by every session at once, so `self` and `&mut self` cannot work; keep mutable state behind a `Mutex` or an atomic",
        );
    }
}

fn bare_args_attr(cx: &Ctxt, param: &Param) {
    for attr in &param.args_with_arguments {
        cx.spanned(attr, "`#[args]` takes no arguments");
    }
}

fn plain_name(cx: &Ctxt, param: &Param) {
    if let Some(pat) = &param.bad_pattern {
        cx.spanned(
            pat,
            "a `#[tool]` parameter must be a plain name (`query: String`): its name becomes the JSON argument's name",
        );
    }
}

/// Whether the parameter is one of the model's arguments.
fn from_model(param: &Param) -> bool {
    matches!(param.role, Role::Field { .. } | Role::Unnamed)
}

fn owned_type(cx: &Ctxt, param: &Param) {
    if let (true, Type::Reference(r)) = (from_model(param), &*param.ty) {
        cx.spanned(
            r,
            "a `#[tool]` parameter must be an owned type (`String`, not `&str`): arguments are parsed from the model's JSON",
        );
    }
}

fn concrete_type(cx: &Ctxt, param: &Param) {
    if let (true, Type::ImplTrait(t)) = (from_model(param), &*param.ty) {
        cx.spanned(
            t,
            "a `#[tool]` function cannot be generic: use a concrete parameter type, not `impl Trait`",
        );
    }
}

fn method_takes_self(cx: &Ctxt, tool: &Tool) {
    if tool.in_group && !tool.has_receiver() {
        cx.spanned(
            &tool.fn_ident,
            "a tool in a `#[tool_group]` impl takes `&self`; for a function without state, make it a free `#[tool]` function and list it with `tools = [...]`",
        );
    }
}

fn whole_args_alone(cx: &Ctxt, tool: &Tool) {
    let count = |f: fn(&Role) -> bool| tool.params().filter(|p| f(&p.role)).count();
    let wholes = count(|r| matches!(r, Role::Whole));
    let fields = count(|r| matches!(r, Role::Field { .. }));
    if wholes > 1 || (wholes == 1 && fields > 0) {
        cx.spanned(
            &tool.inputs_tokens,
            "a tool with an `#[args]` parameter takes no other arguments (only a `ToolContext` besides it): put every argument in that struct",
        );
    }
}

fn documented_args_exist(cx: &Ctxt, tool: &Tool) {
    for doc in tool.documented.iter().filter(|d| !d.found) {
        cx.spanned(
            &tool.fn_ident,
            format!(
                "the doc comment's `# Arguments` list names `{}`, which is not a parameter of this function",
                doc.name
            ),
        );
    }
}

fn valid_name(cx: &Ctxt, tool: &Tool) {
    if let Some(problem) = names::check_tool_name(&tool.name) {
        cx.at(tool.name_span, problem);
    }
}

fn described(cx: &Ctxt, tool: &Tool) {
    if tool.description.is_empty() {
        cx.spanned(
            &tool.fn_ident,
            "`#[tool]` needs a description: add a doc comment or `description = \"...\"` (a model cannot use an undescribed tool)",
        );
    }
}

fn hints_agree(cx: &Ctxt, tool: &Tool) {
    if let (Some(read_only), Some(destructive)) = (&tool.args.read_only, &tool.args.destructive)
        && read_only.value
        && destructive.value
    {
        cx.at(
            destructive.key,
            "a tool cannot be both `read_only` and `destructive`: a read-only tool changes nothing, so it destroys nothing; drop one of them",
        );
    }
}

/// `task = "required"` needs an `async fn`: a plain `fn` runs to its end on the thread that
/// called it, so a task of it could neither be cancelled nor give its thread back while it
/// runs. `task = "optional"` is allowed on one: a short plain `fn` can still be handed to a
/// task runtime, which runs it to its end and keeps the result for the client to poll.
fn required_task_is_async(cx: &Ctxt, tool: &Tool) {
    if let Some(task) = &tool.args.task
        && task.value.support == TaskSupport::Required
        && !tool.is_async
    {
        cx.at(
            task.value.lit,
            "`task = \"required\"` needs an `async fn`: a synchronous tool runs inline on the caller's thread, so `tasks/cancel` cannot stop it and it cannot yield while it runs; make it `async fn` (move blocking work into `spawn_blocking`), or use `task = \"optional\"`",
        );
    }
}
