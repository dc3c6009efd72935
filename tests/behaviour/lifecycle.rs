//! Lifecycle rules through the public API: the cap and its least-recently-used eviction,
//! idle and turn-scoped groups, pins, what the model is told, the builder's refusals, and the
//! managed session's serialisation.

use serde_json::json;
use toolgroup::lifecycle::{Lifecycle, LifecycleError, ManagedSession, Reason};
use toolgroup::prelude::*;
use toolgroup::{Session, ToolCall};

/// Search the web.
#[tool]
fn search(
    /// The query.
    q: String,
) -> String {
    format!("results for {q}")
}

/// Fetch a page.
#[tool]
fn fetch(
    /// The page.
    url: String,
) -> String {
    format!("page {url}")
}

/// Fail always.
#[tool]
fn broken() -> Result<String, String> {
    Err("it broke".to_owned())
}

/// Write a note.
#[tool]
fn note(
    /// The text.
    text: String,
) -> String {
    format!("noted {text}")
}

/// Run a query.
#[tool]
fn query(
    /// The SQL.
    sql: String,
) -> String {
    format!("rows of {sql}")
}

/// Confirm the plan.
#[tool]
fn confirm() -> String {
    "confirmed".to_owned()
}

#[tool_group(name = "web", description = "Web search.", instructions = "Cite sources.", tools = [search])]
struct Web;
#[tool_group(name = "pages", description = "Pages.", tools = [fetch, broken])]
struct Pages;
#[tool_group(name = "notes", description = "Notes.", tools = [note])]
struct Notes;
#[tool_group(name = "db", description = "Database.", tools = [query])]
struct Db;
#[tool_group(name = "plan", description = "Plan checks.", tools = [confirm], turn_scoped)]
struct Plan;

#[toolkit]
struct Kit {
    web: Web,
    pages: Pages,
    #[pinned]
    notes: Notes,
    db: Db,
    plan: Plan,
}

fn kit() -> Toolkit<Kit> {
    Toolkit::new(Kit {
        web: Web,
        pages: Pages,
        notes: Notes,
        db: Db,
        plan: Plan,
    })
    .with_first_use_activation(true)
}

fn with(lifecycle: Lifecycle<Kit>) -> Toolkit<Kit> {
    kit().with_lifecycle(lifecycle).expect("valid rules")
}

fn active(session: &ManagedSession<Kit>) -> Vec<&'static str> {
    session.session().active_names().collect()
}

#[tokio::test]
async fn the_cap_switches_off_the_least_recently_used_group_and_says_so() {
    let kit = with(Lifecycle::new().max_active(3));
    let mut s = kit.managed_session();
    for (tool, args) in [
        ("note", json!({"text": "a"})),
        ("search", json!({"q": "a"})),
        ("query", json!({"sql": "a"})),
        // A use of `web` again: `db` is now the least recently used besides the pinned notes.
        ("search", json!({"q": "b"})),
    ] {
        let r = kit.call_managed(&mut s, tool, &args).await;
        assert!(!r.is_error, "{}", r.text_joined());
        assert!(r.deactivations().is_empty());
    }
    assert_eq!(active(&s), ["web", "notes", "db"]);
    let r = kit
        .call_managed(&mut s, "fetch", &json!({"url": "u"}))
        .await;
    assert!(!r.is_error);
    assert_eq!(r.deactivations().len(), 1);
    assert_eq!(r.deactivations()[0].group, "db");
    assert_eq!(
        r.deactivations()[0].reason,
        Reason::MaxActive { max_active: 3 }
    );
    let text = r.text_joined();
    assert!(text.starts_with("page u"), "{text}");
    assert!(text.contains("`db` (least recently used; at most 3 groups stay active)"));
    assert!(text.contains("calling one of them switches its group back on"));
    assert_eq!(active(&s), ["web", "pages", "notes"]);
    // The pinned group is never the one to go, however long unused.
    for _ in 0..3 {
        kit.call_managed(&mut s, "query", &json!({"sql": "x"}))
            .await;
        kit.call_managed(&mut s, "search", &json!({"q": "x"})).await;
    }
    assert!(s.session().is_active(KitGroup::Notes));
}

#[tokio::test]
async fn an_error_result_activates_nothing_and_evicts_nothing() {
    let kit = with(Lifecycle::new().max_active(2));
    let mut s = kit.managed_session();
    kit.call_managed(&mut s, "search", &json!({"q": "a"})).await;
    kit.call_managed(&mut s, "note", &json!({"text": "a"}))
        .await;
    let before = s.clone();
    let r = kit.call_managed(&mut s, "broken", &json!({})).await;
    assert!(r.is_error);
    assert!(r.deactivations().is_empty());
    assert_eq!(active(&s), active(&before));
    // Invalid arguments: the same.
    let r = kit.call_managed(&mut s, "fetch", &json!({"url": 3})).await;
    assert!(r.is_error);
    assert_eq!(active(&s), ["web", "notes"]);
}

#[tokio::test]
async fn reset_tools_asking_for_more_than_the_cap_is_refused_and_changes_nothing() {
    let kit = with(Lifecycle::new().max_active(2));
    let mut s = kit.managed_session();
    kit.call_managed(&mut s, "search", &json!({"q": "a"})).await;
    let before = s.clone();
    let r = kit
        .call_managed(
            &mut s,
            "reset_tools",
            &json!({"web": true, "pages": true, "notes": true, "db": false, "plan": false}),
        )
        .await;
    assert!(r.is_error);
    assert_eq!(r.outcome(), toolgroup::CallOutcome::Refused);
    assert!(
        r.text_joined()
            .contains("asked for 3 groups at once, and at most 2 may be active")
    );
    assert_eq!(s.session(), before.session());
    assert_eq!(s.by_recency(), before.by_recency());
    // Within the cap it is a switch like any other, and each group it switches on is used.
    let r = kit
        .call_managed(
            &mut s,
            "reset_tools",
            &json!({"web": false, "pages": true, "notes": true, "db": false, "plan": false}),
        )
        .await;
    assert!(!r.is_error, "{}", r.text_joined());
    assert_eq!(active(&s), ["pages", "notes"]);
}

#[tokio::test]
async fn idle_groups_go_at_the_end_of_a_turn_and_the_next_result_tells() {
    let kit = with(Lifecycle::new().idle_turns(2));
    let mut s = kit.managed_session();
    kit.call_managed(&mut s, "search", &json!({"q": "a"})).await;
    kit.call_managed(&mut s, "query", &json!({"sql": "a"}))
        .await;
    assert!(kit.end_turn(&mut s).is_empty());
    kit.call_managed(&mut s, "query", &json!({"sql": "b"}))
        .await;
    assert!(kit.end_turn(&mut s).is_empty(), "web idle for one turn");
    let off = kit.end_turn(&mut s);
    assert_eq!(off.len(), 1);
    assert_eq!(off[0].group, "web");
    assert_eq!(off[0].reason, Reason::IdleTurns { turns: 2 });
    assert_eq!(active(&s), ["db"]);
    assert_eq!(s.pending().len(), 1);
    assert_eq!(s.turns(), 3);
    let r = kit
        .call_managed(&mut s, "query", &json!({"sql": "c"}))
        .await;
    assert_eq!(r.deactivations().len(), 1);
    assert!(r.text_joined().contains("`web` (unused for 2 turn(s))"));
    assert!(s.pending().is_empty(), "told once");
    let r = kit
        .call_managed(&mut s, "query", &json!({"sql": "d"}))
        .await;
    assert!(r.deactivations().is_empty());
}

#[tokio::test]
async fn a_turn_scoped_group_lasts_its_turn_and_a_pinned_one_stays() {
    let kit = with(Lifecycle::new().idle_turns(1));
    let mut s = kit.managed_session();
    kit.call_managed(&mut s, "confirm", &json!({})).await;
    kit.call_managed(&mut s, "note", &json!({"text": "a"}))
        .await;
    assert_eq!(active(&s), ["notes", "plan"]);
    let off = kit.end_turn(&mut s);
    assert_eq!(off.len(), 1);
    assert_eq!(off[0].group, "plan");
    assert_eq!(off[0].reason, Reason::TurnEnded);
    for _ in 0..5 {
        kit.end_turn(&mut s);
    }
    assert_eq!(active(&s), ["notes"], "pinned: never idle");
    let lifecycle = kit.lifecycle().expect("rules");
    assert!(lifecycle.is_pinned(KitGroup::Notes));
    assert!(lifecycle.is_turn_scoped(KitGroup::Plan));
}

#[tokio::test]
async fn idle_requests_count_tool_calls() {
    let kit = with(Lifecycle::new().idle_requests(2));
    let mut s = kit.managed_session();
    kit.call_managed(&mut s, "search", &json!({"q": "a"})).await;
    let r = kit
        .call_managed(&mut s, "query", &json!({"sql": "a"}))
        .await;
    assert!(r.deactivations().is_empty(), "web: unused by one call");
    // Unused by two calls: switched off after this one, and its result says so.
    let r = kit
        .call_managed(&mut s, "query", &json!({"sql": "b"}))
        .await;
    assert_eq!(r.deactivations().len(), 1);
    assert_eq!(r.deactivations()[0].group, "web");
    assert_eq!(
        r.deactivations()[0].reason,
        Reason::IdleRequests { requests: 2 }
    );
    assert_eq!(active(&s), ["db"]);
}

#[test]
fn rules_that_cannot_work_are_refused_with_the_fix() {
    let refused = |l: Lifecycle<Kit>| kit().with_lifecycle(l).err().expect("refused");
    assert_eq!(
        refused(Lifecycle::new().max_active(0)),
        LifecycleError::ZeroMaxActive
    );
    let e = refused(Lifecycle::new().max_active(1));
    assert_eq!(
        e.to_string(),
        "`max_active(1)` leaves no room beside the 1 pinned group(s) (notes); raise the cap above 1 or pin fewer groups"
    );
    let e = refused(Lifecycle::new().max_active(2).pin(KitGroup::Web));
    assert!(matches!(
        e,
        LifecycleError::NoRoomBesidePinned { max: 2, .. }
    ));
    for (l, rule) in [
        (Lifecycle::new().idle_turns(0), "idle_turns"),
        (Lifecycle::new().idle_requests(0), "idle_requests"),
        (
            Lifecycle::new().idle_for(std::time::Duration::ZERO),
            "idle_for",
        ),
    ] {
        assert_eq!(refused(l), LifecycleError::ZeroIdle { rule });
    }
    let e = refused(Lifecycle::new().pin(KitGroup::Plan));
    assert_eq!(e, LifecycleError::PinnedAndTurnScoped { group: "plan" });
    assert!(e.to_string().contains("choose one"));
    let e = refused(Lifecycle::new().turn_scoped(KitGroup::Notes));
    assert_eq!(e, LifecycleError::PinnedAndTurnScoped { group: "notes" });
}

#[tokio::test]
async fn without_rules_a_managed_session_answers_as_a_plain_one() {
    let kit = kit();
    let mut managed = kit.managed_session();
    let mut plain = kit.session();
    for (tool, args) in [
        ("search", json!({"q": "a"})),
        ("fetch", json!({"url": 1})),
        ("nope", json!({})),
        ("reset_tools", json!({"db": true})),
        ("query", json!({"sql": "a"})),
    ] {
        let a = kit.call_managed(&mut managed, tool, &args).await;
        let b = kit.call(&mut plain, tool, &args).await;
        assert_eq!(a, b, "{tool}");
        assert_eq!(managed.session(), &plain);
    }
    assert!(kit.end_turn(&mut managed).is_empty());
}

#[tokio::test]
async fn a_batch_tells_with_its_first_result_and_counts_every_call_as_a_use() {
    let kit = with(Lifecycle::new().idle_turns(1).max_active(3));
    let mut s = kit.managed_session();
    kit.call_managed(&mut s, "search", &json!({"q": "a"})).await;
    kit.call_managed(&mut s, "query", &json!({"sql": "a"}))
        .await;
    kit.end_turn(&mut s);
    kit.call_managed(&mut s, "query", &json!({"sql": "b"}))
        .await;
    kit.end_turn(&mut s);
    assert_eq!(s.pending().len(), 1, "web went idle");
    kit.call_managed(&mut s, "note", &json!({"text": "a"}))
        .await;
    let calls = [
        ToolCall::new("query", json!({"sql": "c"})).with_call_id("1"),
        ToolCall::new("note", json!({"text": "b"})).with_call_id("2"),
    ];
    let results = kit.call_batch_managed(&mut s, &calls).await;
    assert!(results[1].deactivations().is_empty());
    // `db` was used last in the batch's order of stamps after `notes`'s first call.
    assert_eq!(
        s.by_recency().iter().map(|g| g.name()).collect::<Vec<_>>(),
        ["db", "notes"]
    );
    // The idle notice was carried by the call before the batch.
    assert!(s.pending().is_empty());
    // A batch whose first call activates a fourth group evicts within the batch.
    kit.call_managed(&mut s, "search", &json!({"q": "z"})).await;
    let calls = [
        ToolCall::new("fetch", json!({"url": "p"})).with_call_id("3"),
        ToolCall::new("note", json!({"text": "c"})).with_call_id("4"),
    ];
    let results = kit.call_batch_managed(&mut s, &calls).await;
    assert_eq!(results[0].deactivations()[0].group, "db");
    assert_eq!(active(&s), ["web", "pages", "notes"]);
}

#[tokio::test]
async fn a_managed_session_serialises_and_restores_strictly_and_leniently() {
    let kit = with(Lifecycle::new().idle_turns(1));
    let mut s = kit.managed_session();
    kit.call_managed(&mut s, "search", &json!({"q": "a"})).await;
    kit.end_turn(&mut s);
    kit.call_managed(&mut s, "query", &json!({"sql": "a"}))
        .await;
    kit.end_turn(&mut s);
    let value = serde_json::to_value(&s).unwrap();
    assert_eq!(value["active"], json!(["db"]));
    assert_eq!(
        value["pending"],
        json!([{"group": "web", "reason": "idle_turns", "turns": 1}])
    );
    let back: ManagedSession<Kit> = serde_json::from_value(value.clone()).unwrap();
    assert_eq!(back, s);

    // A renamed group: strict names it, lenient drops it.
    let mut renamed = value.clone();
    renamed["active"] = json!(["db", "wbe"]);
    let e = serde_json::from_value::<ManagedSession<Kit>>(renamed.clone()).unwrap_err();
    assert!(e.to_string().contains("`wbe`"), "{e}");
    assert!(e.to_string().contains("web"), "did-you-mean: {e}");
    let (lenient, unknown) = ManagedSession::<Kit>::restore_lenient(&renamed).unwrap();
    assert_eq!(unknown, ["wbe"]);
    assert_eq!(active(&lenient), ["db"]);

    // Wrong shapes are errors, never a panic.
    for bad in [
        json!(3),
        json!({"active": "db"}),
        json!({"active": [], "uses": [{"group": "db"}]}),
        json!({"active": [], "extra": 1}),
        json!({"active": [], "pending": [{"group": "db", "reason": "gone"}]}),
    ] {
        assert!(
            serde_json::from_value::<ManagedSession<Kit>>(bad.clone()).is_err(),
            "{bad}"
        );
        assert!(
            ManagedSession::<Kit>::restore_lenient(&bad).is_err(),
            "{bad}"
        );
    }

    // A plain session's names restore too: each active group counts as just used.
    let plain: Session<Kit> = "web, db".parse().unwrap();
    let from_plain: ManagedSession<Kit> =
        serde_json::from_value(serde_json::to_value(plain).unwrap()).unwrap();
    assert_eq!(from_plain.session(), &plain);

    // Forged stamps from the future count as now.
    let forged = json!({"active": ["db"], "turn": 1, "order": 2,
        "uses": [{"group": "db", "order": 99, "turn": 99}]});
    let forged: ManagedSession<Kit> = serde_json::from_value(forged).unwrap();
    assert_eq!(serde_json::to_value(&forged).unwrap()["uses"][0]["turn"], 1);
}

#[tokio::test]
async fn a_state_restored_under_a_smaller_cap_is_brought_under_it_and_told() {
    let wide = with(Lifecycle::new().max_active(4));
    let mut s = wide.managed_session();
    for (tool, args) in [
        ("search", json!({"q": "a"})),
        ("fetch", json!({"url": "a"})),
        ("query", json!({"sql": "a"})),
        ("note", json!({"text": "a"})),
    ] {
        wide.call_managed(&mut s, tool, &args).await;
    }
    let saved = serde_json::to_value(&s).unwrap();
    let narrow = with(Lifecycle::new().max_active(2));
    let mut s: ManagedSession<Kit> = serde_json::from_value(saved).unwrap();
    let r = narrow
        .call_managed(&mut s, "note", &json!({"text": "b"}))
        .await;
    let gone: Vec<&str> = r.deactivations().iter().map(|d| d.group).collect();
    assert_eq!(gone, ["web", "pages"], "the least recently used first");
    assert_eq!(active(&s), ["notes", "db"]);
}

#[tokio::test]
async fn without_first_use_the_notice_names_reset_tools() {
    let kit = Toolkit::new(Kit {
        web: Web,
        pages: Pages,
        notes: Notes,
        db: Db,
        plan: Plan,
    })
    .with_lifecycle(Lifecycle::new().idle_turns(1))
    .unwrap();
    let mut s = kit.managed_session();
    kit.call_managed(&mut s, "reset_tools", &json!({"web": true}))
        .await;
    kit.end_turn(&mut s);
    kit.end_turn(&mut s);
    let r = kit.call_managed(&mut s, "search", &json!({"q": "a"})).await;
    assert!(r.is_error, "web is off");
    assert!(
        r.text_joined()
            .contains("call `reset_tools` with `web` set to true"),
        "{}",
        r.text_joined()
    );
}

#[tokio::test]
async fn idle_for_counts_a_group_active_from_the_start_as_just_used() {
    let kit = with(Lifecycle::new().idle_for(std::time::Duration::from_secs(60)));
    let mut s = ManagedSession::new("web".parse().unwrap());
    let r = kit.call_managed(&mut s, "search", &json!({"q": "a"})).await;
    assert!(!r.is_error, "{}", r.text_joined());
    assert!(r.deactivations().is_empty());
    // Restored, and from a clock ahead of this one: counted from now as well.
    let restored: ManagedSession<Kit> = serde_json::from_value(json!({
        "active": ["web", "db"], "order": 2,
        "uses": [{"group": "web", "order": 1, "turn": 0, "at_ms": 0},
                 {"group": "db", "order": 2, "turn": 0, "at_ms": u64::MAX}]
    }))
    .unwrap();
    let mut s = restored;
    let r = kit.call_managed(&mut s, "search", &json!({"q": "b"})).await;
    assert!(r.deactivations().is_empty());
    assert_eq!(active(&s), ["web", "db"]);
}

#[tokio::test]
async fn forged_counters_at_their_limit_do_not_panic() {
    let kit = with(
        Lifecycle::new()
            .idle_turns(1)
            .idle_requests(3)
            .max_active(3),
    );
    let forged = json!({"active": ["db"], "turn": u64::MAX, "order": u64::MAX,
        "requests": u64::MAX, "uses": [{"group": "db", "order": u64::MAX, "turn": u64::MAX,
        "request": u64::MAX}], "pending": [{"group": "web", "reason": "turn_ended"},
        {"group": "web", "reason": "turn_ended"}]});
    let mut s: ManagedSession<Kit> = serde_json::from_value(forged).unwrap();
    assert_eq!(s.pending().len(), 1, "a duplicate notice is told once");
    for _ in 0..3 {
        kit.call_managed(&mut s, "query", &json!({"sql": "a"}))
            .await;
        kit.call_managed(&mut s, "search", &json!({"q": "a"})).await;
        kit.end_turn(&mut s);
    }
    assert!(s.session().active().count() <= 3);
}

#[tokio::test]
async fn an_empty_batch_keeps_the_notice_for_the_next_result() {
    let kit = with(Lifecycle::new().idle_turns(1));
    let mut s = kit.managed_session();
    kit.call_managed(&mut s, "search", &json!({"q": "a"})).await;
    kit.end_turn(&mut s);
    kit.end_turn(&mut s);
    assert_eq!(s.pending().len(), 1);
    assert!(kit.call_batch_managed(&mut s, &[]).await.is_empty());
    assert_eq!(s.pending().len(), 1, "nothing carried it");
    let r = kit
        .call_managed(&mut s, "query", &json!({"sql": "a"}))
        .await;
    assert_eq!(r.deactivations()[0].group, "web");
}

/// Count the rows.
#[tool]
fn tally() -> Vec<u32> {
    vec![1, 2]
}

#[tool_group(name = "stats", description = "Stats.", tools = [tally])]
struct Stats;

#[toolkit]
struct StatsKit {
    web: Web,
    stats: Stats,
}

/// A structured result's switch-offs reach the model in every provider's rendering (Gemini
/// sends a structured output as JSON, and the notice beside it), and MCP's structured content.
#[tokio::test]
async fn every_rendering_of_a_structured_result_tells_its_switch_offs() {
    use toolgroup::provider::{Provider, Rendered};
    let kit = Toolkit::new(StatsKit {
        web: Web,
        stats: Stats,
    })
    .with_first_use_activation(true)
    .with_lifecycle(Lifecycle::new().max_active(1))
    .unwrap();
    let mut s = kit.managed_session();
    kit.call_managed(&mut s, "search", &json!({"q": "x"})).await;
    let r = kit.call_managed(&mut s, "tally", &json!({})).await;
    assert!(!r.is_error, "{}", r.text_joined());
    assert_eq!(r.structured_content, Some(json!([1, 2])));
    assert_eq!(r.deactivations().len(), 1);
    let call = ToolCall::new("tally", "{}").with_call_id("c1");
    for &provider in Provider::ALL {
        let rendered = Rendered::new(&kit, provider);
        let message = rendered.result_message(&call, &r).unwrap().to_string();
        assert!(
            message.contains("Switched off to keep the active tools few: `web`"),
            "{provider}: {message}"
        );
    }
    let mcp = Rendered::new(&kit, Provider::Mcp)
        .result_message(&call, &r)
        .unwrap();
    assert_eq!(
        mcp["structuredContent"]["deactivated_groups"]["groups"],
        json!([{"group": "web", "reason": "max_active", "max_active": 1}])
    );
    assert_eq!(mcp["structuredContent"]["result"], json!([1, 2]));
}
