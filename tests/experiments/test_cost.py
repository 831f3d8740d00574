"""The cost model of `pacesim reproduce --list` (reproduce/cost.py): its packet-hops against the engine's own
count, which it bounds from above for a saturated core."""

import pacesim
from pacesim.reproduce import cost
from pacesim.scenario import apply_overrides, load_scenario, scenario_file


def test_the_model_bounds_the_engines_packet_hops_on_a_saturated_core():
    s = apply_overrides(load_scenario(scenario_file("e-base")), ["duration=40s", "warmup=10s", "core.buffer=10KB"])
    model = cost.packet_hops(s)
    # By hand: 100 Mb/s for 40 s in 1040 B packets (1000 B segments, 40 B of headers), 10 links a round trip.
    assert model == 100e6 * 40 / (8 * 1040) * 10
    counted = pacesim.run(s, threads=1).work["packet_hops"]
    assert 0.85 * model <= counted <= model, (counted, model)
