//! The examples that tell a story, run and checked.

#[allow(dead_code)]
#[path = "../examples/approval.rs"]
mod approval;

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
