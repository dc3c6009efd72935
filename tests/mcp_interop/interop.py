"""Interop: the official MCP Python SDK against toolgroup's MCP server.

usage: python interop.py PATH/TO/interop_server PATH/TO/mcp_server

Over stdio and over Streamable HTTP: list tools, call one, call `reset_tools`, see a call to an
inactive group refused, receive `notifications/tools/list_changed` in list mode, cancel a
running call, and see unknown groups refused in selected mode. Then the `mcp_server` example
(built with the `mcp` feature): its `bar_chart` tool answers with an `image` content block, a
PNG checked chunk by chunk (CRC-32) and through zlib (Adler-32). Prints one line per check and
ends with `N passed, N failed`; exits non-zero when a check failed.
"""

import asyncio
import base64
import binascii
import json
import struct
import subprocess
import sys
import zlib
import urllib.error
import urllib.request

import anyio
import httpx2
import mcp_types as types
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

if len(sys.argv) != 3:
    sys.exit(__doc__)
SERVER = sys.argv[1]
EXAMPLE = sys.argv[2]
RESULTS = []

# Mask mode with first-use activation (the default) lists every tool but `reset_tools`, which a
# client may still call.
ALL_TOOLS = ["note_write", "slow_stats", "whoami", "web_search", "page_fetch", "slow", "count"]
BASIC = ["note_write", "slow_stats", "whoami"]
EVERY_GROUP_OFF = {"web_search": False, "scraping": False, "waiting": False}


def check(name, ok, detail=""):
    RESULTS.append(bool(ok))
    print(f"{'ok  ' if ok else 'FAIL'} {name}" + ("" if ok else f": {detail}"), flush=True)


def text(result):
    return "\n".join(c.text for c in result.content if getattr(c, "type", "") == "text")


async def names(client):
    listed = await client.list_tools(cache_mode="bypass")
    return [t.name for t in listed.tools]


class HttpServer:
    """A server over HTTP on a free loopback port: the interop server in a mode, or a command
    whose first line on stderr ends with the endpoint's URL."""

    def __init__(self, mode=None, command=None):
        command = command or [SERVER, mode, "http", "127.0.0.1:0"]
        self.process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
        line = self.process.stderr.readline()
        if "http://" not in line:
            raise RuntimeError(f"the server did not start: {line!r}")
        self.url = line[line.index("http://"):].strip()

    def close(self):
        self.process.terminate()
        self.process.wait(timeout=10)


def stdio(mode, groups=""):
    return StdioServerParameters(command=SERVER, args=[mode, "stdio", groups])


def http(url, user):
    return streamable_http_client(url, http_client=httpx2.AsyncClient(headers={"x-user-id": user}))


async def mask(label, target, mode):
    async with Client(target, mode=mode) as client:
        expected = "2026-07-28" if mode == "auto" else None
        check(f"{label}: protocol version", expected is None or client.protocol_version == expected,
              client.protocol_version)
        check(f"{label}: tools/list is every tool, without reset_tools", await names(client) == ALL_TOOLS,
              await names(client))
        tool = next(t for t in (await client.list_tools(cache_mode="bypass")).tools if t.name == "web_search")
        check(f"{label}: the group is in the tool's _meta", (tool.meta or {}).get("toolgroup/group") == "web_search",
              tool.meta)
        r = await client.call_tool("note_write", {"text": "hi"})
        check(f"{label}: a basic tool runs", not r.is_error and text(r) == "noted: hi", text(r))
        r = await client.call_tool("web_search", {"query": "rust"})
        check(f"{label}: an inactive group's tool activates its group on first use and runs",
              not r.is_error and "hit for rust" in text(r)
              and "This call activated the group `web_search`" in text(r) and "Cite your sources." in text(r),
              text(r))
        # The SDK validated the structured content against the listed output schema; a client
        # that shows its model only the structured content reads the activation there.
        activated = (r.structured_content or {}).get("activated_group") or {}
        check(f"{label}: the activation is in the structured content, beside the wrapped result",
              activated.get("group") == "web_search" and activated.get("instructions") == "Cite your sources."
              and activated.get("tools") == ["web_search"] and "result" in (r.structured_content or {}),
              r.structured_content)
        r = await client.call_tool("reset_tools", {**EVERY_GROUP_OFF, "web_search": True, "waiting": True})
        check(f"{label}: reset_tools switches groups on, keeping the one activated on first use",
              not r.is_error and "Activated: waiting" in text(r) and "Kept: web_search" in text(r), text(r))
        structured = r.structured_content or {}
        check(f"{label}: reset_tools' structured content names the groups' tools",
              {"group": "waiting", "tools": ["slow", "count"]} == next(
                  ({k: v for k, v in g.items() if k != "instructions"}
                   for g in structured.get("available", []) if g.get("group") == "waiting"), None),
              structured)
        r = await client.call_tool("web_search", {"query": "rust"})
        check(f"{label}: the switched-on tool runs", not r.is_error and "hit for rust" in text(r), text(r))
        r = await client.call_tool("reset_tools", {"web_serch": True})
        check(f"{label}: a misspelled group is refused with a did-you-mean",
              r.is_error and "did you mean `web_search`?" in text(r), text(r))
        try:
            await client.call_tool("web_serch", {})
            check(f"{label}: an unknown tool is a -32602 error", False, "no error")
        except MCPError as e:
            check(f"{label}: an unknown tool is a -32602 error with a did-you-mean",
                  e.error.code == -32602 and "web_search" in e.error.message, e.error)
        await progress(label, client)
        await cancel(label, client)


async def progress(label, client):
    seen = []

    async def on_progress(done, total, message):
        seen.append((done, total, message))

    r = await client.call_tool("count", {"n": 3}, progress_callback=on_progress)
    check(f"{label}: the counting tool runs", not r.is_error and text(r) == "counted to 3", text(r))
    check(f"{label}: its progress reports arrive as notifications/progress, in order",
          seen == [(1, 3, "step 1"), (2, 3, "step 2"), (3, 3, "step 3")], seen)


async def cancel(label, client):
    before = (await client.call_tool("slow_stats", {})).structured_content
    outcome = {}

    async def run():
        with anyio.CancelScope() as scope:
            outcome["scope"] = scope
            outcome["result"] = await client.call_tool("slow", {"seconds": 60})

    async with anyio.create_task_group() as tg:
        tg.start_soon(run)
        started = False
        for _ in range(500):
            stats = (await client.call_tool("slow_stats", {})).structured_content
            if stats["started"] > before["started"]:
                started = True
                break
            await anyio.sleep(0.02)
        check(f"{label}: the slow call started", started)
        outcome["scope"].cancel()
    cancelled = False
    for _ in range(500):
        stats = (await client.call_tool("slow_stats", {})).structured_content
        if stats["cancelled"] > before["cancelled"]:
            cancelled = True
            break
        await anyio.sleep(0.02)
    check(f"{label}: cancelling the call stops the tool", cancelled and "result" not in outcome, stats)


async def listing(label, target):
    changed = anyio.Event()

    async def on_message(message):
        if isinstance(message, types.ToolListChangedNotification):
            changed.set()

    async with Client(target, mode="legacy", message_handler=on_message) as client:
        check(f"{label}: tools/list follows the session",
              await names(client) == ["reset_tools", *BASIC], await names(client))
        r = await client.call_tool("page_fetch", {"url": "https://a"})
        check(f"{label}: an unlisted tool of an inactive group activates its group on first use",
              not r.is_error and "This call activated the group `scraping`" in text(r), text(r))
        with anyio.move_on_after(10):
            await changed.wait()
        check(f"{label}: notifications/tools/list_changed arrives", changed.is_set())
        check(f"{label}: the new list has the group's tools",
              await names(client) == ["reset_tools", *BASIC, "page_fetch"], await names(client))
        r = await client.call_tool("page_fetch", {"url": "https://a"})
        check(f"{label}: the switched-on tool runs", not r.is_error, text(r))


async def selected(label, target):
    async with Client(target, mode="legacy") as client:
        check(f"{label}: tools/list is the chosen groups, without reset_tools",
              await names(client) == [*BASIC, "web_search"], await names(client))
        check(f"{label}: the chosen groups' instructions are the server's",
              "Cite your sources." in (client.instructions or ""), client.instructions)
        r = await client.call_tool("web_search", {"query": "q"})
        check(f"{label}: a chosen tool runs", not r.is_error, text(r))


def png(data):
    """The chunk types, width and height of a base64 PNG; raises ValueError, struct.error or
    zlib.error if it is not a valid 8-bit indexed-colour PNG."""
    try:
        raw = base64.b64decode(data, validate=True)
    except binascii.Error as e:
        raise ValueError(f"not base64: {e}") from e
    if raw[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"no PNG signature: {raw[:8]!r}")
    at, kinds, header, idat = 8, [], b"", b""
    while at < len(raw):
        (length,) = struct.unpack(">I", raw[at:at + 4])
        kind, body = raw[at + 4:at + 8], raw[at + 8:at + 8 + length]
        (crc,) = struct.unpack(">I", raw[at + 8 + length:at + 12 + length])
        if zlib.crc32(kind + body) != crc:
            raise ValueError(f"bad CRC-32 in {kind!r}")
        kinds.append(kind.decode())
        header = body if kind == b"IHDR" else header
        idat += body if kind == b"IDAT" else b""
        at += 12 + length
    width, height, depth, colour = struct.unpack(">IIBB", header[:10])
    if (depth, colour) != (8, 3):
        raise ValueError(f"bit depth {depth}, colour type {colour}")
    rows = zlib.decompress(idat)  # checks the Adler-32
    if len(rows) != (width + 1) * height:
        raise ValueError(f"{len(rows)} bytes of rows for {width}x{height}")
    return kinds, width, height


async def chart(label, client):
    """Call `bar_chart` (its group active) and check the image block and a refused input."""
    r = await client.call_tool("bar_chart", {"values": [3, 5, 2, 8]})
    images = [c for c in r.content if isinstance(c, types.ImageContent)]
    check(f"{label}: bar_chart answers with one image block, image/png",
          not r.is_error and len(r.content) == 1 and len(images) == 1 and images[0].mime_type == "image/png",
          r.content)
    try:
        seen = png(images[0].data) if images else None
    except (ValueError, struct.error, zlib.error) as e:
        seen = repr(e)
    check(f"{label}: its data is a valid base64 PNG of the four bars (60x80)",
          seen == (["IHDR", "PLTE", "IDAT", "IEND"], 60, 80), seen)
    r = await client.call_tool("bar_chart", {"values": []})
    check(f"{label}: a chart of nothing is an error result",
          r.is_error and text(r) == "give at least one value to draw", text(r))


async def example():
    """The `mcp_server` example: the chart tool's image over stdio and HTTP."""
    gated_example = StdioServerParameters(command=EXAMPLE, args=["--transport", "stdio", "--mode", "mask"])
    async with Client(gated_example, mode="auto") as client:
        check("example stdio mask: bar_chart is listed", "bar_chart" in await names(client), await names(client))
        r = await client.call_tool("bar_chart", {"values": [1]})
        check("example stdio mask: bar_chart activates charts on first use and draws",
              not r.is_error and any(c.type == "image" for c in r.content)
              and "This call activated the group `charts`" in text(r), text(r))
        check("example stdio mask: an image result has no structured content; its text carries the activation",
              r.structured_content is None and "<group name=\"charts\">" in text(r), r.structured_content)
        r = await client.call_tool("reset_tools", {"web_search": False, "scraping": False, "charts": True, "reports": False})
        check("example stdio mask: reset_tools keeps charts on", not r.is_error, text(r))
        await chart("example stdio mask", client)
    refusing_example = StdioServerParameters(
        command=EXAMPLE, args=["--transport", "stdio", "--mode", "mask", "--no-first-use"])
    async with Client(refusing_example, mode="auto") as client:
        r = await client.call_tool("bar_chart", {"values": [1]})
        check("example stdio mask --no-first-use: bar_chart is refused while charts is off",
              r.is_error and "group `charts`" in text(r), text(r))
    selected_example = StdioServerParameters(
        command=EXAMPLE, args=["--transport", "stdio", "--mode", "selected", "--groups", "charts"])
    async with Client(selected_example, mode="legacy") as client:
        check("example stdio selected: the basic tool and bar_chart",
              await names(client) == ["note_write", "bar_chart"], await names(client))
        await chart("example stdio selected", client)
    server = HttpServer(command=[EXAMPLE, "--transport", "http", "--mode", "selected", "--listen", "127.0.0.1:0"])
    try:
        async with Client(http(server.url + "?groups=charts", "py-6"), mode="auto") as client:
            await chart("example http selected (2026-07-28)", client)
    finally:
        server.close()


async def main():
    # stdio
    await mask("stdio mask (2026-07-28)", stdio("mask"), "auto")
    await mask("stdio mask (legacy)", stdio("mask"), "legacy")
    await listing("stdio list", stdio("list"))
    await selected("stdio selected", stdio("selected", "web_search"))
    bad = subprocess.run([SERVER, "selected", "stdio", "web_serch,scrapin"], capture_output=True, text=True,
                         stdin=subprocess.DEVNULL, timeout=30)
    check("stdio selected: unknown groups exit non-zero with every problem on stderr",
          bad.returncode != 0 and "did you mean `web_search`" in bad.stderr and "did you mean `scraping`" in bad.stderr,
          (bad.returncode, bad.stderr))

    # HTTP
    for mode in ["mask", "list", "selected"]:
        server = HttpServer(mode)
        try:
            if mode == "mask":
                await mask("http mask (2026-07-28, stateless, per user)", http(server.url, "py-1"), "auto")
                await mask("http mask (legacy session)", http(server.url, "py-2"), "legacy")
                async with Client(http(server.url, "py-5"), mode="auto") as client:
                    r = await client.call_tool("whoami", {})
                    check("http: the HTTP request reaches the tool", text(r) == "py-5", text(r))
            elif mode == "list":
                await listing("http list (legacy session)", http(server.url, "py-3"))
            else:
                await selected("http selected", http(server.url + "?groups=web_search", "py-4"))
                request = urllib.request.Request(
                    server.url + "?groups=web_serch,scrapin", method="POST",
                    data=json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}).encode(),
                    headers={"content-type": "application/json", "accept": "application/json, text/event-stream"})
                try:
                    urllib.request.urlopen(request, timeout=10)
                    check("http selected: unknown groups are a 400", False, "200")
                except urllib.error.HTTPError as e:
                    body = json.loads(e.read())
                    check("http selected: unknown groups are a 400 with a JSON body",
                          e.code == 400 and body["unknown"][0]["did_you_mean"] == "web_search"
                          and body["unknown"][1]["did_you_mean"] == "scraping", (e.code, body))
        finally:
            server.close()

    await example()

    passed = sum(RESULTS)
    failed = len(RESULTS) - passed
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(anyio.run(main))
