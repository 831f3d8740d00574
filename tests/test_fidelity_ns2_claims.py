"""pacesim agrees with ns-2 2.35 at a claim's own setup under the papers'
reading of ns-2's defaults (window_ 20): the points behind the "ns-2 agrees"
cause of A-fig21.2 (issue 31 Sec 4).

The reference is the committed output of our own ns-2 scripts
(bench/ns2/results/refs/abase-size.csv, made by bench/ns2/claim_refs.py
--ns2): A-fig21's setup at a tenth of its size, 40 B Poisson UDP, around
the buffer where ns-2's UDP loss peaks, seeds 1-2. pacesim reruns those
points with tcp.window=20 and the means must meet the E-base tolerances
(throughput within 3 % of the core's rate, loss within 20 % where ns-2's
exceeds 0.5 %, goodput within 5 %). The other claims' points are checked by
`claim_refs.py --compare`.
"""

from support import ns2_refs as refs


def test_a_fig21_40_byte_points_agree_with_ns2():
    # claim_refs.py's A-fig21.2 points at x0.1 (window_ 20, 100 s over [30, 100] s, seeds 1-2) around the 40 B peak.
    rows = [r for r in refs.load("abase-size")
            if (r["scale"], r["window"], r["udp_size"], r["duration_s"], r["warmup_s"]) == (0.1, 20, 40, 100, 30)
            and r["buffer_bytes"] in (8000, 11000, 15000) and r["seed"] in (1, 2)]
    assert len(rows) == 6, "the committed ns-2 rows: 3 buffers x seeds 1-2"
    t = refs.compare(rows, workers=2)
    ok = refs.passed(t)
    assert ok.all(), "\n" + t[~ok].T.to_string()
    # ns-2's own shape there: the 40 B curve peaks at 11 KB (1.51 % against 0.09 and 0.47: x3.2). pacesim's
    # peak over its higher neighbour may be off by what the two points' loss tolerance allows, no more.
    _, tol = refs.tolerance("udp_loss")
    ns2, ours = (dict(zip(t.buffer_bytes, t[f"udp_loss_{who}"])) for who in ("ns2", "pacesim"))
    peak = lambda loss: loss[11000] / max(loss[8000], loss[15000])  # noqa: E731
    assert peak(ours) >= peak(ns2) * (1 - tol) / (1 + tol), (peak(ours), peak(ns2))
