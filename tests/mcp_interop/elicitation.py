"""Interop: the official MCP Python SDK answers a toolgroup server's approval form.

usage: python elicitation.py URL

URL is a Streamable HTTP endpoint (`cargo test -p toolgroup-mcp --test server elicitation::`
starts one, mask, with legacy sessions on) serving a destructive `delete_file {"path"}`
tool behind `RequireApproval::new(ElicitationApprover::new())` and a read-only
`was_deleted {"path"}`.
On legacy (2025-11-25) sessions: with an `elicitation_callback` that accepts with
`approve: true`, the tool runs; with one that declines, the call is an error result with the
reason and the file was not deleted; without a callback (no `elicitation` capability), the
call is an error result with the refusal. Prints one line per check and ends with
`N passed, N failed`; exits non-zero when a check failed.
"""

import sys

import anyio
from mcp import Client, types
from mcp.client.streamable_http import streamable_http_client

if len(sys.argv) != 2:
    sys.exit(__doc__)
URL = sys.argv[1]
RESULTS = []


def check(name, ok, detail=""):
    RESULTS.append(bool(ok))
    print(f"{'ok  ' if ok else 'FAIL'} {name}" + ("" if ok else f": {detail}"), flush=True)


def text(result):
    return "\n".join(c.text for c in result.content if getattr(c, "text", None) is not None)


class User:
    """An elicitation callback that answers every form with `action` (and `content`)."""

    def __init__(self, action, content=None):
        self.action, self.content, self.asked = action, content, []

    async def __call__(self, context, params):
        self.asked.append(params)
        return types.ElicitResult(action=self.action, content=self.content)


async def was_deleted(client, path):
    r = await client.call_tool("was_deleted", {"path": path})
    return r.structured_content


async def accept():
    user = User("accept", {"approve": True})
    async with Client(streamable_http_client(URL), mode="legacy", elicitation_callback=user) as client:
        r = await client.call_tool("delete_file", {"path": "/python/accept"})
        check("accept: the tool runs", not r.is_error and text(r) == "deleted /python/accept", r)
        check("accept: the user was asked once", len(user.asked) == 1, user.asked)
        if user.asked:
            asked = user.asked[0]
            check("accept: the form names the tool and its arguments",
                  asked.message == "Allow the tool `delete_file` (group `files`) to run? It is marked destructive.\n"
                  'Arguments: {"path":"/python/accept"}', asked.message)
            schema = asked.requested_schema
            schema = schema if isinstance(schema, dict) else schema.model_dump(by_alias=True, exclude_none=True)
            check("accept: the form has one required boolean, `approve`",
                  schema.get("required") == ["approve"]
                  and schema.get("properties", {}).get("approve", {}).get("type") == "boolean", schema)
        check("accept: the file was deleted", (await was_deleted(client, "/python/accept")) == {"result": True},
              await was_deleted(client, "/python/accept"))


async def decline():
    user = User("decline")
    async with Client(streamable_http_client(URL), mode="legacy", elicitation_callback=user) as client:
        r = await client.call_tool("delete_file", {"path": "/python/decline"})
        want = "`delete_file` was not run: denied by policy: not approved: the user declined to run `delete_file`"
        check("decline: an error result with the reason", r.is_error and text(r) == want, r)
        check("decline: the file was not deleted", (await was_deleted(client, "/python/decline")) == {"result": False},
              await was_deleted(client, "/python/decline"))


async def incapable():
    async with Client(streamable_http_client(URL), mode="legacy") as client:
        r = await client.call_tool("delete_file", {"path": "/python/incapable"})
        want = "`delete_file` was not run: denied by policy: not approved: this client cannot show the user a form (no elicitation capability)"
        check("no elicitation capability: an error result with the refusal", r.is_error and text(r) == want, r)


async def main():
    with anyio.fail_after(60):
        await accept()
        await decline()
        await incapable()
    passed = sum(RESULTS)
    failed = len(RESULTS) - passed
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(anyio.run(main))
