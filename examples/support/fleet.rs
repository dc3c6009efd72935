//! A toolkit of the size real MCP servers publish (10 switchable groups of 8 tools, plus 2
//! basic tools; 8 documented parameters per tool, like a code-hosting server's list tools)
//! and a scripted 20-turn conversation with 6 group switches. The `deferred` example and the
//! token benchmark (`benches/`) both use this file.

use serde_json::{Value, json};
use toolgroup::prelude::*;

/// Which items to include.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum State {
    /// Only open items.
    Open,
    /// Only closed items.
    Closed,
    /// Open and closed items.
    All,
}

/// How to order the results.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Sort {
    /// Most recently created first.
    Created,
    /// Most recently updated first.
    Updated,
    /// Best match to the query first.
    Relevance,
}

/// Say which time it is.
#[tool(read_only)]
pub fn clock() -> String {
    "It is 12:00 UTC.".to_owned()
}

/// Keep a note for the rest of the conversation.
#[tool]
pub fn note(
    /// The note's text.
    text: String,
) -> String {
    format!("Noted ({} characters).", text.chars().count())
}

/// The basic group.
#[tool_group(name = "basics", description = "Always available.", tools = [clock, note])]
pub struct Basics;

/// One switchable group of eight list-style tools sharing a parameter set.
macro_rules! group {
    ($ty:ident, $name:tt, $desc:tt, $ins:tt, [$($tool:ident: $tdesc:tt),* $(,)?]) => {
        $(
            // Eight parameters, as the list tools of real code-hosting servers take.
            #[allow(clippy::too_many_arguments)]
            #[tool(read_only, open_world, description = $tdesc)]
            pub fn $tool(
                /// The account or organisation that owns the resource (for example `rust-lang`).
                owner: String,
                /// The resource's name within the owner's namespace (for example `cargo`).
                resource: String,
                /// Free text matched against titles, bodies and comments; quote phrases.
                query: Option<String>,
                /// Which items to include by state (default: open).
                state: Option<State>,
                /// Labels to filter by; an item must carry every label given.
                labels: Option<Vec<String>>,
                /// The order of the results (default: most recently updated first).
                sort: Option<Sort>,
                /// The page of results to return, starting at 1.
                page: Option<u32>,
                /// How many results per page, at most 100 (default 30).
                per_page: Option<u32>,
            ) -> String {
                let _ = (state, labels, sort);
                format!(
                    "{}: {} results for {owner}/{resource} (query {:?}, page {}, {} per page).",
                    stringify!($tool),
                    3,
                    query.unwrap_or_default(),
                    page.unwrap_or(1),
                    per_page.unwrap_or(30)
                )
            }
        )*
        #[tool_group(name = $name, description = $desc, instructions = $ins, tools = [$($tool),*])]
        pub struct $ty;
    };
}

group!(Issues, "issues", "Reading and triaging issues.", "Quote issue numbers with a leading #.", [
    issue_list: "List the issues of a repository.", issue_search: "Search issues across repositories.",
    issue_comments: "List the comments of an issue.", issue_events: "List the events of an issue.",
    issue_labels: "List the labels used on issues.", issue_milestones: "List the milestones of a repository.",
    issue_assignees: "List who can be assigned issues.", issue_reactions: "List the reactions to an issue.",
]);
group!(Pulls, "pulls", "Reviewing pull requests.", "Never approve your own pull request.", [
    pull_list: "List the pull requests of a repository.", pull_search: "Search pull requests.",
    pull_files: "List the files a pull request changes.", pull_commits: "List the commits of a pull request.",
    pull_reviews: "List the reviews of a pull request.", pull_comments: "List the review comments of a pull request.",
    pull_checks: "List the status checks of a pull request.", pull_requested: "List requested reviewers.",
]);
group!(Code, "code", "Reading code and history.", "Prefer permalinks with a commit hash.", [
    code_search: "Search code.", code_tree: "List a directory of a repository.",
    code_blame: "Show who last changed each line of a file.", code_commits: "List the commits of a branch.",
    code_branches: "List the branches of a repository.", code_tags: "List the tags of a repository.",
    code_compare: "Compare two commits.", code_contributors: "List the contributors of a repository.",
]);
group!(Actions, "actions", "Inspecting CI runs.", "Logs can be long: ask for one job at a time.", [
    run_list: "List workflow runs.", run_jobs: "List the jobs of a workflow run.",
    run_logs: "List the log lines of a job.", run_artifacts: "List the artifacts of a run.",
    workflow_list: "List the workflows of a repository.", runner_list: "List self-hosted runners.",
    secret_list: "List the names of repository secrets.", cache_list: "List the CI caches of a repository.",
]);
group!(Releases, "releases", "Releases and packages.", "Releases are public: double-check names.", [
    release_list: "List releases.", release_assets: "List the assets of a release.",
    package_list: "List packages.", package_versions: "List the versions of a package.",
    deployment_list: "List deployments.", environment_list: "List environments.",
    tag_protection_list: "List tag protection rules.", release_notes: "List the notes of recent releases.",
]);
group!(Docs, "docs", "The project's documentation site.", "Cite the page's path.", [
    doc_search: "Search the documentation.", doc_pages: "List the documentation pages.",
    doc_links: "List broken links.", doc_versions: "List published documentation versions.",
    doc_authors: "List the authors of pages.", doc_redirects: "List redirects.",
    doc_assets: "List images and downloads.", doc_changes: "List recent page edits.",
]);
group!(Chat, "chat", "The team's chat.", "Do not post in public channels without asking.", [
    channel_list: "List channels.", channel_history: "List the messages of a channel.",
    thread_list: "List the threads of a channel.", member_list: "List the members of a channel.",
    mention_list: "List recent mentions.", pin_list: "List pinned messages.",
    reaction_list: "List reactions.", file_list: "List shared files.",
]);
group!(Tickets, "tickets", "The support desk.", "Customers' data is confidential.", [
    ticket_list: "List support tickets.", ticket_search: "Search tickets.",
    ticket_replies: "List the replies of a ticket.", ticket_tags: "List ticket tags.",
    customer_list: "List customers.", sla_list: "List service-level policies.",
    macro_list: "List reply macros.", view_list: "List ticket views.",
]);
group!(Metrics, "metrics", "Production metrics and alerts.", "Times are UTC.", [
    metric_list: "List metrics.", metric_query: "List the points of a metric.",
    alert_list: "List alerts.", incident_list: "List incidents.",
    dashboard_list: "List dashboards.", monitor_list: "List monitors.",
    slo_list: "List service-level objectives.", host_list: "List hosts.",
]);
group!(Calendar, "calendar", "The team calendar.", "Propose times in the attendee's time zone.", [
    event_list: "List events.", event_search: "Search events.",
    attendee_list: "List the attendees of an event.", room_list: "List meeting rooms.",
    free_busy: "List the busy times of people.", holiday_list: "List public holidays.",
    reminder_list: "List reminders.", calendar_list: "List calendars.",
]);

/// The benchmark's toolkit: 2 basic tools and 10 groups of 8 tools.
#[toolkit]
pub struct Fleet {
    /// The basic group.
    #[basic]
    pub basics: Basics,
    pub issues: Issues,
    pub pulls: Pulls,
    pub code: Code,
    pub actions: Actions,
    pub releases: Releases,
    pub docs: Docs,
    pub chat: Chat,
    pub tickets: Tickets,
    pub metrics: Metrics,
    pub calendar: Calendar,
}

/// The toolkit.
pub fn toolkit() -> Toolkit<Fleet> {
    Toolkit::new(Fleet {
        basics: Basics,
        issues: Issues,
        pulls: Pulls,
        code: Code,
        actions: Actions,
        releases: Releases,
        docs: Docs,
        chat: Chat,
        tickets: Tickets,
        metrics: Metrics,
        calendar: Calendar,
    })
}

/// The scripted model's move on one turn: a tool call, by name, with its arguments.
pub struct Move {
    pub tool: &'static str,
    pub arguments: Value,
}

/// The conversation's 20 turns: 6 `reset_tools` calls (turns 1, 4, 7, 10, 13, 17), each
/// followed by calls of the groups it activated.
pub fn script() -> Vec<Move> {
    let reset = |on: &[&str]| {
        let groups = [
            "issues", "pulls", "code", "actions", "releases", "docs", "chat", "tickets", "metrics",
            "calendar",
        ];
        let args: serde_json::Map<String, Value> = groups
            .iter()
            .map(|g| ((*g).to_owned(), Value::Bool(on.contains(g))))
            .collect();
        Move {
            tool: "reset_tools",
            arguments: Value::Object(args),
        }
    };
    let call = |tool: &'static str| Move {
        tool,
        arguments: match tool {
            "clock" => json!({}),
            "note" => json!({"text": "Triage done; see the tickets."}),
            _ => json!({"owner": "rust-lang", "resource": "cargo", "query": "deferred tools"}),
        },
    };
    vec![
        reset(&["issues", "pulls"]),
        call("issue_list"),
        call("pull_files"),
        reset(&["issues", "code"]),
        call("code_search"),
        call("issue_comments"),
        reset(&["actions"]),
        call("run_list"),
        call("run_logs"),
        reset(&["actions", "releases", "docs"]),
        call("release_list"),
        call("doc_search"),
        reset(&["metrics"]),
        call("alert_list"),
        call("metric_query"),
        call("clock"),
        reset(&["tickets", "chat"]),
        call("ticket_search"),
        call("channel_history"),
        call("note"),
    ]
}
