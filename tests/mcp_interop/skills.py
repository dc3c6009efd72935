"""Interop: the official MCP Python SDK against toolgroup's skills extension (SEP-2640).

usage: python skills.py PATH/TO/interop_server

Runs `interop_server --skills` (groups with Agent Skills) over stdio in every mode and over
Streamable HTTP, with the 2025-11-25 handshake and with 2026-07-28: the extension and the
`resources` capability are declared; `skills/list` and `skills/get` (raw JSON-RPC requests
through the session: the SDK has no helper for them) give every skill, whatever the active
groups; every file of every manifest is read with `resources/read`, and its sha256 digest and
size are checked against the bytes read; an unknown skill and unknown URIs answer -32602; the
`Skill` tool is listed and runs. Prints one line per check and ends with `N passed, N failed`;
exits non-zero when a check failed.
"""

import base64
import hashlib
import subprocess
import sys
from typing import Any

import anyio
import mcp_types as types
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from pydantic import TypeAdapter

if len(sys.argv) != 2:
    sys.exit(__doc__)
SERVER = sys.argv[1]
RESULTS = []
EXTENSION = "io.modelcontextprotocol/skills"
SKILLS = {"release-checklist": "writing", "pdf-forms": "docs"}
ANY = TypeAdapter(dict[str, Any])


def check(name, ok, detail=""):
    RESULTS.append(bool(ok))
    print(f"{'ok  ' if ok else 'FAIL'} {name}" + ("" if ok else f": {detail}"), flush=True)


class Raw(types.Request[dict[str, Any] | None, str]):
    """A request the SDK has no type for, sent as it is."""


async def raw(client, method, params=None):
    return await client.session.send_request(Raw(method=method, params=params), ANY)


async def refused(client, send):
    try:
        await send()
        return None, "no error"
    except MCPError as e:
        return e.error.code, e.error.message


def text(result):
    return "\n".join(c.text for c in result.content if getattr(c, "type", "") == "text")


async def file_bytes(client, uri):
    """The bytes of a skill file as `resources/read` gives them, and its MIME type."""
    result = await client.read_resource(uri, cache_mode="bypass")
    (contents,) = result.contents
    if contents.uri != uri:
        raise AssertionError(f"asked for {uri}, got {contents.uri}")
    if isinstance(contents, types.TextResourceContents):
        return contents.text.encode("utf-8"), contents.mime_type, "text"
    return base64.b64decode(contents.blob, validate=True), contents.mime_type, "blob"


async def skills(label, target, mode, groups_active):
    async with Client(target, mode=mode) as client:
        caps = client.server_capabilities
        check(f"{label}: the skills extension and resources are declared",
              EXTENSION in (caps.extensions or {}) and caps.resources is not None, caps)
        listed = (await raw(client, "skills/list"))["skills"]
        names = {s["frontmatter"]["name"]: s for s in listed}
        check(f"{label}: skills/list gives every skill, whatever the active groups ({groups_active})",
              list(names) == list(SKILLS), list(names))
        if mode == "auto":
            page = await raw(client, "skills/list")
            check(f"{label}: skills/list is public for 2026-07-28",
                  page.get("cacheScope") == "public" and page.get("ttlMs", 0) > 0, page)
        for name, group in SKILLS.items():
            entry = names.get(name)
            if entry is None:
                continue
            check(f"{label}: {name}: its group is in _meta",
                  (entry.get("_meta") or {}).get("toolgroup/group") == group, entry.get("_meta"))
            got = (await raw(client, "skills/get", {"uri": entry["uri"]}))["skill"]
            check(f"{label}: {name}: skills/get is the listed entry", got == entry, got)
            files = entry["resources"]
            check(f"{label}: {name}: the manifest lists its SKILL.md",
                  entry["uri"] == f"skill://{name}/SKILL.md" and any(f["uri"] == entry["uri"] for f in files),
                  files)
            for f in files:
                data, mime, kind = await file_bytes(client, f["uri"])
                digest = "sha256:" + hashlib.sha256(data).hexdigest()
                check(f"{label}: {f['uri']} ({kind}, {mime}): digest and size match the bytes read",
                      digest == f["digest"] and len(data) == f["size"],
                      f"read {len(data)} bytes {digest}, manifest {f}")
        pdf = names.get("pdf-forms", {})
        check(f"{label}: the frontmatter comes with every field",
              pdf.get("frontmatter", {}).get("metadata") == {"owner": "docs-team", "reviewed": "2026-01-15"}
              and pdf["frontmatter"].get("user-invocable") is False
              and pdf["frontmatter"].get("version") == 1.2, pdf.get("frontmatter"))
        _, mime, kind = await file_bytes(client, "skill://pdf-forms/assets/stamp.png")
        check(f"{label}: a PNG is a blob with its MIME type", (kind, mime) == ("blob", "image/png"), (kind, mime))
        listed_resources = await client.list_resources(cache_mode="bypass")
        check(f"{label}: resources/list is each skill's SKILL.md",
              [r.uri for r in listed_resources.resources] == [f"skill://{n}/SKILL.md" for n in SKILLS],
              listed_resources.resources)

        code, message = await refused(client, lambda: raw(client, "skills/get", {"uri": "skill://pdf-form/SKILL.md"}))
        check(f"{label}: an unknown skill is -32602 with a did-you-mean",
              code == -32602 and "did you mean `pdf-forms`?" in message, (code, message))
        for uri, expect in [
            ("skill://pdf-forms/references/nope.md", "no file `references/nope.md`"),
            ("skill://pdf-forms/../x", "`..` segment"),
            ("file:///etc/passwd", "is not a skill URI"),
            ("skill://nope/SKILL.md", "unknown skill `nope`"),
        ]:
            code, message = await refused(client, lambda: client.read_resource(uri, cache_mode="bypass"))
            check(f"{label}: resources/read {uri} is -32602", code == -32602 and expect in message, (code, message))

        tools = [t.name for t in (await client.list_tools(cache_mode="bypass")).tools]
        check(f"{label}: the Skill tool is listed", "Skill" in tools, tools)
        r = await client.call_tool("Skill", {"skill": "release-checklist"})
        check(f"{label}: the Skill tool loads a skill",
              not r.is_error and "the changelog names every change" in text(r), text(r))
        if "docs" in groups_active:
            r = await client.call_tool("Skill", {"skill": "pdf-forms"})
            check(f"{label}: the Skill tool loads a skill of the chosen group",
                  not r.is_error and "Read [the field guide]" in text(r), text(r))


async def main():
    for mode in ["legacy", "auto"]:
        for server_mode, groups in [("mask", ""), ("list", ""), ("selected", ""), ("selected", "docs")]:
            target = StdioServerParameters(command=SERVER, args=["--skills", server_mode, "stdio", groups])
            await skills(f"stdio {server_mode} [{groups}] {mode}", target, mode, groups or "none")
    process = subprocess.Popen([SERVER, "--skills", "mask", "http", "127.0.0.1:0"], stderr=subprocess.PIPE, text=True)
    try:
        line = process.stderr.readline()
        if "http://" not in line:
            raise RuntimeError(f"the server did not start: {line!r}")
        url = line[line.index("http://"):].strip()
        for mode in ["legacy", "auto"]:
            await skills(f"http mask {mode}", streamable_http_client(url), mode, "none")
    finally:
        process.terminate()
        process.wait(timeout=10)
    passed = sum(RESULTS)
    print(f"{passed} passed, {len(RESULTS) - passed} failed")
    sys.exit(0 if all(RESULTS) else 1)


anyio.run(main)
