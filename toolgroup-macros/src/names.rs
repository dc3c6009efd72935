//! Name rules every provider accepts: tools `^[A-Za-z_][A-Za-z0-9_-]{0,63}$` (the rule of
//! `toolgroup_skills::shared`, which the runtime checks too), groups
//! `^[A-Za-z_][A-Za-z0-9_]{0,63}$` (they become `reset_tools` property names).

use syn::Ident;
use toolgroup_skills::shared::{TOOL_NAME_RULE, is_valid_tool_name};

use crate::tokens::unraw;

// The reserved names, as the runtime defines them (`toolgroup-core`'s `check.rs`, which
// words its const-time messages like these). A proc-macro crate cannot depend on the
// runtime, hence the copy; checking here puts the error on the user's token.
pub(crate) const RESET_TOOLS: &str = "reset_tools";
pub(crate) const BASIC: &str = "basic";

/// The tool-name rule without `-`: a group name is also a property name of `reset_tools`'
/// arguments, and Vertex AI accepts only `[A-Za-z0-9_]` there.
fn valid_group_name(name: &str) -> bool {
    is_valid_tool_name(name) && !name.contains('-')
}

/// `None` if `name` is a valid tool name, else why not.
pub(crate) fn check_tool_name(name: &str) -> Option<String> {
    if name == RESET_TOOLS {
        return Some(
            "`reset_tools` is the name of the generated meta tool; choose another name with `#[tool(name = \"...\")]`".to_owned(),
        );
    }
    (!is_valid_tool_name(name)).then(|| format!("invalid tool name `{name}`: {TOOL_NAME_RULE}"))
}

/// `None` if `name` is a valid group name, else why not.
pub(crate) fn check_group_name(name: &str) -> Option<String> {
    if name == BASIC {
        return Some(
            "a group may not be named `basic`: that name is reserved for the always-active tools; mark the group's toolkit field `#[basic]` instead".to_owned(),
        );
    }
    (!valid_group_name(name)).then(|| {
        format!(
            "invalid group name `{name}`: a group name is 1 to 64 ASCII letters, digits or `_`, starting with a letter or `_` (it becomes a `reset_tools` argument)"
        )
    })
}

/// `web_search` -> `WebSearch` (and `r#type` -> `Type`).
pub(crate) fn pascal(ident: &Ident) -> String {
    pascal_str(&unraw(ident))
}

/// [`pascal`] of a name given as text (a skill's `pdf-tools` is `PdfTools`).
pub(crate) fn pascal_str(name: &str) -> String {
    let mut out = String::new();
    let mut upper = true;
    for c in name.chars() {
        if c == '_' || c == '-' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, 'T');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tool_names_follow_the_shared_table() {
        for &(name, ok) in toolgroup_skills::shared::TOOL_NAME_CASES {
            assert_eq!(check_tool_name(name).is_none(), ok, "{name:?}");
        }
        assert!(check_tool_name("reset_tools").is_some());
        assert_eq!(
            check_tool_name("1st").unwrap(),
            "invalid tool name `1st`: a tool name is 1 to 64 ASCII letters, digits, `_` or `-`, \
             starting with a letter or `_` (the rule every provider accepts)"
        );
    }

    #[test]
    fn group_names_are_tool_names_without_dashes() {
        for &(name, ok) in toolgroup_skills::shared::TOOL_NAME_CASES {
            let expected = ok && !name.contains('-');
            assert_eq!(check_group_name(name).is_none(), expected, "{name:?}");
        }
        assert!(check_group_name("web_search").is_none());
        assert!(check_group_name("a-b").is_some());
        assert!(check_group_name("basic").is_some());
    }

    #[test]
    fn pascal_case() {
        assert_eq!(pascal(&syn::parse_quote!(web_search)), "WebSearch");
        assert_eq!(pascal(&syn::parse_quote!(r#type)), "Type");
        assert_eq!(pascal(&syn::parse_quote!(x)), "X");
    }
}
