"""Paper A: anomalous loss (docs/papers.md): its figures, models, claims, causes, reading and
references (`pacesim.papers` lists what this folder holds)."""

TITLE = "Paper A: anomalous loss"
ORDER = 2

CATALOGUE = [
    ("A-fig2", "video trace (Star Wars)"),
    ("A-fig3", "video trace (Jurassic Park)"),
    ("A-fig4", "CDF of average cwnd"),
    ("A-fig5", "empty-buffer probability vs buffer"),
    ("A-fig6", "effective buffers for UDP"),
    ("A-fig7", "TCP burstiness at time scales"),
    ("A-fig8", "burstiness vs number of flows"),
    ("A-fig10", "M/M/1/B bulk-arrival chain"),
    ("A-fig11", "Poisson UDP anomaly"),
    ("A-fig12", "fBm UDP anomaly"),
    ("A-fig13/14", "UDP intensity"),
    ("A-fig15", "high UDP share"),
    ("A-fig16", "effective buffers at f = 0.1 and 0.8"),
    ("A-fig17", "empty buffer with short/long mixes"),
    ("A-fig18/19", "model vs B*"),
    ("A-fig20", "UDP loss vs TCP mix"),
    ("A-fig21", "UDP packet size"),
    ("A-fig22", "model with bulk = size ratio"),
    ("A-fig23", "ACK loss anomaly"),
    ("A-md1", "M/D/1/B with bimodal sizes"),
]
