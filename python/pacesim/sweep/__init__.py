"""Sweeps: a scenario, axes over any of its keys, and seeds; every point one run.

A sweep file (TOML):

    name = "buffers"
    scenario = "e-base.toml"        # a file relative to this one, or a packaged scenario's name (as
                                    # `pacesim run` takes it); or a [scenario] table; default E-base
    seeds = [1, 2, 3]
    set = ["duration=100s"]         # fixed overrides, applied first
    [axes]                          # the cartesian product of these, in this order
    "core.buffer" = ["3KB", "5KB", "10KB"]
    "pacing.scheme" = ["none", "host", "edge"]
    flows = [100, 1000]             # topology.hosts_per_edge = flows / topology.edges
    variant = ["none", "qlbp-40"]   # named override sets, from [variants]
    [variants]                      # curves that are not a product of keys
    none = ["pacing.scheme=none"]
    qlbp-40 = ["pacing.scheme=qlbp", "pacing.q_max=40"]
    [quick]                         # optional: the reduced sweep (`--quick`), named NAME-quick
    set = ["duration=30s"]          # more overrides, after `set`
    scale = 0.1                     # and/or E-base scaled (see `scaled`)
    seeds = [1, 2, 3]               # and/or other seeds

Points run through any `concurrent.futures.Executor`: a local process pool
(`pool.Pool`) by default, or a Dask cluster's executor (`executor()` makes either). Each
finished point is written to the `Store` as it arrives, so a rerun, or a run
after a crash, skips what is done (and reruns a stored point found damaged).
Every point is checked before any runs, as `pacesim run` checks a scenario
(validated, and its network built): an invalid one (a bad axis value, an
invalid combination, RED on a graph's link, a pacer in front of a queue that
holds its packets) stops the sweep with a SweepError naming its axis values
and the field; a point that fails while running (engine error, lost worker) is
stored with its error and the sweep goes on (a local worker killed by the
kernel's OOM killer or `kill -9` fails the point it ran, naming it and the
signal, and a new worker takes the next). Points are made one at a time,
never all held (a sweep has at most `MAX_POINTS`, counted before its values are
read, on at most `MAX_AXES` axes), and handed to the executor `IN_FLIGHT` at a
time. A sweep sets neither the seed (its `seeds` do) nor a
packet trace, and its name is a plain file name (`store.plain_name`).
Ctrl-C abandons the points in flight and kills the pool's workers (a Dask
cluster's too); a worker whose parent dies (kill -9) exits by itself.

The package's modules, one concern each: `definition` (what a sweep is, read
from its file: `Sweep`, `Point`, `load_sweep`), `scaling` (a scenario's
network scaled, `scaled`, and E-base's hosts from a flows axis), `check`
(every point checked, and keyed, before any runs), `executors` (where points
run: `executor`, and `simulate`, what a worker runs), `run` (a sweep run into
a store: `run_sweep`, `unwritten`) and `progress` (the bar).
"""

from .definition import MAX_AXES, MAX_POINTS, VARIANT, Point, Sweep, SweepError, load_sweep
from .executors import SCHEDULER_TIMEOUT_S, executor, simulate
from .run import IN_FLIGHT, SweepRun, run_sweep, unwritten
from .scaling import FLOWS, scaled

__all__ = ["FLOWS", "IN_FLIGHT", "MAX_AXES", "MAX_POINTS", "SCHEDULER_TIMEOUT_S", "VARIANT", "Point", "Sweep",
           "SweepError", "SweepRun", "executor", "load_sweep", "run_sweep", "scaled", "simulate", "unwritten"]
