"""Fill a results store with catalogue ids at the papers' sizes, settled over seeds, as `pacesim reproduce ID`
does (runner.reproduce(settle=True)), logging each id's wall time, points run and reused, and its verdicts.

    python bench/record/run.py RESULTS WORKERS ID ...

Each id's report goes to RESULTS/reproduce/ID; a line per id to RESULTS/run.log (JSON). Then
`pacesim reproduce --table --results RESULTS --tables DIR` writes the per-paper tables.
"""

import json
import sys
import time
from pathlib import Path

from pacesim.reproduce.runner import reproduce
from pacesim.sweep import executor


def main(results: Path, workers: int, ids) -> None:
    with executor(workers) as pool:
        for fid in ids:
            t0 = time.time()
            r = reproduce(fid, results, results / "reproduce" / fid, pool=pool, progress=False, settle=True)
            line = dict(id=fid, wall=round(time.time() - t0, 1), ran=r.run.ran, reused=r.run.skipped,
                        failed=r.run.failed, verdicts=[(j.id, j.verdict, j.seeds) for j in r.claims])
            with (results / "run.log").open("a") as f:
                f.write(json.dumps(line) + "\n")
            print(fid, line["wall"], r.run.ran, flush=True)


if __name__ == "__main__":
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    main(Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3:])
