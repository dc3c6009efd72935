#!/usr/bin/env python3
"""Checks the `deferred` example's output for one provider: 20 request bodies, one JSON
object per line, whose `tools` never change (the cached prefix survives every switch), and
whose change messages are there: 6 switches, each a system message of tool changes on
Anthropic, `additional_tools` items on OpenAI Responses (each group appended once, and the
calls of appended tools replayed with their namespace), the allow-list changing on OpenAI
Chat and Gemini.

Usage: example.py PROVIDER FILE
"""
import json
import sys

provider, path = sys.argv[1], sys.argv[2]
with open(path) as f:
    bodies = [json.loads(line) for line in f]
assert len(bodies) == 20, f"{path}: {len(bodies)} request bodies, expected 20"
tools = {json.dumps(b["tools"], sort_keys=True) for b in bodies}
assert len(tools) == 1, f"{provider}: the tool array changed across turns ({len(tools)} versions)"
last = bodies[-1]
if provider == "anthropic":
    assert last["_headers"] == {"anthropic-beta": "mid-conversation-tool-changes-2026-07-01"}
    changes = [m for m in last["messages"] if m["role"] == "system"]
    assert len(changes) == 6, f"{len(changes)} tool-change messages, expected 6"
    deferred = [t["name"] for t in last["tools"] if t.get("defer_loading")]
    assert len(deferred) == 80 and "reset_tools" not in deferred, deferred
elif provider == "openai-responses":
    appended = [t["name"] for i in last["input"] if i.get("type") == "additional_tools" for t in i["tools"]]
    assert appended and len(appended) == len(set(appended)), "each tool appended once"
    choices = {json.dumps(b["tool_choice"], sort_keys=True) for b in bodies}
    assert len(choices) == 7, f"{len(choices)} allow-lists, expected 7 (the start and 6 switches)"
    # The API sends a call of an appended tool with the tool's name as its namespace; the
    # replay keeps it on the call and its output (check.py checks every body for it).
    calls = [i for i in last["input"] if i.get("type") == "function_call" and i["name"] in appended]
    outputs = {i["call_id"]: i for i in last["input"] if i.get("type") == "function_call_output"}
    assert len(calls) == 12, f"{len(calls)} calls of appended tools, expected 12"
    for call in calls:
        assert call.get("namespace") == call["name"], f"{call['name']}: namespace {call.get('namespace')!r}"
        assert outputs[call["call_id"]].get("namespace") == call["name"], f"{call['name']}: its output's namespace"
else:
    field = "toolConfig" if provider == "gemini" else "tool_choice"
    choices = {json.dumps(b[field], sort_keys=True) for b in bodies}
    assert len(choices) == 7, f"{len(choices)} allow-lists, expected 7"
print(f"deferred example, {provider}: 20 requests, one tool array: ok")
