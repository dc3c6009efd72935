//! `scopes = [...]` of `#[tool]` and `#[tool_group]`: the OAuth scopes a principal must hold
//! to call a tool or use a group. [`crate::attr`] parses the list into a [`ScopeList`];
//! [`check`] holds it to the scope-token rule of `toolgroup_skills::shared` (the one the
//! runtime checks too), so a bad scope is an error on its literal.

use proc_macro2::Span;
use syn::LitStr;
use toolgroup_skills::shared::{SCOPE_TOKEN_RULE, ScopeTokenError, check_scope_token};

use crate::ctxt::Ctxt;

/// A `scopes = [...]` list as written.
pub(crate) struct ScopeList {
    /// The brackets, blamed for an empty list.
    pub(crate) brackets: Span,
    /// How many items the list has, string literals or not (the others are reported while
    /// parsing).
    pub(crate) written: usize,
    /// The string literals, in order.
    pub(crate) lits: Vec<LitStr>,
}

/// What declares the scopes, for the wording of an empty list's error.
#[derive(Clone, Copy)]
pub(crate) enum Declarer {
    Tool,
    Group,
}

/// Every problem of a list: empty, an empty or invalid scope, a scope listed twice.
pub(crate) fn check(cx: &Ctxt, list: &ScopeList, declarer: Declarer) {
    if list.written == 0 {
        cx.at(
            list.brackets,
            match declarer {
                Declarer::Tool => {
                    "`scopes = []` lists no scope: remove `scopes` (a tool without it requires only its group's scopes)"
                }
                Declarer::Group => {
                    "`scopes = []` lists no scope: remove `scopes` (a group without it requires no scope)"
                }
            },
        );
    }
    let mut seen: Vec<String> = Vec::new();
    for lit in &list.lits {
        let scope = lit.value();
        if let Some(problem) = check_scope(&scope) {
            cx.spanned(lit, problem);
        } else if seen.contains(&scope) {
            cx.spanned(
                lit,
                format!("scope `{scope}` is listed twice: remove this one"),
            );
        } else {
            seen.push(scope);
        }
    }
}

/// `None` if `scope` follows the scope-token rule, else why not.
pub(crate) fn check_scope(scope: &str) -> Option<String> {
    match check_scope_token(scope) {
        Ok(()) => None,
        Err(ScopeTokenError::Empty) => Some(format!(
            "a scope cannot be empty (`\"\"`): {SCOPE_TOKEN_RULE}"
        )),
        Err(ScopeTokenError::Invalid { at }) => {
            // Every byte before `at` is ASCII, so `at` starts a character.
            let c = scope[at..].chars().next().unwrap_or_default();
            Some(format!(
                "invalid scope `{}`: its character `{c:?}` at byte {at} is not allowed; {SCOPE_TOKEN_RULE}",
                scope.escape_debug()
            ))
        }
        Err(_) => Some(format!(
            "invalid scope `{}`: {SCOPE_TOKEN_RULE}",
            scope.escape_debug()
        )),
    }
}

/// The scopes' values, for the generated code and docs.
pub(crate) fn values(list: Option<&ScopeList>) -> Vec<String> {
    list.map(|l| l.lits.iter().map(LitStr::value).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::check_scope;

    #[test]
    fn scopes_follow_the_shared_table() {
        for &(scope, ok) in toolgroup_skills::shared::SCOPE_TOKEN_CASES {
            assert_eq!(check_scope(scope).is_none(), ok, "{scope:?}");
        }
        let rule = toolgroup_skills::shared::SCOPE_TOKEN_RULE;
        assert_eq!(
            check_scope("files write").unwrap(),
            format!(
                "invalid scope `files write`: its character `' '` at byte 5 is not allowed; {rule}"
            )
        );
        assert_eq!(
            check_scope("tab\there").unwrap(),
            format!(
                "invalid scope `tab\\there`: its character `'\\t'` at byte 3 is not allowed; {rule}"
            )
        );
        assert_eq!(
            check_scope("caf\u{e9}").unwrap(),
            format!(
                "invalid scope `caf\u{e9}`: its character `'\u{e9}'` at byte 3 is not allowed; {rule}"
            )
        );
        assert_eq!(
            check_scope("").unwrap(),
            format!("a scope cannot be empty (`\"\"`): {rule}")
        );
    }
}
