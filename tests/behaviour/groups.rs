//! Groups, the typed registry, sessions and `reset_tools`.

use serde_json::{Value, json};
use toolgroup::prelude::*;
use toolgroup::{ToolGroup, meta::RESET_TOOLS_DESCRIPTION};

use crate::common::*;

#[test]
fn group_metadata_as_constants() {
    assert_eq!(WebSearch::NAME, "web_search");
    assert_eq!(WebSearch::DESCRIPTION, "Searching the web.");
    assert_eq!(
        WebSearch::INSTRUCTIONS,
        Some("Cite the URL of every result you use.")
    );
    assert_eq!(Database::INSTRUCTIONS, None);
    let tools: Vec<_> = Database::TOOL_INFOS.iter().map(|t| t.name).collect();
    assert_eq!(tools, ["db_insert", "db_count"]);
    assert_eq!(Database::default().helper(), 7);
}

#[test]
fn group_enum() {
    assert_eq!(
        AgentGroup::ALL,
        [
            AgentGroup::WebSearch,
            AgentGroup::Scraping,
            AgentGroup::Database
        ]
    );
    assert_eq!(AgentGroup::Scraping.name(), "scraping");
    assert_eq!(AgentGroup::Scraping.description(), "Fetching pages.");
    assert_eq!(
        AgentGroup::Scraping.instructions(),
        Some("Fetch only pages found by a search.")
    );
    assert_eq!(AgentGroup::Database.tools().len(), 2);
    assert_eq!("database".parse::<AgentGroup>(), Ok(AgentGroup::Database));
    assert_eq!(AgentGroup::WebSearch.to_string(), "web_search");
    let err = "web_serch".parse::<AgentGroup>().unwrap_err();
    assert_eq!(
        err.to_string(),
        "unknown group `web_serch` (did you mean `web_search`?). The groups are `web_search`, `scraping`, `database`"
    );
}

#[test]
fn reset_tools_schema_is_exact() {
    let kit = toolkit();
    let reset = kit.reset_definition().unwrap();
    assert_eq!(reset.name, "reset_tools");
    assert_eq!(reset.description, RESET_TOOLS_DESCRIPTION);
    assert_eq!(
        reset.input_schema,
        json!({
            "type": "object",
            "properties": {
                "web_search": {"type": "boolean", "description": "Searching the web."},
                "scraping": {"type": "boolean", "description": "Fetching pages."},
                "database": {"type": "boolean", "description": "Tools for database operations."}
            },
            "required": ["web_search", "scraping", "database"],
            "additionalProperties": false
        })
    );
    // Declaration order, not alphabetical, with the `preserve_order` feature (without it,
    // `serde_json::Map` sorts its keys; `tests/key_order.rs` checks that).
    #[cfg(feature = "preserve_order")]
    {
        let keys: Vec<_> = reset.input_schema["properties"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect();
        assert_eq!(keys, ["web_search", "scraping", "database"]);
    }
}

#[test]
fn definitions_order() {
    let kit = toolkit();
    let mut s = kit.session();
    assert_eq!(names(&kit, &s), ["reset_tools", "note_write"]);
    s.activate(AgentGroup::Database);
    s.activate(AgentGroup::WebSearch);
    assert_eq!(
        names(&kit, &s),
        [
            "reset_tools",
            "note_write",
            "web_search",
            "db_insert",
            "db_count"
        ]
    );
    let all: Vec<_> = kit.all_definitions().map(|d| d.name).collect();
    assert_eq!(
        all,
        [
            "reset_tools",
            "note_write",
            "web_search",
            "page_fetch",
            "db_insert",
            "db_count"
        ]
    );
    // Looking a definition up by name, active or not.
    assert_eq!(
        kit.definition("page_fetch").map(|d| d.group),
        Some(Some("scraping"))
    );
    assert_eq!(kit.definition("reset_tools").map(|d| d.group), Some(None));
    assert!(kit.definition("page_fetsh").is_none());
    assert_eq!(kit.group_of("db_count").map(|g| g.name), Some("database"));
    // Every group at once.
    assert_eq!(
        kit.definitions(&Session::all()).count(),
        kit.all_definitions().count()
    );
    let mut every = kit.session();
    every.activate_all();
    assert_eq!(every, Session::all());
    every.deactivate_all();
    assert_eq!(every, kit.session());
}

#[test]
fn typed_session_api() {
    let mut s = Session::<Agent>::new();
    assert_eq!(s.active().count(), 0);
    s.reset(AgentReset {
        web_search: true,
        scraping: false,
        database: true,
    });
    assert!(s.is_active(AgentGroup::WebSearch));
    assert!(!s.is_active(AgentGroup::Scraping));
    assert_eq!(
        s.snapshot(),
        AgentReset {
            web_search: true,
            scraping: false,
            database: true
        }
    );
    s.deactivate(AgentGroup::WebSearch);
    assert_eq!(s.active_names().collect::<Vec<_>>(), ["database"]);
    assert_eq!(
        Session::<Agent>::with_active(AgentReset {
            scraping: true,
            ..Default::default()
        })
        .active_names()
        .collect::<Vec<_>>(),
        ["scraping"]
    );
    assert!(std::mem::size_of::<Session<Agent>>() <= 8);
}

#[test]
fn the_typed_reset_value_is_the_reset_tools_argument() {
    let reset: AgentReset =
        serde_json::from_value(json!({"web_search": true, "scraping": false, "database": true}))
            .unwrap();
    assert_eq!(
        reset,
        AgentReset {
            web_search: true,
            scraping: false,
            database: true
        }
    );
    assert_eq!(
        serde_json::to_value(reset).unwrap(),
        json!({"web_search": true, "scraping": false, "database": true})
    );
    assert!(serde_json::from_value::<AgentReset>(json!({"web_serch": true})).is_err());
}

#[test]
fn session_serialises_to_group_names() {
    let mut s = Session::<Agent>::new();
    s.activate(AgentGroup::Scraping);
    s.activate(AgentGroup::WebSearch);
    let saved = serde_json::to_value(s).unwrap();
    assert_eq!(saved, json!(["web_search", "scraping"]));
    let back: Session<Agent> = serde_json::from_value(saved).unwrap();
    assert_eq!(back, s);

    let err =
        serde_json::from_value::<Session<Agent>>(json!(["web_search", "scrapping"])).unwrap_err();
    assert!(
        err.to_string()
            .contains("unknown group `scrapping` (did you mean `scraping`?)"),
        "{err}"
    );

    let err = Session::<Agent>::restore(["web", "scraping"]).unwrap_err();
    assert_eq!(err.unknown, ["web"]);
    let (lenient, dropped) = Session::<Agent>::restore_lenient(["web", "scraping"]);
    assert_eq!(dropped, ["web"]);
    assert_eq!(lenient.active_names().collect::<Vec<_>>(), ["scraping"]);
}

async fn reset(kit: &Toolkit<Agent>, s: &mut Session<Agent>, args: &str) -> CallResult {
    kit.call(s, "reset_tools", args).await
}

#[tokio::test]
async fn reference_scenario_misspelled_group_is_refused() {
    let kit = toolkit();
    let mut s = kit.session();
    let r = reset(&kit, &mut s, r#"{"web_search": true, "scraping": true}"#).await;
    assert!(!r.is_error);
    assert_eq!(
        names(&kit, &s),
        ["reset_tools", "note_write", "web_search", "page_fetch"]
    );

    let before = s;
    let r = reset(&kit, &mut s, r#"{"web_serch": true}"#).await;
    assert!(r.is_error);
    assert_eq!(s, before);
    let text = r.text_joined();
    assert!(
        text.starts_with("reset_tools refused; nothing changed."),
        "{text}"
    );
    assert!(
        text.contains("unknown group `web_serch`: did you mean `web_search`?"),
        "{text}"
    );
    assert!(
        text.contains("The groups are `web_search`, `scraping`, `database`."),
        "{text}"
    );
    assert_eq!(
        names(&kit, &s),
        ["reset_tools", "note_write", "web_search", "page_fetch"]
    );
    let r = kit.call(&mut s, "web_search", r#"{"query": "rust"}"#).await;
    assert!(!r.is_error);
}

#[tokio::test]
async fn every_problem_is_reported_at_once_and_nothing_changes() {
    let kit = toolkit();
    let mut s = kit.session();
    s.activate(AgentGroup::Database);
    let before = s;
    let r = reset(&kit, &mut s, r#"{"web_serch": true, "scraping": "yes", "database": 1, "zzz": false, "web_search": null}"#).await;
    assert!(r.is_error);
    assert_eq!(s, before);
    let text = r.text_joined();
    for needle in [
        "- unknown group `web_serch`: did you mean `web_search`?",
        "- `scraping` must be true or false, got a string",
        "- `database` must be true or false, got a number",
        "- unknown group `zzz`\n",
        "- `web_search` must be true or false, got null",
        "Active groups (unchanged): database",
    ] {
        assert!(text.contains(needle), "missing {needle:?} in {text}");
    }
    assert!(!text.contains("yes"), "values are never echoed: {text}");
    let structured = r.structured_content.unwrap();
    assert_eq!(structured["refused"], json!(true));
    assert_eq!(structured["problems"].as_array().unwrap().len(), 5);
    assert_eq!(
        structured["problems"][1],
        json!({
            "problem": "not_boolean",
            "group": "scraping",
            "found": "a string",
            "message": "`scraping` must be true or false, got a string"
        })
    );
    // The structured content reads as the text does: every line is a problem's message.
    for problem in structured["problems"].as_array().unwrap() {
        let message = problem["message"].as_str().unwrap();
        assert!(text.contains(&format!("- {message}")), "{message}");
    }
    assert!(
        structured["example"]
            .as_str()
            .unwrap()
            .starts_with("{\"web_search\": true")
    );
}

#[tokio::test]
async fn non_object_and_malformed_arguments_are_refused() {
    let kit = toolkit();
    let mut s = kit.session();
    s.activate(AgentGroup::Scraping);
    let before = s;
    for (input, needle) in [
        (
            "[true]",
            "must be a JSON object of group names to true/false, got an array",
        ),
        ("true", "got a boolean"),
        ("\"web_search\"", "got a string"),
        ("", "got nothing"),
        ("{\"web_search\": tru", "not valid JSON"),
        ("{\"web_search\": true} trailing", "not valid JSON"),
        (
            "{\"scraping\": true, \"scraping\": false}",
            "`scraping` is given more than once",
        ),
    ] {
        let r = reset(&kit, &mut s, input).await;
        assert!(r.is_error, "{input}");
        assert!(
            r.text_joined().contains(needle),
            "{input}: {}",
            r.text_joined()
        );
        assert_eq!(s, before, "{input}");
    }
    let r = kit.call(&mut s, "reset_tools", &json!([1, 2])).await;
    assert!(r.is_error && r.text_joined().contains("got an array"));
}

#[tokio::test]
async fn omitted_groups_become_inactive_and_the_diff_shows_it() {
    let kit = toolkit();
    let mut s = kit.session();
    reset(&kit, &mut s, r#"{"web_search": true, "scraping": true}"#).await;
    let r = reset(&kit, &mut s, r#"{"web_search": true, "database": true}"#).await;
    assert!(!r.is_error);
    assert_eq!(
        s.active_names().collect::<Vec<_>>(),
        ["web_search", "database"]
    );
    assert_eq!(
        r.text_joined(),
        "Active groups: web_search, database\nActivated: database\nDeactivated: scraping\nKept: web_search\n\
         <group name=\"database\">\nTools: db_insert, db_count.\n</group>"
    );
    assert_eq!(
        r.structured_content.unwrap(),
        json!({
            "changed": true,
            "active": ["web_search", "database"],
            "activated": ["database"],
            "deactivated": ["scraping"],
            "kept": ["web_search"],
            "available": [{"group": "database", "tools": ["db_insert", "db_count"]}]
        })
    );
}

#[tokio::test]
async fn activation_returns_new_instructions_in_declaration_order() {
    let kit = toolkit();
    let mut s = kit.session();
    let r = reset(
        &kit,
        &mut s,
        r#"{"scraping": true, "web_search": true, "database": false}"#,
    )
    .await;
    assert_eq!(
        r.text_joined(),
        "Active groups: web_search, scraping\nActivated: web_search, scraping\nDeactivated: none\nKept: none\n\
         <group name=\"web_search\">\nTools: web_search.\nCite the URL of every result you use.\n</group>\n\
         <group name=\"scraping\">\nTools: page_fetch.\nFetch only pages found by a search.\n</group>"
    );
    // What the newly active groups make available, as a model behind a client that shows
    // only the structured content reads it.
    let available = &r.structured_content.unwrap()["available"];
    assert_eq!(
        *available,
        json!([
            {"group": "web_search", "tools": ["web_search"], "instructions": "Cite the URL of every result you use."},
            {"group": "scraping", "tools": ["page_fetch"], "instructions": "Fetch only pages found by a search."}
        ])
    );
}

#[tokio::test]
async fn a_call_that_changes_nothing_rereads_all_instructions() {
    let kit = toolkit();
    let mut s = kit.session();
    reset(&kit, &mut s, r#"{"web_search": true, "scraping": true}"#).await;
    let before = s;
    let r = reset(
        &kit,
        &mut s,
        r#"{"web_search": true, "scraping": true, "database": false}"#,
    )
    .await;
    assert!(!r.is_error);
    assert_eq!(s, before);
    let text = r.text_joined();
    assert!(
        text.starts_with("No change.\nActive groups: web_search, scraping"),
        "{text}"
    );
    assert!(
        text.contains(
            "<group name=\"web_search\">\nTools: web_search.\nCite the URL of every result you use.\n</group>"
        ),
        "{text}"
    );
    assert!(text.contains("<group name=\"scraping\">"), "{text}");
    // Deactivating everything is a valid final state.
    let r = reset(&kit, &mut s, "{}").await;
    assert!(!r.is_error);
    assert_eq!(s.active().count(), 0);
    assert_eq!(names(&kit, &s), ["reset_tools", "note_write"]);
}

#[tokio::test]
async fn sessions_on_one_toolkit_are_independent() {
    let kit = toolkit();
    let mut a = kit.session();
    let mut b = kit.session();
    reset(&kit, &mut a, r#"{"database": true}"#).await;
    assert_eq!(names(&kit, &b), ["reset_tools", "note_write"]);
    reset(&kit, &mut b, r#"{"scraping": true}"#).await;
    assert_eq!(a.active_names().collect::<Vec<_>>(), ["database"]);
    assert_eq!(b.active_names().collect::<Vec<_>>(), ["scraping"]);
}

#[tokio::test]
async fn the_application_can_hide_reset_tools() {
    let kit = toolkit().with_reset_tools(false);
    let mut s = kit.session();
    assert_eq!(names(&kit, &s), ["note_write"]);
    let r = reset(&kit, &mut s, r#"{"database": true}"#).await;
    assert!(r.is_error);
    assert!(
        r.text_joined().starts_with("unknown tool `reset_tools`."),
        "{}",
        r.text_joined()
    );
    assert_eq!(s.active().count(), 0);
    s.activate(AgentGroup::Database);
    assert_eq!(names(&kit, &s), ["note_write", "db_insert", "db_count"]);
    let r = kit
        .call(&mut s, "page_fetch", r#"{"url": "https://x"}"#)
        .await;
    assert!(
        r.text_joined()
            .contains("which is not active in this session")
    );
}

#[tokio::test]
async fn stateful_group_tools_use_their_state() {
    let kit = toolkit();
    let mut s = kit.session();
    s.activate(AgentGroup::Database);
    let r = kit.call(&mut s, "db_insert", r#"{"row": "a"}"#).await;
    assert_eq!(r.structured_content, Some(json!(1)));
    let r = kit.call(&mut s, "db_count", "{}").await;
    assert_eq!(r.structured_content, Some(json!(1)));
    assert_eq!(
        kit.registry().database.rows.lock().unwrap().as_slice(),
        ["a"]
    );
}

#[test]
fn a_toolkit_without_switchable_groups_has_no_meta_tool() {
    #[toolkit]
    struct Plain {
        #[basic]
        notes: Notes,
    }
    let kit = Toolkit::new(Plain { notes: Notes });
    assert!(kit.reset_definition().is_none());
    assert_eq!(
        kit.definitions(&kit.session())
            .map(|d| d.name)
            .collect::<Vec<_>>(),
        ["note_write"]
    );
    assert_eq!(PlainGroup::ALL, &[] as &[PlainGroup]);
}

mod property {
    use super::*;
    use proptest::prelude::*;

    fn json_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            "[a-z_]{0,12}".prop_map(Value::String),
        ];
        leaf.prop_recursive(3, 24, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                prop::collection::vec(
                    (
                        prop_oneof![
                            Just("web_search".to_owned()),
                            Just("scraping".to_owned()),
                            Just("database".to_owned()),
                            "[a-z_]{0,10}"
                        ],
                        inner
                    ),
                    0..5
                )
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        #[test]
        fn arbitrary_arguments_never_panic_and_refusals_change_nothing(
            value in json_value(),
            initial in 0u8..8,
            as_text in any::<bool>(),
            cut in any::<prop::sample::Index>(),
        ) {
            let kit = toolkit();
            let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
            let mut s = Session::<Agent>::with_active(AgentReset {
                web_search: initial & 1 != 0,
                scraping: initial & 2 != 0,
                database: initial & 4 != 0,
            });
            let before = s;
            let text = value.to_string();
            // Sometimes cut the text to make it malformed.
            let text = if as_text && text.len() > 1 { text[..cut.index(text.len())].to_owned() } else { text };
            let r = rt.block_on(async {
                if as_text { kit.call(&mut s, "reset_tools", text.as_str()).await } else { kit.call(&mut s, "reset_tools", &value).await }
            });
            if r.is_error {
                prop_assert_eq!(s, before);
            } else {
                let obj = value.as_object().unwrap();
                for g in AgentGroup::ALL {
                    prop_assert_eq!(s.is_active(*g), obj.get(g.name()) == Some(&Value::Bool(true)));
                }
            }
        }
    }
}
