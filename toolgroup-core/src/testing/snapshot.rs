//! Definition snapshots: the definitions a model is shown, kept in a file and compared on
//! every test run, so that a change to what the model sees (a doc comment, a renamed field,
//! a new tool) shows up in review as a diff.

use std::fmt;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::diff::diff;
use super::shapes;
use crate::provider::{Provider, Rendered};
use crate::registry::Registry;
use crate::session::Session;
use crate::toolkit::Toolkit;

/// The environment variable that makes snapshot checks write the file instead.
pub const BLESS_VAR: &str = "TOOLGROUP_BLESS";

/// The definitions `provider` receives, as a snapshot file holds them: a JSON list sorted by
/// tool name, pretty-printed, with a trailing newline. With a `session`, the tools available
/// in it (the list mode's request); without, every tool (the mask mode's). Gemini's
/// declarations are listed without their `functionDeclarations` envelope.
pub fn rendered_definitions<R: Registry>(
    toolkit: &Toolkit<R>,
    session: Option<&Session<R>>,
    provider: Provider,
) -> String {
    let rendered = Rendered::new(toolkit, provider);
    let tools = match session {
        Some(session) => rendered.tools_value(session),
        None => rendered.all_tools_value(),
    };
    let mut items: Vec<(String, Value)> = Vec::new();
    for item in tools.as_array().into_iter().flatten() {
        let inner = match item.get("functionDeclarations") {
            Some(Value::Array(declarations)) => declarations.clone(),
            _ => vec![item.clone()],
        };
        for definition in inner {
            let name = shapes::tool_names(&Value::Array(vec![definition.clone()]))
                .pop()
                .unwrap_or_default();
            items.push((name, definition));
        }
    }
    items.sort_by(|a, b| a.0.cmp(&b.0));
    let list = Value::Array(items.into_iter().map(|(_, d)| d).collect());
    let mut text = serde_json::to_string_pretty(&list).expect("a JSON value serialises");
    text.push('\n');
    text
}

/// Compare [`rendered_definitions`] with the snapshot file at `path` (or, when the
/// environment variable `TOOLGROUP_BLESS` is set to anything but `0`, write it). What
/// [`assert_definitions_snapshot!`](crate::assert_definitions_snapshot) calls, with `path`
/// relative to the calling crate's manifest directory.
///
/// # Errors
///
/// A [`SnapshotMismatch`] saying what differs, or why the file could not be read or written.
pub fn definitions_snapshot<R: Registry>(
    toolkit: &Toolkit<R>,
    session: Option<&Session<R>>,
    provider: Provider,
    path: impl AsRef<Path>,
) -> Result<(), SnapshotMismatch> {
    let actual = rendered_definitions(toolkit, session, provider);
    let bless = std::env::var_os(BLESS_VAR).is_some_and(|v| !v.is_empty() && v != "0");
    compare_snapshot(path.as_ref(), &actual, bless)
}

/// Compare `actual` with the JSON snapshot file at `path`, or write it there when `bless`.
/// The file matches when it holds the same JSON value (so a checkout that turned its line
/// ends into CRLF, or another key order, still matches); the diff is of the lines.
///
/// # Errors
///
/// A [`SnapshotMismatch`]: the file is missing, unreadable, not JSON, or differs; or, when
/// blessing, cannot be written.
pub fn compare_snapshot(path: &Path, actual: &str, bless: bool) -> Result<(), SnapshotMismatch> {
    let fail = |kind| {
        Err(SnapshotMismatch {
            path: path.to_owned(),
            kind,
        })
    };
    if bless {
        if std::fs::read_to_string(path).is_ok_and(|old| old == actual) {
            return Ok(());
        }
        let written = path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| std::fs::write(path, actual));
        return match written {
            Ok(()) => Ok(()),
            Err(e) => fail(MismatchKind::NotWritten(e.to_string())),
        };
    }
    let expected = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return fail(MismatchKind::Missing),
        Err(e) => return fail(MismatchKind::Unreadable(e.to_string())),
    };
    let value: Value = match serde_json::from_str(&expected) {
        Ok(value) => value,
        // serde_json's message names a line and column, never the text.
        Err(e) => return fail(MismatchKind::NotJson(e.to_string())),
    };
    let now: Value = serde_json::from_str(actual).map_err(|e| SnapshotMismatch {
        path: path.to_owned(),
        kind: MismatchKind::NotJson(format!("the rendered text is not JSON: {e}")),
    })?;
    if value == now {
        return Ok(());
    }
    let old = expected.replace("\r\n", "\n");
    fail(MismatchKind::Differs(diff(&old, actual)))
}

/// A definitions snapshot that does not match, or could not be checked.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SnapshotMismatch {
    /// The snapshot file.
    pub path: PathBuf,
    /// What went wrong.
    pub kind: MismatchKind,
}

/// What went wrong with a snapshot.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum MismatchKind {
    /// There is no file yet.
    Missing,
    /// The file could not be read (the system's error).
    Unreadable(String),
    /// The file is not JSON (the parser's error, with its line and column).
    NotJson(String),
    /// The definitions differ: the line diff, `-` the snapshot's lines, `+` today's.
    Differs(String),
    /// Blessing: the file could not be written (the system's error).
    NotWritten(String),
}

impl fmt::Display for SnapshotMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path.display();
        match &self.kind {
            MismatchKind::Missing => write!(
                f,
                "the definitions snapshot {path} does not exist; run the test with {BLESS_VAR}=1 to write it"
            ),
            MismatchKind::Unreadable(e) => write!(
                f,
                "cannot read the definitions snapshot {path}: {e}; fix the file's permissions, or run the test with {BLESS_VAR}=1 to write it anew"
            ),
            MismatchKind::NotJson(e) => write!(
                f,
                "the definitions snapshot {path} is not JSON ({e}); resolve a merge conflict in it, or run the test with {BLESS_VAR}=1 to write it anew"
            ),
            MismatchKind::Differs(diff) => write!(
                f,
                "the definitions a model sees differ from the snapshot {path} (- snapshot, + now):\n{diff}if the change is intended, run the test with {BLESS_VAR}=1 to update the snapshot, and review its diff"
            ),
            MismatchKind::NotWritten(e) => {
                write!(f, "cannot write the definitions snapshot {path}: {e}")
            }
        }
    }
}

impl std::error::Error for SnapshotMismatch {}

/// Panic with the mismatch's message (what [`assert_definitions_snapshot!`] does with the
/// result).
///
/// [`assert_definitions_snapshot!`]: crate::assert_definitions_snapshot
#[doc(hidden)]
#[track_caller]
pub fn assert_snapshot(result: Result<(), SnapshotMismatch>) {
    if let Err(mismatch) = result {
        panic!("{mismatch}");
    }
}

/// Assert that the tool definitions a provider receives match a snapshot file; with
/// `TOOLGROUP_BLESS=1` in the environment, write the file instead.
///
/// ```text
/// assert_definitions_snapshot!(toolkit, provider, "tests/snapshots/name.json");
/// assert_definitions_snapshot!(toolkit, session, provider, "tests/snapshots/name.json");
/// ```
///
/// `toolkit` is a [`Toolkit`](crate::Toolkit) (or a reference to one), `session` a
/// [`Session`](crate::Session) whose available tools are compared (without it, every tool),
/// `provider` a [`Provider`](crate::provider::Provider), and the path is relative to the
/// calling crate's directory (its `CARGO_MANIFEST_DIR`). The file holds
/// [`rendered_definitions`](crate::testing::rendered_definitions); a mismatch panics with a
/// line diff, a missing or broken file with how to write it. See
/// [`definitions_snapshot`](crate::testing::definitions_snapshot) for the function behind it.
///
/// ```no_run
/// # use toolgroup::prelude::*;
/// use toolgroup::provider::Provider;
/// # /// Echo.
/// # #[tool] fn echo(
/// #     /// Text.
/// #     text: String,
/// # ) -> String { text }
/// # #[tool_group(name = "echo", description = "Echo.", tools = [echo])] struct Echo;
/// # #[toolkit] struct Kit { echo: Echo }
/// let toolkit = Toolkit::new(Kit { echo: Echo });
/// toolgroup::assert_definitions_snapshot!(toolkit, Provider::OpenAiChat, "tests/snapshots/openai.json");
/// ```
#[macro_export]
macro_rules! assert_definitions_snapshot {
    ($toolkit:expr, $provider:expr, $path:expr $(,)?) => {
        $crate::testing::assert_snapshot($crate::testing::definitions_snapshot(
            &$toolkit,
            ::core::option::Option::None,
            $provider,
            ::std::path::Path::new(::core::env!("CARGO_MANIFEST_DIR")).join($path),
        ))
    };
    ($toolkit:expr, $session:expr, $provider:expr, $path:expr $(,)?) => {
        $crate::testing::assert_snapshot($crate::testing::definitions_snapshot(
            &$toolkit,
            ::core::option::Option::Some(&$session),
            $provider,
            ::std::path::Path::new(::core::env!("CARGO_MANIFEST_DIR")).join($path),
        ))
    };
}
