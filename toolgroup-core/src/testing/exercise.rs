//! The exercise: every tool called with generated valid arguments and with their mutations,
//! each call bounded, each answer classified.

use std::fmt;
use std::time::Duration;

use serde_json::json;

use crate::meta::{GroupInfo, RESET_TOOLS, ToolDefinition};
use crate::registry::{GroupId, Registry};
use crate::result::CallOutcome;
use crate::session::Session;
use crate::toolkit::{ToolKind, Toolkit};

use super::generate::generate_valid;
use super::mutate::{Mutation, MutationKind, mutations};
use super::report::{Failure, FailureKind, Report, ToolReport};
use super::rng::Rng;

/// Start an exercise of `toolkit`: configure it, then `.run().await` it for a [`Report`].
/// See the [module docs](super) for what it does and what counts as a failure.
pub fn exercise<R: Registry>(toolkit: &Toolkit<R>) -> Exercise<'_, R> {
    Exercise {
        toolkit,
        seed: Exercise::<R>::DEFAULT_SEED,
        cases: Exercise::<R>::DEFAULT_CASES,
        groups: None,
        timeout: Exercise::<R>::DEFAULT_TIMEOUT,
    }
}

/// An exercise of a toolkit, built by [`exercise`]; nothing runs until [`run`](Self::run).
#[must_use = "an exercise does nothing until `.run().await`"]
pub struct Exercise<'a, R: Registry> {
    toolkit: &'a Toolkit<R>,
    seed: u64,
    cases: usize,
    groups: Option<Vec<&'static str>>,
    timeout: Duration,
}

impl<R: Registry> fmt::Debug for Exercise<'_, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Exercise")
            .field("seed", &self.seed)
            .field("cases", &self.cases)
            .field("groups", &self.groups)
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

/// How one call ended: the toolkit's label (`None` when the exercise's bound ended it) and
/// the result's text (shortened).
struct Answer {
    outcome: Option<CallOutcome>,
    text: String,
}

impl<'a, R: Registry> Exercise<'a, R> {
    /// The seed when none is given: the same arguments on every run and every machine.
    pub const DEFAULT_SEED: u64 = 0x7005_6120;
    /// The valid argument objects drawn per tool when `.cases` is not given.
    pub const DEFAULT_CASES: usize = 8;
    /// The bound on a call of a tool without a timeout of its own (or the toolkit's default).
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(5);

    /// The seed the arguments are drawn from (default [`DEFAULT_SEED`](Self::DEFAULT_SEED)).
    /// A seed gives the same arguments for as long as the tool's schema stays the same,
    /// whatever other tools the toolkit has.
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// How many valid argument objects to draw per tool (default
    /// [`DEFAULT_CASES`](Self::DEFAULT_CASES)); each is called, then its mutations.
    pub fn cases(mut self, cases: usize) -> Self {
        self.cases = cases;
        self
    }

    /// Exercise only these switchable groups' tools (and the basic groups', always). By
    /// default, every group's.
    pub fn groups(mut self, groups: impl IntoIterator<Item = R::Group>) -> Self {
        self.groups = Some(groups.into_iter().map(GroupId::name).collect());
        self
    }

    /// The bound on each call of a tool that has no timeout of its own and no toolkit
    /// default (default [`DEFAULT_TIMEOUT`](Self::DEFAULT_TIMEOUT)); a tool with one is
    /// bounded by it (the exercise waits that long plus this before it gives up).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Run it: call every tool, classify the answers, return the report.
    pub async fn run(self) -> Report {
        let mut report = Report::new(self.seed, self.cases);
        if !timer_runs() {
            report.failures.push(Failure {
                tool: "",
                group: None,
                arguments: String::new(),
                kind: FailureKind::NoTimer,
                mutation: None,
                detail: "no Tokio timer runs, so no call could be bounded: run the exercise inside a Tokio runtime with its time driver (`#[tokio::test]` has one)".to_owned(),
            });
            return report;
        }
        let groups = self.toolkit.groups();
        let basic_first = groups
            .iter()
            .filter(|g| g.basic)
            .chain(groups.iter().filter(|g| !g.basic));
        for group in basic_first {
            if !group.basic
                && self
                    .groups
                    .as_ref()
                    .is_some_and(|wanted| !wanted.contains(&group.name))
            {
                continue;
            }
            let session = match self.activate(group).await {
                Ok(session) => session,
                Err(reason) => {
                    report.skipped.push(reason);
                    continue;
                }
            };
            let tools: Vec<ToolDefinition> = self
                .toolkit
                .definitions(&session)
                .filter(|d| d.group == Some(group.name))
                .cloned()
                .collect();
            for tool in &tools {
                self.tool(tool, session, &mut report).await;
            }
        }
        report
    }

    /// A session with `group` active, switched on through `reset_tools` as a model would
    /// (through the session itself when the toolkit hides `reset_tools`).
    async fn activate(&self, group: &GroupInfo) -> Result<Session<R>, String> {
        if group.basic {
            return Ok(Session::new());
        }
        if self.toolkit.reset_definition().is_none() {
            return Session::restore([group.name]).map_err(|e| e.to_string());
        }
        let mut session = Session::new();
        let arguments = json!({ group.name: true }).to_string();
        let limit = self.timeout;
        let call = self.toolkit.call(&mut session, RESET_TOOLS, &arguments);
        match tokio::time::timeout(limit, call).await {
            Ok(result) if result.outcome() == CallOutcome::Ok => Ok(session),
            Ok(result) => Err(format!(
                "group `{}`: `reset_tools` answered {} ({})",
                group.name,
                result.outcome(),
                crate::args::truncate(&result.text_joined(), 200)
            )),
            Err(_) => Err(format!(
                "group `{}`: `reset_tools` did not answer within {limit:?}",
                group.name
            )),
        }
    }

    async fn tool(&self, tool: &ToolDefinition, session: Session<R>, report: &mut Report) {
        let name = tool.name;
        let schema = &tool.input_schema;
        let mut stats = ToolReport::new(name, tool.group);
        let mut rng = Rng::for_tool(self.seed, name);
        let limit = self.limit(name);
        // A tool found at run time checks its own arguments (its source does, the remote
        // server of an MCP group): a refusal comes back as its error, so mutations tell nothing.
        let checks_own = self
            .toolkit
            .resolve(&session, name)
            .is_some_and(|r| r.kind() == ToolKind::DynamicTool);
        let fail = |report: &mut Report, kind, arguments: &str, mutation, detail: String| {
            report.push(Failure {
                tool: name,
                group: tool.group,
                arguments: arguments.to_owned(),
                kind,
                mutation,
                detail,
            });
        };
        let mut timed_out = false;
        'cases: for _ in 0..self.cases {
            let valid = match generate_valid(schema, &mut rng) {
                Ok(valid) => valid,
                Err(unsupported) => {
                    fail(
                        report,
                        FailureKind::Unsupported,
                        "",
                        None,
                        unsupported.to_string(),
                    );
                    // What can still be sent: arguments that are not an object, not JSON.
                    let rest = mutations(schema, &json!({}), &mut rng)
                        .into_iter()
                        .filter(|m| {
                            matches!(m.kind(), MutationKind::NotAnObject | MutationKind::NotJson)
                        });
                    if !checks_own {
                        for mutation in rest {
                            if self
                                .mutation(&mutation, session, limit, &mut stats, report)
                                .await
                            {
                                break;
                            }
                        }
                    }
                    break;
                }
            };
            let text = valid.to_string();
            if !timed_out {
                let answer = self.call(name, session, &text, limit).await;
                stats.record(true, answer.outcome);
                match answer.outcome {
                    Some(CallOutcome::Panic) => fail(
                        report,
                        FailureKind::Panic,
                        &text,
                        None,
                        self.panic_detail(answer.text),
                    ),
                    Some(CallOutcome::InvalidArguments) => fail(
                        report,
                        FailureKind::ValidArgumentsRefused,
                        &text,
                        None,
                        answer.text,
                    ),
                    Some(CallOutcome::Timeout) | None => {
                        // Each further call would wait as long: the valid ones stop here.
                        timed_out = true;
                        fail(
                            report,
                            FailureKind::Timeout,
                            &text,
                            None,
                            timeout_detail(answer, limit),
                        );
                    }
                    _ => {}
                }
            }
            if checks_own {
                continue;
            }
            for mutation in mutations(schema, &valid, &mut rng) {
                if self
                    .mutation(&mutation, session, limit, &mut stats, report)
                    .await
                {
                    break 'cases;
                }
            }
        }
        report.tools.push(stats);
    }

    /// Send one mutation; `true` when it timed out (the tool is then called no more).
    async fn mutation(
        &self,
        mutation: &Mutation,
        session: Session<R>,
        limit: Duration,
        stats: &mut ToolReport,
        report: &mut Report,
    ) -> bool {
        let name = stats.tool;
        let answer = self.call(name, session, mutation.arguments(), limit).await;
        stats.record(false, answer.outcome);
        let ran = match answer.outcome {
            None => format!("the call did not finish within {limit:?}"),
            Some(
                outcome @ (CallOutcome::Ok
                | CallOutcome::ToolError
                | CallOutcome::Panic
                | CallOutcome::Timeout),
            ) => {
                format!("the call's outcome was `{outcome}`: {}", answer.text)
            }
            // Refused as invalid, or stopped before the tool by the toolkit's configuration.
            Some(_) => return false,
        };
        report.push(Failure {
            tool: name,
            group: stats.group,
            arguments: mutation.arguments().to_owned(),
            kind: FailureKind::InvalidArgumentsReachedTool,
            mutation: Some(mutation.kind()),
            detail: format!("{}, and {ran}", mutation.description()),
        });
        matches!(answer.outcome, None | Some(CallOutcome::Timeout))
    }

    /// One call, from a copy of the activated session, bounded by `limit`.
    async fn call(
        &self,
        name: &str,
        session: Session<R>,
        arguments: &str,
        limit: Duration,
    ) -> Answer {
        let mut session = session;
        let call = self.toolkit.call(&mut session, name, arguments);
        match tokio::time::timeout(limit, call).await {
            Ok(result) => Answer {
                outcome: Some(result.outcome()),
                // A 10 MB answer is no failure; only its start is kept.
                text: crate::args::truncate(&result.text_joined(), 300),
            },
            Err(_) => Answer {
                outcome: None,
                text: String::new(),
            },
        }
    }

    /// How long the exercise waits for a call of `name`: its own timeout (or the toolkit's
    /// default), which the toolkit reports itself, plus the exercise's.
    fn limit(&self, name: &str) -> Duration {
        let own = match self.toolkit.core.slot(name) {
            Some(slot) => slot.info.timeout.or(self.toolkit.default_timeout),
            None => self.toolkit.default_timeout,
        };
        own.map_or(self.timeout, |own| own.saturating_add(self.timeout))
    }

    fn panic_detail(&self, text: String) -> String {
        if self.toolkit.panic_details {
            text
        } else {
            format!(
                "{text} (the panic's message is on stderr; `Toolkit::with_panic_details(true)` puts it here)"
            )
        }
    }
}

fn timeout_detail(answer: Answer, limit: Duration) -> String {
    match answer.outcome {
        Some(_) => answer.text,
        None => format!(
            "the call did not finish within {limit:?} (the exercise's `.timeout`; the tool has no timeout of its own)"
        ),
    }
}

/// Whether a Tokio timer runs here (building a `Sleep` without one panics, caught).
fn timer_runs() -> bool {
    crate::futures::catch_panic(|| tokio::time::sleep(Duration::ZERO)).is_ok()
}
