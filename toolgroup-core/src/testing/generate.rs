//! Valid argument objects from a tool's input schema: the subset of JSON Schema 2020-12 that
//! `schemars` emits for the types `#[tool]` accepts.

use std::fmt;

use serde_json::{Map, Value};

use super::rng::Rng;
use super::validate::{self, Verdict, is_annotation};

/// Why [`generate_valid`] cannot make a value for a schema: a keyword it does not generate
/// for (`pattern`, `not`, `if`...), a string `format` it does not know, a `$ref` cycle with no
/// way to end it, or constraints no value meets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unsupported {
    at: String,
    reason: String,
}

impl Unsupported {
    fn new(at: &str, reason: impl Into<String>) -> Self {
        Unsupported {
            at: at.to_owned(),
            reason: reason.into(),
        }
    }

    /// Where in the schema, as a JSON pointer (`""` for the root, `/$defs/Node` after a
    /// `$ref`).
    pub fn at(&self) -> &str {
        &self.at
    }

    /// What the generator cannot do there.
    pub fn reason(&self) -> &str {
        &self.reason
    }
}

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.at.is_empty() { "#" } else { &self.at };
        write!(
            f,
            "cannot generate a value at `{at}` of the schema: {}",
            self.reason
        )
    }
}

impl std::error::Error for Unsupported {}

/// An object valid against `schema` (a tool's input schema: `$ref`s resolve against it),
/// drawn with `rng`. The same schema and the same generator state give the same value.
///
/// What it covers: `$ref` into `$defs`, `anyOf`, `oneOf`, a one-schema `allOf`, `enum`,
/// `const`, `type` (one or a list, `null` included), integer and number bounds
/// (`minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, integer `multipleOf`, and
/// the range a `format` such as `uint8` or `int32` implies), strings (`minLength`,
/// `maxLength`, the formats `date-time`, `date`, `time`, `partial-date-time`,
/// `partial-time`, `uuid`, `email`, `uri`, `hostname`, `ipv4`, `ipv6`, `ip`; other text
/// mixes ASCII, other scripts, emoji and control characters), arrays (`items`, `prefixItems`,
/// `minItems`, `maxItems`, `uniqueItems`), objects (`properties`, `required`,
/// `additionalProperties`, `propertyNames`, `minProperties`, `maxProperties`) and the
/// annotations. Optional properties are given half the time; arrays and maps without bounds
/// get up to three items. Anything else, `pattern` included (a regular expression is not
/// generated for), is [`Unsupported`], as is a value the generator made that its own check
/// of the schema does not find valid.
///
/// ```
/// use serde_json::json;
/// use toolgroup::testing::{Rng, generate_valid};
///
/// let schema = json!({
///     "type": "object",
///     "properties": {"n": {"type": "integer", "format": "uint8", "minimum": 0, "maximum": 255}},
///     "required": ["n"],
/// });
/// let value = generate_valid(&schema, &mut Rng::new(1)).unwrap();
/// assert!(value["n"].as_u64().unwrap() <= 255);
/// ```
pub fn generate_valid(schema: &Value, rng: &mut Rng) -> Result<Value, Unsupported> {
    let mut generator = Gen {
        root: schema,
        rng,
        depth: 0,
        refs: Vec::new(),
        repeats: 0,
    };
    // A union may allow other values too (`#[args]` of an enum with a unit variant): a tool's
    // arguments are an object, so draw again (a few times) until the value is one.
    for _ in 0..OBJECT_DRAWS {
        let value = generator.value(schema, "")?;
        if !value.is_object() {
            continue;
        }
        return match validate::check(schema, schema, &value) {
            Verdict::Valid => Ok(value),
            _ => Err(Unsupported::new(
                "",
                "the generated value does not meet the schema (keywords combined in a way the generator does not handle)",
            )),
        };
    }
    Err(Unsupported::new(
        "",
        "no object drawn: the schema's objects are too rare (tool arguments are an object)",
    ))
}

/// How many values [`generate_valid`] draws to find an object.
const OBJECT_DRAWS: usize = 16;

static TRUE: Value = Value::Bool(true);

/// Once a `$ref` has been entered this many times inside itself, optional parts are left
/// out, arrays kept at their least and `null` chosen where allowed, so a recursive type
/// ends; past `GIVE_UP` such entries, it has no end. `MAX_DEPTH` bounds plain nesting.
const SHALLOW: usize = 2;
const GIVE_UP: usize = 16;
const MAX_DEPTH: usize = 256;

/// The keywords the generator reads (beside the annotations).
const KNOWN: &[&str] = &[
    "$ref",
    "type",
    "enum",
    "const",
    "anyOf",
    "oneOf",
    "allOf",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "items",
    "prefixItems",
    "minItems",
    "maxItems",
    "uniqueItems",
    "properties",
    "required",
    "additionalProperties",
    "propertyNames",
    "minProperties",
    "maxProperties",
];

struct Gen<'s, 'r> {
    root: &'s Value,
    rng: &'r mut Rng,
    depth: usize,
    /// The `$ref`s being expanded, outermost first.
    refs: Vec<&'s str>,
    /// How many of them are already further out in `refs`: the depth of recursion.
    repeats: usize,
}

impl<'s> Gen<'s, '_> {
    fn shallow(&self) -> bool {
        self.repeats >= SHALLOW
    }

    fn value(&mut self, schema: &'s Value, at: &str) -> Result<Value, Unsupported> {
        let map = match schema {
            Value::Bool(true) => return Ok(self.any()),
            Value::Bool(false) => {
                return Err(Unsupported::new(at, "the schema `false` allows no value"));
            }
            Value::Object(map) => map,
            _ => {
                return Err(Unsupported::new(
                    at,
                    "a schema that is neither an object nor a boolean",
                ));
            }
        };
        if self.depth > MAX_DEPTH {
            return Err(Unsupported::new(at, "schemas nested too deep"));
        }
        if let Some(keyword) = map
            .keys()
            .find(|k| !KNOWN.contains(&k.as_str()) && !is_annotation(k))
        {
            return Err(Unsupported::new(at, unsupported_keyword(keyword)));
        }
        self.depth += 1;
        let result = self.object_schema(schema, map, at);
        self.depth -= 1;
        result
    }

    fn object_schema(
        &mut self,
        schema: &'s Value,
        map: &'s Map<String, Value>,
        at: &str,
    ) -> Result<Value, Unsupported> {
        if let Some(reference) = map.get("$ref") {
            let reference = reference.as_str().unwrap_or_default();
            let Some(target) = validate::resolve(self.root, reference) else {
                return Err(Unsupported::new(
                    at,
                    format!(
                        "the `$ref` `{reference}` is not a local reference the generator can follow"
                    ),
                ));
            };
            if map.keys().any(|k| k != "$ref" && !is_annotation(k)) {
                return Err(Unsupported::new(at, "`$ref` beside other assertions"));
            }
            let repeat = self.refs.contains(&reference);
            if repeat && self.repeats >= GIVE_UP {
                return Err(Unsupported::new(
                    at,
                    "the schema refers to itself (a `$ref` cycle) with no way to end it",
                ));
            }
            self.refs.push(reference);
            self.repeats += usize::from(repeat);
            let value = self.value(target, reference.trim_start_matches('#'));
            self.repeats -= usize::from(repeat);
            self.refs.pop();
            return value;
        }
        if let Some(value) = map.get("const") {
            return Ok(value.clone());
        }
        if let Some(options) = map.get("enum") {
            return match options.as_array().filter(|o| !o.is_empty()) {
                Some(options) => Ok(self.rng.pick(options).clone()),
                None => Err(Unsupported::new(at, "an `enum` with no values")),
            };
        }
        for keyword in ["anyOf", "oneOf"] {
            if let Some(branches) = map.get(keyword) {
                return self.branch(schema, branches, keyword, at);
            }
        }
        if let Some(all) = map.get("allOf") {
            return match all.as_array().map(Vec::as_slice) {
                Some([only]) => self.value(only, &format!("{at}/allOf/0")),
                _ => Err(Unsupported::new(at, "an `allOf` of more than one schema")),
            };
        }
        let ty = self.pick_type(map, at)?;
        match ty {
            "null" => Ok(Value::Null),
            "boolean" => Ok(Value::Bool(self.rng.one_in(2))),
            "integer" => {
                super::number::integer(self.rng, map).map_err(|why| Unsupported::new(at, why))
            }
            "number" => {
                super::number::number(self.rng, map).map_err(|why| Unsupported::new(at, why))
            }
            "string" => self.string(map, at),
            "array" => self.array(map, at),
            "object" => self.object(map, at),
            _ => Ok(self.any()),
        }
    }

    /// One branch of an `anyOf` or `oneOf`, tried from a random one on; a `oneOf` branch
    /// counts only when no other branch also accepts the value.
    fn branch(
        &mut self,
        schema: &'s Value,
        branches: &'s Value,
        keyword: &str,
        at: &str,
    ) -> Result<Value, Unsupported> {
        let Some(branches) = branches.as_array().filter(|b| !b.is_empty()) else {
            return Err(Unsupported::new(at, format!("an empty `{keyword}`")));
        };
        // Near the depth limit, the branches that end (an `Option`'s `null`) first; otherwise
        // from a random one on.
        let order: Vec<usize> = if self.shallow() {
            let is_null = |b: &Value| b.get("type") == Some(&Value::String("null".to_owned()));
            let nulls = (0..branches.len()).filter(|&n| is_null(&branches[n]));
            nulls
                .chain((0..branches.len()).filter(|&n| !is_null(&branches[n])))
                .collect()
        } else {
            let start = self.rng.index(branches.len());
            (0..branches.len())
                .map(|i| (start + i) % branches.len())
                .collect()
        };
        let mut last = None;
        for n in order {
            match self.value(&branches[n], &format!("{at}/{keyword}/{n}")) {
                Ok(value) if validate::check(self.root, schema, &value) == Verdict::Valid => {
                    return Ok(value);
                }
                Ok(_) => {}
                Err(e) => last = Some(e),
            }
        }
        Err(last.unwrap_or_else(|| {
            Unsupported::new(
                at,
                format!("no branch of the `{keyword}` gave a value that only it accepts"),
            )
        }))
    }

    fn pick_type(
        &mut self,
        map: &Map<String, Value>,
        at: &str,
    ) -> Result<&'static str, Unsupported> {
        const TYPES: [&str; 7] = [
            "null", "boolean", "integer", "number", "string", "array", "object",
        ];
        let named = |t: &str| TYPES.iter().copied().find(|k| *k == t);
        match map.get("type") {
            Some(Value::String(t)) => {
                named(t).ok_or_else(|| Unsupported::new(at, format!("the type `{t}`")))
            }
            Some(Value::Array(types)) => {
                let types: Vec<&'static str> = types
                    .iter()
                    .filter_map(|t| t.as_str().and_then(named))
                    .collect();
                if types.is_empty() {
                    return Err(Unsupported::new(at, "a `type` list with no known type"));
                }
                // An optional value is given a value more often than `null`.
                if self.shallow() && types.contains(&"null") {
                    return Ok("null");
                }
                let non_null: Vec<&'static str> =
                    types.iter().copied().filter(|t| *t != "null").collect();
                if non_null.is_empty() || (non_null.len() < types.len() && self.rng.one_in(4)) {
                    return Ok("null");
                }
                Ok(*self.rng.pick(&non_null))
            }
            Some(_) => Err(Unsupported::new(
                at,
                "a `type` that is neither a name nor a list",
            )),
            None => Ok(infer_type(map)),
        }
    }

    /// A value for the schema `true`: a small scalar.
    fn any(&mut self) -> Value {
        match self.rng.below(4) {
            0 => Value::Null,
            1 => Value::Bool(self.rng.one_in(2)),
            2 => Value::from(self.rng.between(-9, 9) as i64),
            _ => Value::String(super::text::word(self.rng)),
        }
    }

    fn string(&mut self, map: &Map<String, Value>, at: &str) -> Result<Value, Unsupported> {
        let min = map.get("minLength").and_then(Value::as_u64).unwrap_or(0) as usize;
        let max = map
            .get("maxLength")
            .and_then(Value::as_u64)
            .map(|m| m as usize);
        if max.is_some_and(|max| max < min) {
            return Err(Unsupported::new(at, "a `maxLength` below the `minLength`"));
        }
        let text = match map.get("format").and_then(Value::as_str) {
            None => super::text::text(self.rng, min, max),
            Some(format) => match super::text::formatted(self.rng, format) {
                Some(text) => text,
                None => {
                    return Err(Unsupported::new(
                        at,
                        format!(
                            "the string format `{format}` (the generator knows date-time, date, time, partial-date-time, partial-time, uuid, email, uri, hostname, ipv4, ipv6 and ip)"
                        ),
                    ));
                }
            },
        };
        Ok(Value::String(text))
    }

    fn array(&mut self, map: &'s Map<String, Value>, at: &str) -> Result<Value, Unsupported> {
        let prefix = map
            .get("prefixItems")
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice);
        let min = map.get("minItems").and_then(Value::as_u64).unwrap_or(0) as usize;
        let items = map.get("items");
        // `items: false` (a tuple): nothing after the prefix.
        let open = !matches!(items, Some(Value::Bool(false)));
        let cap = if open {
            prefix.len().max(min) + 3
        } else {
            prefix.len()
        };
        let max = map
            .get("maxItems")
            .and_then(Value::as_u64)
            .map_or(cap, |m| (m as usize).min(cap));
        let wanted = min.max(prefix.len().min(max));
        if wanted > max {
            return Err(Unsupported::new(at, "array bounds that no array meets"));
        }
        let len = if self.shallow() {
            wanted
        } else {
            wanted + self.rng.index(max - wanted + 1)
        };
        let unique = map.get("uniqueItems") == Some(&Value::Bool(true));
        let mut out: Vec<Value> = Vec::with_capacity(len);
        let mut misses = 0;
        while out.len() < len {
            let i = out.len();
            let value = match prefix.get(i) {
                Some(schema) => self.value(schema, &format!("{at}/prefixItems/{i}"))?,
                None => match items {
                    Some(schema) => self.value(schema, &format!("{at}/items"))?,
                    None => self.any(),
                },
            };
            if unique && out.iter().any(|v| validate::json_eq(v, &value)) {
                misses += 1;
                if misses > 16 {
                    if out.len() >= min {
                        break;
                    }
                    return Err(Unsupported::new(
                        at,
                        "`uniqueItems` with too few distinct values for `minItems`",
                    ));
                }
                continue;
            }
            out.push(value);
        }
        Ok(Value::Array(out))
    }

    fn object(&mut self, map: &'s Map<String, Value>, at: &str) -> Result<Value, Unsupported> {
        let properties = map.get("properties").and_then(Value::as_object);
        let required: Vec<&str> = map
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut out = Map::new();
        for name in &required {
            let schema = properties.and_then(|p| p.get(*name)).unwrap_or(&TRUE);
            let value = self.value(schema, &format!("{at}/properties/{name}"))?;
            out.insert((*name).to_owned(), value);
        }
        let max_props = map
            .get("maxProperties")
            .and_then(Value::as_u64)
            .map_or(usize::MAX, |m| m as usize);
        for (name, schema) in properties.into_iter().flatten() {
            if out.contains_key(name)
                || out.len() >= max_props
                || self.shallow()
                || self.rng.one_in(2)
            {
                continue;
            }
            // An optional property the generator cannot make is left out.
            if let Ok(value) = self.value(schema, &format!("{at}/properties/{name}")) {
                out.insert(name.clone(), value);
            }
        }
        let min_props = map
            .get("minProperties")
            .and_then(Value::as_u64)
            .unwrap_or(0) as usize;
        let additional = map.get("additionalProperties");
        let extra: Option<&Value> = match additional {
            Some(Value::Bool(false)) => None,
            Some(schema) => Some(schema),
            None => Some(&TRUE),
        };
        // Extra keys where a schema says what they hold (a map), or to reach `minProperties`.
        let mut wanted = min_props.saturating_sub(out.len());
        let map_like = matches!(additional, Some(Value::Object(_)))
            || (additional == Some(&TRUE) && properties.is_none_or(Map::is_empty));
        if map_like && !self.shallow() {
            wanted = wanted.max(self.rng.index(4));
        }
        let Some(extra) = extra.filter(|_| wanted > 0) else {
            if wanted > 0 {
                return Err(Unsupported::new(
                    at,
                    "`minProperties` beyond the declared properties, with `additionalProperties: false`",
                ));
            }
            return Ok(Value::Object(out));
        };
        let mut misses = 0;
        while wanted > 0 && out.len() < max_props {
            let key = match map.get("propertyNames") {
                Some(names) => match self.value(names, &format!("{at}/propertyNames"))? {
                    Value::String(key) => key,
                    _ => {
                        return Err(Unsupported::new(
                            at,
                            "`propertyNames` that is not a string schema",
                        ));
                    }
                },
                None => super::text::key(self.rng),
            };
            if out.contains_key(&key) || properties.is_some_and(|p| p.contains_key(&key)) {
                misses += 1;
                if misses > 16 {
                    break;
                }
                continue;
            }
            let value = self.value(extra, &format!("{at}/additionalProperties"))?;
            out.insert(key, value);
            wanted -= 1;
        }
        Ok(Value::Object(out))
    }
}

/// The text for a keyword the generator does not read.
fn unsupported_keyword(keyword: &str) -> String {
    match keyword {
        "pattern" => "a `pattern`: the generator does not generate strings for regular expressions"
            .to_owned(),
        "patternProperties" => {
            "`patternProperties`: the generator does not match regular expressions".to_owned()
        }
        _ => format!("the keyword `{keyword}`"),
    }
}

/// The type a schema without `type` implies by its keywords (any, when none does).
fn infer_type(map: &Map<String, Value>) -> &'static str {
    let has = |keys: &[&str]| keys.iter().any(|k| map.contains_key(*k));
    if has(&[
        "properties",
        "required",
        "additionalProperties",
        "propertyNames",
        "minProperties",
        "maxProperties",
    ]) {
        "object"
    } else if has(&[
        "items",
        "prefixItems",
        "minItems",
        "maxItems",
        "uniqueItems",
    ]) {
        "array"
    } else if has(&["minLength", "maxLength", "format"]) {
        "string"
    } else if has(&[
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
    ]) {
        "number"
    } else {
        "any"
    }
}
