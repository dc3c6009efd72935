//! Compile-time checks across groups that were expanded separately.
//!
//! A proc macro sees only its own item, so the toolkit macro emits
//! `const _: () = check_toolkit(&[...]);` over the groups' associated constants. A panic in
//! these `const fn`s is a compile error whose message names the clash.

use crate::meta::RESET_TOOLS;
use crate::meta::{GroupInfo, ToolInfo};

const MSG_CAP: usize = 480;

/// A fixed-capacity message buffer usable in `const fn`.
struct Msg {
    buf: [u8; MSG_CAP],
    len: usize,
}

impl Msg {
    const fn new() -> Self {
        Msg {
            buf: [0; MSG_CAP],
            len: 0,
        }
    }

    const fn push(mut self, s: &str) -> Self {
        let bytes = s.as_bytes();
        let mut i = 0;
        while i < bytes.len() && self.len < MSG_CAP {
            self.buf[self.len] = bytes[i];
            self.len += 1;
            i += 1;
        }
        self
    }

    const fn fail(&self) -> ! {
        let (head, _) = self.buf.split_at(self.len);
        match core::str::from_utf8(head) {
            Ok(s) => panic!("{}", s),
            Err(_) => panic!("invalid toolkit"),
        }
    }
}

/// Byte equality of two strings, in `const`.
pub(crate) const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The name of the always-active group; no group may use it.
pub(crate) const BASIC: &str = "basic";

/// Why no tool may be named [`RESET_TOOLS`] (the same words as the macros').
const RESERVED_TOOL: &str = "`reset_tools` is the name of the generated meta tool; choose another name with `#[tool(name = \"...\")]`";

/// Why no group may be named [`BASIC`] (the same words as the macros').
const RESERVED_GROUP: &str = "a group may not be named `basic`: that name is reserved for the always-active tools; mark the group's toolkit field `#[basic]` instead";

/// Checks the last group of `groups` against the ones before it: `fields[i]` is the toolkit
/// field holding `groups[i]`. The toolkit macro emits one such check per field, spanned on
/// that field, so an error points at the field that introduces the clash.
///
/// Fails (at compile time, when used in a `const`) if a switchable group's field is not named
/// after the group, if a group is named `basic`, if the group's name was used before, or if
/// one of its tools is named `reset_tools` or like a tool seen before.
pub const fn check_toolkit(fields: &[&str], groups: &[GroupInfo]) {
    let g = groups.len() - 1;
    let group = &groups[g];
    if !group.basic && !str_eq(fields[g], group.name) {
        Msg::new()
            .push("toolkit field `")
            .push(fields[g])
            .push("` holds the group `")
            .push(group.name)
            .push("`: name the field `")
            .push(group.name)
            .push("` (a switchable group's field is its `reset_tools` argument)")
            .fail();
    }
    if str_eq(group.name, BASIC) {
        Msg::new().push(RESERVED_GROUP).fail();
    }
    let mut h = 0;
    while h < g {
        if str_eq(groups[h].name, group.name) {
            Msg::new()
                .push("two groups are named `")
                .push(group.name)
                .push("` (fields `")
                .push(fields[h])
                .push("` and `")
                .push(fields[g])
                .push("`): group names must be unique")
                .fail();
        }
        h += 1;
    }
    let mut t = 0;
    while t < group.tools.len() {
        let name = group.tools[t].name;
        if str_eq(name, RESET_TOOLS) {
            Msg::new()
                .push("group `")
                .push(group.name)
                .push("`: ")
                .push(RESERVED_TOOL)
                .fail();
        }
        // Every earlier tool, in earlier groups and earlier in this group.
        let mut h = 0;
        while h <= g {
            let other = &groups[h];
            let end = if h == g { t } else { other.tools.len() };
            let mut u = 0;
            while u < end {
                if str_eq(other.tools[u].name, name) {
                    Msg::new()
                        .push("the tool name `")
                        .push(name)
                        .push("` is used twice (in group `")
                        .push(other.name)
                        .push("` and in group `")
                        .push(group.name)
                        .push("`): tool names must be unique across the toolkit; rename one with `#[tool(name = \"...\")]`")
                        .fail();
                }
                u += 1;
            }
            h += 1;
        }
        t += 1;
    }
}

/// Checks one group's tools for duplicate names (groups listing free functions by path).
/// Reserved names are checked once, by [`check_toolkit`].
pub const fn check_group(group: &str, tools: &[&ToolInfo]) {
    let mut t = 0;
    while t < tools.len() {
        let mut u = 0;
        while u < t {
            if str_eq(tools[u].name, tools[t].name) {
                Msg::new()
                    .push("group `")
                    .push(group)
                    .push("` has two tools named `")
                    .push(tools[t].name)
                    .push("`: rename one with `#[tool(name = \"...\")]`")
                    .fail();
            }
            u += 1;
        }
        t += 1;
    }
}
