//! Entitlements: for a principal, what their scopes do not cover has no name. Two principals
//! see lists and `reset_tools` schemas that differ exactly by their scopes, in every delivery
//! mode; an unentitled activation or call is refused, changes nothing, and never runs.

use std::sync::Mutex;

use serde_json::{Value, json};
use toolgroup::policy::{Decision, PolicyRequest};
use toolgroup::prelude::*;
use toolgroup::provider::deferred::{Deferred, DeferredOptions};
use toolgroup::provider::{Provider, Rendered};
use toolgroup::{CallOutcome, Scopes};

mod found;

/// Every tool that ran, by name: tests run concurrently, so each counts only its own words.
static RAN: Mutex<Vec<String>> = Mutex::new(Vec::new());

fn ran(marker: &str) -> usize {
    RAN.lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .filter(|m| m.as_str() == marker)
        .count()
}

fn record(marker: String) -> String {
    RAN.lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(marker.clone());
    marker
}

/// Write a note.
#[tool]
fn note(
    /// The note.
    text: String,
) -> String {
    record(format!("note {text}"))
}

/// Search the web.
#[tool(read_only)]
fn search(
    /// The query.
    query: String,
) -> String {
    record(format!("search {query}"))
}

/// Fetch a page.
#[tool]
fn fetch(
    /// The URL.
    url: String,
) -> String {
    record(format!("fetch {url}"))
}

/// Purge the web cache.
#[tool(scopes = ["web:admin"])]
fn purge(
    /// Why.
    reason: String,
) -> String {
    record(format!("purge {reason}"))
}

/// Delete a user.
#[tool]
fn delete_user(
    /// The user.
    user: String,
) -> String {
    record(format!("delete_user {user}"))
}

#[tool_group(name = "notes", description = "Notes.", tools = [note])]
struct Notes;

#[tool_group(
    name = "web",
    description = "The web.",
    instructions = "Cite every URL.",
    scopes = ["web:read"],
    tools = [search, fetch, purge]
)]
struct Web;

#[tool_group(
    name = "admin",
    description = "Administration.",
    scopes = ["admin"],
    tools = [delete_user]
)]
struct Admin;

#[toolkit]
struct Kit {
    #[basic]
    notes: Notes,
    web: Web,
    admin: Admin,
}

fn toolkit() -> Toolkit<Kit> {
    Toolkit::new(Kit {
        notes: Notes,
        web: Web,
        admin: Admin,
    })
}

fn scopes(list: &str) -> Scopes {
    Scopes::parse(list).expect("valid scopes")
}

fn names<R: Registry>(kit: &Toolkit<R>, session: &Session<R>) -> Vec<&'static str> {
    kit.definitions(session).map(|d| d.name).collect()
}

fn reset_groups<R: Registry>(kit: &Toolkit<R>) -> Vec<String> {
    let Some(reset) = kit.reset_definition() else {
        return Vec::new();
    };
    let schema = &reset.input_schema;
    assert_eq!(schema["additionalProperties"], json!(false));
    let props: Vec<String> = schema["properties"]
        .as_object()
        .expect("properties")
        .keys()
        .cloned()
        .collect();
    let mut required: Vec<String> = schema["required"]
        .as_array()
        .expect("required")
        .iter()
        .map(|v| v.as_str().expect("a name").to_owned())
        .collect();
    required.sort();
    let mut sorted = props.clone();
    sorted.sort();
    assert_eq!(sorted, required, "every listed group is required");
    props
}

#[tokio::test]
async fn two_principals_see_exactly_their_entitlements() {
    let kit = toolkit();
    let reader = kit.entitled(&scopes("web:read"));
    let admin = kit.entitled(&scopes("web:read web:admin admin"));
    let all = Session::all();

    assert_eq!(
        names(&reader, &all),
        ["reset_tools", "note", "search", "fetch"]
    );
    assert_eq!(
        names(&admin, &all),
        [
            "reset_tools",
            "note",
            "search",
            "fetch",
            "purge",
            "delete_user"
        ]
    );
    assert_eq!(reset_groups(&reader), ["web"]);
    let mut groups = reset_groups(&admin);
    groups.sort();
    assert_eq!(groups, ["admin", "web"]);

    // The mask mode's full list, too.
    let all_reader: Vec<_> = reader.all_definitions().map(|d| d.name).collect();
    assert_eq!(all_reader, ["reset_tools", "note", "search", "fetch"]);

    // Without a principal, what requires a scope is hidden (fail closed); with no scope at
    // all, only the basic tools remain and there is nothing to switch.
    assert_eq!(names(&kit, &all), ["note"]);
    assert!(kit.reset_definition().is_none());
    assert_eq!(kit.held_scopes(), None);
    assert_eq!(reader.held_scopes(), Some(&scopes("web:read")));
    assert_eq!(kit.declared_scopes(), scopes("admin web:admin web:read"));
    assert_eq!(
        kit.required_scopes("purge"),
        Some(scopes("web:read web:admin"))
    );
    assert_eq!(kit.required_scopes("note"), Some(Scopes::none()));
    assert_eq!(kit.required_scopes("nope"), None);
    assert_eq!(reader.missing_scopes("purge"), Some(scopes("web:admin")));
    assert_eq!(reader.missing_scopes("search"), None);
}

#[tokio::test]
async fn every_provider_and_mode_renders_the_principal_s_view() {
    let kit = toolkit();
    let reader = kit.entitled(&scopes("web:read"));
    let session = Session::all();
    let mut deferred_modes = 0;
    for provider in [
        Provider::OpenAiChat,
        Provider::OpenAiResponses,
        Provider::Anthropic,
        Provider::AnthropicStrict,
        Provider::Gemini,
        Provider::GeminiLegacy,
        Provider::Mcp,
    ] {
        let rendered = Rendered::new(&reader, provider);
        let listed = rendered.tools_json(&session);
        let masked = rendered.all_tools_json();
        for text in [listed.as_str(), &*masked] {
            assert!(text.contains("\"search\""), "{provider:?}");
            for hidden in ["purge", "delete_user", "admin", "Administration"] {
                assert!(
                    !text.contains(hidden),
                    "{provider:?} shows {hidden}: {text}"
                );
            }
        }
        if let Ok(deferred) = Deferred::new(&reader, provider, DeferredOptions::default()) {
            deferred_modes += 1;
            let mut state = deferred.state();
            let change = deferred.sync(&mut state, &session);
            let text = format!("{} {change:?}", deferred.tools_json(&state));
            for hidden in ["purge", "delete_user", "admin"] {
                assert!(
                    !text.contains(hidden),
                    "{provider:?} defers {hidden}: {text}"
                );
            }
        }
    }
    assert!(
        deferred_modes >= 3,
        "the deferred mode ran for {deferred_modes} providers"
    );
}

/// The names in an MCP tool list (a list of `{"name", ...}` objects).
fn listed(tools: &Value) -> Vec<String> {
    tools
        .as_array()
        .expect("a list")
        .iter()
        .map(|t| t["name"].as_str().expect("a name").to_owned())
        .collect()
}

#[test]
fn a_rendering_lists_the_view_it_was_rendered_from() {
    let kit = toolkit();
    let session = Session::all();
    let admin = kit.entitled(&scopes("web:read web:admin admin"));
    let admin_sees = names(&admin, &session);
    let admin_all: Vec<&str> = admin.all_definitions().map(|d| d.name).collect();
    let for_admin = Rendered::new(&admin, Provider::Mcp);
    let for_reader = Rendered::new(&kit.entitled(&scopes("web:read")), Provider::Mcp);
    // Neither toolkit value is around any more; the unfiltered one and other principals'
    // views list other tools at the same positions.
    drop(admin);
    let reader = kit.entitled(&scopes("web:read"));
    assert_ne!(names(&reader, &session), admin_sees);
    assert_ne!(names(&kit, &session), admin_sees);

    assert_eq!(listed(&for_admin.tools_value(&session)), admin_sees);
    assert_eq!(listed(&for_admin.all_tools_value()), admin_all);
    assert!(for_admin.strictness("purge").is_some());
    assert_eq!(
        listed(&for_reader.tools_value(&session)),
        names(&reader, &session)
    );
    assert_eq!(for_reader.strictness("purge"), None);
    // A session with only `admin` active: each rendering filters its own view.
    let mut admin_only = Session::new();
    admin_only.activate(KitGroup::Admin);
    assert_eq!(
        listed(&for_admin.tools_value(&admin_only)),
        ["reset_tools", "note", "delete_user"]
    );
    assert_eq!(
        listed(&for_reader.tools_value(&admin_only)),
        ["reset_tools", "note"]
    );
    let chat = Rendered::new(&kit.entitled(&scopes("web:read")), Provider::OpenAiChat);
    let allowed = chat
        .allowed_tools_value(&session, toolgroup::provider::AllowMode::Auto)
        .expect("OpenAI has an allow-list")
        .to_string();
    assert!(allowed.contains("\"search\""), "{allowed}");
    assert!(!allowed.contains("purge"), "{allowed}");
}

#[tokio::test]
async fn naming_an_unentitled_group_is_refused_and_changes_nothing() {
    let kit = toolkit();
    let reader = kit.entitled(&scopes("web:read"));
    let mut session = reader.session();
    let r = reader
        .call(
            &mut session,
            "reset_tools",
            r#"{"web": true, "admin": true}"#,
        )
        .await;
    assert!(r.is_error);
    assert_eq!(r.outcome(), CallOutcome::InsufficientScope);
    let text = r.text_joined();
    assert!(
        text.contains("`admin` requires the scope `admin`"),
        "{text}"
    );
    assert!(text.contains("nothing changed"), "{text}");
    assert_eq!(session, reader.session(), "nothing changed");
    let problems = &r.structured_content.as_ref().expect("structured")["problems"];
    assert_eq!(problems[0]["problem"], "insufficient_scope");
    assert_eq!(problems[0]["missing_scopes"], json!(["admin"]));
    // The refusal lists only the groups the principal may use.
    assert_eq!(
        r.structured_content.as_ref().expect("structured")["groups"],
        json!(["web"])
    );

    // Even set to false, naming it is refused: the schema has no such key.
    let r = reader
        .call(
            &mut session,
            "reset_tools",
            r#"{"web": true, "admin": false}"#,
        )
        .await;
    assert_eq!(r.outcome(), CallOutcome::InsufficientScope);
    assert!(!session.is_active(KitGroup::Web));

    let r = reader
        .call(&mut session, "reset_tools", r#"{"web": true}"#)
        .await;
    assert_eq!(r.outcome(), CallOutcome::Ok, "{}", r.text_joined());
    assert!(session.is_active(KitGroup::Web));
}

#[tokio::test]
async fn a_typo_suggests_only_entitled_groups() {
    let kit = toolkit();
    let reader = kit.entitled(&scopes("web:read"));
    let mut session = reader.session();
    let r = reader
        .call(&mut session, "reset_tools", r#"{"admn": true}"#)
        .await;
    assert_eq!(r.outcome(), CallOutcome::Refused);
    let text = r.text_joined();
    assert!(!text.contains("`admin`"), "{text}");
    let r = reader
        .call(&mut session, "delet_user", r#"{"user": "x"}"#)
        .await;
    assert_eq!(r.outcome(), CallOutcome::UnknownTool);
    assert!(
        !r.text_joined().contains("delete_user"),
        "{}",
        r.text_joined()
    );
}

#[tokio::test]
async fn an_unentitled_call_never_runs_activates_or_reaches_the_policy() {
    let asked: std::sync::Arc<Mutex<Vec<String>>> = Default::default();
    let seen = asked.clone();
    let kit = toolkit().with_first_use_activation(true).with_policy(
        move |request: &PolicyRequest<'_>| {
            seen.lock().unwrap().push(request.tool.to_owned());
            if request.tool == "fetch" {
                Decision::deny("no fetching today")
            } else {
                Decision::Allow
            }
        },
    );
    let reader = kit.entitled(&scopes("web:read"));
    let mut session = reader.session();

    for (tool, args, marker) in [
        (
            "purge",
            json!({"reason": "r-unentitled"}),
            "purge r-unentitled",
        ),
        (
            "delete_user",
            json!({"user": "u-unentitled"}),
            "delete_user u-unentitled",
        ),
    ] {
        let r = reader
            .call(&mut session, tool, args.to_string().as_str())
            .await;
        assert_eq!(r.outcome(), CallOutcome::InsufficientScope, "{tool}");
        assert!(r.is_error);
        assert!(
            r.text_joined().contains("requires the scope"),
            "{}",
            r.text_joined()
        );
        assert_eq!(ran(marker), 0, "{tool} never runs");
    }
    assert_eq!(session, reader.session(), "no group was activated");
    assert!(asked.lock().unwrap().is_empty(), "the policy was not asked");

    // An entitled call still meets the policy after.
    let r = reader
        .call(&mut session, "fetch", r#"{"url": "u-policy"}"#)
        .await;
    assert_eq!(r.outcome(), CallOutcome::Denied);
    assert_eq!(ran("fetch u-policy"), 0);
    let r = reader
        .call(&mut session, "search", r#"{"query": "q-entitled"}"#)
        .await;
    assert_eq!(r.outcome(), CallOutcome::Ok, "{}", r.text_joined());
    assert_eq!(ran("search q-entitled"), 1);
    assert!(session.is_active(KitGroup::Web), "first use activated web");

    // The same session, served to a principal without the scope: web's tools are refused,
    // and its state is kept.
    let guest = kit.entitled(&Scopes::none());
    let r = guest
        .call(&mut session, "search", r#"{"query": "q-guest"}"#)
        .await;
    assert_eq!(r.outcome(), CallOutcome::InsufficientScope);
    assert_eq!(ran("search q-guest"), 0);
    assert!(session.is_active(KitGroup::Web));
}

#[tokio::test]
async fn groups_a_principal_may_not_use_keep_their_state_and_stay_unmentioned() {
    let kit = toolkit();
    let admin = kit.entitled(&scopes("web:read admin"));
    let reader = kit.entitled(&scopes("web:read"));
    let mut session = admin.session();
    let r = admin
        .call(
            &mut session,
            "reset_tools",
            r#"{"web": false, "admin": true}"#,
        )
        .await;
    assert_eq!(r.outcome(), CallOutcome::Ok, "{}", r.text_joined());

    let r = reader
        .call(&mut session, "reset_tools", r#"{"web": true}"#)
        .await;
    assert_eq!(r.outcome(), CallOutcome::Ok, "{}", r.text_joined());
    assert!(
        session.is_active(KitGroup::Admin),
        "kept: the reader cannot see it"
    );
    assert!(session.is_active(KitGroup::Web));
    let text = r.text_joined();
    assert!(!text.contains("admin"), "{text}");
    let structured: &Value = r.structured_content.as_ref().expect("structured");
    assert_eq!(structured["active"], json!(["web"]));
    assert_eq!(
        names(&reader, &session),
        ["reset_tools", "note", "search", "fetch"]
    );
}

#[tokio::test]
async fn run_time_requirements_add_to_declared_ones() {
    let kit = toolkit().with_required_scopes(KitGroup::Web, scopes("tenant:a"));
    let reader = kit.entitled(&scopes("web:read"));
    assert!(
        reader.reset_definition().is_none(),
        "web now needs tenant:a too"
    );
    let tenant = kit.entitled(&scopes("web:read tenant:a"));
    assert_eq!(reset_groups(&tenant), ["web"]);
    assert_eq!(
        kit.required_scopes("search"),
        Some(scopes("tenant:a web:read"))
    );
    // The view given before a builder call is re-derived by it.
    let later = kit
        .entitled(&scopes("web:read tenant:a"))
        .with_required_scopes(KitGroup::Web, scopes("tenant:b"));
    assert!(later.reset_definition().is_none());
}

#[tokio::test]
async fn a_toolkit_without_requirements_is_unchanged_by_a_principal() {
    // The quickstart's toolkit declares no scope.
    let plain = crate::common::toolkit();
    let viewed = plain.entitled(&Scopes::none());
    let all = Session::all();
    let a: Vec<_> = plain.definitions(&all).cloned().collect();
    let b: Vec<_> = viewed.definitions(&all).cloned().collect();
    assert_eq!(a, b);
    assert_eq!(plain.reset_definition(), viewed.reset_definition());
    assert!(plain.declared_scopes().is_empty());
    assert_eq!(plain.missing_scopes("web_search"), None);
}
