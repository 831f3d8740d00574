"""Every id of the experiment catalogue (docs/experiments.md) and what it can run.

An id runs here (`pacesim reproduce ID`) when a figure is defined for it
(`scenarios/ID.toml` and a paper module's panels and claims), is an analytical model when `pacesim model` knows it, and
otherwise waits for the simulator components named beside it.
"""

from __future__ import annotations

import re
from typing import List, Tuple

from .figure import Figure
from .figures import FIGURES

CATALOGUE: List[Tuple[str, str, str]] = [
    # (id, what, what it waits for when neither a figure nor a model covers it)
    ("E-fig3", "throughput and per-flow goodput vs core buffer", ""),
    ("E-fig4", "number of flows", ""),
    ("E-fig5", "high-speed access", ""),
    ("E-fig6", "short-lived flows", "closed-loop short flows (Pareto file sizes, think times)"),
    ("E-fig7", "TCP variants", ""),
    ("E-fig8", "core not the bottleneck", "a reproduction definition (its components exist)"),
    ("E-fig9", "RED at the core", ""),
    ("E-fig10", "analytical throughput vs pacer delay", ""),
    ("E-fig11", "simulated throughput vs pacer delay", ""),
    ("E-fig12", "goodput vs buffer for d = 1, 10, 100, 200 ms", ""),
    ("E-fig13", "mixed TCP + Poisson UDP", ""),
    ("E-fig14", "mixed TCP + fBm UDP", "UDP sources (fBm)"),
    ("E-fig15", "TCP throughput and UDP loss vs pacer delay", "a reproduction definition (its components exist)"),
    ("E-fig16", "partial deployment: aggregate throughput", ""),
    ("E-fig17", "partial deployment: who gains", ""),
    ("E-model", "pacer analysis", ""),
    ("A-fig2", "video trace (Star Wars)", "UDP trace sources"),
    ("A-fig3", "video trace (Jurassic Park)", "UDP trace sources"),
    ("A-fig4", "CDF of average cwnd", "per-flow cwnd averages"),
    ("A-fig5", "empty-buffer probability vs buffer", "a reproduction definition (a-base and its RTT ranges exist)"),
    ("A-fig6", "effective buffers for UDP", ""),
    ("A-fig7", "TCP burstiness at time scales", "arrival time series and short flows"),
    ("A-fig8", "burstiness vs number of flows", "arrival time series"),
    ("A-fig10", "M/M/1/B bulk-arrival chain", ""),
    ("A-fig11", "Poisson UDP anomaly", ""),
    ("A-fig12", "fBm UDP anomaly", "UDP sources (fBm)"),
    ("A-fig13/14", "UDP intensity", "UDP sources (fBm)"),
    ("A-fig15", "high UDP share", "a reproduction definition (its components exist)"),
    ("A-fig16", "effective buffers at f = 0.1 and 0.8", ""),
    ("A-fig17", "empty buffer with short/long mixes", "closed-loop short flows"),
    ("A-fig18/19", "model vs B*", ""),
    ("A-fig20", "UDP loss vs TCP mix", "closed-loop short flows"),
    ("A-fig21", "UDP packet size", "a reproduction definition (its components exist)"),
    ("A-fig22", "model with bulk = size ratio", ""),
    ("A-fig23", "ACK loss anomaly", ""),
    ("A-md1", "M/D/1/B with bimodal sizes", ""),
    ("Q-fig9/10", "one TCP flow through QLBP (prototype)", ""),
    ("Q-fig11/12", "CBR through QLBP (prototype)", ""),
    ("Q-tab2", "pacing delay vs CBR rate", "a reproduction definition (CBR sources and q-line exist)"),
    ("Q-fig15", "CoV after 1-3 tandem pacers", "a reproduction definition (ON-OFF sources, q-tandem, CoV of bins exist)"),
    ("Q-fig16", "QLBP on self-similar traffic (Tmix)", ""),
    ("Q-fig18", "utilisation vs core buffer", ""),
    ("Q-tab3", "utilisation and delay", "per-packet delay (Q-fig18 gives the utilisation)"),
    ("Q-fig19", "delay distribution", "per-packet delay distributions"),
    ("Q-thm1", "delay bound", ""),
    ("Q-thm2", "auto-covariance of paced ON-OFF", ""),
    ("W-s1", "SACK in a LAN", "one fixed-size transfer per flow (closed-loop Pareto transfers exist)"),
    ("W-s2", "BIC and FAST in a WAN", "a reproduction definition (on-off cross traffic exists)"),
    ("W-s3", "worst-flow throughput vs buffer", "a reproduction definition (BIC and Reno exist)"),
    ("W-fig8", "synchronization loss", ""),
    ("W-s4", "aggregate throughput vs buffer", "a reproduction definition (BIC and FAST exist)"),
    ("W-s5", "paced vs unpaced competing", "a reproduction definition (Reno and host pacing exist)"),
    ("W-s6/s7", "50% paced, worst-flow and aggregate", "a reproduction definition (BIC and FAST exist)"),
    ("W-conv", "convergence epochs", ""),
]


def ids_of(cid: str) -> List[str]:
    """The single ids a combined one stands for: A-fig13/14 -> A-fig13, A-fig14; W-s6/s7 -> W-s6, W-s7."""
    first, *rest = cid.split("/")
    stem = re.sub(r"\d+$", "", first)
    return [first] + [stem + part if part[0].isdigit() else f"{first.split('-')[0]}-{part}" for part in rest]


def figures_of(cid: str) -> Tuple[List[Figure], List[Figure]]:
    """The figures that run catalogue id `cid`, and those whose runs show it too (`Figure.also`)."""
    ids = ids_of(cid)
    return ([f for i in ids for f in FIGURES.values() if i == f.id],
            [f for i in ids for f in FIGURES.values() if i in f.also])


def status() -> List[Tuple[str, str, str]]:
    """(id, what, how it runs or what it waits for) for every catalogue id."""
    from ..analysis.models import MODELS

    rows = []
    for cid, what, waits in CATALOGUE:
        models = [m for m in ids_of(cid) if m.lower() in MODELS]
        direct, shown = figures_of(cid)
        figures = [f.id for f in direct + shown]
        if figures:
            how = f"runs: pacesim reproduce {figures[0]}"
        elif models:
            how = "model: " + ", ".join(f"pacesim model {m.lower()}" for m in models)
        else:
            how = f"waits for: {waits}"
        rows.append((cid, what, how))
    return rows
