"""Interop: the official MCP Python SDK against toolgroup's `io.modelcontextprotocol/groups`
extension (progressive-disclosure WG draft @6de0195c).

usage: python groups.py PATH/TO/interop_server

Runs `interop_server` in mask and list mode over stdio, with the 2025-11-25 handshake and with
2026-07-28, and over Streamable HTTP: a client that declares the extension (the SDK's
`advertise`) lists the basic tools only and calls a group's tool without `reset_tools`;
`groups/list` and `groups/get` (raw JSON-RPC requests: the SDK has no helper for them) give
the groups, their instructions and their tools; an unknown name is refused with a
did-you-mean; a client that declares nothing sees every tool. Over HTTP, `/mcp/web_search`
selects a group. Prints one line per check and ends with `N passed, N failed`; exits non-zero
when a check failed.
"""

import subprocess
import sys
from typing import Any

import anyio
import mcp_types as types
from mcp import Client, StdioServerParameters
from mcp.client import advertise
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from pydantic import TypeAdapter

if len(sys.argv) != 2:
    sys.exit(__doc__)
SERVER = sys.argv[1]
RESULTS = []
GROUPS = "io.modelcontextprotocol/groups"
BASIC = ["note_write", "slow_stats", "whoami"]
ANY = TypeAdapter(dict[str, Any])


def check(name, ok, detail=""):
    RESULTS.append(bool(ok))
    print(f"{'ok  ' if ok else 'FAIL'} {name}" + ("" if ok else f": {detail}"), flush=True)


class Raw(types.Request[dict[str, Any] | None, str]):
    """A request the SDK has no type for, sent as it is."""


async def raw(client, method, params=None):
    return await client.session.send_request(Raw(method=method, params=params), ANY)


async def names(client):
    return [t.name for t in (await client.list_tools(cache_mode="bypass")).tools]


async def groups(label, target, mode):
    """`target()` makes a new connection target."""
    async with Client(target(), mode=mode, extensions=[advertise(GROUPS)]) as client:
        caps = client.server_capabilities
        check(f"{label}: the extension is declared", (caps.extensions or {}).get(GROUPS) == {}, caps)
        listed = await names(client)
        check(f"{label}: a declaring client lists the basic tools only", listed == BASIC, listed)
        found = (await raw(client, "groups/list"))["groups"]
        check(f"{label}: groups/list names each switchable group",
              [g["name"] for g in found] == ["web-search", "scraping", "waiting"]
              and found[0]["_meta"] == {"toolgroup/group": "web_search"}, found)
        got = await raw(client, "groups/get", {"name": "web-search"})
        tools = got.get("contents", {}).get("tools", [])
        check(f"{label}: groups/get gives the instructions and the tools",
              got.get("instructions") == "Cite your sources."
              and [t["name"] for t in tools] == ["web_search"]
              and tools[0]["_meta"]["io.modelcontextprotocol/groups"] == ["web-search"], got)
        r = await client.call_tool("web_search", {"query": "rust"})
        check(f"{label}: a group's tool runs without reset_tools", not r.is_error, r)
        try:
            await raw(client, "groups/get", {"name": "web_search"})
            check(f"{label}: an unknown group is refused", False, "no error")
        except MCPError as e:
            code = -32602 if mode == "auto" else -32002
            check(f"{label}: an unknown group is {code} with a did-you-mean",
                  e.error.code == code and "did you mean `web-search`?" in e.error.message,
                  (e.error.code, e.error.message))
    async with Client(target(), mode=mode) as client:
        listed = await names(client)
        # Mask mode lists every tool but `reset_tools` (first-use activation is on); list mode
        # lists `reset_tools` and the basic tools.
        check(f"{label}: a client that declares nothing sees every tool",
              listed in (BASIC + ["web_search", "page_fetch", "slow", "count"], ["reset_tools"] + BASIC), listed)


async def main():
    for mode in ["legacy", "auto"]:
        for server_mode in ["mask", "list"]:
            args = [server_mode, "stdio", ""]
            await groups(f"stdio {server_mode} {mode}", lambda: StdioServerParameters(command=SERVER, args=args), mode)
    process = subprocess.Popen([SERVER, "mask", "http", "127.0.0.1:0"], stderr=subprocess.PIPE, text=True)
    try:
        line = process.stderr.readline()
        if "http://" not in line:
            raise RuntimeError(f"the server did not start: {line!r}")
        url = line[line.index("http://"):].strip()
        for mode in ["legacy", "auto"]:
            await groups(f"http mask {mode}", lambda: streamable_http_client(url), mode)
            async with Client(streamable_http_client(f"{url}/web_search"), mode=mode) as client:
                listed = await names(client)
                check(f"http {mode}: /mcp/web_search selects the group", listed == BASIC + ["web_search"], listed)
    finally:
        process.terminate()
        process.wait(timeout=10)
    passed = sum(RESULTS)
    print(f"{passed} passed, {len(RESULTS) - passed} failed")
    sys.exit(0 if all(RESULTS) else 1)


anyio.run(main)
