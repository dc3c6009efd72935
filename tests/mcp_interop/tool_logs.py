"""Interop: the official MCP Python SDK receives a toolgroup tool's log messages.

usage: python tool_logs.py URL

URL is a Streamable HTTP endpoint (`cargo test -p toolgroup-mcp --test server logging::` starts
one, mask, with legacy sessions on) serving a `chatty` tool that logs "a LEVEL message" once at
each MCP level, least severe first, then "done" at info. Checks that `list_tools` accepts
input schemas that name their dialect (`$schema`), and that `logging_callback` receives the
tool's messages at or above the level the client set: with `logging/setLevel` on a legacy
(2025-11-25) session, with `log_level` (the request's `_meta`) on 2026-07-28. Prints one line
per check and ends with `N passed, N failed`; exits non-zero when a check failed.
"""

import sys

import anyio
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

if len(sys.argv) != 2:
    sys.exit(__doc__)
URL = sys.argv[1]
RESULTS = []
LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]
DIALECT = "https://json-schema.org/draft/2020-12/schema"


def check(name, ok, detail=""):
    RESULTS.append(bool(ok))
    print(f"{'ok  ' if ok else 'FAIL'} {name}" + ("" if ok else f": {detail}"), flush=True)


def expected(minimum):
    """What `chatty` logs at or above `minimum`, as (level, logger, data)."""
    every = [(level, "chatty", f"a {level} message") for level in LEVELS] + [("info", "chatty", "done")]
    return [m for m in every if LEVELS.index(m[0]) >= LEVELS.index(minimum)]


class Log:
    def __init__(self):
        self.seen = []

    async def __call__(self, params):
        self.seen.append((params.level, params.logger, params.data))

    async def after(self, want):
        """The messages seen, once `want` many arrived (or after a grace period)."""
        with anyio.move_on_after(5):
            while len(self.seen) < len(want):
                await anyio.sleep(0.01)
        await anyio.sleep(0.05)
        seen, self.seen = self.seen, []
        return seen


async def chatty(label, client, log, want, **kwargs):
    r = await client.call_tool("chatty", {}, **kwargs)
    check(f"{label}: the tool runs", not r.is_error, r)
    seen = await log.after(want)
    check(f"{label}: logging_callback gets {len(want)} messages, in order", seen == want, seen)


async def legacy():
    log = Log()
    async with Client(streamable_http_client(URL), mode="legacy", logging_callback=log) as client:
        tools = (await client.list_tools(cache_mode="bypass")).tools
        check("legacy: list_tools accepts input schemas naming their dialect",
              tools and all(t.input_schema.get("$schema") == DIALECT for t in tools),
              [t.input_schema for t in tools])
        await chatty("legacy, before logging/setLevel: every level", client, log, expected("debug"))
        await client.set_logging_level("warning")
        await chatty("legacy, after logging/setLevel warning", client, log, expected("warning"))
        await client.set_logging_level("emergency")
        await chatty("legacy, after logging/setLevel emergency", client, log, expected("emergency"))


async def modern():
    log = Log()
    async with Client(streamable_http_client(URL), mode="auto", logging_callback=log) as client:
        check("2026-07-28: protocol version", client.protocol_version == "2026-07-28", client.protocol_version)
        tools = (await client.list_tools(cache_mode="bypass")).tools
        check("2026-07-28: list_tools accepts input schemas naming their dialect",
              tools and all(t.input_schema.get("$schema") == DIALECT for t in tools),
              [t.input_schema for t in tools])
        await chatty("2026-07-28, no log level asked: nothing", client, log, [])
    log = Log()
    async with Client(streamable_http_client(URL), mode="auto", logging_callback=log, log_level="error") as client:
        await chatty("2026-07-28, log_level error", client, log, expected("error"))


async def main():
    await legacy()
    await modern()
    passed = sum(RESULTS)
    failed = len(RESULTS) - passed
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(anyio.run(main))
