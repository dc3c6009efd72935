//! Delivery through the public API: the list mode, the mask mode and its allow-lists, the
//! request envelopes, and provider names.

use crate::support::*;

// ---------------------------------------------------------------------------------------
// Delivery: the list mode, the mask mode and its allow-lists.
// ---------------------------------------------------------------------------------------

#[test]
fn the_list_mode_lists_the_session_s_tools() {
    let kit = kit();
    let fresh = kit.session();
    let mut web = kit.session();
    web.activate(KitGroup::Web);
    for provider in Provider::ALL {
        let rendered = Rendered::new(&kit, *provider);
        let listed = |session: &Session<Kit>| {
            let names = names_in(*provider, &rendered.tools_value(session));
            let expected: Vec<String> = kit
                .definitions(session)
                .map(|d| d.name.to_owned())
                .collect();
            assert_eq!(names, expected, "{provider}");
            names
        };
        assert_eq!(listed(&fresh), ["reset_tools", "ping"]);
        assert_eq!(listed(&web), ["reset_tools", "ping", "search"]);
        assert_eq!(
            listed(&all_active()),
            ["reset_tools", "ping", "search", "tag", "tree", "numbers"]
        );
        // Every group active lists exactly what the mask mode always sends.
        assert_eq!(
            rendered.tools_json(&all_active()),
            rendered.all_tools_json(),
            "{provider}"
        );
        // Listing concatenates pre-rendered pieces into one buffer sized for the whole list:
        // it never grows, so nothing is rendered or reallocated per tool.
        let listing = rendered.tools_json(&web);
        assert_eq!(
            listing.capacity(),
            rendered.all_tools_json().len(),
            "{provider}"
        );
        // The pre-rendered piece of a tool is what the listing contains.
        assert!(listing.contains(rendered.get("search").expect("search").json.get()));
    }
}

#[test]
fn the_list_envelopes() {
    let kit = kit();
    let session = kit.session();
    let ping = |provider| definition(&Rendered::new(&kit, provider), "ping");
    let reset = |provider| definition(&Rendered::new(&kit, provider), "reset_tools");
    assert_eq!(
        Rendered::new(&kit, Provider::Gemini).tools_value(&session),
        json!([{"functionDeclarations": [reset(Provider::Gemini), ping(Provider::Gemini)]}])
    );
    for provider in [
        Provider::OpenAiChat,
        Provider::OpenAiResponses,
        Provider::Anthropic,
        Provider::Mcp,
    ] {
        assert_eq!(
            Rendered::new(&kit, provider).tools_value(&session),
            json!([reset(provider), ping(provider)])
        );
    }
}

/// A toolkit with no basic tool, used without `reset_tools`: a new session has no tool.
#[toolkit]
struct Bare {
    web: Web,
}

#[test]
fn no_tool_at_all() {
    let bare = Toolkit::new(Bare { web: Web }).with_reset_tools(false);
    let session = bare.session();
    for provider in Provider::ALL {
        let rendered = Rendered::new(&bare, *provider);
        assert_eq!(rendered.tools_json(&session), "[]", "{provider}");
    }
    let allowed =
        |provider, mode| Rendered::new(&bare, provider).allowed_tools_value(&session, mode);
    assert_eq!(
        allowed(Provider::OpenAiChat, AllowMode::Auto),
        Some(json!("none"))
    );
    assert_eq!(
        allowed(Provider::OpenAiResponses, AllowMode::Required),
        Some(json!("none"))
    );
    assert_eq!(
        allowed(Provider::Gemini, AllowMode::Auto),
        Some(json!({"functionCallingConfig": {"mode": "NONE"}}))
    );
}

#[test]
fn the_mask_mode_sends_every_tool_and_an_allow_list() {
    let kit = kit();
    let mut session = kit.session();
    session.activate(KitGroup::Data);
    let allowed =
        |provider, mode| Rendered::new(&kit, provider).allowed_tools_value(&session, mode);
    let chat_tools = json!([
        {"type": "function", "function": {"name": "reset_tools"}},
        {"type": "function", "function": {"name": "ping"}},
        {"type": "function", "function": {"name": "tag"}},
        {"type": "function", "function": {"name": "tree"}},
        {"type": "function", "function": {"name": "numbers"}},
    ]);
    assert_eq!(
        allowed(Provider::OpenAiChat, AllowMode::Auto),
        Some(
            json!({"type": "allowed_tools", "allowed_tools": {"mode": "auto", "tools": chat_tools}})
        )
    );
    assert_eq!(
        allowed(Provider::OpenAiChat, AllowMode::Required),
        Some(
            json!({"type": "allowed_tools", "allowed_tools": {"mode": "required", "tools": chat_tools}})
        )
    );
    let responses_tools = json!([
        {"type": "function", "name": "reset_tools"},
        {"type": "function", "name": "ping"},
        {"type": "function", "name": "tag"},
        {"type": "function", "name": "tree"},
        {"type": "function", "name": "numbers"},
    ]);
    assert_eq!(
        allowed(Provider::OpenAiResponses, AllowMode::Auto),
        Some(json!({"type": "allowed_tools", "mode": "auto", "tools": responses_tools}))
    );
    assert_eq!(
        allowed(Provider::OpenAiResponses, AllowMode::Required),
        Some(json!({"type": "allowed_tools", "mode": "required", "tools": responses_tools}))
    );
    let names = json!(["reset_tools", "ping", "tag", "tree", "numbers"]);
    for provider in [Provider::Gemini, Provider::GeminiLegacy] {
        assert_eq!(
            allowed(provider, AllowMode::Auto),
            Some(
                json!({"functionCallingConfig": {"mode": "VALIDATED", "allowedFunctionNames": names}})
            )
        );
        assert_eq!(
            allowed(provider, AllowMode::Required),
            Some(json!({"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": names}}))
        );
    }
    for provider in [
        Provider::Anthropic,
        Provider::AnthropicStrict,
        Provider::Mcp,
    ] {
        assert_eq!(allowed(provider, AllowMode::Auto), None, "{provider}");
    }
    // The tool array itself does not depend on the session.
    for provider in Provider::ALL {
        let rendered = Rendered::new(&kit, *provider);
        assert_eq!(
            names_in(*provider, &rendered.all_tools_value()),
            ["reset_tools", "ping", "search", "tag", "tree", "numbers"]
        );
    }
}

#[test]
fn a_rendering_lists_the_toolkit_it_was_rendered_from() {
    let hidden = kit().with_reset_tools(false);
    let kit = kit();
    let session = kit.session();
    for provider in Provider::ALL {
        // Each rendering lists its own toolkit, whichever other toolkit is around.
        let rendered = Rendered::new(&kit, *provider);
        assert_eq!(
            names_in(*provider, &rendered.tools_value(&session)),
            ["reset_tools", "ping"],
            "{provider}"
        );
        assert_eq!(
            names_in(
                *provider,
                &Rendered::new(&hidden, *provider).tools_value(&session)
            ),
            ["ping"],
            "{provider}"
        );
    }
    // The toolkit configured again is another toolkit: the rendering keeps listing the one
    // it was rendered from, `reset_tools` included, after that value is gone.
    let rendered = Rendered::new(&kit, Provider::OpenAiChat);
    drop(kit.with_reset_tools(false));
    assert_eq!(
        names_in(Provider::OpenAiChat, &rendered.tools_value(&session)),
        ["reset_tools", "ping"]
    );
}

#[test]
fn renderings_are_shared_across_threads() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<Rendered<Kit>>();
    send_sync::<DecodeError>();
    send_sync::<NotStrict>();
}

#[test]
fn provider_names() {
    for provider in Provider::ALL {
        assert_eq!(provider.name().parse::<Provider>(), Ok(*provider));
        assert_eq!(provider.to_string(), provider.name());
    }
    let unknown = "openai".parse::<Provider>().expect_err("not a provider");
    assert_eq!(
        unknown.to_string(),
        "unknown provider `openai`; expected one of `openai-chat`, `openai-responses`, `anthropic`, `anthropic-strict`, `gemini`, `gemini-legacy`, `mcp`"
    );
    assert_eq!(Provider::OpenAiChat.max_tools(), Some(128));
    assert_eq!(Provider::Gemini.max_tools(), Some(128));
    assert_eq!(Provider::Anthropic.max_tools(), None);
}
