//! The groups one HTTP request selects, in the three forms clients send: the URL's `groups`
//! parameter (`?groups=a,b`), the path below the endpoint (`/mcp/a,b`, which the service
//! sees as `/a,b`), and the `X-MCP-Toolsets: a,b` header.

use std::fmt::Write as _;

use http::{HeaderMap, Uri};
use serde_json::Value;
use toolgroup_core::registry::UnknownGroup;
use toolgroup_core::{Registry, Session};

use crate::echo;

/// The header that selects groups (GitHub's MCP server's name for it).
pub(crate) const TOOLSETS_HEADER: &str = "x-mcp-toolsets";

/// Why a request's selection is refused (`400 Bad Request`).
#[derive(Debug)]
pub(crate) enum Refused {
    /// A form names groups the toolkit does not have.
    Unknown(UnknownGroup),
    /// Two forms select different groups.
    Conflict(String),
}

impl Refused {
    /// The JSON body of the `400` answer.
    pub(crate) fn to_json(&self) -> Value {
        match self {
            Refused::Unknown(error) => unknown_groups_json(error),
            Refused::Conflict(message) => serde_json::json!({
                "error": "conflicting_groups",
                "message": message,
            }),
        }
    }
}

/// The groups `uri` and `headers` select (`None`: the request selects nothing). Every form
/// present is read; all must name known groups, and the same groups.
pub(crate) fn selection<R: Registry>(
    uri: &Uri,
    headers: &HeaderMap,
) -> Result<Option<Session<R>>, Refused> {
    let forms = [
        ("the path", path_names(uri.path())),
        ("the `X-MCP-Toolsets` header", header_names(headers)),
        ("the `groups` parameter", uri.query().and_then(groups_param)),
    ];
    let mut chosen: Option<(&str, Session<R>)> = None;
    for (form, names) in forms {
        let Some(names) = names else { continue };
        let session =
            parse_groups::<R>(names.iter().map(String::as_str)).map_err(Refused::Unknown)?;
        match &chosen {
            Some((first, earlier)) if *earlier != session => {
                return Err(Refused::Conflict(format!(
                    "{first} selects {} but {form} selects {}: a request selects its groups once (or the same groups in each form it uses)",
                    listed(earlier),
                    listed(&session)
                )));
            }
            Some(_) => {}
            None => chosen = Some((form, session)),
        }
    }
    Ok(chosen.map(|(_, session)| session))
}

/// The JSON body of the HTTP service's `400` answer to unknown group names:
/// `{"error": "unknown_groups", "message": ..., "unknown": [{"name", "did_you_mean"}],
/// "groups": [every switchable group]}`.
pub(crate) fn unknown_groups_json(error: &UnknownGroup) -> Value {
    let unknown: Vec<Value> = error
        .unknown
        .iter()
        .map(|name| {
            serde_json::json!({
                "name": echo(name, 64),
                "did_you_mean": error.suggestion(name),
            })
        })
        .collect();
    serde_json::json!({
        "error": "unknown_groups",
        "message": error.to_string(),
        "unknown": unknown,
        "groups": error.known,
    })
}

/// The session of a list of group names (a URL's `groups` parameter): each trimmed, empty
/// items skipped, every unknown name refused at once.
pub(crate) fn parse_groups<'a, R: Registry>(
    names: impl IntoIterator<Item = &'a str>,
) -> Result<Session<R>, UnknownGroup> {
    Session::restore(names.into_iter().map(str::trim).filter(|n| !n.is_empty()))
}

/// `` `a`, `b` ``, or "no group".
fn listed<R: Registry>(session: &Session<R>) -> String {
    let mut out = String::new();
    for (i, name) in session.active_names().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "`{name}`");
    }
    if out.is_empty() {
        out.push_str("no group");
    }
    out
}

/// The names of the path below the endpoint (`/a,b` or `/a,b/`; `None` for `/` and ``).
fn path_names(path: &str) -> Option<Vec<String>> {
    let path = path.trim_matches('/');
    (!path.is_empty()).then(|| split(&percent_decode(path, false)))
}

/// The names of every `X-MCP-Toolsets` header (`None` without one).
fn header_names(headers: &HeaderMap) -> Option<Vec<String>> {
    let mut out: Option<Vec<String>> = None;
    for value in headers.get_all(TOOLSETS_HEADER) {
        out.get_or_insert_with(Vec::new)
            .extend(split(&String::from_utf8_lossy(value.as_bytes())));
    }
    out
}

/// `a, b,,c` as `["a", "b", "c"]`.
fn split(value: &str) -> Vec<String> {
    value
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

/// The values of every `groups` parameter of a query, split at commas and percent-decoded
/// (`None` when there is no `groups` parameter).
pub(crate) fn groups_param(query: &str) -> Option<Vec<String>> {
    let mut out: Option<Vec<String>> = None;
    for pair in query.split('&') {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        if key != "groups" {
            continue;
        }
        out.get_or_insert_with(Vec::new)
            .extend(split(&percent_decode(value, true)));
    }
    out
}

/// `s` percent-decoded (`+` as a space in a query, `form`), invalid escapes kept as they are.
fn percent_decode(s: &str, form: bool) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' if i + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok();
                match hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                    Some(b) => {
                        out.push(b);
                        i += 3;
                    }
                    None => {
                        out.push(b'%');
                        i += 1;
                    }
                }
            }
            b'+' if form => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::{groups_param, path_names, percent_decode};

    #[test]
    fn groups_parameter() {
        assert_eq!(groups_param("a=1"), None);
        assert_eq!(
            groups_param("groups=web_search,scraping"),
            Some(vec!["web_search".to_owned(), "scraping".to_owned()])
        );
        assert_eq!(
            groups_param("groups=web_search%2Cscraping&groups=notes"),
            Some(vec!["web_search".into(), "scraping".into(), "notes".into()])
        );
        assert_eq!(groups_param("groups="), Some(vec![]));
        assert_eq!(percent_decode("%zz%2", true), "%zz%2");
    }

    #[test]
    fn path_segment() {
        assert_eq!(path_names("/"), None);
        assert_eq!(path_names(""), None);
        assert_eq!(
            path_names("/web_search%2Cscraping/"),
            Some(vec!["web_search".to_owned(), "scraping".to_owned()])
        );
        assert_eq!(path_names("/a+b"), Some(vec!["a+b".to_owned()]));
    }
}
