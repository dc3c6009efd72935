#!/usr/bin/env python3
"""Validates the deferred mode's request goldens (and, given files, the `deferred` example's
output lines) against the official SDKs' request types: anthropic 2.15.0 and openai 3.57.0.

Usage: check.py [--example PROVIDER FILE]...

Each request body is checked recursively against the SDK's TypedDict for the request:
every key must be one the TypedDict declares (an unknown or misspelled key fails), every
required key must be present, and every value must match its annotation (literals, unions,
lists, nested TypedDicts). Beta bodies (with `"_headers"`) are checked against the beta types,
and their header must name the beta. An OpenAI Responses body is also checked as the API
reads a replayed conversation, which the types cannot say: a `function_call` of a function
appended by an `additional_tools` item must carry that function's name as its `namespace`,
one of a function inside a `namespace` tool that namespace's name (the API refuses a replay
without it: "Missing namespace for function_call"), and a `function_call_output` that names
a namespace names its call's. The negative cases at the end prove that the checker fails on
the mistakes that matter here (a misspelled key, `tool_name` where a tool change wants
`name`, a wrong literal, a replayed call of an appended tool without or with another
namespace). Gemini has no official request types in these SDKs and is not checked here.
"""
import collections.abc
import json
import os
import sys
import types
import typing
from functools import lru_cache

import pydantic

from typing_extensions import NotRequired, Required, get_type_hints, is_typeddict

import anthropic.types.beta.message_create_params as anthropic_beta
import anthropic.types.message_create_params as anthropic_ga
import openai.types.chat.completion_create_params as chat
import openai.types.responses.response_create_params as responses

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "golden")
BETA = "mid-conversation-tool-changes-2026-07-01"

ANTHROPIC_BETA = anthropic_beta.MessageCreateParamsNonStreaming
ANTHROPIC_GA = anthropic_ga.MessageCreateParamsNonStreaming
RESPONSES = responses.ResponseCreateParamsNonStreaming
CHAT = chat.CompletionCreateParamsNonStreaming

LISTS = (list, collections.abc.Iterable, collections.abc.Sequence)
MAPS = (dict, collections.abc.Mapping)


def errors(value, tp, path="$"):
    """Every mismatch of `value` against the annotation `tp`, as `path: problem` lines."""
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if tp is typing.Any or tp is object:
        return []
    if origin is typing.Annotated or origin in (Required, NotRequired):
        return errors(value, args[0], path)
    if origin is typing.Union or origin is types.UnionType:
        return union_errors(value, args, path)
    if origin is typing.Literal:
        return [] if value in args else [f"{path}: {value!r} is not one of {args}"]
    if tp is type(None):
        return [] if value is None else [f"{path}: expected null"]
    if tp is bool:
        return [] if isinstance(value, bool) else [f"{path}: expected a boolean"]
    if tp is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
        return [] if ok else [f"{path}: expected an integer"]
    if tp is float:
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        return [] if ok else [f"{path}: expected a number"]
    if tp is str:
        return [] if isinstance(value, str) else [f"{path}: expected a string"]
    if is_typeddict(tp):
        return typeddict_errors(value, tp, path)
    if origin in LISTS or getattr(origin, "__name__", "") == "SequenceNotStr":
        if not isinstance(value, list):
            return [f"{path}: expected a list"]
        item = args[0] if args else object
        return [e for i, v in enumerate(value) for e in errors(v, item, f"{path}[{i}]")]
    if origin in MAPS or tp in (dict, typing.Dict):
        if not isinstance(value, dict):
            return [f"{path}: expected an object"]
        item = args[1] if len(args) == 2 else object
        return [e for k, v in value.items() for e in errors(v, item, f"{path}.{k}")]
    if isinstance(tp, type) and issubclass(tp, pydantic.BaseModel):
        # A response model the SDK also accepts as input; requests here are plain params.
        return [f"{path}: not a request parameter type ({tp.__name__})"]
    raise SystemExit(f"check.py cannot check the annotation {tp!r} at {path}")


def typeddict_errors(value, tp, path):
    if not isinstance(value, dict):
        return [f"{path}: expected an object ({tp.__name__})"]
    hints = hints_of(tp)
    out = [f"{path}.{k}: unknown key for {tp.__name__}" for k in value if k not in hints]
    out += [f"{path}.{k}: missing (required by {tp.__name__})" for k in tp.__required_keys__ if k not in value]
    for key, v in value.items():
        if key in hints:
            out += errors(v, hints[key], f"{path}.{key}")
    return out


@lru_cache(maxsize=None)
def hints_of(tp):
    return get_type_hints(tp, include_extras=True)


def union_errors(value, members, path):
    """No errors if one member matches; else those of the member whose `type` literal names
    the value's `type` (or of the member with the fewest errors)."""
    best = None
    for member in members:
        found = errors(value, member, path)
        if not found:
            return []
        rank = (0 if names_type(member, value) else 1, len(found))
        if best is None or rank < best[0]:
            best = (rank, found)
    return best[1] if best else [f"{path}: no member of the union"]


def names_type(member, value):
    if not (is_typeddict(member) and isinstance(value, dict) and "type" in value):
        return False
    hint = hints_of(member).get("type")
    while typing.get_origin(hint) in (Required, NotRequired, typing.Annotated):
        hint = typing.get_args(hint)[0]
    return typing.get_origin(hint) is typing.Literal and value["type"] in typing.get_args(hint)


def request_type(provider, body):
    if provider == "anthropic":
        headers = body.get("_headers")
        if headers is None:
            return ANTHROPIC_GA
        if BETA not in headers.get("anthropic-beta", "").split(","):
            raise SystemExit(f"a beta body without the `{BETA}` header: {headers}")
        return ANTHROPIC_BETA
    return {"openai-responses": RESPONSES, "openai-chat": CHAT}[provider]


def replay_errors(body):
    """Every replayed Responses item the API would refuse for its `namespace`."""
    expected = {}  # function name -> the namespace its calls carry

    def add_namespaces(tools):
        for tool in tools or []:
            if tool.get("type") == "namespace":
                for inner in tool.get("tools") or []:
                    expected.setdefault(inner.get("name"), tool.get("name"))

    add_namespaces(body.get("tools"))
    calls = {}
    out = []
    for i, item in enumerate(body.get("input") or []):
        if not isinstance(item, dict):
            continue
        kind = item.get("type")
        at = f"$.input[{i}]"
        if kind == "additional_tools":
            for tool in item.get("tools") or []:
                if tool.get("type") == "function":
                    expected[tool.get("name")] = tool.get("name")
            add_namespaces(item.get("tools"))
        elif kind == "function_call":
            name, got = item.get("name"), item.get("namespace")
            want = expected.get(name)
            if want is not None and got != want:
                how = "without a namespace" if got is None else f"with namespace {got!r}"
                out.append(f"{at}: function_call {name!r} replayed {how}; the API sent and wants namespace {want!r}")
            elif want is None and got is not None and got not in expected.values():
                out.append(f"{at}: function_call {name!r} names namespace {got!r}, which this request does not define")
            calls[item.get("call_id")] = got
        elif kind == "function_call_output" and "namespace" in item:
            call_id = item.get("call_id")
            if call_id in calls and item["namespace"] != calls[call_id]:
                out.append(f"{at}: function_call_output of {call_id!r} names namespace {item['namespace']!r}, its call {calls[call_id]!r}")
    return out


def check_body(label, provider, body):
    body = dict(body)
    tp = request_type(provider, body)
    body.pop("_headers", None)
    found = errors(body, tp)
    if provider == "openai-responses":
        found += replay_errors(body)
    if found:
        print(f"FAIL {label} ({tp.__module__}.{tp.__name__}):")
        for line in found[:20]:
            print("   ", line)
        return False
    return True


GOLDENS = {
    "anthropic": "anthropic",
    "anthropic-references": "anthropic",
    "openai-responses": "openai-responses",
    "openai-responses-namespaces": "openai-responses",
    "openai-chat": "openai-chat",
    "anthropic-code": "anthropic",
    "anthropic-references-code": "anthropic",
    "openai-responses-code": "openai-responses",
    "openai-responses-namespaces-code": "openai-responses",
    "openai-chat-code": "openai-chat",
}


def golden(name):
    with open(os.path.join(ROOT, "deferred", f"{name}.json")) as f:
        return json.load(f)


def main(argv):
    ok = True
    checked = 0
    for name, provider in GOLDENS.items():
        for i, body in enumerate(golden(name)):
            ok &= check_body(f"{name}[{i}]", provider, body)
            checked += 1
    body = {"model": "gpt-5.4", "input": golden("openai-responses-namespace-output")}
    ok &= check_body("namespace-output", "openai-responses", body)
    checked += 1
    while argv[:1] == ["--example"]:
        provider, path = argv[1], argv[2]
        argv = argv[3:]
        with open(path) as f:
            for n, line in enumerate(f, 1):
                ok &= check_body(f"{path}:{n}", provider, json.loads(line))
                checked += 1
    ok &= negative_cases()
    print(f"{checked} request bodies checked against the SDK types: {'ok' if ok else 'FAILED'}")
    return 0 if ok else 1


def negative_cases():
    """The checker must fail on each of these."""
    tools = [{"name": "reset_tools", "input_schema": {"type": "object"}},
             {"name": "search", "input_schema": {"type": "object"}, "defer_loading": True}]
    good = {"model": "m", "max_tokens": 1, "tools": tools, "messages": [
        {"role": "user", "content": "hi"},
        {"role": "system", "content": [
            {"type": "tool_addition", "tool": {"type": "tool_reference", "name": "search"}}]}]}
    bad = {
        "a misspelled key in a tool": ("defer_loading", "defer_loadin"),
        "tool_name where a tool change wants name": ('"name": "search"}}', '"tool_name": "search"}}'),
        "a wrong type literal": ("tool_addition", "tool_adition"),
    }
    ok = not errors(good, ANTHROPIC_BETA)
    if not ok:
        print("FAIL the negative cases' good body:", errors(good, ANTHROPIC_BETA))
    text = json.dumps(good)
    for label, (old, new) in bad.items():
        assert old in text, label
        if not errors(json.loads(text.replace(old, new)), ANTHROPIC_BETA):
            print(f"FAIL the checker accepts {label}")
            ok = False
    if not errors({"model": "m", "input": [{"type": "additional_tools", "role": "user", "tools": []}]}, RESPONSES):
        print("FAIL the checker accepts an additional_tools item with role user")
        ok = False
    ok &= negative_replays()
    return ok


def negative_replays():
    """A replayed call of an appended or namespaced tool without its namespace, or with
    another, must fail; the goldens' own replays must pass."""
    ok = True
    for name, namespace in (("openai-responses", "search"), ("openai-responses-namespaces", "web")):
        body = golden(name)[-1]
        if replay_errors(body):
            print(f"FAIL the replay check refuses {name}'s last body:", replay_errors(body))
            ok = False
        calls = [i for i, item in enumerate(body["input"])
                 if item.get("type") == "function_call" and item.get("name") == "search"]
        if not calls or body["input"][calls[0]].get("namespace") != namespace:
            print(f"FAIL {name}'s last body has no call of `search` in namespace {namespace!r}")
            ok = False
            continue
        for label, change in (("without its namespace", lambda call: call.pop("namespace")),
                              ("with another namespace", lambda call: call.update(namespace="web_search"))):
            bad = json.loads(json.dumps(body))
            change(bad["input"][calls[0]])
            if not replay_errors(bad):
                print(f"FAIL the checker accepts {name}'s call of `search` replayed {label}")
                ok = False
    return ok


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
