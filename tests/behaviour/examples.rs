//! The examples that tell a story, run and checked.

#[allow(dead_code)]
#[path = "../../examples/approval.rs"]
mod approval;
#[path = "../../examples/support/charts.rs"]
mod charts;

// `charts` reaches the quickstart's groups as `super::agent`: the copy `common` compiled.
use crate::common::quickstart as agent;
use crate::png;

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
    let [
        toolgroup::Content::Image {
            data, mime_type, ..
        },
    ] = &r.content[..]
    else {
        panic!("one image block: {:?}", r.content)
    };
    assert_eq!(mime_type, "image/png");
    let image = png::read(data);
    assert_eq!((image.width, image.height), (32, 80));
    assert_eq!(image.column_run(9, 1), 0, "no bar");
    assert_eq!(image.column_run(9, 2), 1, "the axis");
}
