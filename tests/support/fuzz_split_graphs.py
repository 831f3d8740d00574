"""Random graph topologies run on one thread and split in two halves, whose
reports must be byte-identical but for the work counters (issue 33: the
house rule "same scenario and seed, identical results on every thread
count", as a property rather than examples).

Each case is a graph written out (`kind = "graph"`) with hypothesis: a few
routers joined as a tree (sometimes with an extra link making a way around
the core), hosts hanging off them (sometimes off two routers), one core
link; link delays from zero through the usual milliseconds to longer than
the run, rates from 1 Mb/s to 1 Gb/s, unlimited or small drop-tail
queues, halves measured or paced; TCP flows between any two hosts (on one
side of the core, on both, crossing the cut several times; two-way or
not), UDP sources (CBR, Poisson, on/off: fBm's and a trace's arrivals cost
more to make and are the same to the split), pacing by nobody, the hosts,
edge pacers or QLBP, delayed ACKs, delay and progress measurements. The
case runs as one world, and as two halves with the split forced
(`_core.run_json(..., force_split=True)`: whatever the machine's load, the
network is cut in two wherever `engine::partition::Cut::of` finds a cut)
on two threads and in turn on one; the three reports are compared, `work`
aside.

Classes: "same" (the reports agree, the network was split), "same, not
split" (agrees, and the engine found no cut: the same number of events),
"error names field" (the engine refused the graph, which the generator
tries not to make), and the defects "differ", "panic", "engine failure".

`fuzzing.fuzz(Harness(), CASES, cases, seed)` generates the cases and counts
their classes; tests/test_split_graphs.py runs a fixed budget of it,
bench/fuzz/split_graphs.py (its command line) the long runs of
bench/fuzz/README.md.
"""

from __future__ import annotations

import json
from typing import Any, Dict, List

from hypothesis import strategies as st

from pacesim import _core

from . import fuzzing

CLASSES = ["same", "same, not split", "error names field", "differ", "panic", "engine failure"]
DEFECTS = CLASSES[3:]

MS = 1_000_000
DELAYS = [0, 1_000, 100_000, MS, 2 * MS, 2 * MS, 3 * MS, 3 * MS, 5 * MS, 10 * MS, 10 * MS, 40 * MS, 5_000 * MS]
"""One-way delays, ns: none, a microsecond, the papers' milliseconds (the more likely), and one longer
than any run here."""
RATES = [1_000_000, 10_000_000, 100_000_000, 1_000_000_000]

TCP = {"segment_size": 1000, "header_size": 40, "ack_size": 40, "window": 64, "initial_window": 2, "syn": True,
       "tick": 10 * MS, "min_rto": 200 * MS, "max_rto": 60_000 * MS, "initial_rto": 1_000 * MS}


def _range(draw, values: List[int]) -> List[int]:
    a, b = draw(st.sampled_from(values)), draw(st.sampled_from(values))
    return [a, a] if draw(st.booleans()) else sorted([a, b])


def _direction(draw) -> Dict[str, Any]:
    d: Dict[str, Any] = {"measure": draw(st.booleans()), "pace": draw(st.booleans())}
    queue = draw(st.sampled_from(["unlimited", "unlimited", "bytes", "packets"]))
    if queue == "bytes":
        d["buffer"] = draw(st.sampled_from([1_500, 5_000, 30_000]))
    elif queue == "packets":
        d["buffer_packets"] = draw(st.integers(1, 20))
    return d


@st.composite
def graphs(draw) -> Dict[str, Any]:
    """An engine scenario (SI units) with a random graph topology."""
    routers = [f"r{i}" for i in range(draw(st.integers(2, 6)))]
    pairs = [(routers[draw(st.integers(0, i - 1))], routers[i]) for i in range(1, len(routers))]
    core = draw(st.integers(0, len(pairs) - 1))
    if len(routers) > 2 and draw(st.integers(0, 4)) == 0:  # a way around some link, maybe the core
        a, b = draw(st.permutations(routers))[:2]
        if (a, b) not in pairs and (b, a) not in pairs:
            pairs.append((a, b))
    hosts = [f"h{i}" for i in range(draw(st.integers(2, 6)))]
    for i, h in enumerate(hosts):  # the first two at the core's ends, so that something crosses it
        at = [pairs[core][i]] if i < 2 else draw(st.lists(
            st.sampled_from(routers), min_size=1, max_size=1 + (draw(st.integers(0, 4)) == 0), unique=True))
        pairs += [(h, r) if draw(st.booleans()) else (r, h) for r in at]
    links = []
    for i, (a, b) in enumerate(pairs):
        link: Dict[str, Any] = {"from": a, "to": b}
        if i == core:
            link["core"] = True
        else:
            link["rate"] = _range(draw, RATES)
            link["delay"] = _range(draw, DELAYS)
        link["forward"], link["reverse"] = _direction(draw), _direction(draw)
        if i == core:  # the core's forward half takes [core]'s queue, and so does its reverse one two-way
            for half in ("forward", "reverse"):
                link[half] = {k: v for k, v in link[half].items() if k in ("measure", "pace")}
        links.append(link)
    ends = st.lists(st.sampled_from(hosts), min_size=2, max_size=2, unique=True)
    flows = [{"from": a, "to": b} for a, b in draw(st.lists(ends, min_size=draw(st.integers(0, 1)), max_size=6))]
    duration = draw(st.sampled_from([200 * MS, 500 * MS, 1_000 * MS]))
    udp = []
    for a, b in draw(st.lists(ends, max_size=3)):
        kind = draw(st.sampled_from(["cbr", "poisson", "onoff"]))
        u: Dict[str, Any] = {"kind": kind, "rate": draw(st.sampled_from([100_000, 1_000_000, 5_000_000])),
                             "size": {"range": _range(draw, [40, 200, 1_040, 1_500])},
                             "start": draw(st.sampled_from([0, 7 * MS, duration // 2])), "from": a, "to": b}
        if kind == "onoff":
            u["on"], u["off"] = draw(st.sampled_from([MS, 100 * MS])), draw(st.sampled_from([MS, 200 * MS]))
        udp.append(u)
    s: Dict[str, Any] = {
        "seed": draw(st.integers(1, 2**32)),
        "duration": duration,
        "warmup": draw(st.sampled_from([0, 100 * MS, duration // 2])),
        "topology": {"kind": "graph", "nodes": routers, "hosts": hosts, "links": links, "flows": flows},
        "core": {"rate": draw(st.sampled_from(RATES[:3])), "delay": draw(st.sampled_from(DELAYS)),
                 "buffer": draw(st.sampled_from([3_000, 10_000, 100_000])),
                 "queue": draw(st.sampled_from(["droptail", "red"]))},
        "tcp": dict(TCP, variant=draw(st.sampled_from(["reno", "newreno", "sack", "fack", "cubic"]))),
        "traffic": {"start": [0, draw(st.sampled_from([0, 50 * MS, duration // 2]))], "udp": udp,
                    "two_way": draw(st.booleans())},
    }
    if draw(st.booleans()):
        s["tcp"]["delayed_ack"] = draw(st.sampled_from([MS, 100 * MS]))
    scheme = draw(st.sampled_from(["none", "host", "edge", "qlbp"]))
    s["pacing"] = {"scheme": scheme, "delay": draw(st.sampled_from([0, MS, 10 * MS])),
                   "fraction": draw(st.sampled_from([0.5, 1.0]))}
    if scheme == "host":
        s["pacing"]["host_mode"] = draw(st.sampled_from(["original", "modified", "rate"]))
    if draw(st.integers(0, 3)) == 0:
        s["delay"] = {"class": draw(st.sampled_from(["data", "udp"]))}
    if draw(st.integers(0, 3)) == 0 and flows:
        s["progress"] = {"interval": draw(st.sampled_from([100 * MS, 250 * MS]))}
    return s


def outcome(s: Dict[str, Any]) -> str:
    """Run `s` on one thread and split on two; the class of what happened."""
    request = json.dumps(s)
    try:
        _core.validate_json(request)
    except ValueError:
        return "error names field"
    try:
        one, two, lent = (json.loads(_core.run_json(request, None, threads, force_split=forced))
                          for threads, forced in [(1, False), (2, True), (1, True)])
    except RuntimeError as e:
        return "panic" if "panic" in str(e) else "engine failure"
    except ValueError:
        return "error names field"
    split = one["work"]["events"] != two["work"]["events"]
    reports = {json.dumps({k: v for k, v in r.items() if k != "work"}, sort_keys=True) for r in (one, two, lent)}
    if len(reports) > 1:
        return "differ"
    return "same" if split else "same, not split"


class Harness(fuzzing.Tally):
    """Counts per class, and up to 10 failing cases of each defect."""

    def __init__(self) -> None:
        super().__init__(DEFECTS, keep=10)

    def record(self, s: Dict[str, Any]) -> None:
        self.count(outcome(s), None, lambda: json.dumps(s))


CASES = graphs()
