//! Asking the user on a remote server's behalf: an elicitation form as a [`Question`], the
//! answer as an elicitation result, the input requests this client refuses, and which asker
//! answers (see the [module docs](super#user-input)).
//!
//! One conversion serves the three ways a server asks (MCP 2025-11-25 `elicitation/create`
//! requests, the multi-round-trip `inputRequests` of an `input_required` answer, SEP-2322,
//! and a task's `input_required` status, SEP-2663), so each refuses the same forms the same
//! way.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use serde_json::{Map, Value, json};
use toolgroup_core::context::{Answer, AskError, Question, UserInput};

/// At most this many input requests are answered at once: each is a form the user fills.
pub(super) const MAX_REQUESTS: usize = 16;
/// At most this many fields in one form.
const MAX_FIELDS: usize = 64;

/// Why an input request was not answered. Remote text in it is escaped and shortened.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Refusal {
    /// Nobody to ask: the reason, and the server's message (escaped) when there is one.
    NoUser {
        reason: String,
        message: Option<String>,
    },
    /// A kind of request the client does not answer: what the server asked for.
    Unsupported(String),
    /// A form the client cannot show, and why.
    BadForm(String),
    /// The asker failed or answered something that does not fit the form.
    Failed(String),
    /// More requests at once than the client answers.
    TooMany(usize),
    /// A request that is not an object with a `method`.
    Malformed,
}

impl Refusal {
    /// What the refusal says to the remote server (an error answering its own request).
    pub(super) fn reason(&self) -> String {
        match self {
            Refusal::NoUser { reason, .. } => {
                format!("this client has no way to ask its user: {reason}")
            }
            Refusal::Unsupported(what) => format!("this client does not {what}"),
            Refusal::BadForm(why) => format!("this client cannot show the form: {why}"),
            Refusal::Failed(why) => format!("asking the user failed: {why}"),
            Refusal::TooMany(n) => {
                format!("{n} input requests at once; this client answers at most {MAX_REQUESTS}")
            }
            Refusal::Malformed => "an input request this client cannot read".to_owned(),
        }
    }

    /// The error result of the call `name` that the server `server` asked for input.
    pub(super) fn text(&self, name: &str, server: &str) -> String {
        match self {
            Refusal::NoUser { reason, message } => format!(
                "`{name}` did not finish: the MCP server `{server}` asked for the user's input{}, and this client has no way to ask its user ({reason}).",
                message
                    .as_deref()
                    .map(|m| format!(" (\"{m}\")"))
                    .unwrap_or_default()
            ),
            Refusal::Unsupported(what) => format!(
                "`{name}` did not finish: the MCP server `{server}` asked this client to {what}, which it does not do."
            ),
            Refusal::BadForm(why) => format!(
                "`{name}` did not finish: the MCP server `{server}` asked for the user's input with a form this client cannot show: {why}."
            ),
            Refusal::Failed(why) => format!(
                "`{name}` did not finish: asking the user for the MCP server `{server}` failed: {why}."
            ),
            Refusal::TooMany(n) => format!(
                "`{name}` did not finish: the MCP server `{server}` asked for {n} inputs at once; this client answers at most {MAX_REQUESTS}."
            ),
            Refusal::Malformed => format!(
                "`{name}` failed: the MCP server `{server}` asked for input with a request this client cannot read. Retrying is unlikely to help."
            ),
        }
    }
}

/// The responses to `requests` (an `inputRequests` object: key -> server-to-client request),
/// asked one at a time in key order, the keys `skip` accepts left out. Every request must be
/// answered: the first that cannot be is the refusal. The caller stops waiting when the
/// call is cancelled.
pub(super) async fn fulfil(
    requests: &Map<String, Value>,
    asker: Option<&UserInput>,
    skip: impl Fn(&str) -> bool,
) -> Result<Map<String, Value>, Refusal> {
    let pending: Vec<(&String, &Value)> = requests.iter().filter(|(k, _)| !skip(k)).collect();
    if pending.len() > MAX_REQUESTS {
        return Err(Refusal::TooMany(pending.len()));
    }
    // Every request is read before the user sees one: a refusal should not come after the
    // user answered half of the forms.
    let mut questions = Vec::with_capacity(pending.len());
    for (key, request) in pending {
        let method = request.get("method").and_then(Value::as_str);
        let params = request.get("params").unwrap_or(&Value::Null);
        let question = match method {
            Some("elicitation/create") => question(params)?,
            Some("sampling/createMessage") => {
                return Err(Refusal::Unsupported(
                    "sample a language model (`sampling/createMessage`)".to_owned(),
                ));
            }
            Some("roots/list") => {
                return Err(Refusal::Unsupported(
                    "list its roots (`roots/list`)".to_owned(),
                ));
            }
            Some(other) => {
                return Err(Refusal::Unsupported(format!(
                    "answer a request it does not know (`{}`)",
                    crate::echo(other, 64)
                )));
            }
            None => return Err(Refusal::Malformed),
        };
        questions.push((key, question));
    }
    let mut responses = Map::new();
    for (key, question) in questions {
        let Some(asker) = asker else {
            return Err(Refusal::NoUser {
                reason: "neither the connection nor the call has a `UserInput`".to_owned(),
                message: Some(crate::echo(question.message(), 200)),
            });
        };
        responses.insert(key.clone(), ask(asker, &question).await?);
    }
    Ok(responses)
}

/// Ask `question` through `asker`: the elicitation result (`action`, and the `content` of an
/// accepted answer, checked against the form).
pub(super) async fn ask(asker: &UserInput, question: &Question) -> Result<Value, Refusal> {
    match asker.ask(question).await {
        Ok(Answer::Accepted(content)) => {
            question
                .check(&content)
                .map_err(|e| Refusal::Failed(format!("the answer does not fit the form: {e}")))?;
            Ok(json!({"action": "accept", "content": content}))
        }
        Ok(Answer::Declined) => Ok(json!({"action": "decline"})),
        // Dismissed, and whatever a later core adds that is not an answer.
        Ok(_) => Ok(json!({"action": "cancel"})),
        Err(AskError::NoUser(reason)) => Err(Refusal::NoUser {
            reason: crate::echo(&reason, 300),
            message: Some(crate::echo(question.message(), 200)),
        }),
        Err(e) => Err(Refusal::Failed(crate::echo(&e.to_string(), 300))),
    }
}

/// The form of an `elicitation/create` request's `params` as a [`Question`]: its `message`, and
/// each property of its `requestedSchema` as a field (booleans, strings, numbers, integers,
/// and string choices, `enum` or titled `oneOf`; required as the schema's `required` says).
/// Each field's title is its `title`, else its `description`, else its name. Constraints
/// beyond the type (formats, lengths, ranges, defaults) are not carried: the server checks
/// them. An optional field of another kind (a multiple choice, an object) is left out, since
/// the answer may lack it; a required one refuses the form, as does URL mode.
pub(super) fn question(params: &Value) -> Result<Question, Refusal> {
    let params = params.as_object().ok_or(Refusal::Malformed)?;
    match params.get("mode").and_then(Value::as_str) {
        None | Some("form") => {}
        Some("url") => {
            return Err(Refusal::Unsupported(
                "send the user to a web page (URL elicitation)".to_owned(),
            ));
        }
        Some(other) => {
            return Err(Refusal::BadForm(format!(
                "its mode `{}` is unknown",
                crate::echo(other, 32)
            )));
        }
    }
    let message = params
        .get("message")
        .and_then(Value::as_str)
        .ok_or(Refusal::Malformed)?;
    let bad = |why: String| Refusal::BadForm(why);
    let schema = params
        .get("requestedSchema")
        .and_then(Value::as_object)
        .ok_or_else(|| bad("it has no `requestedSchema` object".to_owned()))?;
    if schema.get("type").and_then(Value::as_str) != Some("object") {
        return Err(bad("its schema is not of type `object`".to_owned()));
    }
    let empty = Map::new();
    let properties = match schema.get("properties") {
        None => &empty,
        Some(Value::Object(properties)) => properties,
        Some(_) => return Err(bad("its `properties` is not an object".to_owned())),
    };
    if properties.len() > MAX_FIELDS {
        return Err(bad(format!(
            "it has {} fields; at most {MAX_FIELDS} are shown",
            properties.len()
        )));
    }
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut question = Question::new(message);
    for (name, field) in properties {
        let required = required.contains(&name.as_str());
        let kind = match field_kind(name, field) {
            Ok(kind) => kind,
            // The answer may lack an optional field: the form goes without it.
            Err(_) if !required => continue,
            Err(why) => return Err(bad(why)),
        };
        let title = field
            .get("title")
            .or_else(|| field.get("description"))
            .and_then(Value::as_str)
            .unwrap_or(name);
        question = match kind {
            Kind::Boolean => question.boolean(name, title),
            Kind::Number => question.number(name, title),
            Kind::Integer => question.integer(name, title),
            Kind::String => question.string(name, title),
            Kind::Choice(options) => {
                let options: Vec<&str> = options.iter().map(String::as_str).collect();
                question.choice(name, title, &options)
            }
        };
        if !required {
            question = question.optional(name);
        }
    }
    Ok(question)
}

/// The kinds of field a [`Question`] has.
enum Kind {
    Boolean,
    Number,
    Integer,
    String,
    Choice(Vec<String>),
}

/// The kind of the field `name` (`field`, its schema), or why the form cannot ask it.
fn field_kind(name: &str, field: &Value) -> Result<Kind, String> {
    let shown = crate::echo(name, 64);
    let field = field
        .as_object()
        .ok_or_else(|| format!("the field `{shown}` is not a schema"))?;
    match field.get("type").and_then(Value::as_str) {
        Some("boolean") => Ok(Kind::Boolean),
        Some("number") => Ok(Kind::Number),
        Some("integer") => Ok(Kind::Integer),
        Some("string") => Ok(options(field, &shown)?.map_or(Kind::String, Kind::Choice)),
        Some("array") => Err(format!(
            "the field `{shown}` is a multiple choice, which this client's forms cannot ask"
        )),
        Some(other) => Err(format!(
            "the field `{shown}` is of type `{}`, not a boolean, string, number or integer",
            crate::echo(other, 32)
        )),
        None => Err(format!("the field `{shown}` has no type")),
    }
}

/// A string field's choices: its `enum`, or the `const` of each titled `oneOf` entry.
fn options(field: &Map<String, Value>, shown: &str) -> Result<Option<Vec<String>>, String> {
    let values: Vec<Option<&str>> = if let Some(values) = field.get("enum") {
        let values = values.as_array().ok_or_else(|| bad_choice(shown))?;
        values.iter().map(Value::as_str).collect()
    } else if let Some(entries) = field.get("oneOf") {
        let entries = entries.as_array().ok_or_else(|| bad_choice(shown))?;
        entries
            .iter()
            .map(|e| e.get("const").and_then(Value::as_str))
            .collect()
    } else {
        return Ok(None);
    };
    values
        .into_iter()
        .map(|v| v.map(str::to_owned).ok_or_else(|| bad_choice(shown)))
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

fn bad_choice(shown: &str) -> String {
    format!("the choices of the field `{shown}` are not a list of strings")
}

/// The calls in flight on one connection, with their askers: a server's own
/// `elicitation/create` request (MCP 2025-11-25) does not say which call it belongs to, so
/// the client answers it through a call's asker only when that call is the one in flight.
#[derive(Default)]
pub(super) struct Callers {
    calls: Mutex<(u64, HashMap<u64, Option<UserInput>>)>,
}

impl Callers {
    /// A call starts; it ends when the guard is dropped.
    pub(super) fn enter(self: &Arc<Self>, asker: Option<UserInput>) -> Entered {
        let mut calls = self.calls.lock().unwrap_or_else(PoisonError::into_inner);
        calls.0 += 1;
        let id = calls.0;
        calls.1.insert(id, asker);
        Entered {
            callers: self.clone(),
            id,
        }
    }

    /// The asker of the one call in flight, or why there is none to use.
    pub(super) fn only(&self) -> Result<UserInput, String> {
        let calls = self.calls.lock().unwrap_or_else(PoisonError::into_inner);
        let mut askers = calls.1.values();
        match (askers.next(), askers.next()) {
            (None, _) => Err("no tool call is in flight to ask for".to_owned()),
            (Some(Some(asker)), None) => Ok(asker.clone()),
            (Some(None), None) => {
                Err("neither the connection nor the call in flight has a `UserInput`".to_owned())
            }
            (Some(_), Some(_)) => Err(
                "several tool calls are in flight and the request does not say whose user to ask"
                    .to_owned(),
            ),
        }
    }
}

/// One call in flight (see [`Callers::enter`]).
pub(super) struct Entered {
    callers: Arc<Callers>,
    id: u64,
}

impl Drop for Entered {
    fn drop(&mut self) {
        let mut calls = self
            .callers
            .calls
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        calls.1.remove(&self.id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(schema: Value) -> Result<Question, Refusal> {
        question(&json!({"message": "Who?", "requestedSchema": schema}))
    }

    #[test]
    fn primitive_fields_become_a_question() {
        let q = form(json!({"type": "object", "properties": {
            "name": {"type": "string", "title": "Name", "format": "email"},
            "ok": {"type": "boolean", "description": "Agree"},
            "n": {"type": "integer"},
            "x": {"type": "number", "minimum": 0},
            "color": {"type": "string", "enum": ["red", "blue"]},
            "size": {"type": "string", "oneOf": [{"const": "s", "title": "Small"}, {"const": "l", "title": "Large"}]}
        }, "required": ["name", "ok", "ghost"]}))
        .unwrap();
        assert_eq!(q.message(), "Who?");
        assert_eq!(
            q.schema(),
            json!({"type": "object", "properties": {
                "name": {"type": "string", "title": "Name"},
                "ok": {"type": "boolean", "title": "Agree"},
                "n": {"type": "integer", "title": "n"},
                "x": {"type": "number", "title": "x"},
                "color": {"type": "string", "title": "color", "enum": ["red", "blue"]},
                "size": {"type": "string", "title": "size", "enum": ["s", "l"]}
            }, "required": ["name", "ok"]})
        );
    }

    #[test]
    fn required_fields_of_other_kinds_refuse_the_form_without_quoting_much() {
        let long = "k".repeat(500);
        let cases = [
            (
                json!({"tags": {"type": "array", "items": {"type": "string", "enum": ["a"]}}}),
                "the field `tags` is a multiple choice",
            ),
            (
                json!({"o": {"type": "object"}}),
                "the field `o` is of type `object`",
            ),
            (
                json!({"c": {"type": "string", "enum": [1, 2]}}),
                "the choices of the field `c` are not a list of strings",
            ),
            (json!({long.clone(): {}}), "has no type"),
        ];
        for (properties, expected) in cases {
            let names: Vec<&String> = properties.as_object().unwrap().keys().collect();
            let schema = json!({"type": "object", "properties": properties, "required": names});
            let Err(Refusal::BadForm(why)) = form(schema) else {
                panic!("refused")
            };
            assert!(why.contains(expected), "{why}");
            assert!(why.len() < 200, "{why}");
        }
        let Err(Refusal::BadForm(why)) = form(json!({"type": "array"})) else {
            panic!("refused")
        };
        assert_eq!(why, "its schema is not of type `object`");
        assert!(matches!(
            question(
                &json!({"mode": "url", "message": "m", "url": "http://x", "elicitationId": "1"})
            ),
            Err(Refusal::Unsupported(_))
        ));
        assert_eq!(
            question(&json!({"requestedSchema": {}})),
            Err(Refusal::Malformed)
        );
    }

    #[test]
    fn optional_fields_of_other_kinds_are_left_out() {
        let q = form(json!({"type": "object", "properties": {
            "name": {"type": "string"},
            "tags": {"type": "array", "items": {"type": "string", "enum": ["a"]}},
            "maybe": {"anyOf": [{"type": "boolean"}, {"type": "null"}]}
        }, "required": ["name"]}))
        .unwrap();
        assert_eq!(
            q.schema(),
            json!({"type": "object", "properties": {"name": {"type": "string", "title": "name"}},
                "required": ["name"]})
        );
    }

    #[tokio::test]
    async fn unknown_kinds_are_refused_before_anyone_is_asked() {
        let requests = json!({
            "a": {"method": "elicitation/create", "params": {"message": "m", "requestedSchema": {"type": "object"}}},
            "b": {"method": "weird/\u{1b}[31mthing", "params": {}}
        });
        let refusal = fulfil(requests.as_object().unwrap(), None, |_| false)
            .await
            .unwrap_err();
        let text = refusal.text("t", "s");
        assert!(text.contains("`weird/\\u{1b}[31mthing`"), "{text}");
        let sampling = json!({"k": {"method": "sampling/createMessage", "params": {}}});
        let refusal = fulfil(sampling.as_object().unwrap(), None, |_| false)
            .await
            .unwrap_err();
        assert!(refusal.text("t", "s").contains("sample a language model"));
    }

    #[test]
    fn only_a_single_call_in_flight_is_asked_for() {
        struct Never;
        impl toolgroup_core::context::Asker for Never {
            fn ask<'a>(
                &'a self,
                _: &'a Question,
            ) -> toolgroup_core::BoxFuture<'a, Result<Answer, AskError>> {
                Box::pin(std::future::pending())
            }
        }
        let callers = Arc::new(Callers::default());
        assert!(callers.only().unwrap_err().contains("no tool call"));
        let one = callers.enter(Some(UserInput::new(Never)));
        assert!(callers.only().is_ok());
        let two = callers.enter(None);
        assert!(callers.only().unwrap_err().contains("several"));
        drop(one);
        assert!(callers.only().unwrap_err().contains("neither"));
        drop(two);
        assert!(callers.only().is_err());
    }
}
