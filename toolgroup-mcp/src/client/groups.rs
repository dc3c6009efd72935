//! The client side of the `io.modelcontextprotocol/groups` extension: every page of
//! `groups/list`, one `groups/get` per group, and the groups hidden because a request failed
//! or the server broke one of the extension's rules (see the [module docs](super) for the
//! draft revision and the rules checked).

use std::collections::{HashMap, HashSet};
use std::error::Error;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{CancelledNotificationParam, ClientRequest, CustomRequest, Tool};
use rmcp::service::{PeerRequestOptions, ServiceError};
use rmcp::{Peer, RoleClient};
use serde_json::{Map, Value, json};
use tokio::task::JoinSet;

use super::convert;
use super::error::{RemoteSource, seconds};
use super::list::{HiddenGroup, RemoteGroup, RemoteTool};

/// The extension's identifier, in both sides' `capabilities.extensions`.
pub(super) const EXTENSION: &str = "io.modelcontextprotocol/groups";
/// The notification a server sends when its groups change.
pub(super) const LIST_CHANGED: &str = "notifications/groups/list_changed";
const LIST: &str = "groups/list";
const GET: &str = "groups/get";

/// A server that keeps answering with new cursors is cut off after this many pages.
const MAX_PAGES: usize = 1000;
/// `groups/get` requests in flight at once.
const CONCURRENT_GETS: usize = 8;

/// The offered groups and the hidden ones, each in the server's order.
#[derive(Debug, Default, Clone, PartialEq)]
pub(super) struct Groups {
    pub(super) groups: Vec<RemoteGroup>,
    pub(super) hidden: Vec<HiddenGroup>,
}

/// Whether the server declared the extension in its handshake.
pub(super) fn declared(peer: &Peer<RoleClient>) -> bool {
    peer.peer_info().is_some_and(|info| {
        info.capabilities
            .extensions
            .as_ref()
            .is_some_and(|e| e.contains_key(EXTENSION))
    })
}

/// One entry of `groups/list` the client can fetch.
#[derive(Debug)]
pub(super) struct Listed {
    name: String,
    title: Option<String>,
    description: String,
    meta: Option<Map<String, Value>>,
}

/// An entry of `groups/list`: fetchable, or hidden already.
pub(super) type Entry = Result<Listed, HiddenGroup>;

/// An answer the client cannot read.
#[derive(Debug)]
struct BadAnswer(String);

impl fmt::Display for BadAnswer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Error for BadAnswer {}

/// Why a request failed, for a hidden group's reason or a listing error.
#[derive(Debug)]
enum Failure {
    Service(ServiceError),
    TimedOut(Duration),
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Service(ServiceError::McpError(e)) => write!(
                f,
                "JSON-RPC error {}: {}",
                e.code.0,
                crate::echo(&e.message, 200)
            ),
            Failure::Service(e) => f.write_str(&crate::echo(&e.to_string(), 200)),
            Failure::TimedOut(after) => write!(f, "no answer within {}", seconds(*after)),
        }
    }
}

impl Error for Failure {}

/// Send the request `method` with `params`; the answer as JSON, whatever rmcp parsed it as.
async fn request(
    peer: &Peer<RoleClient>,
    method: &str,
    params: Value,
    timeout: Duration,
) -> Result<Value, Failure> {
    let request = ClientRequest::CustomRequest(CustomRequest::new(method, Some(params)));
    let handle = peer
        .send_request_with_option(request, PeerRequestOptions::no_options())
        .await
        .map_err(Failure::Service)?;
    let id = handle.id.clone();
    match tokio::time::timeout(timeout, handle.await_response()).await {
        // rmcp reads a result into the first of its result types that fits; written back,
        // it is the JSON the server sent (a type that fits ignores no field of it).
        Ok(result) => {
            Ok(serde_json::to_value(result.map_err(Failure::Service)?).unwrap_or(Value::Null))
        }
        Err(_) => {
            // Best effort: the server may stop working on it.
            let reason = Some("timed out".to_owned());
            let _ = peer
                .notify_cancelled(CancelledNotificationParam::new(Some(id), reason))
                .await;
            Err(Failure::TimedOut(timeout))
        }
    }
}

/// Every page of `groups/list`, each request within `timeout`.
pub(super) async fn list(
    peer: &Peer<RoleClient>,
    timeout: Duration,
) -> Result<Vec<Entry>, RemoteSource> {
    let mut entries = Vec::new();
    let mut cursors = HashSet::new();
    let mut cursor: Option<String> = None;
    for _ in 0..MAX_PAGES {
        let params = match &cursor {
            Some(c) => json!({ "cursor": c }),
            None => json!({}),
        };
        let answer = request(peer, LIST, params, timeout)
            .await
            .map_err(|e| Arc::new(e) as RemoteSource)?;
        let (groups, next) = page(answer).map_err(|e| Arc::new(e) as RemoteSource)?;
        entries.extend(groups.iter().map(entry));
        match next {
            None => return Ok(dedup(entries)),
            Some(next) if !cursors.insert(next.clone()) => {
                return Err(Arc::new(BadAnswer(format!(
                    "`{LIST}` answered the cursor `{}` a second time",
                    crate::echo(&next, 64)
                ))));
            }
            Some(next) => cursor = Some(next),
        }
    }
    Err(Arc::new(BadAnswer(format!(
        "`{LIST}` was still paging after {MAX_PAGES} pages"
    ))))
}

/// One page: its groups and the next cursor.
fn page(answer: Value) -> Result<(Vec<Value>, Option<String>), BadAnswer> {
    let bad = |what: &str| BadAnswer(format!("`{LIST}` answered {what}"));
    let Value::Object(mut answer) = answer else {
        return Err(bad("something that is not an object"));
    };
    let groups = match answer.remove("groups") {
        Some(Value::Array(groups)) => groups,
        Some(_) => return Err(bad("`groups` that is not an array")),
        None => return Err(bad("no `groups`")),
    };
    let next = match answer.remove("nextCursor") {
        None | Some(Value::Null) => None,
        Some(Value::String(next)) => Some(next),
        Some(_) => return Err(bad("a `nextCursor` that is not a string")),
    };
    Ok((groups, next))
}

/// One listed group, checked against the draft's `Group` type.
fn entry(value: &Value) -> Entry {
    let hidden = |name: &str, reason: &str| HiddenGroup {
        name: name.to_owned(),
        reason: reason.to_owned(),
    };
    let Some(object) = value.as_object() else {
        return Err(hidden("", "an entry of `groups/list` is not an object"));
    };
    let name = match object.get("name") {
        Some(Value::String(name)) if !name.is_empty() => name.as_str(),
        _ => return Err(hidden("", "an entry of `groups/list` has no `name`")),
    };
    let Some(Value::String(description)) = object.get("description") else {
        return Err(hidden(
            name,
            "`groups/list` gives it no `description` (a string)",
        ));
    };
    let title = match object.get("title") {
        None | Some(Value::Null) => None,
        Some(Value::String(title)) => Some(title.clone()),
        Some(_) => return Err(hidden(name, "its `title` in `groups/list` is not a string")),
    };
    let meta = match object.get("_meta") {
        None | Some(Value::Null) => None,
        Some(Value::Object(meta)) => Some(meta.clone()),
        Some(_) => {
            return Err(hidden(
                name,
                "its `_meta` in `groups/list` is not an object",
            ));
        }
    };
    Ok(Listed {
        name: name.to_owned(),
        title,
        description: description.clone(),
        meta,
    })
}

/// A name listed again is hidden; the first entry stands.
fn dedup(entries: Vec<Entry>) -> Vec<Entry> {
    let mut seen = HashSet::new();
    entries
        .into_iter()
        .map(|entry| match entry {
            Ok(listed) if !seen.insert(listed.name.clone()) => Err(HiddenGroup {
                name: listed.name,
                reason: "`groups/list` lists it more than once; the first entry is offered"
                    .to_owned(),
            }),
            other => other,
        })
        .collect()
}

/// What `groups/get` answered for one group: its instructions and tools, each tool with
/// the JSON it was defined by.
#[derive(Debug)]
struct Answer {
    instructions: Option<String>,
    tools: Vec<(Value, RemoteTool)>,
}

/// `groups/get` for every listed group (a few at a time, each within `timeout`), then the
/// extension's rules against the top-level tools `top`.
pub(super) async fn fetch(
    peer: &Peer<RoleClient>,
    entries: Vec<Entry>,
    top: &[RemoteTool],
    timeout: Duration,
) -> Groups {
    let names: Vec<Option<String>> = entries
        .iter()
        .map(|e| e.as_ref().ok().map(|l| l.name.clone()))
        .collect();
    let mut answers: Vec<Option<Result<Answer, String>>> = names.iter().map(|_| None).collect();
    let mut pending = names
        .into_iter()
        .enumerate()
        .filter_map(|(i, n)| Some((i, n?)));
    let mut set = JoinSet::new();
    loop {
        while set.len() < CONCURRENT_GETS
            && let Some((i, name)) = pending.next()
        {
            let peer = peer.clone();
            set.spawn(async move { (i, get(&peer, &name, timeout).await) });
        }
        match set.join_next().await {
            Some(Ok((i, answer))) => answers[i] = Some(answer),
            // A task only ends otherwise by panicking, which reading an answer does not;
            // its group is then hidden as unanswered.
            Some(Err(_)) => {}
            None => break,
        }
    }
    check(entries, answers, top)
}

/// One `groups/get`, read.
async fn get(peer: &Peer<RoleClient>, name: &str, timeout: Duration) -> Result<Answer, String> {
    let answer = request(peer, GET, json!({ "name": name }), timeout)
        .await
        .map_err(|e| format!("`{GET}` failed: {e}"))?;
    read_answer(answer).map_err(|e| format!("`{GET}` answered {e}"))
}

fn read_answer(answer: Value) -> Result<Answer, String> {
    let Value::Object(mut answer) = answer else {
        return Err("something that is not an object".to_owned());
    };
    let instructions = match answer.remove("instructions") {
        None | Some(Value::Null) => None,
        Some(Value::String(text)) => Some(text),
        Some(_) => return Err("`instructions` that are not a string".to_owned()),
    };
    let contents = match answer.remove("contents") {
        None | Some(Value::Null) => None,
        Some(Value::Object(contents)) => Some(contents),
        Some(_) => return Err("`contents` that are not an object".to_owned()),
    };
    if instructions.is_none() && contents.is_none() {
        return Err(
            "neither `instructions` nor `contents`, one of which the extension requires".to_owned(),
        );
    }
    let tools = match contents.and_then(|mut c| c.remove("tools")) {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(tools)) => tools,
        Some(_) => return Err("`contents.tools` that is not an array".to_owned()),
    };
    let tools = tools
        .into_iter()
        .enumerate()
        .map(
            |(i, raw)| match serde_json::from_value::<Tool>(raw.clone()) {
                Ok(tool) => Ok((raw, convert::tool(tool))),
                Err(e) => Err(format!(
                    "`contents.tools[{i}]` that is not a tool definition ({})",
                    crate::echo(&e.to_string(), 200)
                )),
            },
        )
        .collect::<Result<_, _>>()?;
    Ok(Answer {
        instructions,
        tools,
    })
}

/// The extension's rules across groups: a tool is top-level or scoped, never both, and a
/// scoped tool has one definition in every group that has it. A group breaking either is
/// hidden, whichever group comes first (a server that breaks them is not trusted to say
/// which definition is right). `answers[i]` is `None` for an entry hidden already or a
/// request that did not finish.
fn check(
    entries: Vec<Entry>,
    answers: Vec<Option<Result<Answer, String>>>,
    top: &[RemoteTool],
) -> Groups {
    let top: HashSet<&str> = top.iter().map(|t| t.name.as_str()).collect();
    let mut definitions: HashMap<&str, Vec<(usize, &Value)>> = HashMap::new();
    for (i, answer) in answers.iter().enumerate() {
        if let Some(Ok(answer)) = answer {
            for (raw, tool) in &answer.tools {
                definitions.entry(&tool.name).or_default().push((i, raw));
            }
        }
    }
    let names: Vec<&str> = entries
        .iter()
        .map(|e| match e {
            Ok(listed) => listed.name.as_str(),
            Err(hidden) => hidden.name.as_str(),
        })
        .collect();
    let broken = |i: usize, answer: &Answer| -> Option<String> {
        answer.tools.iter().find_map(|(raw, tool)| {
            let name = crate::echo(&tool.name, 64);
            if top.contains(tool.name.as_str()) {
                return Some(format!(
                    "its tool `{name}` is also a top-level tool (in `tools/list`), and the extension puts a tool in one place only"
                ));
            }
            let other = definitions[tool.name.as_str()]
                .iter()
                .find(|(j, def)| *j != i && def != &raw)?;
            Some(format!(
                "its tool `{name}` is defined differently in the group `{}`, and the extension requires one definition in every group",
                crate::echo(names[other.0], 64)
            ))
        })
    };
    // Why each fetched group breaks a rule, computed before the answers are taken apart.
    let broken: Vec<Option<String>> = answers
        .iter()
        .enumerate()
        .map(|(i, answer)| match answer {
            Some(Ok(answer)) => broken(i, answer),
            _ => None,
        })
        .collect();
    let mut out = Groups::default();
    for ((entry, answer), broken) in entries.into_iter().zip(answers).zip(broken) {
        let listed = match entry {
            Ok(listed) => listed,
            Err(hidden) => {
                out.hidden.push(hidden);
                continue;
            }
        };
        let reason = match (answer, broken) {
            (Some(Ok(answer)), None) => {
                out.groups.push(RemoteGroup {
                    name: listed.name,
                    title: listed.title,
                    description: listed.description,
                    instructions: answer.instructions,
                    tools: answer.tools.into_iter().map(|(_, tool)| tool).collect(),
                    meta: listed.meta,
                });
                continue;
            }
            (Some(Err(reason)), _) | (_, Some(reason)) => reason,
            (None, None) => format!("`{GET}` did not finish"),
        };
        out.hidden.push(HiddenGroup {
            name: listed.name,
            reason,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tool(name: &str, description: &str) -> Value {
        json!({"name": name, "description": description, "inputSchema": {"type": "object"}})
    }

    fn listed(name: &str) -> Entry {
        entry(&json!({"name": name, "description": "d"}))
    }

    #[test]
    fn entries_follow_the_group_type() {
        let ok = entry(&json!({"name": "a", "title": null, "description": "d", "_meta": {"k": 1}}))
            .unwrap();
        assert_eq!(
            (ok.name.as_str(), ok.title, ok.description.as_str()),
            ("a", None, "d")
        );
        assert_eq!(ok.meta.unwrap()["k"], json!(1));
        let reason = |v: Value| entry(&v).unwrap_err();
        assert_eq!(reason(json!("a")).name, "");
        assert_eq!(reason(json!({"name": "", "description": "d"})).name, "");
        assert_eq!(reason(json!({"name": 3, "description": "d"})).name, "");
        let hidden = reason(json!({"name": "a", "description": 1}));
        assert_eq!(hidden.name, "a");
        assert!(
            hidden.reason.contains("no `description`"),
            "{}",
            hidden.reason
        );
        let title = reason(json!({"name": "a", "description": "d", "title": 1}));
        assert!(title.reason.contains("`title`"), "{}", title.reason);
        let meta = reason(json!({"name": "a", "description": "d", "_meta": []}));
        assert!(meta.reason.contains("`_meta`"), "{}", meta.reason);
    }

    #[test]
    fn answers_need_instructions_or_contents_of_the_right_types() {
        let only = read_answer(json!({"instructions": "do", "resultType": "complete"})).unwrap();
        assert_eq!(only.instructions.as_deref(), Some("do"));
        assert!(only.tools.is_empty());
        let empty_contents = read_answer(json!({"contents": {}})).unwrap();
        assert!(empty_contents.instructions.is_none() && empty_contents.tools.is_empty());
        let tools =
            read_answer(json!({"contents": {"tools": [tool("t", "x")], "prompts": []}})).unwrap();
        assert_eq!(tools.tools[0].1.name, "t");
        for (answer, problem) in [
            (json!([]), "not an object"),
            (json!({"instructions": null}), "neither"),
            (json!({"instructions": 1}), "`instructions`"),
            (json!({"contents": []}), "`contents`"),
            (json!({"contents": {"tools": {}}}), "`contents.tools`"),
            (
                json!({"contents": {"tools": [{"name": "t"}]}}),
                "`contents.tools[0]`",
            ),
        ] {
            let err = read_answer(answer).unwrap_err();
            assert!(err.contains(problem), "{err}");
        }
    }

    #[test]
    fn pages_and_duplicates() {
        let (groups, next) = page(json!({"groups": [1], "nextCursor": "2"})).unwrap();
        assert_eq!((groups.len(), next.as_deref()), (1, Some("2")));
        assert_eq!(
            page(json!({"groups": [], "nextCursor": null})).unwrap().1,
            None
        );
        assert!(page(json!({})).unwrap_err().0.contains("no `groups`"));
        assert!(
            page(json!({"groups": [], "nextCursor": 2}))
                .unwrap_err()
                .0
                .contains("`nextCursor`")
        );
        let entries = dedup(vec![listed("a"), listed("b"), listed("a")]);
        assert!(entries[0].is_ok() && entries[1].is_ok());
        assert!(
            entries[2]
                .as_ref()
                .unwrap_err()
                .reason
                .contains("more than once")
        );
    }

    #[test]
    fn the_rules_hide_every_group_that_breaks_them() {
        let answer = |tools: &[Value]| Some(read_answer(json!({"contents": {"tools": tools}})));
        let top = [convert::tool(
            serde_json::from_value(tool("top", "x")).unwrap(),
        )];
        let entries = vec![
            listed("same-1"),
            listed("same-2"),
            listed("diff-1"),
            listed("diff-2"),
            listed("shadow"),
            listed("failed"),
        ];
        let answers = vec![
            answer(&[tool("shared", "x")]),
            answer(&[tool("shared", "x")]),
            answer(&[tool("other", "x")]),
            answer(&[tool("other", "y")]),
            answer(&[tool("top", "x")]),
            Some(Err("`groups/get` failed: boom".to_owned())),
        ];
        let out = check(entries, answers, &top);
        let offered: Vec<&str> = out.groups.iter().map(|g| g.name.as_str()).collect();
        assert_eq!(offered, ["same-1", "same-2"]);
        let hidden: Vec<&str> = out.hidden.iter().map(|g| g.name.as_str()).collect();
        assert_eq!(hidden, ["diff-1", "diff-2", "shadow", "failed"]);
        assert!(out.hidden[0].reason.contains("in the group `diff-2`"));
        assert!(out.hidden[1].reason.contains("in the group `diff-1`"));
        assert!(out.hidden[2].reason.contains("also a top-level tool"));
        assert_eq!(out.hidden[3].reason, "`groups/get` failed: boom");
    }
}
