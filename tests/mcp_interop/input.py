"""Interop: the official MCP Python SDK asks its user for a toolgroup server, and runs its tasks.

usage: python input.py PATH/TO/mcp_server

Starts the `mcp_server` example (built with the facade's `mcp` feature) over Streamable HTTP
on a free loopback port, in selected mode; the URL chooses the `reports` group
(`/mcp?groups=reports`). Its `delete_report` is destructive, so the server's
`ElicitationApprover` asks the user first; its `retitle_report` asks the user a question of its
own (`ToolContext::ask`); its `write_report` may run as a task (`task = "optional"`).

- 2026-07-28 (`mode="2026-07-28"`): the question comes back as the call's answer
  (`resultType: "input_required"`, SEP-2322): one round by hand shows the input request
  (`q1`, an `elicitation/create` form) and its sealed `requestState`; then the SDK's own
  loop answers through its `elicitation_callback`, which sees the form under the key `q1`. A
  yes runs the tool, a no refuses it with the reason; the tool's own question gets its
  answer.
- 2025-11-25 (`mode="legacy"`): the same through an `elicitation/create` request during the
  call, for contrast.
- Tasks (the `io.modelcontextprotocol/tasks` extension, SEP-2663): the SDK has no built-in
  support, so a `ClientExtension` declares the extension and claims `resultType: "task"`;
  its resolver polls `tasks/get` (with `Mcp-Name`) until the task ends, and `call_tool`
  returns the task's result. Also: the status message the tool's progress reports become,
  `tasks/cancel` (the task ends `cancelled`; a second cancel is acknowledged), an unknown
  task id (`-32602`), and the same tool without the extension (a plain result).

Prints one line per check and ends with `N passed, N failed`; exits non-zero when a check
failed. Everything is bounded in time (90 s in all).
"""

import subprocess
import sys
from typing import Any, Literal

import anyio
import mcp_types as types
from mcp import Client
from mcp.client.extension import ClaimContext, ClientExtension, ResultClaim
from mcp.shared.exceptions import MCPError
from mcp_types import CallToolResult, Result
from pydantic import ConfigDict

if len(sys.argv) != 2:
    sys.exit(__doc__)
EXAMPLE = sys.argv[1]
RESULTS = []
TASKS = "io.modelcontextprotocol/tasks"
# How long `write_report` takes, in seconds (`--report-seconds`).
REPORT_SECONDS = 2


def check(name, ok, detail=""):
    RESULTS.append(bool(ok))
    print(f"{'ok  ' if ok else 'FAIL'} {name}" + ("" if ok else f": {detail}"), flush=True)


def text(result):
    return "\n".join(c.text for c in result.content if getattr(c, "text", None) is not None)


def schema_of(params):
    schema = params.requested_schema
    return schema if isinstance(schema, dict) else schema.model_dump(by_alias=True, exclude_none=True)


class Server:
    """The `mcp_server` example over HTTP on a free loopback port."""

    def __init__(self):
        self.process = subprocess.Popen(
            [EXAMPLE, "--transport", "http", "--mode", "selected", "--listen", "127.0.0.1:0",
             "--report-seconds", str(REPORT_SECONDS)],
            stderr=subprocess.PIPE, text=True)
        line = self.process.stderr.readline()
        if "http://" not in line:
            self.close()
            raise RuntimeError(f"the server did not start: {line!r}")
        self.url = line[line.index("http://"):].strip() + "?groups=reports"

    def close(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class User:
    """An elicitation callback that answers every form with `action` (and `content`), and
    keeps what it was asked and the key it was asked under (the input request's key on
    2026-07-28, the JSON-RPC id of an `elicitation/create` request before)."""

    def __init__(self, action, content=None):
        self.action, self.content, self.asked, self.keys = action, content, [], []

    async def __call__(self, context, params):
        self.asked.append(params)
        self.keys.append(context.request_id)
        return types.ElicitResult(action=self.action, content=self.content)


APPROVAL = ("Allow the tool `delete_report` (group `reports`) to run? It is marked destructive.\n"
            'Arguments: {"topic":"q3"}')
DENIED = "`delete_report` was not run: denied by policy: not approved: "


async def approval(url, mode):
    """A yes runs `delete_report`; a no and a decline refuse it with the reason."""
    user = User("accept", {"approve": True})
    async with Client(url, mode=mode, elicitation_callback=user) as client:
        r = await client.call_tool("delete_report", {"topic": "q3"})
        check(f"{mode}: approved, the tool runs", not r.is_error and text(r) == "Deleted the report on q3.", r)
        check(f"{mode}: the user was asked once", len(user.asked) == 1, user.asked)
        if user.asked:
            check(f"{mode}: the form names the tool and its arguments", user.asked[0].message == APPROVAL,
                  user.asked[0].message)
            schema = schema_of(user.asked[0])
            check(f"{mode}: the form has one required boolean, `approve`",
                  schema.get("required") == ["approve"]
                  and schema.get("properties", {}).get("approve", {}).get("type") == "boolean", schema)
            if mode == "legacy":
                check("legacy: asked with an elicitation/create request (a JSON-RPC id)",
                      user.keys == [user.keys[0]] and user.keys[0] != "q1", user.keys)
            else:
                check(f"{mode}: asked through the input request `q1` of an input-required result",
                      user.keys == ["q1"], user.keys)

    for user, reason in [
        (User("accept", {"approve": False}), "the user did not approve running `delete_report`"),
        (User("decline"), "the user declined to run `delete_report`"),
    ]:
        async with Client(url, mode=mode, elicitation_callback=user) as client:
            r = await client.call_tool("delete_report", {"topic": "q3"})
            check(f"{mode}: {user.action} {user.content or ''}: refused with the reason",
                  r.is_error and text(r) == DENIED + reason, r)

    # The tool's own question, through the same path.
    user = User("accept", {"title": "Figures of Q3"})
    async with Client(url, mode=mode, elicitation_callback=user) as client:
        r = await client.call_tool("retitle_report", {"topic": "q3"})
        check(f"{mode}: the tool's own question gets its answer",
              not r.is_error and text(r) == 'The report on q3 is now titled "Figures of Q3".', r)
        check(f"{mode}: the tool's form asks for a title",
              len(user.asked) == 1 and schema_of(user.asked[0]).get("required") == ["title"], user.asked)


async def one_round_by_hand(url):
    """The first answer to a 2026-07-28 call that needs approval is the input request."""
    async with Client(url, mode="2026-07-28", elicitation_callback=User("decline")) as client:
        first = await client.session.call_tool("delete_report", {"topic": "q3"}, allow_input_required=True)
        ok = isinstance(first, types.InputRequiredResult)
        check("2026-07-28: the call answers input_required", ok, first)
        if not ok:
            return
        requests = first.input_requests or {}
        request = requests.get("q1")
        check("2026-07-28: one input request, `q1`, an elicitation/create form",
              list(requests) == ["q1"] and getattr(request, "method", None) == "elicitation/create", requests)
        check("2026-07-28: with a sealed requestState", bool(first.request_state), first)
        # A retry with the answer and the state runs the tool.
        answer = {"q1": types.ElicitResult(action="accept", content={"approve": True})}
        done = await client.session.call_tool("delete_report", {"topic": "q3"}, input_responses=answer,
                                              request_state=first.request_state)
        check("2026-07-28: the retry with the answer and the state runs the tool",
              not done.is_error and text(done) == "Deleted the report on q3.", done)
        # The state is bound to the call: other arguments are refused, and nothing runs.
        try:
            other = await client.session.call_tool("delete_report", {"topic": "q4"}, input_responses=answer,
                                                   request_state=first.request_state)
            check("2026-07-28: a state replayed on other arguments is refused", False, other)
        except MCPError as e:
            check("2026-07-28: a state replayed on other arguments is refused (-32602)",
                  e.error.code == -32602 and "another call" in e.error.message, e.error)


# --- tasks (SEP-2663), through the SDK's extension hook ------------------------------------


class TaskHandle(Result):
    """A `CreateTaskResult`: the task, flat, with `resultType: "task"`."""

    model_config = ConfigDict(extra="allow")
    result_type: Literal["task"] = "task"
    task_id: str
    status: str
    ttl_ms: int | None = None
    poll_interval_ms: int | None = None


class TaskIdParams(types.RequestParams):
    task_id: str


class GetTask(types.Request[TaskIdParams, Literal["tasks/get"]]):
    method: Literal["tasks/get"] = "tasks/get"
    params: TaskIdParams
    name_param = "taskId"


class CancelTask(types.Request[TaskIdParams, Literal["tasks/cancel"]]):
    method: Literal["tasks/cancel"] = "tasks/cancel"
    params: TaskIdParams
    name_param = "taskId"


class TaskState(Result):
    """A `tasks/get` answer (a `DetailedTask`), or a `tasks/cancel` acknowledgement."""

    model_config = ConfigDict(extra="allow")
    result_type: str | None = None
    task_id: str | None = None
    status: str | None = None
    status_message: str | None = None
    result: dict[str, Any] | None = None
    error: dict[str, Any] | None = None


async def poll(session, task_id, seen=None, interval=0.2):
    """`tasks/get` until the task ends; `seen` collects the statuses and messages."""
    while True:
        state = await session.send_request(GetTask(params=TaskIdParams(task_id=task_id)), TaskState)
        if seen is not None:
            seen.append((state.status, state.status_message))
        if state.status in ("completed", "failed", "cancelled"):
            return state
        if state.status == "input_required":
            raise RuntimeError("the task waits for input, which this client does not give")
        await anyio.sleep(interval)


class Tasks(ClientExtension):
    """Declares the tasks extension, and finishes a task by polling `tasks/get`."""

    identifier = TASKS

    def __init__(self):
        self.handles, self.seen = [], []

    def claims(self):
        return [ResultClaim(result_type="task", model=TaskHandle, resolve=self.resolve)]

    async def resolve(self, handle: TaskHandle, ctx: ClaimContext) -> CallToolResult:
        self.handles.append(handle)
        interval = (handle.poll_interval_ms or 1000) / 1000
        state = await poll(ctx.session, handle.task_id, self.seen, min(interval, 0.2))
        if state.status != "completed":
            raise RuntimeError(f"the task ended {state.status}: {state.error}")
        return CallToolResult.model_validate(state.result)


async def tasks(url):
    extension = Tasks()
    async with Client(url, mode="2026-07-28", extensions=[extension]) as client:
        with anyio.fail_after(REPORT_SECONDS + 20):
            r = await client.call_tool("write_report", {"topic": "sales"})
        check("tasks: write_report ran as a task", len(extension.handles) == 1, extension.handles)
        if extension.handles:
            handle = extension.handles[0]
            check("tasks: the task has an id, working status, ttlMs and pollIntervalMs",
                  handle.task_id and handle.status == "working" and handle.ttl_ms and handle.poll_interval_ms,
                  handle)
        check("tasks: call_tool returns the task's result",
              not r.is_error and text(r) == "The report on sales: all figures are in order.", r)
        statuses = [s for s, _ in extension.seen]
        check("tasks: polled working, then completed",
              statuses and statuses[0] == "working" and statuses[-1] == "completed", extension.seen)
        messages = [m for _, m in extension.seen if m]
        check("tasks: progress reports are the status message",
              any(m.startswith("writing the report (") for m in messages), extension.seen)

        # A task cancelled while it runs ends cancelled; cancelling it again is acknowledged.
        handle = await client.session.call_tool("write_report", {"topic": "cancelled"}, allow_claimed=True)
        check("tasks: allow_claimed gives the task handle", isinstance(handle, TaskHandle), handle)
        if isinstance(handle, TaskHandle):
            ack = await client.session.send_request(CancelTask(params=TaskIdParams(task_id=handle.task_id)),
                                                    TaskState)
            check("tasks: tasks/cancel is an empty acknowledgement",
                  ack.result_type == "complete" and ack.task_id is None and ack.status is None, ack)
            with anyio.fail_after(10):
                state = await poll(client.session, handle.task_id)
            check("tasks: the cancelled task ends cancelled, without a result",
                  state.status == "cancelled" and state.result is None, state)
            again = await client.session.send_request(CancelTask(params=TaskIdParams(task_id=handle.task_id)),
                                                      TaskState)
            check("tasks: cancelling a task that ended is acknowledged", again.result_type == "complete", again)

        try:
            unknown = await client.session.send_request(GetTask(params=TaskIdParams(task_id="no-such-task")),
                                                        TaskState)
            check("tasks: an unknown task id is refused", False, unknown)
        except MCPError as e:
            check("tasks: an unknown task id is refused with -32602, the id not repeated",
                  e.error.code == -32602 and "no-such-task" not in e.error.message, e.error)

    # Without the extension, the optional task is a plain call.
    async with Client(url, mode="2026-07-28") as client:
        with anyio.fail_after(REPORT_SECONDS + 20):
            r = await client.call_tool("write_report", {"topic": "plain"})
        check("tasks: without the extension, a plain result",
              not r.is_error and text(r) == "The report on plain: all figures are in order.", r)


async def main():
    server = Server()
    try:
        with anyio.fail_after(90):
            await approval(server.url, "2026-07-28")
            await one_round_by_hand(server.url)
            await approval(server.url, "legacy")
            await tasks(server.url)
    finally:
        server.close()
    passed = sum(RESULTS)
    failed = len(RESULTS) - passed
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(anyio.run(main))
