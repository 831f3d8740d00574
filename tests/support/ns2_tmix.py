"""ns-2's Tmix against pacesim's, on the same vectors and topology (bench/ns2/tmix/tmix.tcl: ns-2's Tmix
test-suite dumbbell, two clouds replaying one vectors file through their DelayBoxes, one-way TCP): pacesim's
run of a case beside ns-2's committed outputs (bench/ns2/tmix/results/), for bench/ns2/tmix/compare.py and
tests/test_fidelity_ns2_tmix.py.

The vectors are Tmix's samples from Debian's `ns2-examples` (`pacesim.tmix.SAMPLES`), and connections are
named by their place in the file (`vector`, from 0); bench/ns2/tmix/compare.py's docstring has the files.
"""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd

# The installed pacesim (pip install . or maturin develop), never the checkout's python/ put first on sys.path:
# processes started later (a Dask cluster's workers) inherit the path and would import a pacesim without its
# engine, and hang the sweep that waits for them.
import pacesim
from pacesim.tmix import vectors_path

RESULTS = Path(__file__).resolve().parents[2] / "bench" / "ns2" / "tmix" / "results"
END, SEED = 60.0, 9999
CASES = {  # name: (sample file, lossless)
    "lossless-alt": ("sample-alt.cvec.gz", True),
    "lossless-orig": ("sample-orig.cvec.gz", True),
    "lossy-alt": ("sample-alt.cvec.gz", False),
}
LINK_MBPS = 100.0


def ids(cvec: str) -> dict:
    """Each vector's id -> its place in the file (from 0)."""
    heads = [line.split() for line in Path(cvec).read_text().splitlines() if re.match(r"^(S|C|SEQ|CONC) ", line)]
    return {int(h[-1]): i for i, h in enumerate(heads)}


def lossy(cvec: str) -> set:
    """The places (from 0) of the vectors whose `l` line asks for losses."""
    place, out = -1, set()
    for line in Path(cvec).read_text().splitlines():
        f = line.split("#")[0].split()
        if f and f[0] in ("S", "C", "SEQ", "CONC"):
            place += 1
        elif f and f[0] == "l" and any(float(x) > 0 for x in f[1:3]):
            out.add(place)
    return out


def scenario(case: str) -> dict:
    """pacesim's form of `tmix.tcl`: every link 100 Mb/s, 1 ms, 50 packets of queue each way."""
    sample, lossless = CASES[case]
    half = {"buffer_packets": 50}
    link = lambda a, b: {"from": a, "to": b, "rate": "100Mbps", "delay": "1ms", "forward": half, "reverse": half}  # noqa: E731
    cloud = lambda i, a, box: {"vectors": sample, "initiator": i, "acceptor": a, "delaybox": box,  # noqa: E731
                               "lossless": lossless}
    return {
        "seed": SEED, "duration": f"{END}s", "warmup": "0s",
        "topology": {"kind": "graph", "nodes": ["r1", "r2"], "hosts": ["s1", "s2", "k1", "k2"],
                     "links": [link("s1", "r1"), link("s2", "r1"),
                               {"from": "r1", "to": "r2", "core": True, "forward": {"name": "core"},
                                "reverse": {"name": "core.rev", "measure": True, "buffer_packets": 50}},
                               link("k1", "r2"), link("k2", "r2")]},
        "core": {"rate": "100Mbps", "delay": "1ms", "buffer": "1GB", "buffer_packets": 50},
        "tcp": {"variant": "newreno", "segment_size": "1460B", "window": 20},
        "traffic": {"tmix": [cloud("s1", "k1", "r1"), cloud("k2", "s2", "r2")]},
    }


def compare(case: str, write: bool = False) -> dict:
    """pacesim on `case` beside ns-2's committed outputs: the numbers; with `write`, the per-connection table
    written to results/<case>.csv."""
    sample, _ = CASES[case]
    r = pacesim.run(pacesim.parse_scenario(scenario(case)), threads=1)
    place = ids(vectors_path(sample))
    t = r.tmix.assign(vector=lambda d: d["id"].map(place))
    ours = t[["cloud", "vector", "start_s", "receipts", "last_s", "done_s"]]
    ns2 = pd.read_csv(RESULTS / f"{case}-ns2.csv")
    both = ours.merge(ns2, on=["cloud", "vector"], how="outer", suffixes=("_pacesim", "_ns2"))
    both["receipts_ns2"] = both["receipts_ns2"].fillna(0).astype(int)  # ns-2 prints nothing for none
    if write:  # the vectors' own fields (start times, ids) stay out of what is committed
        both.drop(columns="start_s").to_csv(RESULTS / f"{case}.csv", index=False, float_format="%.6f")
    links = pd.read_csv(RESULTS / f"{case}-ns2-links.csv").set_index("link")["bytes"]
    mbps = {"r1-r2": r.links.loc["core", "throughput_mbps"], "r2-r1": r.links.loc["core.rev", "throughput_mbps"]}
    same = both[(both["receipts_pacesim"] == both["receipts_ns2"]) & (both["receipts_ns2"] > 0)]
    fct = {w: (same[f"last_s_{w}"] - same["start_s"]) for w in ("pacesim", "ns2")}
    rel = (fct["pacesim"] - fct["ns2"]).abs() / fct["ns2"]
    out = {"case": case, "connections": len(both),
           "receipts_equal": int((both["receipts_pacesim"] == both["receipts_ns2"]).sum()), "compared": len(same), "receipts_pacesim": int(both["receipts_pacesim"].sum()),
           "receipts_ns2": int(both["receipts_ns2"].sum())}
    for link, m in mbps.items():
        ns2_mbps = links[link] * 8 / END / 1e6
        out[f"{link}_mbps_ns2"], out[f"{link}_mbps_pacesim"] = ns2_mbps, m
        out[f"{link}_diff_pct_of_link"] = 100 * (m - ns2_mbps) / LINK_MBPS
        out[f"{link}_diff_pct"] = 100 * (m / ns2_mbps - 1)
    for w in ("pacesim", "ns2"):
        out[f"mean_completion_s_{w}"] = float(fct[w].mean())
        out[f"median_completion_s_{w}"] = float(fct[w].median())
    out["mean_completion_diff_pct"] = 100 * (out["mean_completion_s_pacesim"] / out["mean_completion_s_ns2"] - 1)
    gap = (fct["pacesim"] - fct["ns2"]).abs()
    out["connections_within_5pct"] = float((rel <= 0.05).mean())
    # Each connection's completion within 5 % of ns-2's or 1 ms (a few-ms connection's clock granularity);
    # among those whose vectors ask for no loss too (the others lose other packets when the vectors' losses
    # are drawn, from other random streams).
    near = (rel <= 0.05) | (gap <= 1e-3)
    out["connections_within_tolerance"] = float(near.mean())
    out["lossfree_within_tolerance"] = float(near[~same["vector"].isin(lossy(vectors_path(sample)))].mean())
    out["connections_within_1ms"] = float((gap <= 1e-3).mean())
    out["largest_gap_ms"] = float(1e3 * gap.max())
    return out
