"""Paper E: edge vs host pacing (docs/papers.md): its figures, models, claims, causes, reading and
references (`pacesim.papers` lists what this folder holds)."""

TITLE = "Paper E: edge vs host pacing"
ORDER = 1

CATALOGUE = [
    ("E-fig3", "throughput and per-flow goodput vs core buffer"),
    ("E-fig4", "number of flows"),
    ("E-fig5", "high-speed access"),
    ("E-fig6", "short-lived flows"),
    ("E-fig7", "TCP variants"),
    ("E-fig8", "core not the bottleneck"),
    ("E-fig9", "RED at the core"),
    ("E-fig10", "analytical throughput vs pacer delay"),
    ("E-fig11", "simulated throughput vs pacer delay"),
    ("E-fig12", "goodput vs buffer for d = 1, 10, 100, 200 ms"),
    ("E-fig13", "mixed TCP + Poisson UDP"),
    ("E-fig14", "mixed TCP + fBm UDP"),
    ("E-fig15", "TCP throughput and UDP loss vs pacer delay"),
    ("E-fig16", "partial deployment: aggregate throughput"),
    ("E-fig17", "partial deployment: who gains"),
    ("E-model", "pacer analysis"),
]
