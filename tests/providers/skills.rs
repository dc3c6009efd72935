//! The skill tools (`Skill`, `read_skill_file`) as each provider receives them: strict where
//! the provider has a strict mode, valid JSON Schema 2020-12, within each provider's rules,
//! in the list mode (the visible skills) and the mask mode (every skill).

use crate::support::*;

/// Fetch a page.
#[tool(read_only)]
fn page_fetch(
    /// The page's URL.
    url: String,
) -> String {
    url
}

/// Write a note.
#[tool]
fn note_write(
    /// The note.
    text: String,
) -> String {
    text
}

#[tool_group(
    name = "docs",
    description = "Working with documents.",
    tools = [page_fetch],
    skills = ["tests/skills/pdf-tools"]
)]
struct Docs;

#[tool_group(
    name = "writing",
    description = "Writing text.",
    tools = [note_write],
    skills = ["tests/skills/release-notes"]
)]
struct Writing;

#[toolkit]
struct SkillKit {
    #[basic]
    writing: Writing,
    docs: Docs,
}

fn skill_kit() -> Toolkit<SkillKit> {
    Toolkit::new(SkillKit {
        writing: Writing,
        docs: Docs,
    })
}

#[test]
fn the_skill_tools_are_strict_wherever_a_provider_has_strict_mode() {
    let kit = skill_kit();
    for provider in [
        Provider::OpenAiChat,
        Provider::OpenAiResponses,
        Provider::AnthropicStrict,
    ] {
        let table = strictness_table(&Rendered::new(&kit, provider));
        for tool in ["Skill", "read_skill_file"] {
            let row = table.iter().find(|(n, _)| *n == tool).expect(tool);
            assert_eq!(row.1, "strict", "{provider} {tool}");
        }
    }
}

#[test]
fn the_skill_tools_keep_every_providers_rules_in_both_modes() {
    let kit = skill_kit();
    let mut docs_active = kit.session();
    docs_active.activate(SkillKitGroup::Docs);
    for provider in Provider::ALL {
        let rendered = Rendered::new(&kit, *provider);
        for (mode, listing) in [
            ("mask", rendered.all_tools_value()),
            ("list", rendered.tools_value(&kit.session())),
            ("list, docs active", rendered.tools_value(&docs_active)),
        ] {
            let names = names_in(*provider, &listing);
            assert_eq!(
                names[1], "Skill",
                "{provider} {mode}: listed after reset_tools"
            );
            for found in schemas_of(*provider, &listing) {
                let problems = meta::errors(&found.schema);
                assert!(
                    problems.is_empty(),
                    "{provider} {mode} {}: {problems:?}",
                    found.tool
                );
                if found.strict {
                    let rules = match provider {
                        Provider::AnthropicStrict => Rules::Anthropic,
                        _ => Rules::OpenAi,
                    };
                    let v = strict_violations(rules, &found.schema);
                    assert!(v.is_empty(), "{provider} {mode} {}: {v:?}", found.tool);
                }
                if matches!(provider, Provider::GeminiLegacy) {
                    let mut p = Vec::new();
                    legacy_violations(&found.schema, "", &mut p);
                    assert!(p.is_empty(), "{provider} {}: {p:?}", found.tool);
                }
            }
            // The list mode names the visible skills only; the mask mode every skill.
            let skill = schemas_of(*provider, &listing)
                .into_iter()
                .find(|f| f.tool == "Skill")
                .unwrap();
            let text = skill.schema.to_string();
            assert!(text.contains("release-notes"), "{provider} {mode}");
            assert_eq!(
                text.contains("pdf-tools"),
                mode != "list",
                "{provider} {mode}: {text}"
            );
        }
    }
}

#[test]
fn in_the_deferred_mode_the_skill_tools_stay_eager() {
    use toolgroup::provider::deferred::{Deferred, DeferredOptions};
    let kit = skill_kit();
    let deferred =
        Deferred::new(&kit, Provider::Anthropic, DeferredOptions::default()).expect("deferred");
    let state = deferred.state();
    let tools = deferred.tools_value(&state);
    let tools = tools.as_array().unwrap();
    let deferred_of = |name: &str| {
        tools
            .iter()
            .find(|t| t["name"] == name)
            .unwrap_or_else(|| panic!("{name} is in the array"))
            .get("defer_loading")
            .cloned()
    };
    for eager in ["reset_tools", "Skill", "read_skill_file", "note_write"] {
        assert_eq!(deferred_of(eager), None, "{eager}");
    }
    assert_eq!(deferred_of("page_fetch"), Some(json!(true)));
}
