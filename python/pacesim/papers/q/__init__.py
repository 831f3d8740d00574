"""Paper Q: QLBP (docs/papers.md): its figures, models, claims, causes, reading and
references (`pacesim.papers` lists what this folder holds)."""

TITLE = "Paper Q: QLBP"
ORDER = 3

CATALOGUE = [
    ("Q-fig9/10", "one TCP flow through QLBP (prototype)"),
    ("Q-fig11/12", "CBR through QLBP (prototype)"),
    ("Q-tab2", "pacing delay vs CBR rate"),
    ("Q-fig15", "CoV after 1-3 tandem pacers"),
    ("Q-fig16", "QLBP on self-similar traffic (Tmix)"),
    ("Q-fig18", "utilisation vs core buffer"),
    ("Q-tab3", "utilisation and delay"),
    ("Q-fig19", "delay distribution"),
    ("Q-thm1", "delay bound"),
    ("Q-thm2", "auto-covariance of paced ON-OFF"),
]
