//! The macros' generated code uses fully qualified paths: it still compiles and works when the
//! calling module shadows the prelude's names.
#![allow(dead_code, non_camel_case_types, clippy::disallowed_names)]

mod shadowed {
    struct Result;
    struct Option;
    struct Box;
    struct Some;
    struct Ok;
    struct Err;
    struct None;
    struct Vec;
    struct String;
    struct Send;
    struct Sync;
    struct Default;
    trait Future {}
    trait Display {}

    use toolgroup::{tool, tool_group, toolkit};

    /// Shout the text.
    #[tool]
    pub async fn shout(
        /// The text.
        text: std::string::String,
        /// Repeat count.
        times: std::option::Option<u8>,
    ) -> std::result::Result<std::string::String, std::string::String> {
        std::result::Result::Ok(text.to_uppercase().repeat(times.unwrap_or(1) as usize))
    }

    /// A stateful group.
    pub struct Counter(pub std::sync::atomic::AtomicU32);

    #[tool_group(
        name = "counter",
        description = "Counting.",
        instructions = "Count carefully."
    )]
    impl Counter {
        /// Add to the counter.
        #[tool]
        pub fn bump(&self, by: u32) -> std::vec::Vec<u32> {
            let now = self.0.fetch_add(by, std::sync::atomic::Ordering::SeqCst) + by;
            std::vec![now]
        }
    }

    #[tool_group(name = "loud", description = "Loud tools.", tools = [shout])]
    pub struct Loud;

    #[toolkit]
    pub struct Kit {
        #[basic]
        pub loud: Loud,
        pub counter: Counter,
    }
}

#[tokio::test]
async fn generated_code_survives_shadowed_prelude_names() {
    use shadowed::*;
    let kit = toolgroup::Toolkit::new(Kit {
        loud: Loud,
        counter: Counter(std::sync::atomic::AtomicU32::new(0)),
    });
    let mut s = kit.session();
    let r = kit
        .call(&mut s, "shout", r#"{"text": "hi", "times": 2}"#)
        .await;
    assert_eq!(r.text_joined(), "HIHI");
    let r = kit
        .call(&mut s, "reset_tools", r#"{"counter": true}"#)
        .await;
    assert!(!r.is_error);
    let r = kit.call(&mut s, "bump", r#"{"by": 3}"#).await;
    assert_eq!(
        r.structured_content,
        std::option::Option::Some(serde_json::json!([3]))
    );
    assert_eq!(s.snapshot(), KitReset { counter: true });
}
