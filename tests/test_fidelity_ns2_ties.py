"""pacesim's SACK agrees with stock ns-2 2.35's Sack1 on bench/ns3's `ebase100` (100 equal flows into E-base's
core, 5,000 B drop-tail) once each access delay is its own, drawn from U[3, 3.001] ms (bench/ns2/TIES.md): the
means over seeds 1-20 of the committed ns-2 runs (bench/ns2/results/ebase100_ties.csv, bench/ns2/ebase100_ties.py)
against pacesim's rerun here, by the references' rule (throughput within 3 % of the core's rate, goodput within
5 %, loss within 20 % relative). With every delay equal the simulators part (ns-2 61.60, pacesim 58.66 Mb/s) as
each orders packets meeting the core queue at one instant (TIES.md): that point is no reference, not checked."""

from support import ns2_ties
from support.ns2_refs import agrees_at

SEEDS = range(1, 21)
RULE = {"aggregate_mbps": "aggregate_mbps", "goodput_kbps_mean": "goodput_kbps", "core_loss": "core_loss"}


def test_sack_agrees_with_sack1_over_twenty_seeds_when_no_two_delays_are_equal():
    committed = ns2_ties.rows()
    ns2 = ns2_ties.means([committed[("sack", "3.001", s, "ns2")] for s in SEEDS])
    ours = ns2_ties.means([ns2_ties.pacesim_run("sack", "3.001", s) for s in SEEDS])
    for m, rule in RULE.items():
        assert agrees_at(rule, ns2[m], ours[m], ns2_ties.CORE_BPS), (m, ns2[m], ours[m])
