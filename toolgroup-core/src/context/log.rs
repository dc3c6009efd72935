//! A tool's log messages: their levels, what an observer sees, the tool's handle, and the
//! `tracing` event a message becomes when nobody observes the call.

use std::fmt;

use super::ToolContext;

/// Observes a tool's log messages while a call runs.
pub type LogFn = dyn Fn(&LogEvent<'_>) + Send + Sync;

/// How severe a log message is: MCP's eight levels (syslog's, RFC 5424), least severe first,
/// so `level >= LogLevel::Warning` reads as "a warning or worse".
///
/// ```
/// use toolgroup::context::LogLevel;
///
/// assert!(LogLevel::Error > LogLevel::Warning);
/// assert_eq!("notice".parse::<LogLevel>(), Ok(LogLevel::Notice));
/// assert_eq!(LogLevel::Emergency.to_string(), "emergency");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LogLevel {
    /// Detailed debugging information.
    Debug,
    /// General information, such as what a step did.
    Info,
    /// A normal but significant event.
    Notice,
    /// Something unexpected that the tool worked around.
    Warning,
    /// An operation failed.
    Error,
    /// A component failed.
    Critical,
    /// Someone must act now.
    Alert,
    /// The system is unusable.
    Emergency,
}

impl LogLevel {
    /// Every level, least severe first.
    pub const ALL: [LogLevel; 8] = [
        LogLevel::Debug,
        LogLevel::Info,
        LogLevel::Notice,
        LogLevel::Warning,
        LogLevel::Error,
        LogLevel::Critical,
        LogLevel::Alert,
        LogLevel::Emergency,
    ];

    /// The level's name as MCP spells it (`debug`, `info`, ... `emergency`).
    pub const fn name(self) -> &'static str {
        match self {
            LogLevel::Debug => "debug",
            LogLevel::Info => "info",
            LogLevel::Notice => "notice",
            LogLevel::Warning => "warning",
            LogLevel::Error => "error",
            LogLevel::Critical => "critical",
            LogLevel::Alert => "alert",
            LogLevel::Emergency => "emergency",
        }
    }
}

impl fmt::Display for LogLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A level name that [`LogLevel::from_str`](std::str::FromStr::from_str) does not know.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct UnknownLogLevel(pub String);

impl fmt::Display for UnknownLogLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown log level `{}`; expected one of {}",
            crate::echo::echo(&self.0, 64),
            crate::suggest::list_names(LogLevel::ALL.iter().map(|l| l.name()))
        )
    }
}

impl std::error::Error for UnknownLogLevel {}

impl std::str::FromStr for LogLevel {
    type Err = UnknownLogLevel;

    fn from_str(s: &str) -> Result<Self, UnknownLogLevel> {
        LogLevel::ALL
            .into_iter()
            .find(|l| l.name() == s)
            .ok_or_else(|| UnknownLogLevel(s.to_owned()))
    }
}

/// One log message of a running tool, as an observer sees it.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct LogEvent<'a> {
    /// The tool logging.
    pub tool: &'static str,
    /// The tool's group (empty for a detached context).
    pub group: &'static str,
    /// The call's id, if the caller gave one.
    pub call_id: Option<&'a str>,
    /// How severe it is.
    pub level: LogLevel,
    /// The message.
    pub message: &'a str,
}

impl LogEvent<'_> {
    /// Emit the message as the `tracing` event a call without a log observer emits: target
    /// `toolgroup::tool`, at the nearest `tracing` level (notice is `INFO`; critical, alert
    /// and emergency are `ERROR`), with the fields `tool`, `group`, `call_id` and `severity`
    /// (the MCP level's name).
    pub fn trace(&self) {
        trace(
            self.tool,
            self.group,
            self.call_id,
            self.level,
            &format_args!("{}", self.message),
        );
    }
}

pub(super) fn trace(
    tool: &str,
    group: &str,
    call_id: Option<&str>,
    level: LogLevel,
    message: &dyn fmt::Display,
) {
    macro_rules! event {
        ($level:expr) => {
            tracing::event!(
                target: "toolgroup::tool",
                $level,
                tool,
                group,
                call_id,
                severity = level.name(),
                "{message}"
            )
        };
    }
    match level {
        LogLevel::Debug => event!(tracing::Level::DEBUG),
        LogLevel::Info | LogLevel::Notice => event!(tracing::Level::INFO),
        LogLevel::Warning => event!(tracing::Level::WARN),
        LogLevel::Error | LogLevel::Critical | LogLevel::Alert | LogLevel::Emergency => {
            event!(tracing::Level::ERROR)
        }
    }
}

/// A tool's logging handle, from [`ToolContext::logger`]: [`ToolContext::log`] with the level
/// in the method's name. `Copy`: hand it to helpers freely.
#[derive(Debug, Clone, Copy)]
pub struct Logger<'a> {
    pub(super) ctx: ToolContext<'a>,
}

impl Logger<'_> {
    /// Log `message` at `level`.
    pub fn log(&self, level: LogLevel, message: impl fmt::Display) {
        self.ctx.log(level, message);
    }

    /// Log detailed debugging information.
    pub fn debug(&self, message: impl fmt::Display) {
        self.ctx.log(LogLevel::Debug, message);
    }

    /// Log general information.
    pub fn info(&self, message: impl fmt::Display) {
        self.ctx.log(LogLevel::Info, message);
    }

    /// Log a normal but significant event.
    pub fn notice(&self, message: impl fmt::Display) {
        self.ctx.log(LogLevel::Notice, message);
    }

    /// Log a warning.
    pub fn warning(&self, message: impl fmt::Display) {
        self.ctx.log(LogLevel::Warning, message);
    }

    /// Log an error.
    pub fn error(&self, message: impl fmt::Display) {
        self.ctx.log(LogLevel::Error, message);
    }

    /// Log a critical condition.
    pub fn critical(&self, message: impl fmt::Display) {
        self.ctx.log(LogLevel::Critical, message);
    }

    /// Log a condition someone must act on now.
    pub fn alert(&self, message: impl fmt::Display) {
        self.ctx.log(LogLevel::Alert, message);
    }

    /// Log that the system is unusable.
    pub fn emergency(&self, message: impl fmt::Display) {
        self.ctx.log(LogLevel::Emergency, message);
    }
}
