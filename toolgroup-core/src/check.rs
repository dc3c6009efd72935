//! Compile-time checks across groups that were expanded separately.
//!
//! A proc macro sees only its own item, so the toolkit macro emits
//! `const _: () = check_toolkit(&[...]);` over the groups' associated constants. A panic in
//! these `const fn`s is a compile error whose message names the clash.

use crate::group::ToolGroup;
use crate::meta::{GroupInfo, RESET_TOOLS};
use crate::skill::{READ_SKILL_FILE, SKILL_TOOL};

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

/// "No earlier name": an entry of [`toolkit_index`] for the first name of its kind.
const NONE: usize = usize::MAX;

/// The length of a toolkit's [`toolkit_index`]: twice its entries, so the index's hash table
/// (of the same length) is at most half full.
pub const fn toolkit_index_len(groups: &[GroupInfo]) -> usize {
    let mut n = groups.len() + 1;
    let mut g = 0;
    while g < groups.len() {
        n += entries(&groups[g]);
        g += 1;
    }
    2 * n
}

/// How many names a group brings to the index: its own, its skills' and its tools'.
const fn entries(group: &GroupInfo) -> usize {
    1 + group.skills.len() + group.tools.len()
}

/// The `k`-th name of a group (its own, then its skills', then its tools'), with its kind
/// (0, 1 or 2): names of different kinds never clash.
const fn entry(group: &GroupInfo, k: usize) -> (u8, &'static str) {
    if k == 0 {
        (0, group.name)
    } else if k <= group.skills.len() {
        (1, group.skills[k - 1].name)
    } else {
        (2, group.tools[k - 1 - group.skills.len()].name)
    }
}

/// FNV-1a of a name and its kind.
const fn hash(kind: u8, name: &str) -> u64 {
    let bytes = name.as_bytes();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ kind as u64;
    h = h.wrapping_mul(0x0100_0000_01b3);
    let mut i = 0;
    while i < bytes.len() {
        h ^= bytes[i] as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
        i += 1;
    }
    h
}

/// Where each name of a toolkit was first used, computed once for all of its field checks:
/// one pass over the names with a hash table, so a toolkit's checks cost time linear in its
/// names rather than comparing every tool name with every earlier one.
///
/// `index[g]` (for `g` up to `groups.len()`) is where group `g`'s entries start; its entries
/// are its own name, its skills' and its tools', each the group of the first earlier name of
/// the same kind (the group itself for an earlier tool or skill of its own), or `NONE`.
/// `LEN` is [`toolkit_index_len`].
pub const fn toolkit_index<const LEN: usize>(groups: &[GroupInfo]) -> [usize; LEN] {
    assert!(
        LEN >= toolkit_index_len(groups),
        "toolkit_index: LEN is toolkit_index_len(groups)"
    );
    let mut index = [NONE; LEN];
    // Open addressing: a slot holds a name's group (plus one; zero is empty) and its entry.
    let mut slot_group = [0usize; LEN];
    let mut slot_entry = [0usize; LEN];
    let mut start = groups.len() + 1;
    let mut g = 0;
    while g < groups.len() {
        index[g] = start;
        let mut k = 0;
        while k < entries(&groups[g]) {
            let (kind, name) = entry(&groups[g], k);
            let mut slot = (hash(kind, name) % LEN as u64) as usize;
            while slot_group[slot] != 0 {
                let h = slot_group[slot] - 1;
                let (other_kind, other) = entry(&groups[h], slot_entry[slot]);
                if other_kind == kind && str_eq(other, name) {
                    index[start + k] = h;
                    break;
                }
                slot = (slot + 1) % LEN;
            }
            if slot_group[slot] == 0 {
                slot_group[slot] = g + 1;
                slot_entry[slot] = k;
            }
            k += 1;
        }
        start += entries(&groups[g]);
        g += 1;
    }
    index[groups.len()] = start;
    index
}

/// Checks `group`, the group of field `g` of a toolkit, against the ones before it:
/// `fields[i]` is the toolkit field holding `groups[i]` (so `group` is `groups[g]`, named
/// again by the field's type so that a type that is no group is reported at the field), and
/// `index` is the toolkit's [`toolkit_index`]. The toolkit macro emits one such check per
/// field, spanned on that field, so an error points at the field that introduces the clash.
///
/// Fails (at compile time, when used in a `const`) if a switchable group's field is not named
/// after the group, if a group is named `basic`, if the group's name was used before, or if
/// one of its tools is named `reset_tools` or like a tool seen before.
pub const fn check_toolkit(
    fields: &[&str],
    groups: &[GroupInfo],
    index: &[usize],
    g: usize,
    group: GroupInfo,
) {
    let group = &group;
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
    if group.pinned && group.turn_scoped {
        Msg::new()
            .push("the group `")
            .push(group.name)
            .push("` is `turn_scoped` (switched off when a turn ends) and its field `")
            .push(fields[g])
            .push("` is `#[pinned]` (never switched off): remove one of them")
            .fail();
    }
    if group.basic && group.turn_scoped {
        Msg::new()
            .push("the group `")
            .push(group.name)
            .push("` is `turn_scoped`, but its field `")
            .push(fields[g])
            .push("` is `#[basic]` (always active): make the field switchable or the group not turn-scoped")
            .fail();
    }
    let start = index[g];
    let h = index[start];
    if h != NONE {
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
    check_skills(fields, groups, index, g);
    let tools = start + 1 + group.skills.len();
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
        if str_eq(name, SKILL_TOOL) || str_eq(name, READ_SKILL_FILE) {
            Msg::new()
                .push("group `")
                .push(group.name)
                .push("`: `")
                .push(name)
                .push("` is the name of a builtin tool that loads skills; choose another name with `#[tool(name = \"...\")]`")
                .fail();
        }
        // The first tool of this name, in an earlier group or earlier in this one.
        let h = index[tools + t];
        if h != NONE {
            Msg::new()
                .push("the tool name `")
                .push(name)
                .push("` is used twice (in group `")
                .push(groups[h].name)
                .push("` and in group `")
                .push(group.name)
                .push("`): tool names must be unique across the toolkit; rename one with `#[tool(name = \"...\")]`")
                .fail();
        }
        t += 1;
    }
}

/// The skills of group `g`: no name another skill of the toolkit has.
const fn check_skills(fields: &[&str], groups: &[GroupInfo], index: &[usize], g: usize) {
    let group = &groups[g];
    let skills = index[g] + 1;
    let mut s = 0;
    while s < group.skills.len() {
        let name = group.skills[s].name;
        // The first skill of this name, in an earlier group or earlier in this one.
        let h = index[skills + s];
        if h != NONE {
            Msg::new()
                .push("the skill name `")
                .push(name)
                .push("` is used twice (in group `")
                .push(groups[h].name)
                .push("`, field `")
                .push(fields[h])
                .push("`, and in group `")
                .push(group.name)
                .push("`): skill names must be unique across the toolkit, as the `Skill` tool names them")
                .fail();
        }
        s += 1;
    }
}

/// Each `allowed-tools` entry in plain tool-name form of the skills of group `g` names a tool
/// of that group or of a basic group (host patterns like `Bash(git:*)` are left alone; so is
/// a group whose tools are found at run time).
pub const fn check_allowed_tools(fields: &[&str], groups: &[GroupInfo], g: usize) {
    let group = &groups[g];
    if group.tools.is_empty() {
        return;
    }
    let mut s = 0;
    while s < group.skills.len() {
        let skill = group.skills[s];
        let mut a = 0;
        while a < skill.allowed_tools.len() {
            let entry = skill.allowed_tools[a];
            if is_plain_tool_name(entry) && !names_tool(groups, g, entry) {
                let msg = Msg::new()
                    .push("skill `")
                    .push(skill.name)
                    .push("` (group `")
                    .push(group.name)
                    .push("`, field `")
                    .push(fields[g])
                    .push("`): `allowed-tools` names `")
                    .push(entry)
                    .push("`, which is no tool of its group or of a basic group");
                match closest_tool(groups, g, entry) {
                    Some(close) => msg.push(" (did you mean `").push(close).push("`?)").fail(),
                    None => msg.fail(),
                }
            }
            a += 1;
        }
        s += 1;
    }
}

/// The tool of group `g` or of a basic group closest to `name`, if it is a plausible typo
/// (the runtime's did-you-mean rule, `toolgroup_skills::shared::typo_distance`).
const fn closest_tool(groups: &[GroupInfo], g: usize, name: &str) -> Option<&'static str> {
    let mut best: Option<(usize, &'static str)> = None;
    let mut h = 0;
    while h < groups.len() {
        if h == g || groups[h].basic {
            let mut t = 0;
            while t < groups[h].tools.len() {
                let candidate = groups[h].tools[t].name;
                if let Some(d) = toolgroup_skills::shared::typo_distance(name, candidate) {
                    let closer = match best {
                        Some((b, _)) => d < b,
                        None => true,
                    };
                    if closer {
                        best = Some((d, candidate));
                    }
                }
                t += 1;
            }
        }
        h += 1;
    }
    match best {
        Some((_, candidate)) => Some(candidate),
        None => None,
    }
}

const fn is_plain_tool_name(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if !(b[i].is_ascii_alphanumeric() || matches!(b[i], b'_' | b'-' | b'.')) {
            return false;
        }
        i += 1;
    }
    !b.is_empty()
}

const fn names_tool(groups: &[GroupInfo], g: usize, name: &str) -> bool {
    let mut h = 0;
    while h < groups.len() {
        if h == g || groups[h].basic {
            let mut t = 0;
            while t < groups[h].tools.len() {
                if str_eq(groups[h].tools[t].name, name) {
                    return true;
                }
                t += 1;
            }
        }
        h += 1;
    }
    false
}

/// The length of [`check_group`]'s index for group `G`: [`toolkit_index_len`] of the group
/// alone.
pub const fn group_index_len<G: ToolGroup>() -> usize {
    toolkit_index_len(&[GroupInfo::of::<G>(false, false)])
}

/// Checks group `G`'s tools for duplicate names (groups listing free functions by path).
/// Reserved names are checked once, by [`check_toolkit`]. The group is indexed as a toolkit
/// of one group, so the check costs time linear in its tools however alike their names are;
/// a group of hundreds of tools named with one prefix stays within the compiler's budget for
/// a constant. `LEN` is [`group_index_len`].
pub const fn check_group<G: ToolGroup, const LEN: usize>() {
    let groups = [GroupInfo::of::<G>(false, false)];
    let group = &groups[0];
    let index = toolkit_index::<LEN>(&groups);
    let tools = index[0] + 1 + group.skills.len();
    let mut t = 0;
    while t < group.tools.len() {
        if index[tools + t] != NONE {
            Msg::new()
                .push("group `")
                .push(group.name)
                .push("` has two tools named `")
                .push(group.tools[t].name)
                .push("`: rename one with `#[tool(name = \"...\")]`")
                .fail();
        }
        t += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::closest_tool;
    use crate::meta::{GroupInfo, TaskSupport, ToolAnnotations, ToolInfo, ToolSchemas};

    fn no_schemas() -> &'static ToolSchemas {
        unreachable!("the checks never build schemas")
    }

    const fn tool(name: &'static str) -> ToolInfo {
        ToolInfo {
            name,
            description: "",
            annotations: ToolAnnotations::NONE,
            timeout: None,
            scopes: &[],
            task: TaskSupport::Forbidden,
            schemas: no_schemas,
        }
    }

    static NAME: ToolInfo = tool("name");
    static SEARCH: ToolInfo = tool("search");
    static HIDDEN: ToolInfo = tool("hidden");
    static BASE: ToolInfo = tool("base_tool");
    static WEB_TOOLS: [&ToolInfo; 2] = [&NAME, &SEARCH];
    static OTHER_TOOLS: [&ToolInfo; 1] = [&HIDDEN];
    static BASIC_TOOLS: [&ToolInfo; 1] = [&BASE];

    fn group(name: &'static str, basic: bool, tools: &'static [&'static ToolInfo]) -> GroupInfo {
        GroupInfo {
            name,
            description: "",
            instructions: None,
            tools,
            basic,
            skills: &[],
            scopes: &[],
            pinned: false,
            turn_scoped: false,
        }
    }

    #[test]
    fn allowed_tools_suggest_by_the_shared_rule() {
        let groups = [
            group("web", false, &WEB_TOOLS),
            group("other", false, &OTHER_TOOLS),
            group("always", true, &BASIC_TOOLS),
        ];
        // A swap is one edit, as in every did-you-mean of the crates.
        assert_eq!(closest_tool(&groups, 0, "nmae"), Some("name"));
        assert_eq!(closest_tool(&groups, 0, "serch"), Some("search"));
        assert_eq!(closest_tool(&groups, 0, "SEARCH"), Some("search"));
        assert_eq!(closest_tool(&groups, 0, "base_tol"), Some("base_tool"));
        // Only the group's own tools and the basic ones are candidates.
        assert_eq!(closest_tool(&groups, 0, "hiden"), None);
        assert_eq!(closest_tool(&groups, 0, "xyz"), None);
        assert_eq!(closest_tool(&groups, 0, &"a".repeat(200)), None);
    }
}
