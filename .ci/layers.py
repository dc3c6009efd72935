#!/usr/bin/env python3
"""Checks the workspace's layering: no import cycle between the modules of a crate (read from
the `crate::` and `super::` paths of each file, and from the paths by which a folder's
`mod.rs` uses its children's items) and no source file over 600 lines of code (doc comments,
`///` and `//!`, do not count: a file is split by noun, not to move its docs out).

Usage: layers.py [--graph CRATE_SRC]   (--graph prints the module graph of one crate)
"""
import os
import re
import sys

MAX_LINES = 600
CRATES = [
    "src",
    "toolgroup-core/src",
    "toolgroup-macros/src",
    "toolgroup-mcp/src",
    "toolgroup-rig/src",
    "toolgroup-skills/src",
]
# Files that are generated or recorded, not written.
EXEMPT = ("/snapshots/",)


def modules(src):
    """Maps a module path ("a::b") to its file, for every .rs file under `src`."""
    out = {}
    for root, _, files in os.walk(src):
        for f in files:
            if not f.endswith(".rs"):
                continue
            path = os.path.join(root, f)
            rel = os.path.relpath(path, src)[:-3].split(os.sep)
            if rel[-1] in ("mod", "lib", "main"):
                rel = rel[:-1]
            out["::".join(rel)] = path
    return out


def code_lines(path):
    """The lines of a file that are not doc comments (blank lines and `//` comments count,
    as they go with the code they sit in)."""
    with open(path) as f:
        return sum(1 for line in f if not re.match(r"\s*//[/!]", line) or line.lstrip().startswith("////"))


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return "\n".join(re.sub(r"//.*", "", line) for line in text.splitlines())


def strip_tests(text):
    """Drops `#[cfg(test)] mod tests { ... }` blocks: tests may reach anywhere."""
    out = []
    i = 0
    for m in re.finditer(r"#\[cfg\(test\)\]\s*mod\s+\w+\s*\{", text):
        if m.start() < i:
            continue
        out.append(text[i : m.start()])
        depth = 1
        j = m.end()
        while j < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            j += 1
        i = j
    out.append(text[i:])
    return "".join(out)


def expand_use_paths(text):
    """Yields every path a file names, with `use a::{b, c::{d}}` trees expanded."""
    for m in re.finditer(r"\b((?:crate|super)(?:::\w+)*)(::\{)?", text):
        base = m.group(1)
        if not m.group(2):
            yield base
            continue
        depth = 1
        j = m.end()
        start = j
        while j < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            j += 1
        inner = text[start : j - 1]
        for part in split_top(inner):
            part = part.strip()
            if not part:
                continue
            name = re.match(r"\w+", part)
            if name:
                yield base + "::" + name.group(0)


def split_top(s):
    parts, depth, cur = [], 0, ""
    for c in s:
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        if c == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += c
    parts.append(cur)
    return parts


def resolve(path, here, mods, is_mod_file):
    segs = path.split("::")
    if segs[0] == "crate":
        cur = []
        segs = segs[1:]
    else:
        # `here` is the module's own path (`a::b` for a/b.rs and for a/b/mod.rs), so each
        # `super` drops one segment.
        cur = here.split("::") if here else []
        while segs and segs[0] == "super":
            cur = cur[:-1]
            segs = segs[1:]
    best = None
    for k in range(len(segs) + 1):
        cand = "::".join(cur + segs[:k])
        if cand in mods:
            best = cand
    return best


def graph(src):
    mods = modules(src)
    edges = {m: set() for m in mods}
    for m, path in mods.items():
        base = os.path.basename(path)
        is_mod_file = base in ("mod.rs", "lib.rs", "main.rs")
        text = strip_tests(strip_comments(open(path).read()))
        # Visibilities (`pub(super)`, `pub(in crate::a)`) are not imports.
        text = re.sub(r"pub\((?:crate|super|self|in [\w:]+)\)", "pub", text)
        for p in expand_use_paths(text):
            target = resolve(p, m, mods, is_mod_file)
            if target is None or target == m or target == "":
                continue
            # A folder module is one noun: its `mod.rs` declares, re-exports and uses its
            # children, which use its items; only edges between siblings (and across folders)
            # count. The crate root names everything.
            if m == "" or target.startswith(m + "::") if m else True:
                continue
            # Likewise a child naming its parent's items is fine only if the parent does not
            # name it back: that is what the cycle check below decides.
            edges[m].add(target)
    return edges


def child_edges(src):
    """The edges from a folder module (its `mod.rs`) to the children whose items its own code
    names (`text::escape(..)`), declarations and re-exports (`mod`, `pub use`) left out."""
    mods = modules(src)
    edges = {m: set() for m in mods}
    for m, path in mods.items():
        if m == "" or os.path.basename(path) != "mod.rs":
            continue
        text = strip_tests(strip_comments(open(path).read()))
        text = re.sub(r"pub\((?:crate|super|self|in [\w:]+)\)", "pub", text)
        text = re.sub(r"\bpub\s+use\b[^;]*;", "", text)
        for child in mods:
            if child.startswith(m + "::") and child.count("::") == m.count("::") + 1:
                name = child.rsplit("::", 1)[1]
                if re.search(r"(?<![\w:])(?:self::)?" + name + r"::\w", text):
                    edges[m].add(child)
    return edges


def in_one_folder(comp):
    """Whether every module of `comp` is one folder module or inside it."""
    for f in comp:
        if all(c == f or c.startswith(f + "::") for c in comp):
            return True
    return False


def sccs(edges):
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in edges:
        if v not in index:
            visit(v)
    return out


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--graph":
        for m, ts in sorted(graph(sys.argv[2]).items()):
            print(f"{m or '<root>'} -> {', '.join(sorted(ts))}")
        return 0
    failed = False
    for src in CRATES:
        edges = graph(src)
        # Parent modules (`a` for `a::b`) re-export and declare their children: an edge from a
        # child to its parent is a cycle only through the parent's own items, so parent edges
        # to descendants were dropped above.
        for comp in sccs(edges):
            failed = True
            print(f"{src}: import cycle between modules: {', '.join(c or '<root>' for c in comp)}")
        # A folder module's own code may use its children (a folder is one noun), but not
        # close a cycle through a module outside the folder: `meta` naming `skill`, whose
        # `mod.rs` uses `skill::text`, which names `meta`.
        both = {m: edges[m] | extra for m, extra in child_edges(src).items()}
        for comp in sccs(both):
            if not in_one_folder(comp):
                failed = True
                print(f"{src}: import cycle through a folder module: {', '.join(comp)}")
    roots = ["src", "toolgroup-core", "toolgroup-macros", "toolgroup-mcp", "toolgroup-skills",
             "toolgroup-rig", "benches", "tests", "examples"]
    for root in roots:
        for r, _, files in os.walk(root):
            for f in files:
                p = os.path.join(r, f)
                if not f.endswith(".rs") or any(e in p for e in EXEMPT) or "/target/" in p:
                    continue
                n = code_lines(p)
                if n > MAX_LINES:
                    failed = True
                    print(f"{p}: {n} lines besides doc comments (at most {MAX_LINES})")
    if failed:
        return 1
    print(f"layers: no module import cycle, no source file over {MAX_LINES} lines of code")
    return 0


if __name__ == "__main__":
    sys.exit(main())
