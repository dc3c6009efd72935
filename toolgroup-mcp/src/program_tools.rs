//! Code mode over MCP: the limits of each run, and `run_program`'s MCP definitions by the
//! shown tools they declare, so that a listing does not generate the same declarations again.
//!
//! The key is the addresses of the shown definitions, in listing order. For the server's
//! own toolkit an address names one definition for the server's life: the compiled-in ones
//! belong to the toolkit the server holds, and the ones found at run time (and the skill
//! tools' per-session ones) are never freed. A principal's entitled toolkit is built per
//! request and freed after it, so its listings are not kept.

use std::collections::HashMap;
use std::sync::Mutex;

use rmcp::model::Tool;
use toolgroup_core::code::Limits;

/// `run_program` as one server serves it (made by `McpServer::with_code_mode`).
#[derive(Debug)]
pub(crate) struct ProgramTools {
    limits: Limits,
    kept: Mutex<HashMap<Box<[usize]>, Tool>>,
}

impl ProgramTools {
    /// The distinct shown sets kept; past it, the cache starts again. A server's clients
    /// see a handful of sets in practice; a toolkit whose tools found at run time keep
    /// changing makes new keys, and this bounds what the old ones hold.
    const MAX: usize = 256;

    pub(crate) fn new(limits: Limits) -> Self {
        ProgramTools {
            limits,
            kept: Mutex::default(),
        }
    }

    /// The limits of each run.
    pub(crate) fn limits(&self) -> &Limits {
        &self.limits
    }

    pub(crate) fn get(&self, key: &[usize]) -> Option<Tool> {
        let kept = self
            .kept
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        kept.get(key).cloned()
    }

    pub(crate) fn keep(&self, key: Box<[usize]>, tool: Tool) {
        let mut kept = self
            .kept
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if kept.len() >= Self::MAX {
            kept.clear();
        }
        kept.insert(key, tool);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tool(n: usize) -> Tool {
        Tool::new(format!("t{n}"), "d", serde_json::Map::new())
    }

    #[test]
    fn keeps_what_it_was_given_and_never_more_than_its_bound() {
        let kept = ProgramTools::new(Limits::new());
        kept.keep(Box::new([1, 2]), tool(0));
        assert_eq!(kept.get(&[1, 2]).map(|t| t.name), Some("t0".into()));
        assert!(
            kept.get(&[2, 1]).is_none(),
            "the order of the shown tools is the key's"
        );
        for n in 0..3 * ProgramTools::MAX {
            kept.keep(Box::new([n, n]), tool(n));
            let last = 3 * ProgramTools::MAX;
            assert!(
                kept.kept.lock().unwrap().len() <= ProgramTools::MAX,
                "{n} of {last}"
            );
            // The definition just kept is always there to be found.
            assert_eq!(
                kept.get(&[n, n]).map(|t| t.name),
                Some(format!("t{n}").into())
            );
        }
    }
}
