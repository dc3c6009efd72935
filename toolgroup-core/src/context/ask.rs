//! Asking the user behind the client for input while a call runs: a [`Question`] (a message
//! and a flat form), an [`Answer`], and the [`Asker`] the caller attaches to reach that user.
//!
//! A tool asks through its context ([`ToolContext::ask`](super::ToolContext::ask)); an
//! approval policy asks through the same per-call data ([`UserInput`]). Who answers is the
//! caller's business: the MCP server attaches an asker per request that uses what the
//! client's protocol revision allows (an `elicitation/create` request, an input request of a
//! multi-round-trip call, or a task's `input_required` status). A call without an asker has
//! no user to ask, and `ask` says so ([`AskError::NoUser`]).
//!
//! The form is MCP elicitation's: an object schema of primitive fields (booleans, strings,
//! numbers, integers, string choices), each required unless made optional, some filled in
//! advance ([`Question::default_value`]). [`Question::check`] tells whether an answer fits it,
//! so every asker refuses the same wrong answers the same way.

use std::fmt;
use std::sync::Arc;

use serde_json::{Map, Value, json};

use crate::futures::BoxFuture;

/// A question for the user: a message and the form the answer fills.
///
/// ```
/// use toolgroup::context::Question;
///
/// let question = Question::new("Ship the order to the new address?")
///     .boolean("ship", "Ship it")
///     .string("note", "A note for the courier")
///     .optional("note");
/// assert_eq!(question.schema()["required"], serde_json::json!(["ship"]));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Question {
    message: String,
    properties: Map<String, Value>,
    required: Vec<String>,
}

impl Question {
    /// A question with `message` (what the user reads) and no field yet.
    pub fn new(message: impl Into<String>) -> Self {
        Question {
            message: message.into(),
            properties: Map::new(),
            required: Vec::new(),
        }
    }

    /// A yes/no question: one required boolean field, `name`, titled `title`.
    pub fn confirm(message: impl Into<String>, name: &str, title: &str) -> Self {
        Question::new(message).boolean(name, title)
    }

    fn field(mut self, name: &str, schema: Value) -> Self {
        if self.properties.insert(name.to_owned(), schema).is_none() {
            self.required.push(name.to_owned());
        }
        self
    }

    /// A required boolean field.
    #[must_use]
    pub fn boolean(self, name: &str, title: &str) -> Self {
        self.field(name, json!({"type": "boolean", "title": title}))
    }

    /// A required text field.
    #[must_use]
    pub fn string(self, name: &str, title: &str) -> Self {
        self.field(name, json!({"type": "string", "title": title}))
    }

    /// A required number field.
    #[must_use]
    pub fn number(self, name: &str, title: &str) -> Self {
        self.field(name, json!({"type": "number", "title": title}))
    }

    /// A required integer field.
    #[must_use]
    pub fn integer(self, name: &str, title: &str) -> Self {
        self.field(name, json!({"type": "integer", "title": title}))
    }

    /// A required choice among `options` (a string field with an `enum`).
    #[must_use]
    pub fn choice(self, name: &str, title: &str, options: &[&str]) -> Self {
        self.field(
            name,
            json!({"type": "string", "title": title, "enum": options}),
        )
    }

    /// Describe the field `name` to the user (beside its title).
    #[must_use]
    pub fn describe(mut self, name: &str, description: impl Into<String>) -> Self {
        if let Some(Value::Object(field)) = self.properties.get_mut(name) {
            field.insert("description".to_owned(), Value::String(description.into()));
        }
        self
    }

    /// Make the field `name` optional (fields are required when added).
    #[must_use]
    pub fn optional(mut self, name: &str) -> Self {
        self.required.retain(|r| r != name);
        self
    }

    /// Fill the field `name` in advance with `value` (the form's `default`, MCP elicitation's
    /// since 2025-11-25): the user sees it and may change it. A value that does not fit the
    /// field (another type, or not one of a choice's options) is not set, nor is a value for
    /// a field the form does not have, as [`Question::check`] would refuse such an answer.
    ///
    /// ```
    /// use toolgroup::context::Question;
    ///
    /// let question = Question::new("How many copies?")
    ///     .integer("copies", "Copies")
    ///     .default_value("copies", 1)
    ///     .choice("size", "Paper size", &["A4", "Letter"])
    ///     .default_value("size", "Tabloid"); // not an option: not set
    /// assert_eq!(question.schema()["properties"]["copies"]["default"], 1);
    /// assert!(question.schema()["properties"]["size"].get("default").is_none());
    /// ```
    #[must_use]
    pub fn default_value(mut self, name: &str, value: impl Into<Value>) -> Self {
        let value = value.into();
        if let Some(Value::Object(field)) = self.properties.get_mut(name)
            && fits(field, &value)
        {
            field.insert("default".to_owned(), value);
        }
        self
    }

    /// What the user reads.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The form as a JSON schema (MCP elicitation's `requestedSchema`): an object of the
    /// fields, those still required listed in `required`.
    pub fn schema(&self) -> Value {
        let mut schema = json!({"type": "object", "properties": self.properties});
        if !self.required.is_empty() {
            schema["required"] = json!(self.required);
        }
        schema
    }

    /// Whether `content` (an accepted answer's fields) fits the form: every required field
    /// present, no field the form does not have, each of its field's type (and among the
    /// options of a choice). The error names the first field that does not fit; it never
    /// quotes the answer.
    pub fn check(&self, content: &Map<String, Value>) -> Result<(), String> {
        if let Some(unknown) = content.keys().find(|k| !self.properties.contains_key(*k)) {
            return Err(format!(
                "the answer has a field the form does not ask for ({} characters long); the fields are {}",
                unknown.chars().count(),
                self.field_list()
            ));
        }
        for name in &self.required {
            if !content.contains_key(name) {
                return Err(format!("the answer lacks the required field `{name}`"));
            }
        }
        for (name, value) in content {
            let schema = &self.properties[name];
            if !schema.as_object().is_some_and(|field| fits(field, value)) {
                let expected = match schema.get("enum") {
                    Some(_) => "one of the field's options".to_owned(),
                    None => match schema["type"].as_str() {
                        Some("integer") => "an integer".to_owned(),
                        Some(kind) => format!("a {kind}"),
                        None => "a value".to_owned(),
                    },
                };
                return Err(format!(
                    "the answer's field `{name}` must be {expected}, not {}",
                    crate::args::json_kind(value)
                ));
            }
        }
        Ok(())
    }

    fn field_list(&self) -> String {
        let names: Vec<String> = self.properties.keys().map(|k| format!("`{k}`")).collect();
        if names.is_empty() {
            "none".to_owned()
        } else {
            names.join(", ")
        }
    }
}

/// Whether `value` fits the field whose schema is `field`: its type, and among the options of
/// a choice.
fn fits(field: &Map<String, Value>, value: &Value) -> bool {
    match field.get("type").and_then(Value::as_str) {
        Some("boolean") => value.is_boolean(),
        Some("string") => value.as_str().is_some_and(|s| {
            field
                .get("enum")
                .and_then(Value::as_array)
                .is_none_or(|options| options.iter().any(|o| o == s))
        }),
        Some("number") => value.is_number(),
        Some("integer") => value.is_i64() || value.is_u64(),
        _ => false,
    }
}

/// The user's answer to a [`Question`].
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Answer {
    /// The user filled the form and submitted it: the fields, checked against the form.
    Accepted(Map<String, Value>),
    /// The user refused to answer.
    Declined,
    /// The user closed the form without choosing.
    Dismissed,
}

impl Answer {
    /// The field `name` of an accepted answer.
    pub fn get(&self, name: &str) -> Option<&Value> {
        match self {
            Answer::Accepted(content) => content.get(name),
            _ => None,
        }
    }

    /// Whether the user accepted and the boolean field `name` is true: the yes of a
    /// [`Question::confirm`].
    pub fn is_yes(&self, name: &str) -> bool {
        self.get(name) == Some(&Value::Bool(true))
    }
}

/// Why a question got no answer.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum AskError {
    /// Nobody can be asked: the call has no [`UserInput`], or the client cannot show a form.
    /// The reason says which.
    NoUser(String),
    /// The question was sent and failed: the client answered with an error or something that
    /// does not fit the form, or went away.
    Failed(String),
}

impl fmt::Display for AskError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AskError::NoUser(reason) => write!(f, "there is no user to ask: {reason}"),
            AskError::Failed(reason) => write!(f, "asking the user failed: {reason}"),
        }
    }
}

impl std::error::Error for AskError {}

/// Reaches the user behind a call's client. Attached to a call as [`UserInput`].
///
/// An asker may answer later than the question is asked, or never: a multi-round-trip MCP
/// call stops the tool at its first unanswered question and runs it again once the client
/// brings the answer (so a tool should ask before it changes anything).
pub trait Asker: Send + Sync {
    /// Ask `question`; the answer must fit it ([`Question::check`]).
    fn ask<'a>(&'a self, question: &'a Question) -> BoxFuture<'a, Result<Answer, AskError>>;
}

/// A shared asker: one user interface behind several calls' [`UserInput`]s.
impl<A: Asker + ?Sized> Asker for Arc<A> {
    fn ask<'a>(&'a self, question: &'a Question) -> BoxFuture<'a, Result<Answer, AskError>> {
        (**self).ask(question)
    }
}

/// An asker chosen at run time (`Box<dyn Asker>`).
impl<A: Asker + ?Sized> Asker for Box<A> {
    fn ask<'a>(&'a self, question: &'a Question) -> BoxFuture<'a, Result<Answer, AskError>> {
        (**self).ask(question)
    }
}

/// Per-call data: how this call reaches its user. The MCP server attaches one to every
/// `tools/call`; an application that has its own user interface attaches its own
/// (`CallContext::with_extension(UserInput::new(asker))`).
#[derive(Clone)]
pub struct UserInput(Arc<dyn Asker>);

impl UserInput {
    /// The asker of this call.
    pub fn new(asker: impl Asker + 'static) -> Self {
        UserInput(Arc::new(asker))
    }

    /// Ask `question` through this call's asker.
    pub async fn ask(&self, question: &Question) -> Result<Answer, AskError> {
        self.0.ask(question).await
    }
}

impl fmt::Debug for UserInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("UserInput(..)")
    }
}

/// Why there is nobody to ask when a call carries no [`UserInput`].
pub(crate) const NO_USER: &str = "this call came without a way to reach its user (no `UserInput`: an MCP client, or one the application attached)";

#[cfg(test)]
mod tests {
    use super::*;

    fn form() -> Question {
        Question::new("m")
            .boolean("ok", "OK")
            .integer("n", "N")
            .choice("c", "C", &["a", "b"])
            .optional("c")
    }

    fn content(v: Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap()
    }

    #[test]
    fn answers_that_fit_pass() {
        assert_eq!(form().check(&content(json!({"ok": true, "n": 3}))), Ok(()));
        assert_eq!(
            form().check(&content(json!({"ok": false, "n": 0, "c": "b"}))),
            Ok(())
        );
    }

    #[test]
    fn answers_that_do_not_fit_name_the_field_without_quoting() {
        let e = form()
            .check(&content(json!({"ok": true, "n": 1, "secret_key": 1})))
            .unwrap_err();
        assert!(e.contains("10 characters long"), "{e}");
        assert!(!e.contains("secret_key"), "{e}");
        let e = form().check(&content(json!({"n": 1}))).unwrap_err();
        assert_eq!(e, "the answer lacks the required field `ok`");
        let e = form()
            .check(&content(json!({"ok": "yes", "n": 1})))
            .unwrap_err();
        assert_eq!(e, "the answer's field `ok` must be a boolean, not a string");
        let e = form()
            .check(&content(json!({"ok": true, "n": 1.5})))
            .unwrap_err();
        assert_eq!(e, "the answer's field `n` must be an integer, not a number");
        let e = form()
            .check(&content(json!({"ok": true, "n": 1, "c": "z"})))
            .unwrap_err();
        assert_eq!(
            e,
            "the answer's field `c` must be one of the field's options, not a string"
        );
    }

    #[test]
    fn defaults_are_set_only_when_they_fit() {
        let question = form()
            .default_value("ok", true)
            .default_value("n", 2.5)
            .default_value("c", "b")
            .default_value("missing", 1);
        let schema = question.schema();
        assert_eq!(schema["properties"]["ok"]["default"], json!(true));
        assert!(schema["properties"]["n"].get("default").is_none());
        assert_eq!(schema["properties"]["c"]["default"], json!("b"));
        assert!(schema["properties"].get("missing").is_none());
        let unchanged = form().default_value("c", "z").default_value("n", "3");
        assert_eq!(unchanged, form());
    }

    #[test]
    fn the_schema_lists_required_fields() {
        assert_eq!(
            form().schema(),
            json!({"type": "object", "properties": {
                "ok": {"type": "boolean", "title": "OK"},
                "n": {"type": "integer", "title": "N"},
                "c": {"type": "string", "title": "C", "enum": ["a", "b"]}},
                "required": ["ok", "n"]})
        );
    }
}
