#!/usr/bin/env python3
"""The engine's import graph: which source file of `crates/pacesim-core/src`
uses which, its circles, and the arrows that run up the layers.

A file's arrows are the paths it names outside its `#[cfg(test)]` items,
inline (`crate::a::f()`, `super::B`, `self::c::D`, `child::E::new()`) or in
`use` trees of any shape (`super::{a, b::{c, d}}`, `self::x`, `child::Y`),
each resolved to the file that defines the item (through `pub use`
re-exports). A module's `pub use child::X` re-exports its child's item, as
its `mod child;` declares it: no arrow, like the declaration.
Methods a child file adds to its parent's type (`impl World` in
`engine/world/ahead.rs`) are the type's: a call of one is no path, so no arrow. Layers, bottom to top, are the top-level
modules in `LAYERS`; an arrow from a lower layer to a higher one runs up.
The kernel (`sim/`) may use nothing but itself.

    python scripts/imports.py            # counts, circles, upward arrows
    python scripts/imports.py --check    # exit 1 on a circle or an upward arrow
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "crates" / "pacesim-core" / "src"

# Modules (a top-level one, or a file within one that sits lower than the
# rest), bottom to top; modules on one line share a layer.
LAYERS = [
    ["sim", "spec"],
    ["report"],
    ["net/packet"],
    ["metrics"],
    ["net"],
    ["tcp"],
    ["pacing"],
    ["traffic"],
    ["topology"],
    ["scenario"],
    ["engine"],
    [""],  # lib.rs
]
LAYER = {m: i for i, ms in enumerate(LAYERS) for m in ms}

USE = re.compile(r"\b(pub(?:\([^)]*\))?\s+)?use\s+([^;]*);")
PATH = r"(?<![\w:])({heads})((?:::\w+)+)"
ANCHORS = ("crate", "super", "self")
PUB_USE = re.compile(r"pub use ((?:crate|super|self|\w+)(?:::\w+)*)(?:::\{([^{}]*)\})?;")


def module_of(src: Path, file: Path) -> tuple[str, ...]:
    rel = file.relative_to(src).with_suffix("")
    parts = rel.parts
    return () if parts == ("lib",) else tuple(parts)


def without_tests(text: str) -> str:
    """The text less comments and every item marked `#[cfg(test)]`."""
    text = re.sub(r"//[^\n]*", "", text)
    out, i = [], 0
    while (j := text.find("#[cfg(test)]", i)) >= 0:
        out.append(text[i:j])
        k, depth = j, 0
        while k < len(text):
            c = text[k]
            if c == ";" and depth == 0 and "{" not in text[j:k]:
                k += 1
                break
            if c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
                if depth == 0:
                    k += 1
                    break
            k += 1
        i = k
    out.append(text[i:])
    return "".join(out)


def graph(src: Path = SRC) -> dict[tuple[str, ...], set[tuple[str, ...]]]:
    files = {module_of(src, f): without_tests(f.read_text()) for f in sorted(src.rglob("*.rs"))}

    def reexport(module: tuple[str, ...], name: str, seen: int = 0) -> tuple[str, ...] | None:
        """The file defining `name`, as `module` names it; None for a name of the crate's root that lib.rs
        neither defines nor re-exports (no file: a macro's, a path not resolved), which is no arrow. An item
        lib.rs defines is an arrow into it, the top layer (review-house36f D2: the two were one, and
        `crate::ENGINE_VERSION` from engine/assemble.rs went unseen)."""
        for m in PUB_USE.finditer(files.get(module, "")):
            base, group = m.group(1).split("::"), m.group(2)
            names = [n.strip().split(" as ")[-1] for n in group.split(",")] if group else [base[-1]]
            if name in names and seen < 8:
                path = absolute(module, base if group else base[:-1]) + ((name,) if group else (base[-1],))
                return resolve(path, seen + 1)
        if module == () and not re.search(rf"\b(?:const|static|fn|struct|enum|union|type|trait)\s+{re.escape(name)}\b",
                                          files[()]):
            return None
        return module

    def absolute(module: tuple[str, ...], segs: list[str]) -> tuple[str, ...]:
        head, rest = segs[0], segs[1:]
        if head == "crate":
            return tuple(rest)
        if head == "super":
            return absolute(module[:-1], rest) if rest and rest[0] == "super" else module[:-1] + tuple(rest)
        if head == "self":
            return module + tuple(rest)
        return module + tuple(segs)  # a child module

    def resolve(path: tuple[str, ...], seen: int = 0) -> tuple[str, ...] | None:
        for n in range(len(path), -1, -1):
            if path[:n] in files:
                if n < len(path):
                    return reexport(path[:n], path[n], seen)
                return path[:n]
        return ()

    edges: dict[tuple[str, ...], set[tuple[str, ...]]] = {m: set() for m in files}
    for module, text in files.items():
        children = sorted(c[-1] for c in files if len(c) == len(module) + 1 and c[: len(module)] == module)
        paths = [
            p
            for m in USE.finditer(text)
            for p in use_paths(m.group(2))
            # a child's items re-exported (`pub use child::X`) are the module's surface, as its `mod child`
            if p and (p[0] in ANCHORS or (p[0] in children and not m.group(1)))
        ]
        rest = USE.sub("", text)  # paths written inline, outside `use` items
        inline = re.compile(PATH.format(heads="|".join([*ANCHORS, *children])))
        paths += [[m.group(1), *m.group(2).strip(":").split("::")] for m in inline.finditer(rest)]
        for segs in paths:
            target = resolve(absolute(module, [s for s in segs if s != "self"] or segs))
            if target is not None and target != module:
                edges[module].add(target)
    return edges


def use_paths(tree: str) -> list[list[str]]:
    """Every path a `use` tree names, its `{...}` groups (nested or not) expanded:
    `super::{a, b::{c, d as e}}` gives `super::a`, `super::b::c`, `super::b::d`."""
    tree = re.sub(r"\s+as\s+\w+", "", tree)  # a rename does not change what is imported
    tree = re.sub(r"\s+", "", tree)
    out: list[list[str]] = []

    def walk(prefix: list[str], t: str) -> None:
        items, depth, start = [], 0, 0
        for i, c in enumerate(t):
            depth += (c == "{") - (c == "}")
            if c == "," and depth == 0:
                items.append(t[start:i])
                start = i + 1
        items.append(t[start:])
        for item in filter(None, items):
            if "{" in item:
                head, group = item.split("{", 1)
                walk(prefix + [s for s in head.split("::") if s], group[: group.rindex("}")])
            else:
                out.append(prefix + [s for s in item.split("::") if s and s != "*"])

    walk([], tree)
    return out


def circles(edges: dict) -> list[list[tuple[str, ...]]]:
    """Strongly connected components of more than one file (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges[v]:
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

    sys.setrecursionlimit(10_000)
    for v in edges:
        if v not in index:
            visit(v)
    return out


def layer(module: tuple[str, ...]) -> int:
    """The layer of the longest prefix of `module` that `LAYERS` names."""
    for n in range(len(module), 0, -1):
        if "/".join(module[:n]) in LAYER:
            return LAYER["/".join(module[:n])]
    return LAYER[""] if not module else len(LAYERS)


def upward(edges: dict) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """Arrows into a higher layer, and any from the kernel out of it."""
    return sorted(
        (a, b)
        for a, bs in edges.items()
        for b in bs
        if layer(b) > layer(a) or (a[:1] == ("sim",) and b[:1] != ("sim",))
    )


def name(m: tuple[str, ...]) -> str:
    return "/".join(m) + ".rs" if m else "lib.rs"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="exit 1 on a circle or an upward arrow")
    ap.add_argument("--src", type=Path, default=SRC, help="another checkout's crates/pacesim-core/src")
    args = ap.parse_args()
    edges = graph(args.src)
    return report(edges, circles(edges), upward(edges), name, "files", args.check)


def report(edges: dict, circ: list, up: list, name, units: str, check: bool, extra: str = "") -> int:
    """Print the counts, each circle and each upward arrow (nodes named by `name`); 1 with `check` if any."""
    arrows = sum(len(b) for b in edges.values())
    print(f"{len(edges)} {units}, {arrows} import arrows, {len(up)} upward, {len(circ)} circles{extra}")
    for c in circ:
        print("circle:", " <-> ".join(name(m) for m in c))
    for a, b in up:
        print(f"upward: {name(a)} -> {name(b)}")
    return 1 if check and (up or circ) else 0


if __name__ == "__main__":
    sys.exit(main())
