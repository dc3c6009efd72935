//! The application's side and the activation policy.

use serde_json::json;
use toolgroup::prelude::*;

use super::{DocsSkill, KitGroup, KitReset, kit, names, skill_enum, text};

#[tokio::test]
async fn the_application_loads_a_skill_without_strings() {
    let toolkit = kit();
    let mut session = toolkit.session();
    let loaded = toolkit
        .load_skill(&mut session, DocsSkill::PdfTools)
        .unwrap();
    assert!(text(&loaded).starts_with("<skill_content name=\"pdf-tools\">"));
    assert!(toolkit.is_skill_loaded(&session, DocsSkill::PdfTools));
    // It does not activate the group.
    assert!(!session.is_active(KitGroup::Docs));
    let skills: Vec<&str> = toolkit.skills().map(|s| s.name).collect();
    assert_eq!(skills, ["release-notes", "pdf-tools"]);
    assert_eq!(
        toolkit.skill("pdf-tools").unwrap().description,
        DocsSkill::PdfTools.description()
    );
}

#[tokio::test]
async fn with_activation_loading_a_skill_activates_its_group_until_the_next_reset() {
    let toolkit = kit().with_skill_activation(true);
    let mut session = toolkit.session();
    // Every skill is visible, so the model can name it.
    assert_eq!(
        skill_enum(&toolkit, &session),
        ["release-notes", "pdf-tools"]
    );
    assert_eq!(
        toolkit.definition("Skill").unwrap().annotations.read_only,
        Some(false)
    );

    let before = session;
    let refused = toolkit
        .call(&mut session, "Skill", r#"{"skill": "pdf-toolz"}"#)
        .await;
    assert!(refused.is_error);
    assert_eq!(session, before, "a refused load activates nothing");

    let result = toolkit
        .call(&mut session, "Skill", r#"{"skill": "pdf-tools"}"#)
        .await;
    assert!(!result.is_error);
    let t = text(&result);
    assert!(
        t.starts_with("Loading the skill `pdf-tools` activated its group `docs`"),
        "{t}"
    );
    assert!(
        t.contains("<group name=\"docs\">\nCite the page of every value you copy.\n</group>"),
        "{t}"
    );
    assert!(t.contains("<skill_content name=\"pdf-tools\">"), "{t}");
    assert_eq!(
        result.structured_content.unwrap()["activated"],
        json!(["docs"])
    );
    assert!(session.is_active(KitGroup::Docs));
    assert!(names(&toolkit, &session).contains(&"page_fetch"));

    // Final-state semantics: a `reset_tools` that leaves `docs` out deactivates it.
    toolkit
        .call(
            &mut session,
            "reset_tools",
            r#"{"docs": false, "web": true}"#,
        )
        .await;
    assert!(!session.is_active(KitGroup::Docs));
}

#[tokio::test]
async fn a_skill_load_is_a_barrier_in_a_batch() {
    let toolkit = kit().with_skill_activation(true);
    let mut session = toolkit.session();
    let calls = [
        ToolCall::new("page_fetch", r#"{"url": "a"}"#),
        ToolCall::new("Skill", r#"{"skill": "pdf-tools"}"#),
        ToolCall::new("page_fetch", r#"{"url": "b"}"#),
    ];
    let results = toolkit.call_batch(&mut session, &calls).await;
    assert!(results[0].is_error, "before the load, `docs` is inactive");
    assert!(!results[1].is_error);
    assert!(!results[2].is_error, "{}", text(&results[2]));
    assert_eq!(text(&results[2]), "fetched b");
}

#[tokio::test]
async fn through_layers_a_load_is_applied_and_never_cached() {
    let toolkit =
        kit()
            .with_skill_activation(true)
            .layer(toolgroup::middleware::IdempotentCacheLayer::new(
                100,
                std::time::Duration::from_secs(60),
            ));
    let mut one = toolkit.session();
    let r = toolkit
        .call(&mut one, "Skill", r#"{"skill": "pdf-tools"}"#)
        .await;
    assert!(!r.is_error);
    assert!(one.is_active(KitGroup::Docs));
    let mut two = toolkit.session();
    let r = toolkit
        .call(&mut two, "Skill", r#"{"skill": "pdf-tools"}"#)
        .await;
    assert!(text(&r).contains("activated its group"), "{}", text(&r));
    assert!(two.is_active(KitGroup::Docs));
    let r = toolkit
        .call(
            &mut two,
            "read_skill_file",
            r#"{"path": "pdf-tools/references/forms.md"}"#,
        )
        .await;
    assert!(!r.is_error);
}

#[tokio::test]
async fn the_applications_group_switches_keep_which_skills_were_loaded() {
    let toolkit = kit();
    let mut session = toolkit.session();
    toolkit
        .load_skill(&mut session, DocsSkill::PdfTools)
        .unwrap();
    session.reset(KitReset {
        docs: false,
        web: true,
    });
    assert!(session.is_active(KitGroup::Web));
    assert!(toolkit.is_skill_loaded(&session, DocsSkill::PdfTools));
    session.deactivate_all();
    assert!(!session.is_active(KitGroup::Web));
    assert!(toolkit.is_skill_loaded(&session, DocsSkill::PdfTools));
    // The group bits alone are what a session's names say.
    assert_eq!(session.active_names().count(), 0);
}

#[tokio::test]
async fn without_reset_tools_the_hint_does_not_name_it() {
    let toolkit = kit().with_reset_tools(false);
    let mut session = toolkit.session();
    let result = toolkit
        .call(&mut session, "Skill", r#"{"skill": "pdf-tools"}"#)
        .await;
    assert!(result.is_error);
    assert!(
        text(&result).contains("which is not active"),
        "{}",
        text(&result)
    );
    assert!(!text(&result).contains("reset_tools"), "{}", text(&result));
    assert_eq!(names(&toolkit, &session), ["Skill", "note_write"]);
}

#[test]
fn a_transcript_replays_skill_loads_and_the_groups_they_activated() {
    use toolgroup::provider::{Provider, transcript};
    let toolkit = kit().with_skill_activation(true);
    let conversation = [
        json!({"role": "user", "content": "Fill in the form."}),
        json!({"role": "assistant", "content": [
            {"type": "tool_use", "id": "t1", "name": "Skill", "input": {"skill": "pdf-tools"}},
        ]}),
        json!({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "t1", "content": "<skill_content name=\"pdf-tools\">..."},
        ]}),
        // A refused load (an error result) changes nothing.
        json!({"role": "assistant", "content": [
            {"type": "tool_use", "id": "t2", "name": "Skill", "input": {"skill": "release-notes"}},
        ]}),
        json!({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "t2", "is_error": true, "content": "refused"},
        ]}),
    ];
    let replayed = transcript::replay(&toolkit, Provider::Anthropic, &conversation).unwrap();
    let session = replayed.session();
    assert!(
        session.is_active(KitGroup::Docs),
        "the load activated `docs`"
    );
    assert!(toolkit.is_skill_loaded(&session, DocsSkill::PdfTools));
    assert!(!toolkit.is_skill_loaded(&session, super::WritingSkill::ReleaseNotes));
    assert_eq!(replayed.resets(), 0);
}

#[tokio::test]
async fn a_session_is_its_groups_and_round_trips_after_a_skill_load() {
    let toolkit = kit();
    let mut session = toolkit.session();
    session.activate(KitGroup::Docs);
    let before = session;
    toolkit
        .load_skill(&mut session, DocsSkill::PdfTools)
        .unwrap();
    assert!(toolkit.is_skill_loaded(&session, DocsSkill::PdfTools));
    // Equality, hashing, Debug and serialisation see the groups only.
    assert_eq!(session, before);
    let hash = |s: &Session<_>| {
        use std::hash::{BuildHasher, RandomState};
        let state = RandomState::new();
        (state.hash_one(s), state.hash_one(before))
    };
    let (a, b) = hash(&session);
    assert_eq!(a, b);
    assert_eq!(format!("{session:?}"), format!("{before:?}"));
    let json = serde_json::to_value(session).unwrap();
    assert_eq!(json, json!(["docs"]));
    let restored: Session<_> = serde_json::from_value(json).unwrap();
    assert_eq!(restored, session);
    // The marks live in memory only: a restored session has loaded no skill.
    assert!(!toolkit.is_skill_loaded(&restored, DocsSkill::PdfTools));
}

/// A layer that keeps every `reset_tools` request it sees (answering it itself), and with it
/// the toolkit's shared core, as a `Buffer` or a request log could.
#[derive(Clone)]
struct KeepResets<S> {
    inner: S,
    kept: std::sync::Arc<std::sync::Mutex<Vec<toolgroup::middleware::ToolRequest>>>,
}

impl<S> tower::Service<toolgroup::middleware::ToolRequest> for KeepResets<S>
where
    S: tower::Service<
            toolgroup::middleware::ToolRequest,
            Response = toolgroup::middleware::ToolResponse,
        >,
    S::Future: Send + 'static,
{
    type Response = toolgroup::middleware::ToolResponse;
    type Error = S::Error;
    type Future = toolgroup::BoxFuture<'static, Result<Self::Response, S::Error>>;

    fn poll_ready(
        &mut self,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: toolgroup::middleware::ToolRequest) -> Self::Future {
        if request.tool == "reset_tools" {
            self.kept.lock().unwrap().push(request);
            let answer = toolgroup::middleware::ToolResponse::new(CallResult::text("kept"));
            return Box::pin(async move { Ok(answer) });
        }
        Box::pin(self.inner.call(request))
    }
}

#[tokio::test]
async fn configuring_a_toolkit_a_layer_still_holds_copies_it_instead_of_skipping() {
    let kept = std::sync::Arc::default();
    let keep = std::sync::Arc::clone(&kept);
    let toolkit = kit().layer(tower::layer::layer_fn(move |inner| KeepResets {
        inner,
        kept: std::sync::Arc::clone(&keep),
    }));
    let mut session = toolkit.session();
    toolkit.call(&mut session, "reset_tools", "{}").await;
    assert_eq!(kept.lock().unwrap().len(), 1, "the layer holds a request");

    // The core is shared with the kept request: the builder copies it, and the option holds.
    let toolkit = toolkit.with_reset_tools(false).with_skill_activation(false);
    let r = toolkit
        .call(&mut session, "Skill", r#"{"skill": "pdf-tools"}"#)
        .await;
    let t = text(&r);
    assert!(t.contains("which is not active"), "{t}");
    assert!(
        !t.contains("reset_tools"),
        "the answer names reset_tools although it is hidden: {t}"
    );
}
