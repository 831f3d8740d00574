"""Beyond the papers: the papers' question asked of today's transports and queues (issue 37; docs/experiments.md,
"Beyond the papers"). Its figures, reading and references, as a paper's (`pacesim.papers` lists what this folder
holds); it quotes no paper, so its figures draw and check nothing but what they measure."""

TITLE = "Beyond the papers: today's transports and queues"
ORDER = 5

CATALOGUE = [
    ("X-transports", "Reno (unpaced, host-, edge-paced), Linux-paced CUBIC, BBR v1, DCTCP vs core buffer"),
    ("X-aqm", "drop-tail, RED, CoDel, FQ-CoDel, PIE at the core, unpaced and edge-paced, vs core buffer"),
]
