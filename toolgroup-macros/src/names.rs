//! Name rules every provider accepts: tools `^[A-Za-z_][A-Za-z0-9_-]{0,63}$`,
//! groups `^[A-Za-z_][A-Za-z0-9_]{0,63}$` (they become `reset_tools` property names).

use syn::Ident;

use crate::tokens::unraw;

// The reserved names, as the runtime defines them (`toolgroup-core`'s `check.rs`, which
// words its const-time messages like these). A proc-macro crate cannot depend on the
// runtime, hence the copy; checking here puts the error on the user's token.
pub(crate) const RESET_TOOLS: &str = "reset_tools";
pub(crate) const BASIC: &str = "basic";

fn valid(name: &str, extra: &[u8]) -> bool {
    let bytes = name.as_bytes();
    !bytes.is_empty()
        && bytes.len() <= 64
        && (bytes[0].is_ascii_alphabetic() || bytes[0] == b'_')
        && bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || *b == b'_' || extra.contains(b))
}

/// `None` if `name` is a valid tool name, else why not.
pub(crate) fn check_tool_name(name: &str) -> Option<String> {
    if name == RESET_TOOLS {
        return Some(
            "`reset_tools` is the name of the generated meta tool; choose another name with `#[tool(name = \"...\")]`".to_owned(),
        );
    }
    (!valid(name, b"-")).then(|| {
        format!(
            "invalid tool name `{name}`: a tool name is 1 to 64 ASCII letters, digits, `_` or `-`, starting with a letter or `_` (the rule every provider accepts)"
        )
    })
}

/// `None` if `name` is a valid group name, else why not.
pub(crate) fn check_group_name(name: &str) -> Option<String> {
    if name == BASIC {
        return Some(
            "a group may not be named `basic`: that name is reserved for the always-active tools; mark the group's toolkit field `#[basic]` instead".to_owned(),
        );
    }
    (!valid(name, b"")).then(|| {
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
    fn tool_names() {
        assert!(check_tool_name("web_search").is_none());
        assert!(check_tool_name("a-b").is_none());
        assert!(check_tool_name("_x").is_none());
        assert!(check_tool_name(&"a".repeat(64)).is_none());
        assert!(check_tool_name(&"a".repeat(65)).is_some());
        assert!(check_tool_name("9a").is_some());
        assert!(check_tool_name("a.b").is_some());
        assert!(check_tool_name("").is_some());
        assert!(check_tool_name("reset_tools").is_some());
    }

    #[test]
    fn group_names() {
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
