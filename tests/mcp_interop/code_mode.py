"""Interop: the official MCP Python SDK runs a program through toolgroup's code mode.

usage: python code_mode.py URL

URL is a Streamable HTTP endpoint serving the quickstart's toolkit (`note_write` (basic),
`web_search` and `page_fetch`) in mask mode with `McpServer::with_code_mode`: the one
`cargo test -p toolgroup-mcp --all-features --test client code_mode::` starts, or the
`mcp_server` example's (`--features mcp,code-mode`, `--transport http --code-mode`), as
`.ci/run` runs it. Checks that `list_tools` lists
`run_program` with TypeScript declarations of both groups, that a program chaining five calls
(three at once) returns its value as structured content with its log and its calls, that a
tool's error is caught inside the program, and that a program's own error is an error result
naming its line. Prints one line per check and ends with `N passed, N failed`; exits non-zero
when a check failed.
"""

import sys

import anyio
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

if len(sys.argv) != 2:
    sys.exit(__doc__)
URL = sys.argv[1]
RESULTS = []

PROGRAM = """
const hits = await Promise.all(["rust", "wasm", "mcp"].map((query) => web_search.web_search({ query })));
console.log("searched", hits.length);
const page = await scraping.page_fetch({ url: "https://example.com/" + hits.length });
await notes.note_write({ text: "read " + page.length + " characters" });
return { hits: hits.length, fetched: typeof page };
"""


def check(name, ok, detail=""):
    RESULTS.append(bool(ok))
    print(f"{'ok  ' if ok else 'FAIL'} {name}" + ("" if ok else f": {detail}"), flush=True)


def text(result):
    return "\n".join(c.text for c in result.content if getattr(c, "type", "") == "text")


async def main():
    async with Client(streamable_http_client(URL), mode="auto") as client:
        tools = (await client.list_tools()).tools
        run = next((t for t in tools if t.name == "run_program"), None)
        check("run_program is listed", run is not None, [t.name for t in tools])
        description = run.description if run else ""
        check("it declares both groups", "declare namespace web_search {" in description
              and "declare namespace scraping {" in description, description[:400])
        r = await client.call_tool("run_program", {"program": PROGRAM})
        check("the program runs", not r.is_error, text(r))
        s = r.structured_content or {}
        check("its value comes back", s.get("result") == {"hits": 3, "fetched": "string"}, s)
        check("with its log", s.get("logs") == ["searched 3"], s)
        check("and its five calls", [c.get("tool") for c in s.get("calls", [])]
              == ["web_search", "web_search", "web_search", "page_fetch", "note_write"], s)
        r = await client.call_tool("run_program", {"program": "try { await web_search.web_search({}); } catch (e) { return 'caught'; }"})
        check("a tool's error is caught in the program", (r.structured_content or {}).get("result") == "caught", text(r))
        r = await client.call_tool("run_program", {"program": "return 1;\nconst x = ;"})
        check("a syntax error is an error result with its line", r.is_error and "SyntaxError" in text(r)
              and "line 2" in text(r), text(r))


anyio.run(main)
passed = sum(RESULTS)
failed = len(RESULTS) - passed
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
