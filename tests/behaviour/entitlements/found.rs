//! Skills and tools found at run time, which come with their group: a principal sees and
//! uses them only with the group's scopes.

use serde_json::json;
use toolgroup::prelude::*;
use toolgroup::{CallOutcome, Scopes};

use super::{Notes, names, record, scopes};

/// Fetch a page of a document.
#[tool]
fn page_fetch(
    /// The page.
    page: u32,
) -> String {
    record(format!("page_fetch {page}"))
}

/// Write release notes.
#[tool]
fn notes_write(
    /// The text.
    text: String,
) -> String {
    record(format!("notes_write {text}"))
}

#[tool_group(
    name = "docs",
    description = "Documents.",
    scopes = ["docs:read"],
    tools = [page_fetch],
    skills = ["tests/skills/pdf-tools"]
)]
struct Docs;

#[tool_group(
    name = "writing",
    description = "Writing.",
    tools = [notes_write],
    skills = ["tests/skills/release-notes"]
)]
struct Writing;

#[toolkit]
struct SkillKit {
    docs: Docs,
    writing: Writing,
}

#[tokio::test]
async fn skills_of_unentitled_groups_are_neither_listed_nor_loadable() {
    let kit = Toolkit::new(SkillKit {
        docs: Docs,
        writing: Writing,
    })
    .with_skill_activation(true);
    let writer = kit.entitled(&Scopes::none());
    let reader = kit.entitled(&scopes("docs:read"));
    let session = writer.session();

    let skill = |k: &Toolkit<SkillKit>| {
        k.definitions(&session)
            .find(|d| d.name == "Skill")
            .map(|d| d.input_schema.to_string())
            .unwrap_or_default()
    };
    assert!(skill(&reader).contains("pdf-tools"));
    let shown = skill(&writer);
    assert!(
        shown.contains("release-notes") && !shown.contains("pdf-tools"),
        "{shown}"
    );
    assert!(!writer.skills_prompt(&session).contains("pdf-tools"));

    let mut session = writer.session();
    let r = writer
        .call(&mut session, "Skill", r#"{"skill": "pdf-tools"}"#)
        .await;
    assert!(r.is_error, "{}", r.text_joined());
    assert_eq!(session, writer.session(), "nothing activated");
    let r = writer
        .call(
            &mut session,
            "read_skill_file",
            r#"{"path": "pdf-tools/references/forms.md"}"#,
        )
        .await;
    assert!(r.is_error, "{}", r.text_joined());
    assert!(!r.text_joined().contains("Filling"), "{}", r.text_joined());

    let r = reader
        .call(&mut session, "Skill", r#"{"skill": "pdf-tools"}"#)
        .await;
    assert!(!r.is_error, "{}", r.text_joined());
    assert!(session.is_active(SkillKitGroup::Docs));
}

/// A source of one tool found at run time, counting its calls.
struct Remote {
    calls: std::sync::atomic::AtomicUsize,
}

impl toolgroup::dynamic::DynamicTools for Remote {
    fn tools(&self) -> std::sync::Arc<toolgroup::dynamic::ToolSet> {
        std::sync::Arc::new(toolgroup::dynamic::ToolSet::new(vec![
            toolgroup::dynamic::DynamicTool::new(
                "remote_query",
                "Query the remote server.",
                json!({"type": "object", "properties": {}}),
            ),
        ]))
    }

    fn call<'a>(
        &'a self,
        _tool: &'static toolgroup::ToolDefinition,
        _ctx: toolgroup::ToolContext<'a>,
        _arguments: toolgroup::args::Arguments<'a>,
    ) -> toolgroup::BoxFuture<'a, toolgroup::CallResult> {
        self.calls.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        Box::pin(async { toolgroup::CallResult::text("remote answer") })
    }
}

#[tool_group(
    name = "remote",
    description = "A remote server.",
    scopes = ["remote:use"],
    dynamic
)]
struct RemoteGroup;

#[toolkit]
struct RemoteKit {
    #[basic]
    notes: Notes,
    remote: toolgroup::dynamic::Dynamic<RemoteGroup, Remote>,
}

#[tokio::test]
async fn tools_found_at_run_time_follow_their_group_s_scopes() {
    let kit = Toolkit::new(RemoteKit {
        notes: Notes,
        remote: toolgroup::dynamic::Dynamic::new(Remote {
            calls: Default::default(),
        }),
    });
    let all = Session::all();
    let user = kit.entitled(&scopes("remote:use"));
    let guest = kit.entitled(&Scopes::none());
    assert_eq!(names(&user, &all), ["reset_tools", "note", "remote_query"]);
    assert_eq!(names(&guest, &all), ["note"]);
    assert_eq!(
        kit.required_scopes("remote_query"),
        Some(scopes("remote:use"))
    );
    assert_eq!(
        guest.missing_scopes("remote_query"),
        Some(scopes("remote:use"))
    );

    let mut session = Session::all();
    let r = guest.call(&mut session, "remote_query", "{}").await;
    assert_eq!(r.outcome(), CallOutcome::InsufficientScope);
    assert!(
        r.text_joined().contains("`remote:use`"),
        "{}",
        r.text_joined()
    );
    let calls = |k: &Toolkit<RemoteKit>| {
        k.registry()
            .remote
            .source()
            .calls
            .load(std::sync::atomic::Ordering::SeqCst)
    };
    assert_eq!(calls(&kit), 0, "the source was not called");
    let r = user.call(&mut session, "remote_query", "{}").await;
    assert_eq!(r.outcome(), CallOutcome::Ok, "{}", r.text_joined());
    assert_eq!(calls(&kit), 1);
}
