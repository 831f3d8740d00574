"""Paper W: TCP pacing revisited (docs/papers.md): its figures, models, claims, causes, reading and
references (`pacesim.papers` lists what this folder holds)."""

TITLE = "Paper W: TCP pacing revisited"
ORDER = 4

CATALOGUE = [
    ("W-s1", "SACK in a LAN"),
    ("W-s2", "BIC and FAST in a WAN"),
    ("W-s3", "worst-flow throughput vs buffer"),
    ("W-fig8", "synchronization loss"),
    ("W-s4", "aggregate throughput vs buffer"),
    ("W-s5", "paced vs unpaced competing"),
    ("W-s6/s7", "50% paced, worst-flow and aggregate"),
    ("W-conv", "convergence epochs"),
]
