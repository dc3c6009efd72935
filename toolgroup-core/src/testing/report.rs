//! What an exercise found: the failures, each with the arguments that trigger it, and the
//! calls made per tool.

use std::fmt;

use crate::result::CallOutcome;

use super::mutate::MutationKind;

/// What went wrong in one call (or, for [`Unsupported`](Self::Unsupported), before any).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum FailureKind {
    /// The tool panicked on arguments its schema allows.
    Panic,
    /// The tool did not finish in time: its own timeout (or the toolkit's default), or the
    /// exercise's when it has none.
    Timeout,
    /// Arguments the schema refuses (a [`MutationKind`]) were not refused as invalid: the
    /// tool ran with them (or panicked, or timed out).
    InvalidArgumentsReachedTool,
    /// Arguments the schema allows were refused as invalid: the tool's argument type is
    /// narrower than the schema the model is shown.
    ValidArgumentsRefused,
    /// The generator cannot make arguments for the tool's schema (see
    /// [`Unsupported`](super::Unsupported)); the tool was called only with arguments that are
    /// not an object or not JSON.
    Unsupported,
    /// No Tokio timer runs, so no call could be bounded and none was made: run the exercise
    /// inside a Tokio runtime with its time driver (`#[tokio::test]` has one).
    NoTimer,
}

impl FailureKind {
    /// The kind's name: `panic`, `timeout`, `invalid_arguments_reached_tool`,
    /// `valid_arguments_refused`, `unsupported`, `no_timer`.
    pub const fn as_str(self) -> &'static str {
        match self {
            FailureKind::Panic => "panic",
            FailureKind::Timeout => "timeout",
            FailureKind::InvalidArgumentsReachedTool => "invalid_arguments_reached_tool",
            FailureKind::ValidArgumentsRefused => "valid_arguments_refused",
            FailureKind::Unsupported => "unsupported",
            FailureKind::NoTimer => "no_timer",
        }
    }
}

impl fmt::Display for FailureKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One failure: the tool, the arguments to replay it with, what went wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub(crate) tool: &'static str,
    pub(crate) group: Option<&'static str>,
    pub(crate) arguments: String,
    pub(crate) kind: FailureKind,
    pub(crate) mutation: Option<MutationKind>,
    pub(crate) detail: String,
}

impl Failure {
    /// The tool's name (empty for [`FailureKind::NoTimer`], which concerns no tool).
    pub fn tool(&self) -> &str {
        self.tool
    }

    /// The tool's group.
    pub fn group(&self) -> Option<&str> {
        self.group
    }

    /// The arguments of the failing call, as the JSON text it was sent as (pass it to
    /// [`Toolkit::call`](crate::Toolkit::call) to replay it); not JSON for a
    /// [`MutationKind::NotJson`] mutation, empty when no call was made.
    pub fn arguments(&self) -> &str {
        &self.arguments
    }

    /// What went wrong.
    pub fn kind(&self) -> FailureKind {
        self.kind
    }

    /// For [`FailureKind::InvalidArgumentsReachedTool`]: how the arguments were made invalid.
    pub fn mutation(&self) -> Option<MutationKind> {
        self.mutation
    }

    /// What happened, in words: the call's answer (the refusal's text for valid arguments,
    /// the panic's or the timeout's) or why the schema is not supported.
    pub fn detail(&self) -> &str {
        &self.detail
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.kind == FailureKind::NoTimer {
            return write!(f, "{}: {}", self.kind, self.detail);
        }
        write!(f, "{}: `{}`", self.kind, self.tool)?;
        if let Some(group) = self.group {
            write!(f, " (group `{group}`)")?;
        }
        if !self.arguments.is_empty() {
            write!(f, " with {}", crate::args::truncate(&self.arguments, 400))?;
        }
        write!(f, "\n    {}", self.detail)
    }
}

/// The calls made to one tool, and how they ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolReport {
    pub(crate) tool: &'static str,
    pub(crate) group: Option<&'static str>,
    pub(crate) valid_calls: usize,
    pub(crate) invalid_calls: usize,
    pub(crate) outcomes: Vec<(CallOutcome, usize)>,
    pub(crate) timed_out: usize,
}

impl ToolReport {
    pub(crate) fn new(tool: &'static str, group: Option<&'static str>) -> Self {
        ToolReport {
            tool,
            group,
            valid_calls: 0,
            invalid_calls: 0,
            outcomes: Vec::new(),
            timed_out: 0,
        }
    }

    /// Count a call's outcome (`None`: the exercise's own bound ended it).
    pub(crate) fn record(&mut self, valid: bool, outcome: Option<CallOutcome>) {
        if valid {
            self.valid_calls += 1;
        } else {
            self.invalid_calls += 1;
        }
        let Some(outcome) = outcome else {
            self.timed_out += 1;
            return;
        };
        match self.outcomes.iter_mut().find(|(o, _)| *o == outcome) {
            Some((_, n)) => *n += 1,
            None => self.outcomes.push((outcome, 1)),
        }
    }

    /// The tool's name.
    pub fn tool(&self) -> &str {
        self.tool
    }

    /// The tool's group.
    pub fn group(&self) -> Option<&str> {
        self.group
    }

    /// Calls made with generated valid arguments.
    pub fn valid_calls(&self) -> usize {
        self.valid_calls
    }

    /// Calls made with invalid arguments (mutations).
    pub fn invalid_calls(&self) -> usize {
        self.invalid_calls
    }

    /// Every call made to the tool.
    pub fn calls(&self) -> usize {
        self.valid_calls + self.invalid_calls
    }

    /// How many calls ended with `outcome`, as the toolkit labelled them. A call the
    /// exercise's own bound ended counts as [`CallOutcome::Timeout`].
    pub fn count(&self, outcome: CallOutcome) -> usize {
        let labelled = self
            .outcomes
            .iter()
            .find(|(o, _)| *o == outcome)
            .map_or(0, |(_, n)| *n);
        if outcome == CallOutcome::Timeout {
            labelled + self.timed_out
        } else {
            labelled
        }
    }
}

/// What [`exercise`](super::exercise) found: the failures and the calls made, for one seed.
///
/// Its `Display` is the summary [`assert_ok`](Self::assert_ok) panics with: one line per
/// failure with the tool, the arguments and what happened (at most three per tool and kind,
/// then a count), and the seed to reproduce it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    pub(crate) seed: u64,
    pub(crate) cases: usize,
    pub(crate) failures: Vec<Failure>,
    pub(crate) tools: Vec<ToolReport>,
    pub(crate) skipped: Vec<String>,
}

impl Report {
    pub(crate) fn new(seed: u64, cases: usize) -> Self {
        Report {
            seed,
            cases,
            failures: Vec::new(),
            tools: Vec::new(),
            skipped: Vec::new(),
        }
    }

    /// Record a failure, unless the same tool already failed the same way with the same
    /// arguments (an unchecked bound is found again by every case).
    pub(crate) fn push(&mut self, failure: Failure) {
        let seen = self.failures.iter().any(|f| {
            f.tool == failure.tool && f.kind == failure.kind && f.arguments == failure.arguments
        });
        if !seen {
            self.failures.push(failure);
        }
    }

    /// Every failure, in the order found (groups in declaration order, basic groups first;
    /// tools in listing order; each tool's cases in turn), each once: the same tool failing
    /// the same way with the same arguments is listed once.
    pub fn failures(&self) -> &[Failure] {
        &self.failures
    }

    /// Whether nothing failed.
    pub fn is_ok(&self) -> bool {
        self.failures.is_empty()
    }

    /// Panic with the report's summary if anything failed.
    #[track_caller]
    pub fn assert_ok(&self) {
        if !self.is_ok() {
            panic!("{self}");
        }
    }

    /// The seed the arguments were drawn with: `.seed(report.seed())` draws them again.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The valid argument objects drawn per tool.
    pub fn cases(&self) -> usize {
        self.cases
    }

    /// Every tool call made (activating a group through `reset_tools` not counted).
    pub fn calls(&self) -> usize {
        self.tools.iter().map(ToolReport::calls).sum()
    }

    /// The calls per tool, in the order the tools were exercised.
    pub fn tools(&self) -> &[ToolReport] {
        &self.tools
    }

    /// The calls made to the tool named `name`, if it was exercised.
    pub fn tool(&self, name: &str) -> Option<&ToolReport> {
        self.tools.iter().find(|t| t.tool == name)
    }

    /// What the exercise could not reach, in words: a group whose activation the toolkit
    /// refused (a policy's denial, a missing scope). Not failures.
    pub fn skipped(&self) -> &[String] {
        &self.skipped
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let failures = match self.failures.len() {
            0 => "no failure".to_owned(),
            1 => "1 failure".to_owned(),
            n => format!("{n} failures"),
        };
        writeln!(
            f,
            "exercise (seed {}, {} cases per tool): {failures} in {} calls of {} tools",
            self.seed,
            self.cases,
            self.calls(),
            self.tools.len()
        )?;
        let mut shown: Vec<(&str, FailureKind, usize)> = Vec::new();
        for failure in &self.failures {
            let seen = match shown
                .iter_mut()
                .find(|(t, k, _)| *t == failure.tool && *k == failure.kind)
            {
                Some((_, _, n)) => {
                    *n += 1;
                    *n
                }
                None => {
                    shown.push((failure.tool, failure.kind, 1));
                    1
                }
            };
            if seen <= 3 {
                writeln!(f, "- {failure}")?;
            }
        }
        for (tool, kind, n) in shown.iter().filter(|(_, _, n)| *n > 3) {
            writeln!(f, "- ... and {} more {kind} of `{tool}`", n - 3)?;
        }
        for skipped in &self.skipped {
            writeln!(f, "- not exercised: {skipped}")?;
        }
        if !self.failures.is_empty() {
            write!(
                f,
                "the same arguments again: `exercise(&toolkit).seed({})`",
                self.seed
            )?;
        }
        Ok(())
    }
}
