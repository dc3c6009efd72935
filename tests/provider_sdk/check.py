#!/usr/bin/env python3
"""Validates the deferred mode's request goldens (and, given files, the `deferred` example's
output lines) against the official SDKs' request types: anthropic 2.15.0 and openai 3.57.0.

Usage: check.py [--example PROVIDER FILE]...

Each request body is checked recursively against the SDK's TypedDict for the request:
every key must be one the TypedDict declares (an unknown or misspelled key fails), every
required key must be present, and every value must match its annotation (literals, unions,
lists, nested TypedDicts). Beta bodies (with `"_headers"`) are checked against the beta types,
and their header must name the beta. The negative cases at the end prove that the checker
fails on the mistakes that matter here (a misspelled key, `tool_name` where a tool change
wants `name`, a wrong literal). Gemini has no official request types in these SDKs and is
not checked here.
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


def check_body(label, provider, body):
    body = dict(body)
    tp = request_type(provider, body)
    body.pop("_headers", None)
    found = errors(body, tp)
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
}


def main(argv):
    ok = True
    checked = 0
    for order in ("", "preserve_order"):
        for name, provider in GOLDENS.items():
            path = os.path.join(ROOT, order, "deferred", f"{name}.json")
            with open(path) as f:
                requests = json.load(f)
            for i, body in enumerate(requests):
                ok &= check_body(f"{order or 'sorted'}/{name}[{i}]", provider, body)
                checked += 1
        path = os.path.join(ROOT, order, "deferred", "openai-responses-namespace-output.json")
        with open(path) as f:
            items = json.load(f)
        body = {"model": "gpt-5.4", "input": items}
        ok &= check_body(f"{order or 'sorted'}/namespace-output", "openai-responses", body)
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
    return ok


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
