//! Before the skills benchmark is timed: each call it times answers what it is meant to (no
//! error, a first load rather than "already loaded", the file itself), and the listing with
//! skills differs from the one without by the two builtin tools only.

use toolgroup::Content;
use toolgroup_bench::skills::*;

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime")
}

#[test]
fn every_timed_call_answers_what_it_is_meant_to() {
    let rt = runtime();
    let (kit, session) = skilled_setup();
    let call = |name: &str, args: &str| {
        let mut s = session;
        rt.block_on(kit.call(&mut s, name, args))
    };
    let fetched = call("page_fetch", FETCH_ARGS);
    assert_eq!(
        fetched.text_joined(),
        "fetched https://example.com/form.pdf"
    );

    let loaded = call("Skill", SKILL_ARGS);
    assert!(!loaded.is_error, "{}", loaded.text_joined());
    assert!(
        loaded
            .text_joined()
            .starts_with("<skill_content name=\"pdf-tools\">"),
        "a first load, not `already loaded`: {}",
        loaded.text_joined()
    );

    let text = call("read_skill_file", TEXT_FILE_ARGS);
    assert_eq!(
        text.text_joined(),
        std::fs::read_to_string("../tests/skills/pdf-tools/references/forms.md").unwrap()
    );
    let image = call("read_skill_file", IMAGE_FILE_ARGS);
    let [Content::Image { data, .. }] = &image.content[..] else {
        panic!("one image block: {:?}", image.content)
    };
    assert_eq!(
        data,
        &std::fs::read("../tests/skills/pdf-tools/assets/logo.png").unwrap()
    );
}

#[test]
fn the_listings_differ_by_the_two_skill_tools() {
    let (kit, session) = skilled_setup();
    let (plain, plain_session) = plain_setup();
    let with: Vec<&str> = kit.definitions(&session).map(|d| d.name).collect();
    let without: Vec<&str> = plain.definitions(&plain_session).map(|d| d.name).collect();
    assert_eq!(
        with,
        [
            "reset_tools",
            "Skill",
            "read_skill_file",
            "note_write",
            "page_fetch"
        ]
    );
    assert_eq!(without, ["reset_tools", "note_write", "page_fetch"]);
    assert_eq!(
        count_names(&kit, &session),
        count_names(&plain, &plain_session) + "Skill".len() + "read_skill_file".len()
    );
}
