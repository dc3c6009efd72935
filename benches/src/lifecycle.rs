//! The lifecycle benchmark: a 40-turn conversation over 8 of the fleet toolkit's groups, the
//! model reaching each tool by first-use activation (no `reset_tools`), played with no
//! lifecycle rule, with a cap of 3 groups and with idle expiry after 4 turns, in the list and
//! deferred delivery modes of OpenAI Responses, Anthropic and Gemini. Measured from each
//! turn's request body: the definition and instruction tokens the model reads, the turns
//! breaking the cached prefix, and the activations of groups a rule had switched off.

use std::collections::{HashMap, HashSet};
use std::error::Error;

use serde_json::{Value, json};
use toolgroup::lifecycle::Lifecycle;
use toolgroup::provider::deferred::{Deferred, DeferredOptions};
use toolgroup::provider::{Provider, Rendered};
use toolgroup::{CallResult, Toolkit};

use crate::tokens::conversation::{self, Mode};
use crate::tokens::fleet::{self, Fleet, Move};
use crate::tokens::{prefix, shown};

/// The rules compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rules {
    /// No lifecycle: every group touched stays active.
    None,
    /// `max_active(3)`.
    Cap3,
    /// `idle_turns(4)`.
    Idle4,
}

impl Rules {
    pub const ALL: [Rules; 3] = [Rules::None, Rules::Cap3, Rules::Idle4];

    pub fn label(self) -> &'static str {
        match self {
            Rules::None => "none",
            Rules::Cap3 => "cap of 3",
            Rules::Idle4 => "idle 4 turns",
        }
    }

    fn toolkit(self) -> Toolkit<Fleet> {
        let kit = fleet::toolkit().with_first_use_activation(true);
        let rules = match self {
            Rules::None => return kit,
            Rules::Cap3 => Lifecycle::new().max_active(3),
            Rules::Idle4 => Lifecycle::new().idle_turns(4),
        };
        kit.with_lifecycle(rules).expect("valid rules")
    }
}

/// The providers measured.
pub const PROVIDERS: [Provider; 3] = [
    Provider::OpenAiResponses,
    Provider::Anthropic,
    Provider::Gemini,
];

/// The conversation: 40 turns, one call each, in five phases whose working sets are two or
/// three of 8 groups, coming back to the first phase's groups at the end.
pub fn script() -> Vec<Move> {
    const TURNS: [&str; 40] = [
        // Triage: issues, pulls, code.
        "issue_list",
        "pull_files",
        "issue_comments",
        "code_search",
        "pull_list",
        "issue_search",
        "code_blame",
        "pull_reviews",
        // CI: actions, with code and issues.
        "run_list",
        "run_logs",
        "code_search",
        "run_jobs",
        "issue_list",
        "run_logs",
        "code_commits",
        "run_artifacts",
        // A release: releases and docs.
        "release_list",
        "doc_search",
        "release_notes",
        "doc_pages",
        "release_assets",
        "doc_changes",
        "release_list",
        "doc_search",
        // Support: tickets, metrics, issues.
        "ticket_list",
        "alert_list",
        "ticket_search",
        "metric_query",
        "issue_list",
        "incident_list",
        "ticket_replies",
        "alert_list",
        // Back to triage.
        "issue_list",
        "pull_files",
        "code_search",
        "pull_checks",
        "issue_comments",
        "code_compare",
        "pull_list",
        "note",
    ];
    TURNS
        .iter()
        .map(|&tool| Move {
            tool,
            arguments: match tool {
                "note" => json!({"text": "Triage done."}),
                _ => json!({"owner": "rust-lang", "resource": "cargo", "query": "lifecycle"}),
            },
        })
        .collect()
}

/// One conversation's request bodies, and the activations of groups switched off before.
pub async fn play(
    provider: Provider,
    mode: Mode,
    rules: Rules,
) -> Result<(Vec<Value>, usize), Box<dyn Error>> {
    let kit = rules.toolkit();
    let rendered = Rendered::new(&kit, provider);
    let deferred = Deferred::new(&kit, provider, DeferredOptions::default())?;
    let mut state = deferred.state();
    let mut session = kit.managed_session();
    let mut conversation = vec![conversation::user(provider, "Work through this week.")];
    let mut bodies = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    let mut reactivations = 0;
    let system = "You are a maintainer's assistant.";
    for (turn, step) in script().iter().enumerate() {
        let request = crate::tokens::request(
            provider,
            mode,
            &rendered,
            &deferred,
            &state,
            session.session(),
            system,
            &conversation,
        )?;
        let reply = conversation::model(provider, turn + 1, step, &request);
        bodies.push(request);
        let decoded = deferred.decode(&reply)?;
        conversation.extend(conversation::replayed(provider, reply));
        let results = kit.call_batch_managed(&mut session, &decoded.calls).await;
        for result in &results {
            check(step, result)?;
            if let Some(group) = result.activation().and_then(|a| a["group"].as_str())
                && !seen.insert(group.to_owned())
            {
                reactivations += 1;
            }
        }
        // The turn ends once its calls ran: the deferred mode delivers what the rules switched
        // off with the turn's results.
        kit.end_turn(&mut session);
        let messages = match mode {
            Mode::Deferred => deferred.result_messages(
                &mut state,
                session.session(),
                &decoded,
                decoded.calls.iter().zip(&results),
            )?,
            _ => rendered.result_messages(decoded.calls.iter().zip(&results))?,
        };
        conversation.extend(messages);
    }
    Ok((bodies, reactivations))
}

fn check(step: &Move, result: &CallResult) -> Result<(), Box<dyn Error>> {
    if result.is_error {
        return Err(format!("`{}` failed: {}", step.tool, result.text_joined()).into());
    }
    Ok(())
}

/// One row of the table.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub provider: Provider,
    pub mode: Mode,
    pub rules: Rules,
    /// Tokens of the definitions the model reads, mean per turn.
    pub definitions: f64,
    /// Tokens of the groups' instructions in the request, mean per turn (each delivery stays
    /// in the conversation and is read again on every later turn).
    pub instructions: f64,
    /// Turns (of 2-40) whose prefix does not start with the whole previous prefix.
    pub broken: usize,
    /// Activations of a group that had been switched off.
    pub reactivations: usize,
}

/// The JSON-escaped text of every group's instructions.
fn instruction_texts() -> Vec<String> {
    fleet::toolkit()
        .groups()
        .iter()
        .filter_map(|g| g.instructions)
        .map(|i| {
            let quoted = serde_json::to_string(i).expect("a string");
            quoted[1..quoted.len() - 1].to_owned()
        })
        .collect()
}

/// Measure one conversation.
pub fn measure(
    provider: Provider,
    mode: Mode,
    rules: Rules,
    bodies: &[Value],
    reactivations: usize,
    count: &mut dyn FnMut(&str) -> usize,
) -> Row {
    let mut memo: HashMap<String, usize> = HashMap::new();
    let mut tokens = |text: String| *memo.entry(text).or_insert_with_key(|t| count(t));
    let texts = instruction_texts();
    let turns = bodies.len() as f64;
    let mut definitions = 0usize;
    let mut instructions = 0usize;
    for body in bodies {
        definitions += shown(provider, mode, body)
            .into_iter()
            .map(&mut tokens)
            .sum::<usize>();
        let text = body.to_string();
        for t in &texts {
            instructions += text.matches(t.as_str()).count() * tokens(t.clone());
        }
    }
    let prefixes: Vec<String> = bodies.iter().map(|b| prefix(provider, b)).collect();
    let broken = prefixes
        .windows(2)
        .filter(|pair| !pair[1].starts_with(pair[0].as_str()))
        .count();
    Row {
        provider,
        mode,
        rules,
        definitions: definitions as f64 / turns,
        instructions: instructions as f64 / turns,
        broken,
        reactivations,
    }
}

/// Every row: each provider, in the list and deferred modes, under each rule set.
pub async fn rows(count: &mut dyn FnMut(&str) -> usize) -> Vec<Row> {
    // One memo for every conversation: most definitions recur across them.
    let mut memo: HashMap<String, usize> = HashMap::new();
    let mut count = |text: &str| match memo.get(text) {
        Some(&n) => n,
        None => {
            let n = count(text);
            memo.insert(text.to_owned(), n);
            n
        }
    };
    let mut out = Vec::new();
    for provider in PROVIDERS {
        for mode in [Mode::List, Mode::Deferred] {
            for rules in Rules::ALL {
                let (bodies, reactivations) = play(provider, mode, rules)
                    .await
                    .expect("the scripted conversation");
                out.push(measure(
                    provider,
                    mode,
                    rules,
                    &bodies,
                    reactivations,
                    &mut count,
                ));
            }
        }
    }
    out
}

/// The rows as a Markdown table.
pub fn table(rows: &[Row]) -> String {
    let mut out = String::from(
        "| provider | mode | rules | definition tokens read / turn | instruction tokens / turn | turns breaking the cached prefix (of 39) | re-activations |\n|---|---|---|---:|---:|---:|---:|\n",
    );
    for r in rows {
        let mode = match r.mode {
            Mode::Deferred => "deferred",
            _ => "list",
        };
        out.push_str(&format!(
            "| {} | {mode} | {} | {:.0} | {:.1} | {} | {} |\n",
            r.provider,
            r.rules.label(),
            r.definitions,
            r.instructions,
            r.broken,
            r.reactivations,
        ));
    }
    out
}
