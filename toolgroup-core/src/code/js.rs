//! The JavaScript a run starts with: the tools as functions (each group a namespace object,
//! the tools of no group global), `console.log`, and the glue that turns a tool call into a
//! promise the host settles.

use std::fmt::Write as _;

use serde_json::Value;

use super::Limits;
use super::typescript::identifier;

/// The prelude for `namespaces` (group name, tool names) and the global `functions`.
pub(crate) fn prelude(
    namespaces: &[(&str, Vec<&str>)],
    functions: &[&str],
    limits: &Limits,
) -> String {
    let mut out = String::with_capacity(4096);
    let _ = write!(
        out,
        "{GLUE}\n(() => {{\nconst ns = globalThis.__toolgroup_ns, call = globalThis.__toolgroup_call;\ndelete globalThis.__toolgroup_ns; delete globalThis.__toolgroup_call;\n"
    );
    for (group, tools) in namespaces {
        let names = Value::from(tools.iter().map(|t| Value::from(*t)).collect::<Vec<_>>());
        let _ = writeln!(
            out,
            "globalThis.{} = ns({}, {names});",
            identifier(group),
            Value::from(*group)
        );
    }
    for function in functions {
        let _ = writeln!(
            out,
            "globalThis.{} = (args) => call({}, args);",
            identifier(function),
            Value::from(*function)
        );
    }
    out.push_str("})();\n");
    out.replace("@MAX_CALLS@", &limits.calls.to_string())
        .replace("@MAX_LOG@", &limits.output.to_string())
}

/// Binds the host functions in closures and hides them from the program.
const GLUE: &str = r#""use strict";
(() => {
  const enqueue = globalThis.__toolgroup_enqueue, log = globalThis.__toolgroup_log,
    finish = globalThis.__toolgroup_finish, suggest = globalThis.__toolgroup_suggest;
  for (const name of ["__toolgroup_enqueue", "__toolgroup_log", "__toolgroup_finish", "__toolgroup_suggest"]) {
    delete globalThis[name];
  }
  const waiting = new Map();
  const text = (v) => {
    if (typeof v === "string") return v;
    try {
      const t = JSON.stringify(v);
      return t === undefined ? String(v) : t;
    } catch (e) {
      return String(v);
    }
  };
  const call = (tool, args) => {
    let json;
    try {
      json = JSON.stringify(args === undefined ? {} : args);
    } catch (e) {
      return Promise.reject(new TypeError(`the arguments of \`${tool}\` are not JSON: ${e.message}`));
    }
    if (json === undefined) json = "null";
    // Made here, so that its stack points at the call in the program.
    const site = new Error("");
    const id = enqueue(tool, json);
    if (id < 0) {
      site.message = "the program made more than @MAX_CALLS@ tool calls (its limit); this one did not run";
      return Promise.reject(site);
    }
    return new Promise((resolve, reject) => waiting.set(id, { resolve, reject, site }));
  };
  globalThis.__toolgroup_call = call;
  globalThis.__toolgroup_ns = (group, names) => {
    const target = Object.create(null);
    for (const name of names) target[name] = (args) => call(name, args);
    Object.freeze(target);
    return new Proxy(target, {
      get(t, p) {
        if (typeof p !== "string" || p in t) return t[p];
        if (p === "then" || p === "toJSON") return undefined;
        const guess = suggest(p, names);
        const hint = guess ? ` Did you mean \`${group}.${guess}\`?` : "";
        throw new TypeError(`\`${group}.${p}\` is not a tool of the group \`${group}\`.${hint} Its tools: ${names.map((n) => `\`${n}\``).join(", ")}.`);
      },
    });
  };
  Object.defineProperty(globalThis, "__toolgroup_settle", {
    value: (id, ok, answer) => {
      const w = waiting.get(id);
      waiting.delete(id);
      if (w === undefined) return;
      if (ok) {
        w.resolve(JSON.parse(answer));
      } else {
        w.site.message = answer;
        w.reject(w.site);
      }
    },
  });
  globalThis.console = Object.freeze({
    log: (...values) => {
      if (!log(values.map(text).join(" "))) {
        throw new Error("the program's output passed @MAX_LOG@ bytes (its limit)");
      }
    },
  });
  const describe = (e) => {
    if (e instanceof Error) return `${e.name}: ${e.message}`;
    return `the program threw ${text(e)}, which is not an Error`;
  };
  Object.defineProperty(globalThis, "__toolgroup_start", {
    value: (main) => {
      main().then(
        (v) => {
          if (typeof v === "function" || typeof v === "symbol") {
            finish(false, `the program returned a ${typeof v}, which is not data: return what JSON can hold`, "");
            return;
          }
          let json;
          try {
            json = JSON.stringify(v === undefined ? null : v);
          } catch (e) {
            finish(false, `the program's value is not JSON (${e.message}): return what JSON can hold`, "");
            return;
          }
          finish(true, json, "");
        },
        (e) => finish(false, describe(e), e instanceof Error && typeof e.stack === "string" ? e.stack : ""),
      );
    },
  });
})();"#;
