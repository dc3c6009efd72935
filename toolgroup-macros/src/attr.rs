//! Attribute arguments: `#[tool(...)]`, `#[tool_group(...)]`, `#[toolkit(...)]`.
//!
//! Every unknown or repeated key is reported (all of them, in one compile), at the key.

use proc_macro2::{Span, TokenStream};
use syn::meta::ParseNestedMeta;
use syn::parse::Parser;
use syn::punctuated::Punctuated;
use syn::{Attribute, LitBool, LitStr, Path, Token};

use crate::ctxt::Ctxt;
use crate::scopes::ScopeList;

/// A value set by an attribute key, with the key's span (for errors found after parsing,
/// such as two keys that contradict each other).
pub(crate) struct Spanned<T> {
    pub(crate) value: T,
    pub(crate) key: Span,
}

fn set<T>(slot: &mut Option<Spanned<T>>, meta: &ParseNestedMeta<'_>, value: T, cx: &Ctxt) {
    let span = meta
        .path
        .segments
        .last()
        .map_or_else(Span::call_site, |s| s.ident.span());
    if slot.is_some() {
        let key = path_name(&meta.path);
        cx.at(span, format!("duplicate `{key}`: give each argument once"));
    } else {
        *slot = Some(Spanned { value, key: span });
    }
}

fn path_name(path: &Path) -> String {
    path.segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect::<Vec<_>>()
        .join("::")
}

/// Skip an unknown key's value (`= expr` or `(...)`) so parsing can go on.
fn skip_value(meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        meta.value()?.parse::<syn::Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        meta.input.parse::<proc_macro2::Group>()?;
    }
    Ok(())
}

/// `` `a`, `b` or `c` ``.
fn one_of(known: &[&str]) -> String {
    let quoted: Vec<String> = known.iter().map(|k| format!("`{k}`")).collect();
    match quoted.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

fn parse_keys(
    tokens: TokenStream,
    cx: &Ctxt,
    known: &[&str],
    mut each: impl FnMut(&str, &ParseNestedMeta<'_>) -> syn::Result<bool>,
) {
    let parser = syn::meta::parser(|meta| {
        let key = path_name(&meta.path);
        if !each(&key, &meta)? {
            let hint = toolgroup_skills::did_you_mean(&key, known.iter().copied())
                .map(|close| format!(" (did you mean `{close}`?)"))
                .unwrap_or_default();
            cx.spanned(
                &meta.path,
                format!("unknown argument `{key}`{hint}; expected {}", one_of(known)),
            );
            skip_value(&meta)?;
        }
        Ok(())
    });
    if let Err(e) = parser.parse2(tokens) {
        cx.push(e);
    }
}

fn lit_str(meta: &ParseNestedMeta<'_>) -> syn::Result<LitStr> {
    meta.value()?.parse()
}

fn flag(meta: &ParseNestedMeta<'_>) -> syn::Result<bool> {
    if meta.input.peek(Token![=]) {
        Ok(meta.value()?.parse::<LitBool>()?.value)
    } else {
        Ok(true)
    }
}

fn crate_path(meta: &ParseNestedMeta<'_>) -> syn::Result<Path> {
    let value = meta.value()?;
    if value.peek(LitStr) {
        value.parse::<LitStr>()?.parse()
    } else {
        value.parse()
    }
}

/// The path generated code uses to reach the runtime (`crate = ...`, default `::toolgroup`).
pub(crate) fn krate(path: &Option<Spanned<Path>>) -> Path {
    match path {
        Some(p) => p.value.clone(),
        None => syn::parse_quote!(::toolgroup),
    }
}

#[derive(Default)]
pub(crate) struct ToolArgs {
    pub(crate) name: Option<Spanned<LitStr>>,
    pub(crate) description: Option<Spanned<LitStr>>,
    pub(crate) read_only: Option<Spanned<bool>>,
    pub(crate) destructive: Option<Spanned<bool>>,
    pub(crate) idempotent: Option<Spanned<bool>>,
    pub(crate) open_world: Option<Spanned<bool>>,
    pub(crate) timeout_ms: Option<Spanned<u64>>,
    pub(crate) scopes: Option<Spanned<ScopeList>>,
    pub(crate) task: Option<Spanned<Task>>,
    pub(crate) krate: Option<Spanned<Path>>,
}

/// `task = "optional"` or `task = "required"`: whether an MCP client may or must run a call
/// of the tool as a task (the runtime's `TaskSupport`; `Forbidden` is the absent key).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum TaskSupport {
    Optional,
    Required,
}

/// A `task = "..."` value, with its literal's span (a later check blames the value).
pub(crate) struct Task {
    pub(crate) support: TaskSupport,
    pub(crate) lit: Span,
}

pub(crate) fn parse_tool_args(tokens: TokenStream, cx: &Ctxt) -> ToolArgs {
    let mut args = ToolArgs::default();
    parse_keys(
        tokens,
        cx,
        &[
            "name",
            "description",
            "read_only",
            "destructive",
            "idempotent",
            "open_world",
            "timeout",
            "scopes",
            "task",
            "crate",
        ],
        |key, meta| {
            match key {
                "name" => set(&mut args.name, meta, lit_str(meta)?, cx),
                "description" => set(&mut args.description, meta, lit_str(meta)?, cx),
                "read_only" => set(&mut args.read_only, meta, flag(meta)?, cx),
                "destructive" => set(&mut args.destructive, meta, flag(meta)?, cx),
                "idempotent" => set(&mut args.idempotent, meta, flag(meta)?, cx),
                "open_world" => set(&mut args.open_world, meta, flag(meta)?, cx),
                "timeout" => {
                    let lit = lit_str(meta)?;
                    match parse_duration_ms(&lit.value()) {
                        Some(ms) => set(&mut args.timeout_ms, meta, ms, cx),
                        None => cx.spanned(
                            &lit,
                            "`timeout` takes a positive duration such as \"500ms\", \"30s\", \"2m\" or \"1h\"",
                        ),
                    }
                }
                "scopes" => {
                    if let Some(list) = scope_list(meta, cx)? {
                        set(&mut args.scopes, meta, list, cx);
                    }
                }
                "task" => {
                    if let Some(task) = task(meta, cx)? {
                        set(&mut args.task, meta, task, cx);
                    }
                }
                "crate" => set(&mut args.krate, meta, crate_path(meta)?, cx),
                _ => return Ok(false),
            }
            Ok(true)
        },
    );
    args
}

/// `task = "optional" | "required"`: reports any other value (`"forbidden"`, which is the
/// absent key, apart), at the value, and parsing goes on.
fn task(meta: &ParseNestedMeta<'_>, cx: &Ctxt) -> syn::Result<Option<Task>> {
    const USAGE: &str = "`task` takes \"optional\" (a client may run the call as a task) or \"required\" (it must); leave `task` out for a tool that never runs as a task";
    if !meta.input.peek(Token![=]) {
        cx.spanned(&meta.path, USAGE);
        skip_value(meta)?;
        return Ok(None);
    }
    let value: syn::Expr = meta.value()?.parse()?;
    let lit = match value {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(lit),
            attrs,
        }) if attrs.is_empty() => lit,
        other => {
            cx.spanned(other, USAGE);
            return Ok(None);
        }
    };
    let support = match lit.value().as_str() {
        "optional" => TaskSupport::Optional,
        "required" => TaskSupport::Required,
        "forbidden" => {
            cx.spanned(
                &lit,
                "`task = \"forbidden\"` is the default: leave `task` out (a tool without it never runs as a task)",
            );
            return Ok(None);
        }
        _ => {
            cx.spanned(&lit, USAGE);
            return Ok(None);
        }
    };
    Ok(Some(Task {
        support,
        lit: lit.span(),
    }))
}

/// `scopes = ["...", ...]`: reports a value that is not a bracketed list, and each item that is
/// not a string literal (keeping the others), and parsing goes on.
fn scope_list(meta: &ParseNestedMeta<'_>, cx: &Ctxt) -> syn::Result<Option<ScopeList>> {
    const USAGE: &str =
        "`scopes` takes a list of string literals: `scopes = [\"files:read\", \"files:write\"]`";
    if !meta.input.peek(Token![=]) {
        cx.spanned(&meta.path, USAGE);
        skip_value(meta)?;
        return Ok(None);
    }
    let value: syn::Expr = meta.value()?.parse()?;
    let syn::Expr::Array(array) = value else {
        cx.spanned(value, USAGE);
        return Ok(None);
    };
    let mut lits = Vec::new();
    for item in &array.elems {
        match item {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(lit),
                attrs,
            }) if attrs.is_empty() => lits.push(lit.clone()),
            other => cx.spanned(
                other,
                "a scope is a string literal (`\"files:read\"`): scopes are checked at compile time",
            ),
        }
    }
    Ok(Some(ScopeList {
        brackets: array.bracket_token.span.join(),
        written: array.elems.len(),
        lits,
    }))
}

fn parse_duration_ms(s: &str) -> Option<u64> {
    let s = s.trim();
    let split = s.find(|c: char| !c.is_ascii_digit())?;
    let (number, unit) = s.split_at(split);
    let n: u64 = number.parse().ok()?;
    let ms = match unit.trim() {
        "ms" => n,
        "s" => n.checked_mul(1_000)?,
        "m" | "min" => n.checked_mul(60_000)?,
        "h" => n.checked_mul(3_600_000)?,
        _ => return None,
    };
    (ms > 0).then_some(ms)
}

#[derive(Default)]
pub(crate) struct GroupArgs {
    pub(crate) name: Option<Spanned<LitStr>>,
    pub(crate) description: Option<Spanned<LitStr>>,
    pub(crate) instructions: Option<Spanned<LitStr>>,
    pub(crate) tools: Option<Spanned<Vec<Path>>>,
    pub(crate) dynamic: Option<Spanned<bool>>,
    pub(crate) turn_scoped: Option<Spanned<bool>>,
    pub(crate) skills: Option<Spanned<Vec<LitStr>>>,
    pub(crate) scopes: Option<Spanned<ScopeList>>,
    pub(crate) krate: Option<Spanned<Path>>,
}

pub(crate) fn parse_group_args(tokens: TokenStream, cx: &Ctxt) -> GroupArgs {
    let mut args = GroupArgs::default();
    parse_keys(
        tokens,
        cx,
        &[
            "name",
            "description",
            "instructions",
            "tools",
            "skills",
            "scopes",
            "dynamic",
            "turn_scoped",
            "crate",
        ],
        |key, meta| {
            match key {
                "dynamic" => set(&mut args.dynamic, meta, flag(meta)?, cx),
                "turn_scoped" => set(&mut args.turn_scoped, meta, flag(meta)?, cx),
                "name" => set(&mut args.name, meta, lit_str(meta)?, cx),
                "description" => set(&mut args.description, meta, lit_str(meta)?, cx),
                "instructions" => set(&mut args.instructions, meta, lit_str(meta)?, cx),
                "tools" => {
                    let content;
                    let value = meta.value()?;
                    syn::bracketed!(content in value);
                    let paths = Punctuated::<Path, Token![,]>::parse_terminated(&content)?;
                    set(&mut args.tools, meta, paths.into_iter().collect(), cx);
                }
                "skills" => {
                    let content;
                    let value = meta.value()?;
                    syn::bracketed!(content in value);
                    let paths = Punctuated::<LitStr, Token![,]>::parse_terminated(&content)?;
                    set(&mut args.skills, meta, paths.into_iter().collect(), cx);
                }
                "scopes" => {
                    if let Some(list) = scope_list(meta, cx)? {
                        set(&mut args.scopes, meta, list, cx);
                    }
                }
                "crate" => set(&mut args.krate, meta, crate_path(meta)?, cx),
                _ => return Ok(false),
            }
            Ok(true)
        },
    );
    args
}

#[derive(Default)]
pub(crate) struct ToolkitArgs {
    pub(crate) krate: Option<Spanned<Path>>,
}

pub(crate) fn parse_toolkit_args(tokens: TokenStream, cx: &Ctxt) -> ToolkitArgs {
    let mut args = ToolkitArgs::default();
    parse_keys(tokens, cx, &["crate"], |key, meta| {
        match key {
            "crate" => set(&mut args.krate, meta, crate_path(meta)?, cx),
            _ => return Ok(false),
        }
        Ok(true)
    });
    args
}

/// Whether `attr` is the `#[tool]` attribute a `#[tool_group]` impl consumes: `#[tool]`,
/// `#[toolgroup::tool]` (with or without a leading `::`), or `#[<path>::tool]` for the group's
/// `crate = <path>`. Another crate's `#[x::tool]` is left to its own macro.
pub(crate) fn is_tool_attr(attr: &Attribute, krate: Option<&Path>) -> bool {
    let path = attr.path();
    let idents: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
    let Some((last, prefix)) = idents.split_last() else {
        return false;
    };
    if last != "tool" || path.segments.iter().any(|s| !s.arguments.is_none()) {
        return false;
    }
    match prefix {
        // `::tool` would be a crate named `tool`.
        [] => path.leading_colon.is_none(),
        [one] if one == "toolgroup" => true,
        prefix => krate.is_some_and(|k| {
            k.segments
                .iter()
                .map(|s| s.ident.to_string())
                .eq(prefix.iter().cloned())
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::{TaskSupport, is_tool_attr, one_of, parse_duration_ms, parse_tool_args};
    use crate::ctxt::Ctxt;
    use syn::{Attribute, Path};

    fn tool_arg_errors(tokens: proc_macro2::TokenStream) -> Vec<String> {
        let cx = Ctxt::new();
        parse_tool_args(tokens, &cx);
        cx.check()
            .err()
            .map(|e| e.into_iter().map(|e| e.to_string()).collect())
            .unwrap_or_default()
    }

    #[test]
    fn unknown_keys_suggest_the_closest() {
        // A swap is one edit, as in every did-you-mean of the crates.
        assert_eq!(
            tool_arg_errors(quote::quote!(nmae = "x")),
            [
                "unknown argument `nmae` (did you mean `name`?); expected `name`, `description`, \
              `read_only`, `destructive`, `idempotent`, `open_world`, `timeout`, `scopes`, \
              `task` or `crate`"
            ]
        );
        assert_eq!(
            tool_arg_errors(quote::quote!(readonly)),
            [
                "unknown argument `readonly` (did you mean `read_only`?); expected `name`, \
              `description`, `read_only`, `destructive`, `idempotent`, `open_world`, `timeout`, \
              `scopes`, `task` or `crate`"
            ]
        );
        assert!(
            tool_arg_errors(quote::quote!(tsak = "optional"))[0]
                .starts_with("unknown argument `tsak` (did you mean `task`?)")
        );
        let far = tool_arg_errors(quote::quote!(zzz = 1));
        assert!(
            far[0].starts_with("unknown argument `zzz`; expected `name`"),
            "{far:?}"
        );
    }

    #[test]
    fn task_values() {
        const USAGE: &str = "`task` takes \"optional\" (a client may run the call as a task) or \
            \"required\" (it must); leave `task` out for a tool that never runs as a task";
        let support = |tokens| {
            let cx = Ctxt::new();
            let args = parse_tool_args(tokens, &cx);
            cx.check().ok().and(args.task).map(|t| t.value.support)
        };
        assert!(support(quote::quote!(task = "optional")) == Some(TaskSupport::Optional));
        assert!(support(quote::quote!(task = "required")) == Some(TaskSupport::Required));
        assert!(support(quote::quote!(name = "x")).is_none());
        for bad in [
            quote::quote!(task = "always"),
            quote::quote!(task = "Optional"),
            quote::quote!(task = optional),
            quote::quote!(task = true),
            quote::quote!(task),
            quote::quote!(task("optional")),
        ] {
            assert_eq!(tool_arg_errors(bad), [USAGE]);
        }
        assert_eq!(
            tool_arg_errors(quote::quote!(task = "forbidden")),
            [
                "`task = \"forbidden\"` is the default: leave `task` out (a tool without it never \
              runs as a task)"
            ]
        );
        assert_eq!(
            tool_arg_errors(quote::quote!(task = "optional", task = "required")),
            ["duplicate `task`: give each argument once"]
        );
    }

    #[test]
    fn lists_read_as_prose() {
        assert_eq!(one_of(&["crate"]), "`crate`");
        assert_eq!(one_of(&["a", "b"]), "`a` or `b`");
        assert_eq!(one_of(&["a", "b", "c"]), "`a`, `b` or `c`");
    }

    #[test]
    fn tool_attribute_spellings() {
        let krate: Path = syn::parse_quote!(reexport::tg);
        let is = |attr: Attribute, krate: Option<&Path>| is_tool_attr(&attr, krate);
        assert!(is(syn::parse_quote!(#[tool]), None));
        assert!(is(syn::parse_quote!(#[tool(name = "x")]), None));
        assert!(is(syn::parse_quote!(#[toolgroup::tool]), None));
        assert!(is(syn::parse_quote!(#[::toolgroup::tool]), None));
        assert!(is(syn::parse_quote!(#[reexport::tg::tool]), Some(&krate)));
        assert!(!is(syn::parse_quote!(#[reexport::tg::tool]), None));
        assert!(!is(syn::parse_quote!(#[other::tool]), Some(&krate)));
        assert!(!is(syn::parse_quote!(#[::tool]), None));
        assert!(!is(syn::parse_quote!(#[tools]), None));
        assert!(!is(syn::parse_quote!(#[doc = "tool"]), None));
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration_ms("500ms"), Some(500));
        assert_eq!(parse_duration_ms("30s"), Some(30_000));
        assert_eq!(parse_duration_ms("2m"), Some(120_000));
        assert_eq!(parse_duration_ms("0s"), None);
        assert_eq!(parse_duration_ms("s"), None);
        assert_eq!(parse_duration_ms("10 parsecs"), None);
    }
}
