//! The skills extension (SEP-2640) through rmcp's own client: the capability, `skills/list`
//! and `skills/get` with the embedded files' digests, `resources/list` and `resources/read`,
//! the `-32602` answers to bad names and URIs (which change nothing), and the `Skill` tool in
//! every mode.

use crate::skills_support;
use crate::support;

use base64::Engine as _;
use rmcp::model::{
    ErrorCode, GetSkillRequestParams, ProtocolVersion, ReadResourceRequestParams, ResourceContents,
    Skill, SkillResources, sha256_digest,
};
use rmcp::{ClientLifecycleMode, RoleClient, service::RunningService};
use serde_json::json;
use skills_support::Forms;
use support::{Counting, call, connect, connect_with, names, rpc_error, text};
use toolgroup::Session;
use toolgroup_mcp::{GROUP_META_KEY, McpServer, Mode};

type Client = RunningService<RoleClient, Counting>;

fn server(mode: Mode) -> McpServer<Forms> {
    McpServer::new(skills_support::toolkit(), mode)
        // These tests are about refusing calls of inactive groups (`first_use.rs` tests the
        // default, activation on first use).
        .with_first_use_activation(false)
}

async fn skill_list(client: &Client) -> Vec<Skill> {
    client.list_all_skills().await.expect("skills/list")
}

/// The bytes of the resource at `uri`, as read over `resources/read`, and its MIME type.
async fn read(client: &Client, uri: &str) -> (Vec<u8>, Option<String>, bool) {
    let result = client
        .read_resource(ReadResourceRequestParams::new(uri))
        .await
        .unwrap_or_else(|e| panic!("resources/read {uri}: {e}"));
    assert_eq!(result.contents.len(), 1, "{uri}");
    match &result.contents[0] {
        ResourceContents::TextResourceContents {
            uri: got,
            text,
            mime_type,
            ..
        } => {
            assert_eq!(got, uri);
            (text.as_bytes().to_vec(), mime_type.clone(), true)
        }
        ResourceContents::BlobResourceContents {
            uri: got,
            blob,
            mime_type,
            ..
        } => {
            assert_eq!(got, uri);
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(blob)
                .expect("the blob is base64");
            (bytes, mime_type.clone(), false)
        }
        other => panic!("{uri}: unexpected contents {other:?}"),
    }
}

#[tokio::test]
async fn the_extension_and_resources_are_declared_only_with_skills() {
    let (client, _) = connect(&server(Mode::Mask), Session::new()).await;
    let caps = &client.peer_info().unwrap().capabilities;
    assert!(caps.supports_skills(), "{caps:?}");
    assert!(caps.resources.is_some(), "{caps:?}");

    let plain = McpServer::new(support::toolkit(), Mode::Mask);
    let (client, _) = connect(&plain, Session::new()).await;
    let caps = &client.peer_info().unwrap().capabilities;
    assert!(
        !caps.supports_skills() && caps.resources.is_none(),
        "{caps:?}"
    );
}

#[tokio::test]
async fn every_connection_lists_every_skill_with_the_embedded_files() {
    let toolkit = skills_support::toolkit();
    let mask = server(Mode::Mask);
    let (none, _) = connect(&mask, Session::new()).await;
    let (docs, _) = connect(&mask, "docs".parse::<Session<_>>().unwrap()).await;
    let selected = server(Mode::Selected);
    let (chosen, _) = connect(&selected, "".parse::<Session<_>>().unwrap()).await;
    let listed = skill_list(&none).await;
    assert_eq!(listed, skill_list(&docs).await);
    assert_eq!(listed, skill_list(&chosen).await);

    let names: Vec<&str> = listed.iter().map(Skill::name).collect();
    assert_eq!(names, ["release-checklist", "pdf-forms"]);
    for skill in &listed {
        let info = toolkit.skill(skill.name()).unwrap();
        assert_eq!(skill.uri, format!("skill://{}/SKILL.md", info.name));
        assert_eq!(
            skill.meta.as_ref().unwrap().0[GROUP_META_KEY],
            json!(info.group)
        );
        let got = none
            .get_skill(GetSkillRequestParams::new(&skill.uri))
            .await
            .unwrap();
        assert_eq!(&got.skill, skill, "skills/get is the listed entry");
        let SkillResources::Files(files) = &skill.resources else {
            panic!("a compiled-in skill has a manifest");
        };
        assert_eq!(files.len(), info.files.len());
        for (entry, file) in files.iter().zip(info.files) {
            assert_eq!(entry.uri, format!("skill://{}/{}", info.name, file.path));
            let (bytes, mime, is_text) = read(&none, &entry.uri).await;
            assert_eq!(bytes, file.bytes, "{}", entry.uri);
            assert_eq!(entry.size, bytes.len() as u64);
            // Computed here from the bytes read, apart from the digest embedded at compile time.
            assert_eq!(entry.digest, sha256_digest(&bytes));
            entry.verify(&bytes).unwrap();
            assert_eq!(mime.as_deref(), Some(file.mime));
            assert_eq!(is_text, file.text, "{}", entry.uri);
        }
    }
    let pdf = &listed[1];
    assert_eq!(
        serde_json::to_value(&pdf.frontmatter).unwrap(),
        json!({
            "name": "pdf-forms",
            "description": "Fill in PDF forms: read the field guide, then stamp the form.",
            "license": "Apache-2.0",
            "allowed-tools": "form_fill",
            "metadata": {"owner": "docs-team", "reviewed": "2026-01-15"},
            "version": 1.2,
            "user-invocable": false
        })
    );
    let (_, mime, is_text) = read(&none, "skill://pdf-forms/assets/stamp.png").await;
    assert_eq!((mime.as_deref(), is_text), (Some("image/png"), false));

    let resources = none.list_all_resources().await.unwrap();
    let uris: Vec<&str> = resources.iter().map(|r| r.uri.as_str()).collect();
    assert_eq!(
        uris,
        [
            "skill://release-checklist/SKILL.md",
            "skill://pdf-forms/SKILL.md"
        ]
    );
    assert_eq!(resources[1].name, "pdf-forms");
    assert_eq!(resources[1].mime_type.as_deref(), Some("text/markdown"));
    assert_eq!(
        resources[1].size,
        Some(toolkit.skill("pdf-forms").unwrap().skill_md().len() as u64)
    );
}

#[tokio::test]
async fn bad_names_and_uris_are_invalid_params_and_change_nothing() {
    let server = server(Mode::Mask);
    let (client, _) = connect(&server, Session::new()).await;
    let skills_before = skill_list(&client).await;
    let tools_before = names(&client).await;
    let refused = |uri: &'static str, expect: &'static [&'static str]| {
        let client = &client;
        async move {
            let (code, message) = rpc_error(
                client
                    .read_resource(ReadResourceRequestParams::new(uri))
                    .await
                    .expect_err(uri),
            );
            assert_eq!(code, ErrorCode::INVALID_PARAMS, "{uri}: {message}");
            for part in expect {
                assert!(message.contains(part), "{uri}: {message}");
            }
            assert!(!message.contains('\u{1b}'), "{uri}: {message}");
        }
    };
    refused(
        "file:///etc/passwd",
        &["`file:///etc/passwd` is not a skill URI"],
    )
    .await;
    refused("skill://pdf-forms/../x", &["`..` segment"]).await;
    refused(
        "skill://pdf-forms/references/../SKILL.md",
        &["`..` segment"],
    )
    .await;
    refused(
        "skill://pdf-forms/%2e%2e/%2E%2E/etc/passwd",
        &["`..` segment"],
    )
    .await;
    refused("skill://pdf-forms//SKILL.md", &["empty"]).await;
    refused(
        "skill://pdf-forms/",
        &["names no file", "skill://pdf-forms/SKILL.md"],
    )
    .await;
    refused("skill://pdf-forms/SKILL.md?x=1", &["query or a fragment"]).await;
    refused(
        "skill://pdf-forms/references/field.md",
        &[
            "no file `references/field.md`",
            "did you mean `skill://pdf-forms/references/fields.md`?",
        ],
    )
    .await;
    refused(
        "skill://pdf-form/SKILL.md",
        &["unknown skill `pdf-form`", "did you mean `pdf-forms`?"],
    )
    .await;
    refused("skill://pdf-forms/\u{1b}[31mx", &["\\u{1b}[31mx"]).await;
    refused("skill://pdf-forms/%FF", &["not UTF-8"]).await;

    for (uri, expect) in [
        ("skill://pdf-form/SKILL.md", "did you mean `pdf-forms`?"),
        (
            "skill://pdf-forms/references/SKILL.md",
            "is not the SKILL.md of the skill `pdf-forms`: `skills/get` takes `skill://pdf-forms/SKILL.md`",
        ),
        ("file:///x/SKILL.md", "is not a skill URI"),
        ("skill://pdf-forms/../pdf-forms/SKILL.md", "`..` segment"),
        // rmcp refuses this one before the handler: it does not end in `/SKILL.md`.
        (
            "skill://pdf-forms/assets/stamp.png",
            "is not the uri of a SKILL.md",
        ),
    ] {
        let (code, message) = rpc_error(
            client
                .get_skill(GetSkillRequestParams::new(uri))
                .await
                .expect_err(uri),
        );
        assert_eq!(code, ErrorCode::INVALID_PARAMS, "{uri}: {message}");
        assert!(message.contains(expect), "{uri}: {message}");
    }
    assert_eq!(skill_list(&client).await, skills_before);
    assert_eq!(names(&client).await, tools_before);
    // The group of the skill asked for is still inactive.
    let r = call(&client, "form_fill", json!({"field": "a", "value": "b"}))
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(true), "{}", text(&r));
}

#[tokio::test]
async fn a_2026_client_gets_public_cache_hints() {
    let (client, _) = connect_with(
        &server(Mode::Mask),
        Session::new(),
        ClientLifecycleMode::Discover {
            preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        },
    )
    .await;
    let listed = client.list_skills(None).await.unwrap();
    assert_eq!(listed.cache_scope, Some(rmcp::model::CacheScope::Public));
    assert!(listed.ttl_ms.is_some_and(|t| t > 0));
    let (code, _) = rpc_error(
        client
            .read_resource(ReadResourceRequestParams::new("skill://nope/SKILL.md"))
            .await
            .unwrap_err(),
    );
    assert_eq!(code, ErrorCode::INVALID_PARAMS);
}

#[tokio::test]
async fn the_skill_tools_are_listed_and_run_in_every_mode() {
    // Mask: every tool, the skill tools naming every skill; a skill of an inactive group is
    // refused, naming the group.
    let mask = server(Mode::Mask);
    let (client, _) = connect(&mask, Session::new()).await;
    let listed = names(&client).await;
    assert_eq!(
        listed,
        [
            "reset_tools",
            "Skill",
            "read_skill_file",
            "note_write",
            "form_fill"
        ]
    );
    let r = call(&client, "Skill", json!({"skill": "release-checklist"}))
        .await
        .unwrap();
    assert_ne!(r.is_error, Some(true), "{}", text(&r));
    assert!(
        text(&r).contains("the changelog names every change"),
        "{}",
        text(&r)
    );
    let r = call(&client, "Skill", json!({"skill": "pdf-forms"}))
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(true), "{}", text(&r));
    assert!(text(&r).contains("docs"), "{}", text(&r));
    let r = call(&client, "reset_tools", json!({"docs": true}))
        .await
        .unwrap();
    assert_ne!(r.is_error, Some(true), "{}", text(&r));
    let r = call(
        &client,
        "read_skill_file",
        json!({"path": "pdf-forms/references/fields.md"}),
    )
    .await
    .unwrap();
    assert!(text(&r).contains("ISO 8601"), "{}", text(&r));

    // Dynamic: `read_skill_file` only once a visible skill has files.
    let dynamic = server(Mode::List);
    let (client, _) = connect(&dynamic, Session::new()).await;
    assert_eq!(names(&client).await, ["reset_tools", "Skill", "note_write"]);
    let r = call(&client, "reset_tools", json!({"docs": true}))
        .await
        .unwrap();
    assert_ne!(r.is_error, Some(true), "{}", text(&r));
    assert_eq!(
        names(&client).await,
        [
            "reset_tools",
            "Skill",
            "read_skill_file",
            "note_write",
            "form_fill"
        ]
    );
    let r = call(&client, "Skill", json!({"skill": "pdf-forms"}))
        .await
        .unwrap();
    assert!(text(&r).contains("Read [the field guide]"), "{}", text(&r));

    // Selected: the skill tools of the chosen groups, with enums of their skills only.
    let selected = server(Mode::Selected);
    let (client, _) = connect(&selected, "".parse::<Session<_>>().unwrap()).await;
    let tools = client.list_all_tools().await.unwrap();
    let listed: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(listed, ["Skill", "note_write"]);
    assert_eq!(
        tools[0].input_schema["properties"]["skill"]["enum"],
        json!(["release-checklist"])
    );
    let r = call(&client, "Skill", json!({"skill": "release-checklist"}))
        .await
        .unwrap();
    assert_ne!(r.is_error, Some(true), "{}", text(&r));
    let (client, _) = connect(&selected, "docs".parse::<Session<_>>().unwrap()).await;
    assert_eq!(
        names(&client).await,
        ["Skill", "read_skill_file", "note_write", "form_fill"]
    );
    let r = call(&client, "Skill", json!({"skill": "pdf-forms"}))
        .await
        .unwrap();
    assert_ne!(r.is_error, Some(true), "{}", text(&r));
    assert!(text(&r).contains("Read [the field guide]"), "{}", text(&r));
}

#[tokio::test]
async fn a_skill_load_that_activates_a_group_is_kept_or_refused_never_lost() {
    // A connection's own session: the activated group is kept for the next call.
    let server = McpServer::new(
        skills_support::toolkit().with_skill_activation(true),
        Mode::Mask,
    )
    // The skill load activates here, not the tool's first call.
    .with_first_use_activation(false);
    let (client, _) = connect(&server, Session::new()).await;
    let r = call(&client, "form_fill", json!({"field": "a", "value": "b"}))
        .await
        .unwrap();
    assert_eq!(
        r.is_error,
        Some(true),
        "docs is inactive at first: {}",
        text(&r)
    );
    let r = call(&client, "Skill", json!({"skill": "pdf-forms"}))
        .await
        .unwrap();
    assert_ne!(r.is_error, Some(true), "{}", text(&r));
    assert!(
        text(&r).contains("activated its group `docs`"),
        "{}",
        text(&r)
    );
    let r = call(&client, "form_fill", json!({"field": "a", "value": "b"}))
        .await
        .unwrap();
    assert_ne!(
        r.is_error,
        Some(true),
        "the activation was kept: {}",
        text(&r)
    );

    // A connection whose groups are fixed (selected mode) cannot take the activation.
    let selected = McpServer::new(
        skills_support::toolkit().with_skill_activation(true),
        Mode::Selected,
    );
    let (client, _) = connect(&selected, Session::new()).await;
    let r = call(&client, "Skill", json!({"skill": "pdf-forms"}))
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(true), "{}", text(&r));
    assert!(text(&r).contains("Nothing was changed"), "{}", text(&r));
    // A skill of a basic group activates nothing: it loads.
    let r = call(&client, "Skill", json!({"skill": "release-checklist"}))
        .await
        .unwrap();
    assert_ne!(r.is_error, Some(true), "{}", text(&r));
}
