//! The REFERENCE.md scenario, offline, with a scripted model.
use toolgroup::prelude::*;

/// Write a note to the agent's notebook.
#[tool]
fn note_write(
    /// The text to write.
    text: String,
) -> String {
    format!("noted ({} characters)", text.chars().count())
}

/// Search the web and return the top results.
#[tool(read_only, open_world)]
async fn web_search(
    /// What to search for.
    query: String,
) -> Vec<String> {
    vec![format!("Result 1 for {query}"), format!("Result 2 for {query}")]
}

/// Fetch a web page and return its text.
#[tool(read_only, open_world)]
async fn page_fetch(
    /// The page's URL.
    url: String,
) -> Result<String, String> {
    if url.starts_with("http") { Ok(format!("<html>content of {url}</html>")) } else { Err(format!("not a URL")) }
}

/// Notes.
#[tool_group(name = "notes", description = "Note taking.", tools = [note_write])]
struct Notes;

#[tool_group(name = "web_search", description = "Searching the web.", instructions = "Cite the URL of every result you use.", tools = [web_search])]
struct WebSearch;

#[tool_group(name = "scraping", description = "Fetching pages.", instructions = "Fetch only pages found by a search.", tools = [page_fetch])]
struct Scraping;

#[toolkit]
struct Agent {
    #[basic]
    notes: Notes,
    web_search: WebSearch,
    scraping: Scraping,
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let kit = Toolkit::new(Agent { notes: Notes, web_search: WebSearch, scraping: Scraping });
    let mut s = kit.session();
    for (i, (name, args)) in [
        ("reset_tools", r#"{"web_search": true, "scraping": true}"#),
        ("reset_tools", r#"{"web_serch": true}"#),
        ("web_search", r#"{"query": "rust"}"#),
    ].into_iter().enumerate() {
        let names: Vec<_> = kit.definitions(&s).map(|d| d.name).collect();
        println!("turn {}: {}", i + 1, names.join(", "));
        let r = kit.call(&mut s, name, args).await;
        println!("{}\n{:?}", r.text_joined(), r.is_error);
    }
    println!("{:?}", s);
    for d in kit.all_definitions() { println!("{} {}", d.name, d.input_schema); }
}
