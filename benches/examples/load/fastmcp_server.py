"""The load benchmark's tools served by FastMCP (PyPI `fastmcp`, pinned in BENCHMARKS.md and
.ci/run): the same six tools, descriptions and answers as `benches/src/served.rs`.

Run by `examples/load/` as `python fastmcp_server.py PORT`: Streamable HTTP on 127.0.0.1:PORT
at `/mcp`, sessions on for 2025-11-25 clients (FastMCP's default), JSON answers where no
stream is needed, as the Rust servers are configured. The driver waits for the port to accept connections.
"""

import sys
from typing_extensions import TypedDict

from fastmcp import FastMCP


class Sum(TypedDict):
    label: str
    sum: int


class Product(TypedDict):
    label: str
    product: int


class FileInfo(TypedDict):
    path: str
    bytes: int
    modified: str


mcp = FastMCP("load")


def wrap(value: int) -> int:
    """Two's-complement 64-bit wrapping, as the Rust tools compute."""
    value &= (1 << 64) - 1
    return value - (1 << 64) if value >= 1 << 63 else value


@mcp.tool
def add(a: int, b: int, label: str) -> Sum:
    """Add two integers and label the result."""
    return {"label": label, "sum": wrap(a + b)}


@mcp.tool
def multiply(a: int, b: int, label: str) -> Product:
    """Multiply two integers and label the result."""
    return {"label": label, "product": wrap(a * b)}


@mcp.tool
def echo(text: str) -> str:
    """Repeat the text back."""
    return text


@mcp.tool
def upper(text: str) -> str:
    """The text in upper case."""
    return text.upper()


@mcp.tool
def stat(path: str) -> FileInfo:
    """The size and modification time of a file."""
    return {"path": path, "bytes": len(path) * 1024, "modified": "2026-12-01T00:00:00Z"}


@mcp.tool
def read(path: str) -> str:
    """The first line of a file."""
    return f"The first line of {path}."


if __name__ == "__main__":
    port = int(sys.argv[1])
    mcp.run(
        transport="http",
        host="127.0.0.1",
        port=port,
        path="/mcp",
        json_response=True,
        log_level="warning",
        show_banner=False,
    )
