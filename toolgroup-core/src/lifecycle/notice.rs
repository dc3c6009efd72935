//! What the model is told when a rule switches a group off.

use serde::{Deserialize, Serialize};

/// A group a lifecycle rule switched off, as the model is told
/// ([`CallResult::deactivations`](crate::CallResult::deactivations)).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Deactivation {
    /// The group's name.
    pub group: &'static str,
    /// Which rule.
    #[serde(flatten)]
    pub reason: Reason,
}

/// Why a group was switched off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Reason {
    /// The least recently used group, to keep at most `max_active` groups active.
    MaxActive {
        /// The cap.
        max_active: usize,
    },
    /// Not used for `turns` turns.
    IdleTurns {
        /// The rule's turns.
        turns: u32,
    },
    /// Not used for `seconds` seconds.
    IdleFor {
        /// The rule's duration, in whole seconds (rounded up).
        seconds: u64,
    },
    /// Not used by the last `requests` tool calls.
    IdleRequests {
        /// The rule's requests.
        requests: u32,
    },
    /// A turn-scoped group, at the end of its turn.
    TurnEnded,
}

impl Reason {
    fn why(self) -> String {
        match self {
            Reason::MaxActive { max_active } => {
                format!("least recently used; at most {max_active} groups stay active")
            }
            Reason::IdleTurns { turns } => format!("unused for {turns} turn(s)"),
            Reason::IdleFor { seconds } => format!("unused for {seconds} s"),
            Reason::IdleRequests { requests } => {
                format!("unused by the last {requests} tool call(s)")
            }
            Reason::TurnEnded => "it lasts one turn".to_owned(),
        }
    }
}

/// How the model gets a group back, as the toolkit lets it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Comeback {
    /// First-use activation: calling one of its tools.
    FirstUse,
    /// `reset_tools`.
    Reset,
    /// Neither: the application switches groups.
    Application,
}

/// The text block that tells the model which groups were switched off, and the sentence of
/// it that says how to get them back.
pub(crate) fn notice(deactivations: &[Deactivation], comeback: Comeback) -> (String, String) {
    let list: Vec<String> = deactivations
        .iter()
        .map(|d| format!("`{}` ({})", d.group, d.reason.why()))
        .collect();
    let back = how_back(deactivations, comeback);
    let text = format!(
        "<groups_switched_off>\nSwitched off to keep the active tools few: {}.\n{back}\n</groups_switched_off>",
        list.join(", ")
    );
    (text, back)
}

/// How the model gets `deactivations`' groups back.
fn how_back(deactivations: &[Deactivation], comeback: Comeback) -> String {
    match comeback {
        Comeback::FirstUse => {
            "Their tools are not listed now; calling one of them switches its group back on."
                .to_owned()
        }
        Comeback::Reset => format!(
            "Their tools are refused until switched back on: call `reset_tools` with {} set to true.",
            deactivations
                .iter()
                .map(|d| format!("`{}`", d.group))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Comeback::Application => {
            "Their tools are refused until the application switches them back on.".to_owned()
        }
    }
}
