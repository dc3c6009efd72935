//! Expansion snapshots: the generated code for a few representative inputs, pretty-printed, so
//! a change in generated code is a reviewed diff. They live in `tests/snapshots/` (not under
//! `src/`, so they are never mistaken for crate sources). Refresh with
//! `TOOLGROUP_BLESS=1 cargo test -p toolgroup-macros` and review
//! `git diff toolgroup-macros/tests/snapshots`.

use proc_macro2::TokenStream;
use quote::quote;

fn check(name: &str, expanded: TokenStream) {
    let file: syn::File = syn::parse2(expanded).expect("the expansion parses as a file");
    let pretty = prettyplease::unparse(&file);
    let path = format!("{}/tests/snapshots/{name}.rs", env!("CARGO_MANIFEST_DIR"));
    if std::env::var_os("TOOLGROUP_BLESS").is_some() {
        std::fs::write(&path, &pretty).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("no snapshot {path}; run with TOOLGROUP_BLESS=1"));
    assert!(
        expected == pretty,
        "expansion of {name} changed; run with TOOLGROUP_BLESS=1 and review the diff\n{pretty}"
    );
}

#[test]
fn free_async_tool() {
    check(
        "free_async_tool",
        crate::tool::expand(
            quote!(read_only, timeout = "5s"),
            quote! {
                /// Search the web.
                pub async fn web_search(
                    /// What to search for.
                    query: String,
                    limit: Option<u8>,
                    ctx: ToolContext<'_>,
                ) -> Result<Vec<String>, SearchError> {
                    todo()
                }
            },
            1,
        ),
    );
}

#[test]
fn free_sync_tool() {
    check(
        "free_sync_tool",
        crate::tool::expand(
            quote!(idempotent),
            quote! {
                /// Forecast the weather.
                pub fn forecast(
                    /// The city.
                    city: String,
                    days: u8,
                ) -> String {
                    city
                }
            },
            4,
        ),
    );
}

#[test]
fn stateful_group() {
    check(
        "stateful_group",
        crate::group::expand(
            quote!(
                name = "database",
                description = "Database tools.",
                instructions = "Use transactions."
            ),
            quote! {
                impl Database {
                    /// Run a query.
                    #[tool]
                    async fn db_query(&self, sql: String) -> String {
                        sql
                    }
                    /// Count the rows (a plain `fn` keeps its own `inline` attribute).
                    #[tool]
                    #[inline(never)]
                    fn db_count(&self, table: String) -> u64 {
                        table.len() as u64
                    }
                    fn helper(&self) {}
                }
            },
            2,
        ),
    );
}

#[test]
fn free_tools_group() {
    check(
        "free_tools_group",
        crate::group::expand(
            quote!(
                name = "web",
                instructions = "Cite the URL of every result you use.",
                tools = [search, pages::fetch, write]
            ),
            quote! {
                /// Searching the web.
                pub(crate) struct Web;
            },
            3,
        ),
    );
}

#[test]
fn toolkit() {
    check(
        "toolkit",
        crate::toolkit::expand(
            quote!(),
            quote! {
                pub struct Agent {
                    #[basic]
                    notes: Notes,
                    web_search: WebSearch,
                }
            },
        ),
    );
}

/// `#[tool]` adds `#[inline]` to a plain `fn` without one, and nothing beside an `inline` of
/// the function's own, plain or under `cfg_attr` (a second one would be a warning).
#[test]
fn inline_is_added_once() {
    let inlines = |own: TokenStream| {
        let expanded = crate::tool::expand(
            quote!(),
            quote! {
                /// Echo.
                #own
                fn echo(text: String) -> String {
                    text
                }
            },
            5,
        );
        let file: syn::File = syn::parse2(expanded).expect("the expansion parses");
        let syn::Item::Fn(f) = &file.items[0] else {
            panic!("the function comes first")
        };
        f.attrs
            .iter()
            .filter(|a| quote!(#a).to_string().contains("inline"))
            .count()
    };
    assert_eq!(inlines(quote!()), 1);
    assert_eq!(inlines(quote!(#[inline(never)])), 1);
    assert_eq!(inlines(quote!(#[cfg_attr(all(), inline(never))])), 1);
    assert_eq!(inlines(quote!(#[cfg_attr(test, inline)])), 1);
}

/// A failed expansion emits the errors, the item, and stubs of what it would have generated
/// (so a group listing a failed tool, or a toolkit holding a failed group, reports nothing
/// more); the ui tests `tool_in_group` and `group_in_toolkit` show the compiler's side.
#[test]
fn failures_keep_stub_impls() {
    let text = |tokens: TokenStream| tokens.to_string();
    let tool = text(crate::tool::expand(
        quote!(),
        quote! {
            fn undocumented(query: String) -> String { query }
        },
        6,
    ));
    assert!(tool.contains("compile_error"));
    assert!(tool.contains("impl :: toolgroup :: Tool for undocumented"));
    assert!(tool.contains("macro_rules ! __toolgroup_doc_undocumented_0000000000000006"));
    let group = text(crate::group::expand(
        quote!(description = "No name.", tools = [search]),
        quote!(
            struct WebSearch;
        ),
        7,
    ));
    assert!(group.contains("impl :: toolgroup :: ToolGroup for WebSearch"));
    assert!(group.contains("const NAME : & 'static str = \"web_search\""));
    let toolkit = text(crate::toolkit::expand(
        quote!(),
        quote!(
            struct Tuple(Web);
        ),
    ));
    assert!(toolkit.contains("impl :: toolgroup :: Registry for Tuple"));
    // A tool method outside a group sits in an impl block: no struct can be declared there.
    let method = text(crate::tool::expand(
        quote!(),
        quote! {
            /// A method.
            fn lonely(&self) {}
        },
        8,
    ));
    assert!(method.contains("compile_error"));
    assert!(!method.contains("impl :: toolgroup :: Tool"));
}

/// `scopes = [...]` reaches the tool's `ToolInfo`, the group's `SCOPES` and both rustdocs.
#[test]
fn scoped_group() {
    check(
        "scoped_group",
        crate::group::expand(
            quote!(
                name = "files",
                description = "Files on disk.",
                scopes = ["files:read"]
            ),
            quote! {
                impl Files {
                    /// Delete a file.
                    #[tool(destructive, scopes = ["files:write", "admin"])]
                    fn delete(&self, path: String) -> bool {
                        path.is_empty()
                    }
                }
            },
            9,
        ),
    );
}

/// `task = "..."` reaches the tool's `ToolInfo` and the group's rustdoc; `"optional"` is
/// allowed on a plain `fn`.
#[test]
fn task_group() {
    check(
        "task_group",
        crate::group::expand(
            quote!(name = "jobs", description = "Long-running jobs."),
            quote! {
                impl Jobs {
                    /// Build a target.
                    #[tool(task = "required")]
                    async fn build(&self, target: String) -> String {
                        target
                    }
                    /// Lint a file.
                    #[tool(task = "optional", read_only)]
                    fn lint(&self, path: String) -> bool {
                        path.is_empty()
                    }
                }
            },
            10,
        ),
    );
}
