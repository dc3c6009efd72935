//! The examples that tell a story, run and checked.

#[allow(dead_code)]
#[path = "../../examples/approval.rs"]
mod approval;
#[path = "../../examples/support/charts.rs"]
mod charts;

// `charts` reaches the quickstart's groups as `super::agent`: the copy `common` compiled.
use crate::common::quickstart as agent;
use crate::png;

/// The bytes of a result that is one PNG image block.
fn one_png(r: &toolgroup::CallResult) -> &[u8] {
    let [
        toolgroup::Content::Image {
            data, mime_type, ..
        },
    ] = &r.content[..]
    else {
        panic!("one image block: {:?}", r.content)
    };
    assert_eq!(mime_type, "image/png");
    data
}

#[tokio::test]
async fn approval_example_transcript() {
    assert_eq!(
        approval::run().await,
        "\
model calls list_files {}
  ok: ada's files: notes.txt, draft.md
model calls delete_file {\"name\": \"draft.md\"}
  approver: may the agent run `delete_file` for ada?
  ok: deleted draft.md for ada
model calls delete_file {\"name\": \"notes.txt\"}
  approver: may the agent run `delete_file` for ada?
  error: `delete_file` was not run: denied by policy: not approved: keep that one
model calls delete_file {\"name\": \"notes.txt\"}
  approver: may the agent run `delete_file` for ada?
  error: `delete_file` was not run: denied by policy: not approved: no answer within 200ms"
    );
}

/// The chart tool refuses what it cannot draw with an error result naming the problem.
#[tokio::test]
async fn the_chart_tool_refuses_what_it_cannot_draw() {
    let toolkit = charts::toolkit();
    let mut session = toolkit.session();
    session.activate(charts::AnalystGroup::Charts);
    let too_many = format!("{{\"values\": {:?}}}", vec![1; 33]);
    for (args, error) in [
        (r#"{"values": []}"#, "give at least one value to draw"),
        (
            too_many.as_str(),
            "a chart has at most 32 bars; got 33 values",
        ),
        (
            r#"{"values": [1, -2.5]}"#,
            "value -2.5 (index 1) cannot be drawn: bars are finite and not negative",
        ),
    ] {
        let r = toolkit.call(&mut session, "bar_chart", args).await;
        assert!(r.is_error, "{args}");
        assert_eq!(r.text_joined(), error, "{args}");
        assert!(r.content.iter().all(|c| c.as_text().is_some()), "{args}");
    }
    let r = toolkit
        .call(&mut session, "bar_chart", r#"{"values": "1 2"}"#)
        .await;
    assert!(r.is_error);
    assert!(r.text_joined().contains("`values`"), "{}", r.text_joined());
    // A chart of zeros is an axis without bars.
    let r = toolkit
        .call(&mut session, "bar_chart", r#"{"values": [0, 0]}"#)
        .await;
    assert!(!r.is_error, "{}", r.text_joined());
    let data = one_png(&r);
    let image = png::read(data);
    assert_eq!((image.width, image.height), (32, 80));
    assert_eq!(image.column_run(9, 1), 0, "no bar");
    assert_eq!(image.column_run(9, 2), 1, "the axis");
}

#[allow(dead_code)]
#[path = "../../examples/skills.rs"]
mod skills_example;

/// The skills example's transcript holds, in order, the lines that tell its story (and that
/// `.ci/run` greps in its output).
#[tokio::test]
async fn skills_example_transcript() {
    let transcript = skills_example::run().await;
    let lines: Vec<&str> = transcript.lines().collect();
    let expected = [
        "  <skill><name>meeting-notes</name><description>Write meeting notes as decisions, then actions with an owner. Use it after a meeting.</description><dir>skill://meeting-notes/</dir></skill>",
        "turn 1: reset_tools, Skill, note_write",
        "  model calls Skill {\"skill\": \"pdf-forms\"}",
        "  result (error):",
        "    the skill `pdf-forms` was not loaded: it belongs to the group `documents`, which is not active. Call `reset_tools` with `documents` set to true (and every group you want to keep active), then load the skill.",
        "turn 2: reset_tools, Skill, note_write",
        "    <new-skills>",
        "    <skill group=\"documents\"><name>pdf-forms</name><description>Fill in a PDF form field by field. Use it when a task hands you a PDF form.</description></skill>",
        "    <skill group=\"documents\"><name>invoices</name><description>Check an invoice's totals before it is paid. Use it when a task mentions an invoice.</description></skill>",
        "turn 3: reset_tools, Skill, read_skill_file, note_write, pdf_fill",
        "    <skill_content name=\"pdf-forms\">",
        "    - pdf-forms/assets/stamp.png (image/png, 99 bytes)",
        "    - pdf-forms/references/fields.md (text/markdown, 140 bytes)",
        "turn 4: reset_tools, Skill, read_skill_file, note_write, pdf_fill",
        "    # Field guide",
        "turn 5: reset_tools, Skill, read_skill_file, note_write, pdf_fill",
        "    [an image: image/png, 99 bytes]",
        "active groups at the end: [\"documents\"]",
        "turn 1: reset_tools, Skill, read_skill_file, note_write",
        "    Loading the skill `invoices` activated its group `documents`; the other groups are unchanged. Its tools are available now; `reset_tools` sets every group's state again.",
        "turn 2: reset_tools, Skill, read_skill_file, note_write, pdf_fill",
        "    filled total = 120.00",
        "active groups at the end: [\"documents\"]",
    ];
    let mut rest = lines.iter();
    for line in expected {
        assert!(
            rest.any(|l| *l == line),
            "missing, or out of order: {line:?}\n{transcript}"
        );
    }
    assert!(
        lines.iter().all(|l| l.trim_end() == *l),
        "trailing blanks:\n{transcript}"
    );
}

/// The image the example serves is the PNG committed under `examples/skills/`, byte for byte.
#[tokio::test]
async fn the_skills_example_serves_its_png_unchanged() {
    let toolkit = skills_example::office();
    let mut session = toolkit.session();
    toolkit
        .call(&mut session, "reset_tools", r#"{"documents": true}"#)
        .await;
    let r = toolkit
        .call(
            &mut session,
            "read_skill_file",
            r#"{"path": "pdf-forms/assets/stamp.png"}"#,
        )
        .await;
    let data = one_png(&r);
    let file = std::fs::read("examples/skills/pdf-forms/assets/stamp.png").unwrap();
    assert!(file.starts_with(b"\x89PNG\r\n\x1a\n"));
    assert_eq!(data, &file[..]);
}
