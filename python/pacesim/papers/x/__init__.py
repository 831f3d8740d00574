"""Beyond the papers: the papers' question asked of today's transports and queues (issue 37), and paper E's
conjecture on the number of flows at up to a million (issue 38; docs/experiments.md, "Beyond the papers"). Its
figures, reading and references, as a paper's (`pacesim.papers` lists what this folder holds); it claims nothing
of a paper (X-scale quotes paper E's conjecture as its question), so its figures draw and check nothing but what
they measure."""

TITLE = "Beyond the papers: today's transports and queues, and a million flows"
ORDER = 5

CATALOGUE = [
    ("X-transports", "Reno (unpaced, host-, edge-paced), Linux-paced CUBIC, BBR v1, DCTCP vs core buffer"),
    ("X-aqm", "drop-tail, RED, CoDel, FQ-CoDel, PIE at the core, unpaced and edge-paced, vs core buffer"),
    ("X-scale", "E-fig3's unpaced, host- and edge-paced TCP at 1k to 1M flows (100 Mb/s to 100 Gb/s) vs core buffer"),
]
