"""pacesim agrees with ns-2 2.35 at a claim's own setup under the papers'
reading of ns-2's defaults (window_ 20): the points behind the "ns-2 agrees"
cause of A-fig21.2 and A-fig15.1 (issue 31 Sec 4).

The reference is the committed output of our own ns-2 scripts
(bench/ns2/results/refs/abase-size.csv and abase-fbm-rate.csv, made by
bench/ns2/claim_refs.py --ns2): A-fig21's setup at a tenth of its size, 40 B
Poisson UDP, around the buffer where ns-2's UDP loss peaks, seeds 1-2; and
A-fig15's at 90 of 100 Mb/s fBm UDP, pacesim playing the UDP packets ns-2
sent. pacesim reruns those
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


def test_a_fig15_tcp_agrees_with_ns2_on_the_udp_packets_ns2_sent(tmp_path):
    # A-fig15's 90 of 100 Mb/s variant at x0.1 (100 flows, fBm UDP at 9 of 10 Mb/s, window_ 20, 100 s over
    # [30, 100] s), seeds 1-2, at 8 KB, where TCP lives on the tenth of the core UDP leaves: pacesim's own fBm
    # source, alike in law, gave per-flow goodput 8 % over ns-2's (7.28 against 6.72 Kb/s), its UDP's mean over
    # the window being its own draw. Played the packets ns-2 sent (the same trace from the record ns-2 started at,
    # the row's udp_trace_start), pacesim must meet the tolerances on every metric, per-flow goodput within 5 %.
    rows = [r for r in refs.load("abase-fbm-rate")
            if (r["scale"], r["window"], r["core_rate_mbps"], r["udp_rate_mbps"], r["udp_access_mbps"],
                r["buffer_bytes"], r["duration_s"], r["warmup_s"]) == (0.1, 20, 100, 90, 100, 8000, 100, 30)]
    assert sorted(r["seed"] for r in rows) == [1, 2], "the committed ns-2 rows: seeds 1-2"
    ours = []
    for r in rows:
        (tmp_path / str(r["seed"])).mkdir()
        ours.append(refs.simulate(r, refs.ns2_udp_override(r, tmp_path / str(r["seed"]), r["udp_trace_start"])))
        # The same packets reach the core in the window: ns-2's count, but for the few the two loops' periods
        # (pacesim's n / (n - 1) times the trace's span, ns-2's its gaps' sum) shift over 100 s: a few ms of
        # 5600 packets a second.
        assert abs(ours[-1]["udp_arrivals"] - r["udp_arrivals"]) <= 30, (ours[-1]["udp_arrivals"], r["udp_arrivals"])
    t = refs.compare(rows, ours=ours)
    ok = refs.passed(t)
    assert ok.all(), "\n" + t[~ok].T.to_string()
