"""A first session in a notebook, run by fresh_venv.py in the venv the wheel went into (from /tmp).

One run with overrides through the Python API, then a small sweep into a store of its own, read back as a
DataFrame; each step checks what a user would look at (packet conservation, the override taken, the store's
points). Usage: python notebook.py RESULTS_DIR
"""

import sys
from pathlib import Path

import pacesim

results = Path(sys.argv[1])
r = pacesim.run("e-base", set=["core.buffer=5KB", "duration=30s", "warmup=10s"], seed=2)
c = r.conservation
print(r)
assert r.scenario.core.buffer == 5000 and r.seed == 2
assert c["created"] == c["delivered"] + c["dropped"] + c["in_flight"], c
assert r.links.loc["core", "drops"] > 0 and r.links["drops"].dtype.kind == "i"

sweep = pacesim.sweep.Sweep(name="nb-buffers", base=pacesim.load_scenario("e-base"),
                            set=["duration=20s", "warmup=5s", "topology.hosts_per_edge=20"],
                            axes={"core.buffer": ["2KB", "10KB"]}, seeds=[1, 2])
with pacesim.store.Store(results) as store:
    run = pacesim.sweep.run_sweep(sweep, store, progress=False)
    points = store.points("nb-buffers")
print(points[["core.buffer", "seed", "status", "core_loss_rate"]].to_string(index=False))
assert run.ran == 4 and run.failed == 0 and (points["status"] == "ok").all()
assert points.attrs["units"] == {"core.buffer": "B"}  # the axis in bytes, "2KB" as written in core.buffer_written
loss = points.groupby("core.buffer")["core_loss_rate"].mean()
assert loss[2000] > loss[10_000], loss  # a smaller buffer drops more
print("notebook: ok")
