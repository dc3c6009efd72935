//! A server of ten groups whose instructions are as long as real servers' (a paragraph or two
//! of workflow and rules each, 0.5 to 1 KB), two tools a group, and one basic tool: the
//! fixture on which groups must carry clearly fewer bytes to the model than a flat server,
//! which puts every group's instructions in its `instructions`.

use schemars::JsonSchema;
use serde::Serialize;
use toolgroup::prelude::*;

/// One item a tool of the fixture finds.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Item {
    /// The item's identifier.
    pub id: String,
    /// A one-line summary.
    pub title: String,
}

macro_rules! group {
    ($ty:ident, $name:literal, $desc:literal, $ins:literal,
     [$find:ident: $find_desc:literal, $read:ident: $read_desc:literal]) => {
        #[tool(read_only, description = $find_desc)]
        pub fn $find(
            /// Free text matched against titles and bodies; quote phrases.
            query: String,
            /// How many items to return, at most 50 (default 10).
            limit: Option<u32>,
        ) -> Vec<Item> {
            (0..limit.unwrap_or(2).min(3))
                .map(|i| Item {
                    id: format!("{}-{i}", stringify!($find)),
                    title: format!("{query} #{i}"),
                })
                .collect()
        }

        #[tool(read_only, description = $read_desc)]
        pub fn $read(
            /// The item's identifier, as a search returned it.
            id: String,
        ) -> String {
            format!("{}: the text of {id}.", stringify!($read))
        }

        #[tool_group(name = $name, description = $desc, instructions = $ins, tools = [$find, $read])]
        pub struct $ty;
    };
}

/// Write a note for the user.
#[tool]
pub fn note_write(
    /// The note's text.
    text: String,
) -> String {
    format!("saved a note of {} characters", text.len())
}

#[tool_group(name = "notes", description = "Notes for the user.", tools = [note_write])]
pub struct Notes;

group!(Issues, "issues", "Reading and triaging the issue tracker.",
"Issues are the team's shared memory: read before you write. Quote every issue you mention by its number with a leading # (#1234), never by title alone, because titles change. Search with the narrowest query first (an error message in quotes, a component label) and widen only if it finds nothing; a search returns at most 50 items, so never conclude an issue does not exist from a broad query. When you summarise an issue, give its state, its labels and the date of the last comment, and say whether a maintainer has replied. Never promise a fix or a release date on the team's behalf.",
[issue_search: "Search the issue tracker.", issue_read: "Read one issue with its comments."]);
group!(Pulls, "pulls", "Reviewing pull requests.",
"Review a pull request in this order: its description and linked issues, the files it changes, the tests it adds, then the discussion. Comment on the code, not on the author. A review that asks for changes names each change and why, one point per comment, with the file and line. Never approve a pull request you opened or one whose checks are failing; say which checks fail instead. Large pull requests (more than 400 changed lines) deserve a summary of what they change before any line comment, so the author knows you read the whole.",
[pull_search: "Search pull requests.", pull_read: "Read one pull request: its diff, checks and reviews."]);
group!(Code, "code", "Reading code and its history.",
"Cite code with a permalink that includes the commit hash, never a branch name, because branches move. Before you explain why code is the way it is, read its blame and the commit that introduced the lines; quote the commit message when it gives the reason. Prefer reading a whole function to a search hit in its middle. Do not guess at behaviour you have not read: say which file you would need. Generated files (lock files, vendored code, build output) are not evidence of intent.",
[code_search: "Search code across repositories.", code_read: "Read one file at a commit."]);
group!(Actions, "actions", "Inspecting CI runs and their logs.",
"CI logs are long and noisy: read the failed job's summary first, then only the step that failed, then at most 200 lines around the first error. A failure that also happens on the default branch is not caused by the change under review: check the same workflow there before you blame a pull request. Flaky tests are named in the issue tracker with the label `flaky`; search it before you report a new one. Never re-run a workflow more than once to make it pass.",
[run_search: "Search workflow runs.", run_read: "Read one job's log."]);
group!(Releases, "releases", "Releases, tags and packages.",
"Releases are public and permanent: double-check every version number, tag and package name against the changelog before you mention them. A release note lists changes by their user-visible effect, grouped as Added, Changed, Fixed and Removed, each with its pull request number. Never describe an unreleased change as released. Version numbers follow semantic versioning: a removed or renamed public item is a major change even when nobody is known to use it.",
[release_search: "Search releases and tags.", release_read: "Read one release with its notes and assets."]);
group!(Docs, "docs", "The documentation site.",
"Cite documentation by its page path and section heading. The site has one page per version: say which version you read, and prefer the latest stable one unless the user names another. When the documentation and the code disagree, the code is right and the page is a bug: say so and name both. Do not paste long passages; quote the sentence that answers and link the rest.",
[doc_search: "Search the documentation.", doc_read: "Read one documentation page."]);
group!(Chat, "chat", "The team's chat channels.",
"Messages in chat are informal and often out of date: treat them as leads, not as decisions, and confirm a decision in the issue tracker or the docs before you rely on it. Quote a message with its channel, author and date. Never post, react or mention anyone; you can only read. Private channels are visible only when the user is a member: do not speculate about what they contain.",
[chat_search: "Search chat messages.", chat_read: "Read one thread of a channel."]);
group!(Tickets, "tickets", "The customer support desk.",
"Tickets contain customers' personal data: never copy a customer's name, e-mail address, phone number or payment details into a note, an issue or an answer; refer to a ticket by its number. Summarise what the customer asked, what the team answered and what is still open. A ticket's priority and its service-level deadline come from its fields, not from its wording. Escalations go through the on-call engineer, never directly to a developer.",
[ticket_search: "Search support tickets.", ticket_read: "Read one ticket with its replies."]);
group!(Metrics, "metrics", "Production metrics, alerts and incidents.",
"All times are UTC; say so whenever you give one. When you report a metric, give its value, its unit, the window it was aggregated over and the same value a week earlier for comparison. An alert that fired and resolved within five minutes is usually noise: check its history before you call it an incident. Incidents are declared by people, not by you: describe what the metrics show and let the on-call engineer decide.",
[metric_search: "Search metrics, alerts and incidents.", metric_read: "Read one metric's recent points."]);
group!(Calendar, "calendar", "The team calendar and meeting rooms.",
"Propose meeting times in each attendee's own time zone and never outside their working hours (09:00 to 17:00 local time) unless they asked for it. Check everyone's free and busy times before you propose a slot, and propose three slots, not one. Public holidays differ by country: check the holidays of each attendee's country. You can read calendars but not change them: say what to book and let the user book it.",
[event_search: "Search calendar events.", event_read: "Read one event with its attendees."]);

/// The fixture's toolkit: `notes` basic and ten switchable groups.
#[toolkit]
pub struct Workplace {
    /// The basic group.
    #[basic]
    pub notes: Notes,
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
pub fn toolkit() -> Toolkit<Workplace> {
    Toolkit::new(Workplace {
        notes: Notes,
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
