"""The checks mended to be as strict as the papers' sentences (issue 31, section 2), and the claims added: each on
hand-made rows that pass under the sentence and would have failed under the old check, or the other way round
(the old check's outcome is worked out in the comments)."""

from __future__ import annotations

import pandas as pd

from pacesim.metrics import _loss_event_rate
from pacesim.reproduce.claims import spearman
from pacesim.papers import FIGURES

from .test_claims import A_BUFFERS, E_UDP, claim, outcome, points

E_BUFFERS = ["2KB", "3KB", "5KB", "8KB", "10KB", "15KB", "20KB", "30KB", "50KB"]
MID = ["5KB", "8KB", "10KB", "15KB"]


def test_every_mended_and_added_claim_quotes_the_papers_sentence():
    for cid in ["A-fig20.1", "A-fig21.1", "A-fig21.2", "A-fig8.1", "A-fig4.5", "A-fig11.5", "A-fig12.5", "E-fig12.1",
                "E-fig16.1", "E-fig3.3", "E-fig3.7", "E-fig14.1", "E-fig14.3", "E-fig11.3", "E-fig5.4", "E-fig5.5", "E-fig5.7", "E-fig9.1",
                "E-fig9.6", "E-fig4.3", "E-fig13.3", "E-fig13.5", "E-fig15.2", "E-fig17.2", "Q-tab2.1", "Q-tab2.2",
                "Q-fig15.1", "Q-fig18.1", "Q-tab3.2", "Q-tab3.5", "W-s3.1", "W-s4.2", "W-s4.5", "W-s5.4", "W-s6.1"]:
        fid, n = cid.rsplit(".", 1)
        sentence = FIGURES[fid].claims[int(n) - 1].sentence
        assert sentence.startswith("Paper ") and '"' in sentence, cid


def test_every_claim_quotes_its_sentence_and_a_models_verdict_carries_it():
    # Issue 31 s2: each check beside the sentence it is as strict as, in the code and in the table.
    from pacesim.analysis.model_claims import judge_model
    from pacesim.papers import figures, models

    claims = [(f.id, c) for f in figures().values() for c in f.claims] + \
             [(m.id, c) for m in models().values() for c in m.claims]
    assert len(claims) > 140
    bare = [(i, c.expect) for i, c in claims if not (c.sentence.startswith("Paper ") and '"' in c.sentence)]
    assert not bare, bare
    judged = judge_model(models()["a-fig22"])
    assert all(j.sentence.startswith("Paper A Sec VII") for j in judged)


# --- paper A ---

BIG = [0.170, 0.160, 0.166, 0.158, 0.164, 0.157, 0.163, 0.156, 0.162, 0.155, 0.161]
"""A 1000 B UDP loss curve that wavers down by a few per cent: no anomaly."""


def test_a_fig21_inflection_about_10_kb_on_a_grid_without_10_kb():
    def run(low_40: str = "8KB", rise_100: float = 1.5, big=None):
        rows = []
        for s in ["40B", "100B", "200B", "500B", "1000B"]:
            low = A_BUFFERS.index(low_40 if s == "40B" else "8KB")
            for i, b in enumerate(A_BUFFERS):
                if s == "1000B":
                    loss = (big or BIG)[i]
                else:
                    rise = 5.0 if s == "40B" else rise_100 if s == "100B" else 1.4
                    loss = 1e-3 * ((1 + (low - i)) if i <= low else rise)
                rows.append({"core.buffer": b, "traffic.udp[0].size": s, "core_udp_loss_rate": loss})
        return points(rows)
    # lowest at 8 KB, 2 KB from 10 KB where the grid steps 8 -> 11 KB; the old "about 10 KB" (9.5 to 10.5) had no grid
    # point to land on. 1000 B: no anomaly (no rise of 20 % after its lowest), though its rank correlation of -0.5
    # failed the old "falling, <= -0.9".
    big = BIG
    assert spearman(range(len(big)), big) > -0.9
    assert outcome("A-fig21.2", run()) == "reproduced"
    assert outcome("A-fig21.2", run(low_40="6KB")) == "not reproduced"  # 4 KB from 10: past the spacing (3)
    assert outcome("A-fig21.2", run(rise_100=6.0)) == "not reproduced"  # 100 B's anomaly stronger than 40 B's
    anomaly = big[:5] + [0.10, 0.16, 0.17, 0.17, 0.17, 0.17]
    assert outcome("A-fig21.2", run(big=anomaly)) == "not reproduced"  # 1000 B dips then rises


def test_a_fig21_bigger_packets_lose_more_at_every_buffer_two_nil_losses_aside():
    # The record's shape at 1-4 KB: the smallest sizes lose nothing where a byte-limited queue keeps room for them.
    # The old check began at 4 KB, the first buffer it passed at (at 2 KB 40 and 100 B tie at nil); now every
    # buffer counts and only two nil losses, where nothing is measured, are left unordered.
    nil = {"1KB": [0, 0, 0, 0, 1.0], "2KB": [0, 0, 5e-5, 0.017, 0.198], "4KB": [0, 3e-5, 1e-3, 0.034, 0.170]}

    def run(changed=None):
        rows = []
        for b in A_BUFFERS:
            ys = (changed or {}).get(b, nil.get(b, [1e-3 * (i + 1) for i in range(5)]))
            rows += [{"core.buffer": b, "traffic.udp[0].size": s, "core_udp_loss_rate": y}
                     for s, y in zip(["40B", "100B", "200B", "500B", "1000B"], ys)]
        return points(rows)
    assert outcome("A-fig21.1", run()) == "reproduced"
    # 200 B losing less than 100 B at 2 KB fails, where the old check, from 4 KB on, did not look
    assert outcome("A-fig21.1", run({"2KB": [0, 2e-4, 1e-4, 0.017, 0.198]})) == "not reproduced"
    # a size that loses nothing above one that loses some, at 1 KB
    assert outcome("A-fig21.1", run({"1KB": [1e-4, 0, 0, 0, 1.0]})) == "not reproduced"
    shown = claim("A-fig21.1").check(run({"2KB": [0, 2e-4, 1e-4, 0.017, 0.198]}))[1]
    assert "1KB 0.0000 = 0.0000 = 0.0000 = 0.0000 < 100.0000" in shown and "0.0200 ≮ 0.0100" in shown
    # nothing lost anywhere orders nothing: no evidence for the sentence (review of 7a9bfbe)
    assert outcome("A-fig21.1", run({b: [0.0] * 5 for b in A_BUFFERS})) == "not reproduced"
    assert outcome("A-fig21.1", run({b: [0.0] * 4 + [0.1] for b in A_BUFFERS})) == "not reproduced"


def test_a_fig20_more_long_flows_more_udp_loss_over_sec_vis_region():
    # Sec VI reads Figs. 17-20 over 8-50 KB (its B* region, which its explanation of Fig. 20 rests on); the old check
    # stopped at 30 KB, so 1/2 long above all long at 40 or 50 KB passed. Below the region, at 2 KB, the record's
    # mixes lose some 75 packets each, in an order their counting noise decides (seed 1 below): not judged.
    from pacesim.papers.a.figures import A_MIX, A_MIX_BUFFERS

    def run(changed=None):
        rows = []
        for b in A_MIX_BUFFERS:
            ys = (changed or {}).get(b, [0.02 * (1 + i / 10) for i in range(4)])
            rows += [{"core.buffer": b, "variant": v, "core_udp_loss_rate": y} for v, y in zip(A_MIX, ys)]
        return points(rows)
    assert outcome("A-fig20.1", run()) == "reproduced"
    assert outcome("A-fig20.1", run({"50KB": [0.026, 0.027, 0.029, 0.028]})) == "not reproduced"
    assert outcome("A-fig20.1", run({"40KB": [0.026, 0.027, 0.0271, 0.028]})) == "not reproduced"  # within 1 %
    assert outcome("A-fig20.1", run({"2KB": [2.43e-5, 2.11e-5, 2.27e-5, 2.13e-5]})) == "reproduced"
    assert "50KB 2.6000 < 2.7000 < 2.9000 ≮ 2.8000" in claim("A-fig20.1").check(
        run({"50KB": [0.026, 0.027, 0.029, 0.028]}))[1]


def test_a_fig23_ack_anomaly_is_paper_as_region_and_its_inflection_the_regions_start():
    # Paper A Sec I's anomaly, one reading for every claim of it: ACK loss nil at 2-4 KB, then rising from 6 KB
    # (the record's shape) has it, beginning at 6 KB (within the 2 KB step of the chain's 7); the old check asked
    # for an inner minimum and refused a curve whose lowest is its nil start.
    from pacesim.papers.a.figures import A23_BUFFERS

    def run(curve):
        return points([{"core.buffer": b, "tcp_goodput_mbps": 0.0 if b == "1KB" else 90.0, "core_ack_loss_rate": y,
                        "core_rev_ack_loss_rate": y} for b, y in zip(A23_BUFFERS, curve)])
    rising = [0.0, 0.0, 0.0, 5e-8, 4e-5, 6e-3, 1.5e-2, 6e-4, 8e-3, 8e-3, 5e-3]
    assert outcome("A-fig23.1", run(rising)) == "reproduced"
    assert outcome("A-fig23.2", run(rising)) == "reproduced"
    late = [0.0] * 6 + [1e-4, 1e-3, 2e-3, 2e-3, 2e-3]  # begins at 15 KB: 8 KB from the chain's 7
    assert outcome("A-fig23.1", run(late)) == "reproduced" and outcome("A-fig23.2", run(late)) == "not reproduced"
    falling = [0.0, 5e-3, 4e-3, 3e-3, 2e-3, 1e-3, 9e-4, 8e-4, 7e-4, 6e-4, 5e-4]
    assert outcome("A-fig23.1", run(falling)) == "not reproduced"


def test_a_fig18_saturation_is_the_papers_0_94_not_each_curves_own_largest():
    # Sec VI: "TCP requires bigger buffers to attain saturation throughput, which is 0.94". Curves 0.99 x / (x + h)
    # capped at 0.94, h 0.4 B*: B* = 4 is nearly 0.94 (>= 0.893) from 15 KB, before B* = 7 at 26 KB; made to go on
    # rising slowly to 0.99 at 50 KB, it reaches 95 % of its own largest (0.9405) only at 33 KB, which read the
    # order of B* = 4 and 7 the other way.
    from pacesim.analysis.models import Output
    from pacesim.papers.a.models import BSTARS, _tcp_needs_more
    b = [float(x) for x in range(1, 51)]

    def rising(bs: float, cap: float = 0.94) -> list:
        return [min(cap, 0.99 * x / (x + 0.4 * bs)) for x in b]
    table = pd.DataFrame({"buffer_kb": b, **{f"tcp_throughput_{bs}": rising(bs) for bs in BSTARS}})
    table["tcp_throughput_4"] = [y if x <= 15 else 0.893 + 0.097 * (x - 15) / 35 for x, y in zip(b, rising(4, 1.0))]
    ok, said = _tcp_needs_more(Output({"sweep": table}, [], {}))
    assert ok and ": 4, 15, 26, 37, past 50 KB" in said, said
    table["tcp_throughput_7"] = rising(7, cap=0.80)  # never attains 0.94: past 50 KB, more than B* = 10 needs
    ok, said = _tcp_needs_more(Output({"sweep": table}, [], {}))
    assert not ok and "past 50" in said, said


def test_a_fig7_hurst_approximately_0_8_is_about_0_8_not_at_least_0_7():
    # "a Hurst parameter estimated at approximately 0.8" and small buffers "close to" short-range dependence (0.5).
    def run(big: float, small: float):
        return points([{"variant": v, "core.buffer": b, "hurst_1ms": big if b == "6250KB" else small}
                       for v in ("long-lived", "short-lived") for b in ("50KB", "6250KB")])
    assert outcome("A-fig7.1", run(0.80, 0.50)) == "reproduced"
    assert outcome("A-fig7.1", run(0.95, 0.50)) == "not reproduced"  # H >= 0.7 took it
    assert outcome("A-fig7.1", run(0.72, 0.50)) == "not reproduced"  # so too
    assert outcome("A-fig7.1", run(0.80, 0.60)) == "not reproduced"  # H <= 0.65 took it


def test_w_s1_advantage_lasts_is_a_lead_held_from_the_start():
    # "such advantage of paced flows lasts for the first 4 seconds": paced ahead in every 100 ms from the start to
    # about 4 s. The record's shape (behind at 0.2-1.2 s, ahead later to 9.9 s) was read as the last lead's end.
    def run(paced_ahead):
        ex = pd.DataFrame([{"pacing.scheme": s, "t_s": round(0.1 * i, 1), "which": "slowest",
                            "throughput_mbps": (30.0 if paced_ahead(0.1 * i) else 10.0) if s == "host" else 20.0}
                           for s in ("host", "none") for i in range(1, 101)])
        return points([{"pacing.scheme": "host"}, {"pacing.scheme": "none"}], {"extremes": ex})
    assert outcome("W-s1.2", run(lambda t: t < 3.95)) == "reproduced"
    assert outcome("W-s1.2", run(lambda t: t < 0.15 or 1.25 < t < 3.95)) == "not reproduced"
    assert outcome("W-s1.2", run(lambda t: t < 9.5)) == "not reproduced"


def test_a_fig8_rank_correlation_of_minus_0_8_is_minus_0_8():
    # the stored Hurst values: numpy's ranks gave -0.7999999999999999, failing "<= -0.8"
    p = points([{"topology.tcp_hosts": n, "hurst_1ms": h} for n, h in zip([100, 500, 1000, 2000], [0.73, 0.52, 0.31, 0.46])])
    assert outcome("A-fig8.1", p) == "reproduced"
    p = points([{"topology.tcp_hosts": n, "hurst_1ms": h} for n, h in zip([100, 500, 1000, 2000], [0.73, 0.31, 0.52, 0.46])])
    assert outcome("A-fig8.1", p) == "not reproduced"  # -0.4


def cwnd(ranges: dict):
    return points([{"variant": v, "core.buffer": b, "mean_cwnd_p05": lo, "mean_cwnd_p50": (lo + hi) / 2,
                    "mean_cwnd_p95": hi} for (v, b), (lo, hi) in ranges.items()])


def test_a_fig4_factor_passes_the_papers_own_ranges():
    from pacesim.papers.a.figures import A_CWND_RANGES

    # the paper's own ranges: the old median factor for 200 flows was 16 / 7.5 = 2.13, outside [1.2, 2]
    assert outcome("A-fig4.5", cwnd(A_CWND_RANGES)) == "reproduced"
    steep = {**A_CWND_RANGES, ("200 flows", "20KB"): (13.5, 20)}  # low ends 13.5 / 6 = 2.25: past 2 x 1.05
    assert outcome("A-fig4.5", cwnd(steep)) == "not reproduced"
    flat = {**A_CWND_RANGES, ("1000 flows", "20KB"): (1.9, 5.6)}  # 1.9 / 1.8 = 1.06: under 1.2 x 0.95
    assert outcome("A-fig4.5", cwnd(flat)) == "not reproduced"


def a11_tcp(at_11: float, top: float):
    return points([{"variant": v, "core.buffer": b, "core_udp_loss_rate": 1e-3,
                    "tcp_utilisation": at_11 if b == "11KB" else top if b == "50KB" else 0.9}
                   for v in ("UDP + TCP", "UDP alone") for b in A_BUFFERS])


def test_a_fig11_nearly_93_and_nearly_98_percent_of_saturation():
    assert outcome("A-fig11.4", a11_tcp(0.93, 0.95)) == "reproduced"
    assert outcome("A-fig11.4", a11_tcp(0.9371, 0.95)) == "not reproduced"  # the stored 93.71: past "nearly 93"
    assert outcome("A-fig11.5", a11_tcp(0.93, 0.95)) == "reproduced"  # 97.9 % of the largest
    assert outcome("A-fig11.5", a11_tcp(0.95, 0.95)) == "not reproduced"  # 100 %: past "nearly 98 %"
    assert outcome("A-fig11.5", a11_tcp(0.88, 0.95)) == "not reproduced"  # 92.6 %: under 93.1
    assert outcome("A-fig12.5", a11_tcp(0.95 * 0.99, 0.95)) == "reproduced"  # Fig. 12's "98%": about, 99 % is


def test_a_gain_read_from_a_plot_is_about_by_its_ratio():
    from .test_claims import a11

    # "50% more": a ratio of 1.425 to 1.575; the old gain band 47.5-52.5 % refused 1.45
    assert outcome("A-fig11.3", a11("11KB", at_30=1.45)) == "reproduced"
    assert outcome("A-fig11.3", a11("11KB", at_30=1.6)) == "not reproduced"
    assert outcome("A-fig12.3", a11("11KB", at_30=1.45)) == "reproduced"  # Fig. 12: "nearly 50%"
    assert outcome("A-fig12.3", a11("11KB", at_30=1.52)) == "not reproduced"  # past it


# --- paper E ---

def e3(at_15: tuple = (99.6, 99.2, 99.0), goodput: tuple = (92.8, 91.4, 91.0)):
    """E-fig3 rows at 5-15 KB: (edge, host, none) TCP throughput and goodput; edge 10 % ahead but at 15 KB."""
    rows = []
    for b in MID:
        tput = at_15 if b == "15KB" else (98.0, 89.0, 88.0)
        good = goodput if b == "15KB" else (91.0, 82.0, 81.0)
        rows += [{"core.buffer": b, "pacing.scheme": s, "tcp_utilisation": t / 100, "goodput_kbps_mean": g}
                 for s, t, g in zip(("edge", "host", "none"), tput, good)]
    return points(rows)


def test_e_fig3_edge_best_where_the_throughput_is_saturated():
    # the stored 15 KB: 99.6 against 99.2 % of the core, which cannot move 1 %: the old 1 % margin refused it
    assert outcome("E-fig3.3", e3()) == "reproduced"
    assert outcome("E-fig3.3", e3(at_15=(98.0, 99.2, 99.0))) == "not reproduced"  # beaten by 1.2 %
    assert outcome("E-fig3.3", e3(goodput=(92.0, 91.4, 91.0))) == "not reproduced"  # goodput has room: 0.7 % no win


def e_first(ys: dict, metric: str = "goodput_kbps_mean", grid=E_BUFFERS, scale: float = 1.0):
    return points([{"core.buffer": b, "pacing.scheme": s, metric: y * scale} for s, curve in ys.items()
                   for b, y in zip(grid, curve)])


def test_e_fig5_buffer_for_90_kbps_is_a_grid_location():
    none = [60, 65, 75, 80, 82, 86, 88.5, 91, 93]  # first at 30 KB; the old interpolation put it at 23.9 KB
    host = [60, 70, 80, 85, 88, 91, 92, 93, 94]  # first at 15 KB (interpolated 11.5 KB)
    edge = [70, 85, 91, 92, 92.5, 93, 93, 94, 94]  # first at 5 KB
    p = e_first({"none": none, "host": host, "edge": edge})
    assert [outcome(f"E-fig5.{n}", p) for n in (4, 5, 6)] == ["reproduced"] * 3
    late = e_first({"none": none[:7] + [89, 91], "host": host[:4] + [88, 89, 91, 92, 94],
                    "edge": edge[:2] + [88, 91, 92, 93, 93, 94, 94]})
    # none at 50 KB (30 from 20), host at 20 KB (10 from 10, the step toward it 5), edge at 8 KB: over 5 KB
    assert [outcome(f"E-fig5.{n}", late) for n in (4, 5, 6)] == ["not reproduced"] * 3


def test_e_fig5_edge_above_host_in_throughput_at_5_15_kb():
    def run(at_10: float):
        return e_first({"edge": [80, 85, 98, 99, at_10, 99.8, 99.9, 100, 100],
                        "host": [79, 84, 90, 96, 97.5, 99.3, 99.8, 100, 100]}, "tcp_utilisation", scale=0.01)
    assert outcome("E-fig5.7", run(99.0)) == "reproduced"  # 10 KB: +1.5 %; 15 KB saturated, not beaten
    assert outcome("E-fig5.7", run(98.0)) == "not reproduced"  # 10 KB: +0.5 %, host has 2.5 % of room


def test_e_fig9_edge_reaches_99_within_a_grid_step_of_4_kb():
    red = ["2KB", "3KB", "4KB", "5KB", "6KB", "8KB", "10KB", "15KB", "20KB", "30KB", "50KB"]

    def run(edge, host=(80, 85, 90, 93, 95, 97, 98.5, 99.2, 99.5, 99.8, 100)):
        return e_first({"edge": edge, "host": host, "none": [80] * 11}, "tcp_utilisation", red, 0.01)
    # edge first at 5 KB, 1 KB from 4 (the grid's step there): the old interpolated 4.5 KB was 12 % off "about 4"
    on_time = [90, 95, 98.5, 99.5, 99.6, 99.8, 99.9, 100, 100, 100, 100]
    assert outcome("E-fig9.1", run(on_time)) == "reproduced"
    assert outcome("E-fig9.2", run(on_time)) == "reproduced"  # host first at 15 KB: 5 KB from 10, the step there
    assert outcome("E-fig9.1", run([90, 95, 98.5, 98.8, 99.2] + [99.5] * 6)) == "not reproduced"  # 6 KB
    # "as well or better": host beats edge nowhere, in throughput or goodput
    p = run(on_time)
    p.df["goodput_kbps_mean"] = 90.0
    assert outcome("E-fig9.6", p) == "reproduced"
    p.df.loc[(p.df["pacing.scheme"] == "host") & (p.df["core.buffer"] == "2KB"), "goodput_kbps_mean"] = 92.0
    assert outcome("E-fig9.6", p) == "not reproduced"


def test_e_fig4_edge_beats_host_over_the_whole_range_at_1000_flows():
    from pacesim.papers.e.figures import GOODPUT_CEILING

    def run(at_5kb: float):
        edge = [60, 80, at_5kb, 95, 96, 97.5, 99.5, 99.9, 100]
        host = [58, 75, 85, 90, 92, 95, 99.2, 99.9, 100]
        return points([{"flows": 1000, "core.buffer": b, "pacing.scheme": s, "tcp_utilisation": y / 100,
                        "goodput_kbps_mean": y * GOODPUT_CEILING / 100} for s, curve in (("edge", edge), ("host", host))
                       for b, y in zip(E_BUFFERS, curve)])
    assert outcome("E-fig4.3", run(91)) == "reproduced"  # 30 and 50 KB: ties at the ceiling
    assert outcome("E-fig4.3", run(85.5)) == "not reproduced"  # 5 KB: a 0.6 % lead, no win


def test_e_fig11_monotone_in_d_and_saturating_at_a_grid_location():
    from pacesim.papers.e.figures import FIG11_DELAYS

    def run(at_5, at_50=None):
        rows = [{"core.buffer": "5KB", "pacing.delay": d, "tcp_utilisation": y / 100} for d, y in zip(FIG11_DELAYS, at_5)]
        rows += [{"core.buffer": "50KB", "pacing.delay": d, "tcp_utilisation": y / 100}
                 for d, y in zip(FIG11_DELAYS, at_50 or [99.9, 100.0, 99.8, 100.0, 99.9, 100.0, 99.9, 100.0, 99.9, 99.0,
                                                         98.1])]
        return points(rows)
    flat = [99.9, 100.0, 99.8, 100.0, 99.9, 100.0, 99.9, 100.0, 99.9, 99.0, 98.1]
    assert spearman(range(11), flat) > -0.7  # the old check's rank statistic on a flat ceiling
    rising = [88.1, 90, 92, 95, 98.0, 99.0, 99.3, 99.4, 99.5, 99.4, 99.3]  # saturates at 15 ms (99.0)
    assert [outcome(f"E-fig11.{n}", run(rising)) for n in (1, 2, 3)] == ["reproduced"] * 3
    # a 1.3 % fall after the peak (rank correlation still about +0.8, which the old check passed)
    assert outcome("E-fig11.1", run(rising[:9] + [99.5, 98.2])) == "not reproduced"
    assert outcome("E-fig11.2", run([88.1, 90, 92, 95, 96.0, 97.0, 99.0, 99.3, 99.4, 99.5, 99.5])) == "not reproduced"
    assert outcome("E-fig11.3", run(rising, flat[:5] + [101.1] + flat[6:])) == "not reproduced"  # a 1.2 % step up


def test_e_fig12_d_1ms_weak_in_the_small_buffer_regime():
    def run(at_2kb: float):
        return points([{"core.buffer": b, "pacing.delay": d,
                        "goodput_kbps_mean": 90.0 if d == "10ms" else (at_2kb if b == "2KB" else 85.0) if d == "1ms" else 88.0}
                       for b in E_BUFFERS for d in ("1ms", "10ms", "100ms", "200ms")])
    assert outcome("E-fig12.1", run(90.5)) == "reproduced"  # d = 1 ms better at 2 KB: "very small", not judged
    assert outcome("E-fig12.1", run(85.0)) == "reproduced"
    p = run(85.0)
    p.df.loc[(p.df["core.buffer"] == "15KB") & (p.df["pacing.delay"] == "1ms"), "goodput_kbps_mean"] = 89.5
    assert outcome("E-fig12.1", p) == "not reproduced"  # 15 KB: within the margin of d = 10 ms


def test_e_fig13_all_schemes_saturation_locations_and_orders_of_magnitude():
    from .test_claims import udp_run

    # the stored saturation points, edge 8 KB and host 15 KB: one grid step from the paper's 6 and 10 KB
    assert outcome("E-fig13.1", udp_run({"edge": "8KB", "host": "15KB", "none": "30KB"}, {s: True for s in ("none", "host", "edge")})) == "reproduced"
    assert outcome("E-fig13.1", udp_run({"edge": "10KB", "host": "15KB", "none": "30KB"}, {s: True for s in ("none", "host", "edge")})) == "not reproduced"
    # "the loss rate is non-monotonic": every curve of Fig. 13(c), not the unpaced one alone
    mixed = {"none": True, "host": True, "edge": False}
    assert outcome("E-fig13.3", udp_run({"edge": "6KB", "host": "10KB", "none": "30KB"}, mixed)) == "not reproduced"

    def ratio(r: float):
        return points([{"core.buffer": b, "pacing.scheme": s, "core_udp_loss_rate": 1e-2 / (r if s == "edge" else 1)}
                       for s in ("none", "host", "edge") for b in E_UDP])
    assert outcome("E-fig13.5", ratio(40)) == "reproduced"  # two decades on a log plot; the old ">= 100" refused it
    assert outcome("E-fig13.5", ratio(20)) == "not reproduced"


def test_e_fig14_peak_by_6_kb_within_a_grid_step():
    def run(curve):
        return points([{"core.buffer": b, "pacing.scheme": "edge", "tcp_utilisation": y / 100} for b, y in zip(E_UDP, curve)])
    stored = [59.9, 81.7, 90.7, 93.0, 93.3, 93.7, 93.7, 94.0, 94.0, 94.0]  # saturates at 8 KB: the old "<= 6 KB" failed
    assert outcome("E-fig14.1", run(stored)) == "reproduced"
    assert outcome("E-fig14.1", run([59.9, 81.7, 88.0, 90.0, 91.5, 93.0, 93.7, 94.0, 94.0, 94.0])) == "not reproduced"


def test_e_fig15_udp_loss_lowest_at_a_sub_millisecond_delay():
    from pacesim.papers.e.figures import E15_DELAYS

    def run(loss):
        return points([{"core.buffer": "5KB", "pacing.delay": d, "core_udp_loss_rate": y, "tcp_utilisation": 0.9}
                       for d, y in zip(E15_DELAYS, loss)])
    # 0, 0.1, 0.2, 0.5, 1, 2, 5, 10, ... ms
    assert outcome("E-fig15.2", run([3e-3, 2e-3, 1e-3, 5e-4, 6e-4, 8e-4, 1e-3, 2e-3, 3e-3, 3e-3, 3e-3, 3e-3, 3e-3])) == "reproduced"
    # lowest at 1 ms: the old check's "d <= 1 ms" took it; sub-millisecond is under 1 ms
    assert outcome("E-fig15.2", run([3e-3, 2e-3, 1e-3, 8e-4, 5e-4, 8e-4, 1e-3, 2e-3, 3e-3, 3e-3, 3e-3, 3e-3, 3e-3])) == "not reproduced"


def test_e_fig16_rises_gradually_is_monotone_with_a_total_rise():
    from pacesim.papers.e.figures import FRACTIONS

    def run(host):
        return points([{"pacing.scheme": s, "pacing.fraction": f, "core.buffer": b, "tcp_utilisation": y / 100}
                       for s, curve in (("host", host), ("edge", [89.36, 90.91, 91.75, 93.68])) for f, y in zip(FRACTIONS, curve)
                       for b in E_BUFFERS])
    # the stored means: host +0.3, +0.2, +0.7 % a step (the old check asked +1 % each), +1.2 % in all
    assert outcome("E-fig16.1", run([89.36, 89.63, 89.85, 90.45])) == "reproduced"
    assert outcome("E-fig16.1", run([89.36, 87.9, 89.85, 90.45])) == "not reproduced"  # a 1.9 % step down
    assert outcome("E-fig16.1", run([89.36, 89.63, 89.85, 90.1])) == "not reproduced"  # 0.8 % in all: no rise


def test_e_fig17_as_much_as_10_percent_is_a_ratio_about_0_9():
    def run(deficit: float):
        return points([{"core.buffer": b, "pacing.scheme": "host", "goodput_kbps_paced": 90 * (1 - deficit),
                        "goodput_kbps_unpaced": 90} for b in E_BUFFERS])
    assert outcome("E-fig17.2", run(0.077)) == "reproduced"  # the stored 7.7 %: the old 9.5-10.5 % refused it
    assert outcome("E-fig17.2", run(0.05)) == "not reproduced"


def test_e_fig6_nearly_17_percent_and_a_peak_near_10_kb():
    def run(edge_peak_at: str, host: float = 133.0):
        return points([{"core.buffer": b, "pacing.scheme": s,
                        "transfer_goodput_kbps_mean": (155.0 if b == edge_peak_at else 140.0) if s == "edge" else host}
                       for s in ("edge", "host") for b in E_BUFFERS])
    assert [outcome(f"E-fig6.{n}", run("10KB")) for n in (1, 2, 3)] == ["reproduced"] * 3  # 155 / 133: +16.5 %
    assert outcome("E-fig6.1", run("8KB")) == "reproduced"  # one grid step from 10 KB
    assert outcome("E-fig6.1", run("20KB")) == "not reproduced"
    assert outcome("E-fig6.2", run("10KB", host=130.0)) == "not reproduced"  # +19.2 %: past "nearly 17%"


# --- paper Q ---

def q_tab2(delay: dict = None, queue: dict = None):
    from pacesim.papers.q.figures import Q_TAB2

    return points([{"variant": f"{r}Mbps", "pacer_delay_ms_mean": (delay or {}).get(r, d),
                    "pacer_packets_mean": (queue or {}).get(r, q), "pacer_delay_ms_max": 7.9}
                   for r, (q, d) in Q_TAB2.items()])


def test_q_tab2_within_five_percent_or_the_tables_rounding():
    assert outcome("Q-tab2.1", q_tab2()) == "reproduced" and outcome("Q-tab2.2", q_tab2()) == "reproduced"
    assert outcome("Q-tab2.1", q_tab2(delay={12: 6.03})) == "not reproduced"  # 9.6 % off; the old +-1 ms took it
    assert outcome("Q-tab2.1", q_tab2(delay={1: 0.4})) == "reproduced"  # "0" printed: within 0.5
    assert outcome("Q-tab2.2", q_tab2(queue={4: 2.45})) == "reproduced"  # "2" printed: 1.5 to 2.5
    assert outcome("Q-tab2.2", q_tab2(queue={4: 2.6})) == "not reproduced"  # the old +-1 packet took it
    assert outcome("Q-tab2.2", q_tab2(queue={12: 10.6})) == "not reproduced"  # "10": 9.5 to 10.5


def test_q_fig15_cov_falls_by_the_ordering_margin():
    from pacesim.papers.q.figures import Q15_MAX, Q15_PACERS

    def run(step: float):
        rows = [{"variant": "unpaced", "topology.pacers": k, "burstiness_cov": 1.0, "aggregate_mbps": 0.67}
                for k in Q15_PACERS]
        rows += [{"variant": f"QLBP {q}", "topology.pacers": k, "burstiness_cov": (1 - step) ** (i + 1 + 2 * k),
                  "aggregate_mbps": 0.67} for i, q in enumerate(Q15_MAX) for k in Q15_PACERS]
        return points(rows)
    assert outcome("Q-fig15.1", run(0.05)) == "reproduced"
    assert outcome("Q-fig15.1", run(0.005)) == "not reproduced"  # 0.5 % steps: the old strict ">" took them


def test_q_fig18_nearly_100_percent_is_one_sided():
    def run(q10: float):
        return points([{"variant": "no pacing", "core.buffer_packets": 5, "core_utilisation": 0.25},
                       {"variant": "QLBP 10", "core.buffer_packets": 5, "core_utilisation": q10}])
    assert outcome("Q-fig18.1", run(0.25 * 1.92)) == "reproduced"  # +92 %: the old "about 100 %" (95-105) refused
    assert outcome("Q-fig18.1", run(0.25 * 2.02)) == "not reproduced"  # +102 %: past "nearly", the old took it


def q_tab3(extra_ms: dict, utilisation=None):
    from pacesim.papers.q.figures import Q_PACKETS, Q_TAB3

    flows = pd.DataFrame([{"variant": v, "core.buffer_packets": b, "seed": 1, "flow": f, "base_rtt_ms": 102.0,
                           "mean_delay_ms": Q_TAB3[v][1] + extra_ms.get(v, 0.0)}
                          for v in Q_TAB3 for b in Q_PACKETS for f in range(2)])
    use = utilisation or (lambda v, b: Q_TAB3[v][0] / 100)
    return points([{"variant": v, "core.buffer_packets": b, "core_utilisation": use(v, b)} for v in Q_TAB3
                   for b in Q_PACKETS], {"flows": flows})


def test_q_tab3_queueing_part_within_the_tables_rounding():
    # propagation 51 ms: QLBP 40's queueing part is 51.9 - 51 = 0.9 ms, whose 5 % (0.045 ms) is under the table's
    # rounding of 51.9 (0.05 ms): 0.048 ms off is inside what the table can say, outside the old tolerance
    assert outcome("Q-tab3.2", q_tab3({"QLBP 40": 0.048})) == "reproduced"
    assert outcome("Q-tab3.2", q_tab3({"QLBP 40": 0.06})) == "not reproduced"


def test_q_tab3_qlbp160_slightly_larger_delay():
    def util(v, b):
        return {"no pacing": 0.4757 if b == 20 else 0.3, "QLBP 40": 0.76, "QLBP 160": 0.98}[v]
    assert outcome("Q-tab3.5", q_tab3({}, util)) == "reproduced"  # 60.8 against 56.9 ms: +6.9 %
    assert outcome("Q-tab3.5", q_tab3({"QLBP 160": 3.5}, util)) == "not reproduced"  # +13 %: not slight
    assert outcome("Q-tab3.5", q_tab3({"QLBP 160": -3.6}, util)) == "not reproduced"  # +0.5 %: no larger


# --- paper W ---

def test_w_s3_reno_fair_on_its_own_grid_by_papers_95_percent():
    from pacesim.papers.w.figures import W_RENO_BUFFERS

    def run(at_300kb: float):
        fair = {"3KB": 0.5, "10KB": 0.7, "300KB": at_300kb, "15MB": 0.3}  # 15 MB: ten of Reno's BDPs
        return points([{"variant": "Reno, unpaced", "core.buffer": b, "goodput_kbps_min": 100 * fair.get(b, 0.97),
                        "goodput_kbps_mean": 100, "goodput_kbps_max": 102}
                       for b in W_RENO_BUFFERS + ["1MB", "3MB", "15MB"]])
    # the old check read BIC's grid from 300 KB and worst / best >= 0.8: 15 MB's 0.3 failed it
    assert outcome("W-s3.1", run(0.97)) == "reproduced"
    # 300 KB: worst at 90 % of the fair share (worst / best 0.88, which the old check took)
    assert outcome("W-s3.1", run(0.90)) == "not reproduced"


def w4(paced: dict, unpaced: dict):
    from pacesim.papers.w.figures import W_BUFFERS

    return points([{"variant": f"{t}, {m}", "core.buffer": b,
                    "tcp_throughput_mbps": (paced if m == "paced" else unpaced)[t][i] if isinstance(
                        (paced if m == "paced" else unpaced)[t], list) else (paced if m == "paced" else unpaced)[t]}
                   for t in ("Reno", "BIC", "FAST") for m in ("paced", "unpaced") for i, b in enumerate(W_BUFFERS)])


def test_w_s4_paced_gets_better_in_its_own_loss():
    # paced losses 10, 5, 1 % of the 1 Gb/s: better and better. The old check's paced / unpaced ratios, Reno 0.947,
    # BIC 1.011, FAST 0.991, did not rise from BIC to FAST.
    assert outcome("W-s4.2", w4({"Reno": 900, "BIC": 950, "FAST": 990}, {"Reno": 950, "BIC": 940, "FAST": 999})) == "reproduced"
    assert outcome("W-s4.2", w4({"Reno": 900, "BIC": 990, "FAST": 990}, {"Reno": 950, "BIC": 940, "FAST": 999})) == "not reproduced"


def test_w_s4_paced_reno_slightly_loses():
    def run(reno_paced):
        return w4({"Reno": reno_paced, "BIC": 950, "FAST": 990}, {"Reno": [900] * 6, "BIC": 940, "FAST": 999})
    assert outcome("W-s4.5", run([930, 920, 870, 870, 875, 880])) == "reproduced"  # 4 of 6, by 2-3 %
    assert outcome("W-s4.5", run([930, 920, 870, 870, 875, 800])) == "not reproduced"  # 11 % at 15 MB: not slight
    assert outcome("W-s4.5", run([930, 920, 905, 870, 875, 880])) == "not reproduced"  # loses at 3 of 6 only


def test_w_s5_loss_event_rate_is_per_rtt_of_the_flows_life():
    # two flows, base RTT 100 ms, data delayed 100 ms one way: RTT 150 ms, 1200 RTTs in 180 s each; 81 events
    flows = pd.DataFrame({"base_rtt_ms": [100.0, 100.0], "mean_delay_ms": [100.0, 100.0],
                          "fast_retransmits": [80, 79], "timeouts": [1, 2]})
    assert _loss_event_rate(flows, 180.0) == 162 / 2400  # 6.75 %; per base RTT it was 162 / 3600 = 4.5 %
    assert _loss_event_rate(flows.assign(mean_delay_ms=[None, None]), 180.0) is None  # no [delay]: no RTT
    assert _loss_event_rate(flows.iloc[0:0], 180.0) is None


# --- the same rules where other checks read the same words ---

def test_a_fig13_inflection_about_9_kb_is_a_grid_location():
    from pacesim.papers.a.figures import A13_BUFFERS, A13_SHARES

    def run(low: str):
        i0 = A13_BUFFERS.index(low)
        return points([{"variant": s, "core.buffer": b, "core_udp_loss_rate": 1e-3 * (1 + abs(i - i0))}
                       for s in A13_SHARES for i, b in enumerate(A13_BUFFERS)])
    assert outcome("A-fig13.1", run("9KB")) == "reproduced"
    assert outcome("A-fig13.1", run("11KB")) == "reproduced"  # the old "about 9" (8.55 to 9.45) refused it
    assert outcome("A-fig13.1", run("6KB")) == "not reproduced"  # 3 KB from 9, the step there 1 KB


def test_a_fig15_falls_monotonically_with_a_total_fall():
    from pacesim.papers.a.figures import A15_BUFFERS, A15_VARIANTS

    def run(curve):
        return points([{"variant": v, "core.buffer": b, "core_udp_loss_rate": y} for v in A15_VARIANTS
                       for b, y in zip(A15_BUFFERS, curve)])
    assert outcome("A-fig15.1", run([0.30 - 0.02 * i for i in range(10)])) == "reproduced"
    assert outcome("A-fig15.1", run([0.300, 0.299, 0.298, 0.298, 0.297, 0.2975, 0.297, 0.2975, 0.297, 0.2975])) \
        == "not reproduced"  # flat: no step up beats, but no fall either (the old check took it)


def test_e_fig15_tcp_falls_monotonically_at_50_kb():
    from pacesim.papers.e.figures import E15_DELAYS

    def run(at_50):
        return points([{"core.buffer": b, "pacing.delay": d, "tcp_utilisation": y / 100, "core_udp_loss_rate": 1e-3}
                       for b, curve in (("5KB", [84 + i for i in range(13)]), ("50KB", at_50))
                       for d, y in zip(E15_DELAYS, curve)])
    assert outcome("E-fig15.3", run([94.56, 94.56, 94.55, 94.56, 94.55, 94.56, 94.57, 94.56, 94.54, 94.52, 94.47,
                                     93.71, 93.11])) == "reproduced"  # the stored curve: -1.5 % in all
    assert outcome("E-fig15.3", run([94.56] * 11 + [94.0, 94.0])) == "not reproduced"  # -0.6 %: no fall
    assert outcome("E-fig15.1", run([94.56] * 13)) == "reproduced"  # 5 KB rises 84 -> 96


def test_e_fig7_edge_above_host_where_throughput_is_saturated():
    def run(at_15: float):
        return points([{"tcp.variant": v, "core.buffer": b, "pacing.scheme": s,
                        "tcp_utilisation": (at_15 if s == "edge" else 99.2) / 100 if b == "15KB" else (0.95 if s == "edge" else 0.9),
                        "goodput_kbps_mean": 90 if s == "edge" else 85}
                       for v in ("newreno", "sack", "fack") for b in MID for s in ("host", "edge")])
    assert outcome("E-fig7.1", run(99.4)) == "reproduced"  # +0.2 % at 15 KB: 99.2 % has no 1 % of room
    assert outcome("E-fig7.1", run(98.0)) == "not reproduced"


def test_a_fig22_inflection_around_8_kb_is_a_location_on_the_chains_grid():
    # Paper A Sec VII reads "around 8 kB" off its plot of the chains: on the model's 1 KB grid, 7 and 9 KB are
    # within the grid's spacing of 8 (the "about" rule took only 8 itself), 6 KB is not.
    from pacesim.analysis.models import Output
    from pacesim.papers.a.models import _inflection_at

    def lowest_at(kb: float) -> pd.DataFrame:
        b = [float(x) for x in range(1, 31)]
        return pd.DataFrame({"buffer_kb": b, "loss": [1e-3 * (1 + abs(x - kb)) for x in b]})
    check = _inflection_at("sweep", ["loss"], 8)
    for kb, ok in ((7, True), (8, True), (9, True), (6, False), (10, False)):
        assert check(Output({"sweep": lowest_at(kb)}, [], {}))[0] is ok, kb
