"""bench/fuzz/hostile_store.py run against the code before issue 33's fixes, for its "before" column.

    git -C /work/main archive 01c4cc0 python | tar -x -C /tmp/before   # and the engine's _core*.so beside it
    python bench/fuzz/store_before.py /tmp/before/python --cases 300 --seed 3

The names the harness imports that the old code had not are put in, holding it to the rules the fixes
added (a sweep's name a plain file name as `store.NAME` says, at most 10^6 points); its errors (sqlite3,
OSError, pyarrow's) are no StoreError, so the harness counts them as tracebacks."""

import math
import re
import runpy
import sys
from pathlib import Path

sys.path.insert(0, sys.argv.pop(1))
import pacesim.store as store  # noqa: E402  (the old code, from the path given)
import pacesim.sweep as sweep  # noqa: E402

NAME = re.compile(r"\w[\w.+-]*")


class StoreError(ValueError):
    """Never raised by the old code."""


def plain_name(name):
    return None if isinstance(name, str) and NAME.fullmatch(name) and len(name.encode()) <= 120 else "not plain"


store.StoreError, store.DamagedRun, store.plain_name = StoreError, type("DamagedRun", (UserWarning,), {}), plain_name
sweep.MAX_POINTS = 10**6
sweep.Sweep.size = property(lambda self: math.prod(len(v) for v in self.axes.values()) * len(self.seeds))
sweep.Sweep.iter_points = lambda self: iter(self.points())
sys.argv = ["hostile_store.py"] + sys.argv[1:]
runpy.run_path(str(Path(__file__).with_name("hostile_store.py")), run_name="__main__")
