#!/usr/bin/env python3
"""Apply Wei's ns-2 pacing diff, as published in maesoser/ns2_bbr's
`drafts/add_pacing.md`, to an ns-2.35 source tree.

    apply_wei.py REPO NS_TREE

REPO is a local copy of github.com/maesoser/ns2_bbr; NS_TREE is ns-2.35's
source directory. Nothing of the patch is stored here: this script reads it
from REPO at build time.

The file is markdown, not a patch: one fenced block per source file (named
in the numbered line above it), each a sequence of unified-diff hunks of
which only some keep their `@@` header, with blank context lines stripped
to empty lines and no `---`/`+++` lines. `patch` cannot take it, so each
hunk is applied here by its text: the hunk's old side (context and `-`
lines) is searched for in the file, after the previous hunk's place, with
runs of blanks collapsed (the markdown and ns-2.35 differ in tabs against
spaces), and replaced by its new side. As `patch`'s fuzz, a hunk not found
is tried again with up to 3 of its leading and up to 3 of its trailing
context lines left out (fewest first, some context kept) (ns-2.35 differs from the 2.34 the diff was made on); each such hunk is
printed. A hunk whose old side is not found exactly once even so stops the
script with its first line named.
"""
import re
import sys
from pathlib import Path

HEADING = re.compile(r"^\d+\. (?:Change|Modify) `(?:[^`]* )?(?:ns-2\.34-new/)?([^` ]+)`")


def blocks(md):
    """(relative path, [hunk lines]) for each fenced block, in order."""
    out, path, inside, lines = [], None, False, []
    for line in md.splitlines():
        m = HEADING.match(line)
        if m and not inside:
            path = m.group(1)
        elif line.startswith("```"):
            if inside:
                out.append((path, lines))
                lines = []
            inside = not inside
        elif inside:
            lines.append(line)
    if inside or not out:
        raise SystemExit("add_pacing.md: unterminated or no fenced blocks")
    return out


def hunks(lines):
    """Split a block at its `@@` lines; each hunk as (old, new) line lists."""
    out, old, new = [], [], []
    for line in lines:
        if line.startswith("@@"):
            if old or new:
                out.append((old, new))
            old, new = [], []
        elif line.startswith("+"):
            new.append(line[1:])
        elif line.startswith("-"):
            old.append(line[1:])
        else:  # context; an empty line is a blank context line
            old.append(line[1:])
            new.append(line[1:])
    if old or new:
        out.append((old, new))
    return out


def norm(line):
    return " ".join(line.split())


def trim(old, new):
    """Drop blank context lines at either end (the markdown loses some)."""
    while old and new and not old[0].strip() and not new[0].strip():
        old, new = old[1:], new[1:]
    while old and new and not old[-1].strip() and not new[-1].strip():
        old, new = old[:-1], new[:-1]
    return old, new


def context_ends(old, new):
    """Numbers of context lines the hunk starts and ends with."""
    lead = 0
    while lead < min(len(old), len(new)) and old[lead] == new[lead]:
        lead += 1
    tail = 0
    while tail < min(len(old), len(new)) - lead and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    return lead, tail


def find(lines, at, old):
    key = [norm(x) for x in old]
    return [i for i in range(at, len(lines) - len(key) + 1)
            if [norm(x) for x in lines[i:i + len(key)]] == key]


def apply(path, text, hs):
    lines = text.split("\n")
    at = 0
    for old, new in hs:
        old, new = trim(old, new)
        lead, tail = context_ends(old, new)
        # (leading, trailing) context lines left out, fewest first; some
        # context must remain.
        tries = sorted(((a, b) for a in range(min(3, lead) + 1)
                        for b in range(min(3, tail) + 1) if a + b < lead + tail or a + b == 0),
                       key=lambda ab: (ab[0] + ab[1], ab[0]))
        for a, b in tries:
            o, n = old[a:len(old) - b], new[a:len(new) - b]
            found = find(lines, at, o)
            if len(found) == 1:
                break
        if len(found) != 1:
            raise SystemExit(f"{path}: hunk starting {old[0]!r} matched {len(found)} times")
        if a or b:
            print(f"{path}: hunk starting {old[0]!r} applied without {a} leading "
                  f"and {b} trailing context lines")
        i = found[0]
        lines[i:i + len(o)] = n
        at = i + len(n)
    return "\n".join(lines)


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    repo, tree = Path(sys.argv[1]), Path(sys.argv[2])
    md = (repo / "drafts" / "add_pacing.md").read_text()
    for rel, lines in blocks(md):
        target = tree / rel
        target.write_text(apply(rel, target.read_text(), hunks(lines)))
        print(f"applied {rel}", flush=True)


if __name__ == "__main__":
    main()
