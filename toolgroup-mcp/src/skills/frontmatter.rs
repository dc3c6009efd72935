//! A skill's YAML frontmatter as the JSON object `skills/list` and `skills/get` carry.
//!
//! The frontmatter was parsed and checked when the skill was read (at compile time for
//! compiled-in skills); what remains is the conversion of its YAML values to JSON, every
//! field kept, host keys (`hooks`, `user-invocable`, ...) included, in their own shapes.

use std::collections::HashMap;

use saphyr_parser::{Event, Parser, ScalarStyle, Tag};
use serde_json::{Map, Number, Value};

/// Deeper than any frontmatter needs; bounds the recursion.
const MAX_DEPTH: usize = 64;

/// The YAML text `yaml` (a frontmatter, without its `---` lines) as a JSON object.
///
/// # Errors
///
/// The text is not one YAML mapping with scalar keys, or uses an alias of an unknown anchor.
pub(crate) fn to_json(yaml: &str) -> Result<Map<String, Value>, String> {
    let mut reader = Reader {
        parser: Parser::new_from_str(yaml),
        anchors: HashMap::new(),
    };
    let mut root = None;
    loop {
        match reader.next()? {
            Event::StreamEnd => break,
            Event::StreamStart | Event::DocumentStart(_) | Event::DocumentEnd | Event::Nothing => {}
            event if root.is_none() => root = Some(reader.value(event, 0)?),
            _ => return Err("the frontmatter holds more than one YAML document".to_owned()),
        }
    }
    match root {
        Some(Value::Object(map)) => Ok(map),
        None | Some(Value::Null) => Ok(Map::new()),
        Some(other) => Err(format!(
            "the frontmatter is {}, not a mapping",
            crate::json_kind(&other)
        )),
    }
}

struct Reader<'a> {
    parser: Parser<'a, saphyr_parser::StrInput<'a>>,
    /// The values of the anchors seen so far (`&name`), for the aliases (`*name`).
    anchors: HashMap<usize, Value>,
}

impl<'a> Reader<'a> {
    fn next(&mut self) -> Result<Event<'a>, String> {
        match self.parser.next_event() {
            Some(Ok((event, _))) => Ok(event),
            Some(Err(error)) => Err(format!("the frontmatter is not valid YAML: {error}")),
            None => Ok(Event::StreamEnd),
        }
    }

    fn value(&mut self, event: Event<'a>, depth: usize) -> Result<Value, String> {
        if depth > MAX_DEPTH {
            return Err(format!(
                "the frontmatter nests deeper than {MAX_DEPTH} levels"
            ));
        }
        let (value, anchor) = match event {
            Event::Scalar(text, style, anchor, tag) => {
                (scalar(&text, style, tag.as_deref()), anchor)
            }
            Event::Alias(id) => {
                return self.anchors.get(&id).cloned().ok_or_else(|| {
                    "the frontmatter uses an alias of an unknown anchor".to_owned()
                });
            }
            Event::SequenceStart(anchor, _) => {
                let mut items = Vec::new();
                loop {
                    match self.next()? {
                        Event::SequenceEnd => break,
                        Event::StreamEnd => return Err(truncated()),
                        item => items.push(self.value(item, depth + 1)?),
                    }
                }
                (Value::Array(items), anchor)
            }
            Event::MappingStart(anchor, _) => {
                let mut map = Map::new();
                loop {
                    let key = match self.next()? {
                        Event::MappingEnd => break,
                        Event::StreamEnd => return Err(truncated()),
                        key => self.value(key, depth + 1)?,
                    };
                    let key = match key {
                        Value::String(s) => s,
                        Value::Null => "null".to_owned(),
                        Value::Bool(_) | Value::Number(_) => key.to_string(),
                        other => {
                            return Err(format!(
                                "the frontmatter has a key that is {}",
                                crate::json_kind(&other)
                            ));
                        }
                    };
                    let value = match self.next()? {
                        Event::StreamEnd => return Err(truncated()),
                        value => self.value(value, depth + 1)?,
                    };
                    map.insert(key, value);
                }
                (Value::Object(map), anchor)
            }
            _ => return Err(truncated()),
        };
        if anchor != 0 {
            self.anchors.insert(anchor, value.clone());
        }
        Ok(value)
    }
}

fn truncated() -> String {
    "the frontmatter YAML ends in the middle of a value".to_owned()
}

/// A scalar under YAML 1.2's core schema: quoted and block scalars, and those tagged `!!str`,
/// are strings; a plain scalar may be null, a boolean or a number.
fn scalar(text: &str, style: ScalarStyle, tag: Option<&Tag>) -> Value {
    let core_tag = tag
        .filter(|t| t.is_yaml_core_schema())
        .map(|t| t.suffix.as_str());
    if style != ScalarStyle::Plain || core_tag == Some("str") {
        return Value::String(text.to_owned());
    }
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return Value::Null,
        "true" | "True" | "TRUE" => return Value::Bool(true),
        "false" | "False" | "FALSE" => return Value::Bool(false),
        _ => {}
    }
    if let Some(n) = integer(text) {
        return Value::Number(n);
    }
    if let Some(n) = float(text) {
        return Value::Number(n);
    }
    Value::String(text.to_owned())
}

fn integer(text: &str) -> Option<Number> {
    let (negative, digits) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    let (radix, digits) = if let Some(hex) = digits.strip_prefix("0x") {
        (16, hex)
    } else if let Some(octal) = digits.strip_prefix("0o") {
        (8, octal)
    } else {
        (10, digits)
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let magnitude = u64::from_str_radix(digits, radix).ok()?;
    if negative {
        let value = 0i64.checked_sub_unsigned(magnitude)?;
        Some(Number::from(value))
    } else {
        Some(Number::from(magnitude))
    }
}

/// A float of the core schema; infinities and NaN have no JSON form and stay strings.
fn float(text: &str) -> Option<Number> {
    let body = text.strip_prefix(['-', '+']).unwrap_or(text);
    let shaped = !body.is_empty()
        && body.chars().any(|c| c.is_ascii_digit())
        && body
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '-' | '+'));
    if !shaped {
        return None;
    }
    text.parse::<f64>().ok().and_then(Number::from_f64)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::to_json;

    #[test]
    fn keeps_every_field_in_its_type() {
        let yaml = "name: pdf-tools\ndescription: \"Read: PDFs\"\nlicense: MIT\n\
                    user-invocable: false\nversion: 1.5\ncount: -3\nempty:\nquoted: '12'\n\
                    tagged: !!str 7\nmetadata:\n  author: me\nhooks:\n  - a\n  - b: &x 1\n    c: *x\n";
        assert_eq!(
            serde_json::Value::Object(to_json(yaml).unwrap()),
            json!({
                "name": "pdf-tools", "description": "Read: PDFs", "license": "MIT",
                "user-invocable": false, "version": 1.5, "count": -3, "empty": null,
                "quoted": "12", "tagged": "7", "metadata": {"author": "me"},
                "hooks": ["a", {"b": 1, "c": 1}]
            })
        );
    }

    #[test]
    fn refuses_what_is_not_a_mapping() {
        assert!(to_json("- a\n- b\n").unwrap_err().contains("an array"));
        assert!(to_json("a: [1\n").unwrap_err().contains("not valid YAML"));
        assert_eq!(to_json("").unwrap(), serde_json::Map::new());
    }
}
