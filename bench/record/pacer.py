"""What the host pacer alone changes in the record: each claim of the figures with host pacing judged on two
stores, one run with a pacer and window cuts, the other with another, everything else the same (issue 32).

    python bench/record/pacer.py A B ID ...     # A, B: results stores run by run.py (RESULTS/reproduce/ID/report.md)

prints a Markdown table, a row per claim: its verdict and numbers in A, and in B, changed verdicts marked. The
record (record15 and on) runs Wei's pacer with cuts from flight (paper W's reading, E's sweep files); PACER.md
says how the other store was made and gives the table.
"""

import sys
from pathlib import Path


def claims(store: Path, fid: str) -> dict:
    """The claim rows of RESULTS/reproduce/ID/report.md: id -> (verdict, numbers)."""
    report = store / "reproduce" / fid / "report.md"
    if not report.is_file():
        sys.exit(f"{report}: no report of {fid} in that store (run.py writes one per id)")
    rows = {}
    for line in report.read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if len(cells) == 6 and cells[0].startswith(f"{fid}."):
            rows[cells[0]] = (cells[5].strip("*"), cells[4])
    return rows


def main(a: Path, b: Path, ids) -> None:
    print(f"| claim | {a.name}: verdict, numbers | {b.name}: verdict, numbers |\n|---|---|---|")
    for fid in ids:
        here, there = claims(a, fid), claims(b, fid)
        for cid in sorted(here.keys() | there.keys(), key=lambda c: int(c.rsplit(".", 1)[1])):
            (va, na), (vb, nb) = here.get(cid, ("not run", "")), there.get(cid, ("not run", ""))
            mark = "" if va == vb else " (verdict changed)"
            print(f"| {cid}{mark} | **{va}**: {na} | **{vb}**: {nb} |")


if __name__ == "__main__":
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    main(Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3:])
