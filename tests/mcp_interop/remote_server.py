"""A small MCP server on the official Python SDK (PyPI `mcp`, its `MCPServer`, formerly
FastMCP), for toolgroup-mcp's client tests (toolgroup-mcp/tests/client/).

usage: python remote_server.py    # serves over stdio

Tools: `add` (structured result), `fail` (raises: an `isError` result), `nap` (sleeps, to
time out), `progress` (reports progress), `picture` (an image block), `grow` (adds a tool
and sends `notifications/tools/list_changed`), `crash` (the process exits mid-call) and `ask`
(asks the user through an `elicitation/create` request).
"""

import os

import anyio
from mcp.server.mcpserver import Context, Image, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import BaseModel

server = MCPServer("toolgroup-client-test")


@server.tool()
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@server.tool()
def fail(reason: str) -> str:
    """Always fails with the given reason."""
    raise ToolError(f"failed on purpose: {reason}")


@server.tool()
async def nap(seconds: float) -> str:
    """Sleep for a while."""
    await anyio.sleep(seconds)
    return "rested"


@server.tool()
async def progress(steps: int, ctx: Context) -> str:
    """Report progress at each step."""
    for i in range(1, steps + 1):
        await ctx.report_progress(i, steps, f"step {i}")
    return f"{steps} steps"


@server.tool()
def picture() -> Image:
    """A tiny image."""
    return Image(data=b"\x89PNG", format="png")


def extra(text: str) -> str:
    """Echo the text (added at run time by `grow`)."""
    return f"extra: {text}"


@server.tool()
async def grow(ctx: Context) -> str:
    """Add the tool `extra` and tell the client that the tool list changed."""
    server.add_tool(extra)
    await ctx.session.send_tool_list_changed()
    return "grown"


@server.tool()
def crash() -> str:
    """Exit the server process in the middle of the call."""
    os._exit(3)


class Who(BaseModel):
    name: str
    ok: bool = False


@server.tool()
async def ask(ctx: Context) -> str:
    """Ask the user who they are."""
    result = await ctx.elicit("Who is asking?", Who)
    if result.action == "accept":
        return f"hello {result.data.name}"
    return f"the user chose {result.action}"


if __name__ == "__main__":
    server.run("stdio")
