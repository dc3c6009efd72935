//! The rules of a group's skills, reported on each path literal.

use super::model::Skill;
use crate::ctxt::Ctxt;
use crate::names;

/// Every problem of every skill, and the names two skills of the group share.
pub(crate) fn skills(cx: &Ctxt, skills: &[Skill]) {
    let mut seen: Vec<(&str, String)> = Vec::new();
    for skill in skills {
        match &skill.read {
            Err(problems) => {
                for p in problems {
                    cx.spanned(&skill.lit, format!("skill `{}`: {p}", skill.lit.value()));
                }
            }
            Ok(loaded) => {
                let name = loaded.name();
                let variant = names::pascal_str(name);
                if let Some((other, _)) = seen.iter().find(|(n, v)| *n == name || *v == variant) {
                    cx.spanned(
                        &skill.lit,
                        format!(
                            "skill `{}`: the group already has a skill named `{other}`: skill names must be unique",
                            skill.lit.value()
                        ),
                    );
                } else {
                    seen.push((name, variant));
                }
            }
        }
    }
}
