"""Measurements at the window's edges (issue 33): nothing counted exceeds what
the physics lets through, checked against a run timed by hand.

Host a sends one Reno flow to host b over a -> r (100 Mb/s, 1 ms) and the
core r -> b (1 Mb/s, 1 ms, a buffer that never drops), E-base's TCP (1000 B
segments, 40 B headers and SYN, SYN modelled), windows of 1000 so the core
never idles once data reaches it. The SYN leaves a at 0 and reaches b at
3.2 us + 1 ms + 320 us + 1 ms = 2.3232 ms; the SYN-ACK is back at a at
4.6464 ms, when a sends its window back to back: segment k reaches r at
5.7296 + 0.0832 k ms, and the core sends it over
[5.7296 + 8.32 k, 14.0496 + 8.32 k] ms, b receiving it 1 ms later.
"""

from __future__ import annotations

import pytest

import pacesim

LINE = ('topology={kind="graph", nodes=["r"], hosts=["a", "b"], links=[{from="a", to="r", rate="100Mbps", '
        'delay="1ms"}, {from="r", to="b", core=true, forward={name="core"}}], flows=[{from="a", to="b"}]}')


def _run(duration: str, warmup: str) -> dict:
    s = pacesim.apply_overrides(pacesim.load_scenario("e-base"), [
        LINE, "core.rate=1Mbps", "core.delay=1ms", "core.buffer=1000KB", f"duration={duration}", f"warmup={warmup}",
        'traffic.start=["0s", "0s"]', "tcp.initial_window=1000", "tcp.window=1000"])
    return pacesim.run(s, threads=1).report


@pytest.mark.parametrize("duration, warmup, segments, departures", [
    # [0, 2 s): b receives segments at 15.0496 + 8.32 k ms for k <= 238 (239 of them; the SYN, counted as one
    # once, made 240 = 960 Kb/s). The core sends the SYN and segments k <= 238 whole by 2 s (240 packets,
    # 248,600 B); counted when begun, it was also k = 239 (begun at 1994.2 ms), 241.
    ("2s", "0s", 239, 240),
    # To 2002.5306 ms: segment 240 begins at 2002.5296 ms; counted then, the core sent 242 packets, 250,680 B,
    # 1.0015 Mb/s on a 1 Mb/s link. Sent whole: the SYN and k <= 239, 241; received: k <= 238.
    ("2002.5306ms", "0s", 239, 241),
    # [1, 2 s): received k = 119..238 (120); sent whole from a start at or after 1 s, k = 120..238 (119).
    ("2s", "1s", 120, 119),
])
def test_goodput_and_departures_are_what_can_have_crossed(duration, warmup, segments, departures):
    r = _run(duration, warmup)
    window = r["window_s"][1] - r["window_s"][0]
    assert r["flows"]["goodput_kbps"][0] * 1e3 * window / 8 / 1000 == pytest.approx(segments, abs=1e-9)
    core = r["links"]["core"]
    syn = 40 if warmup == "0s" else 0
    assert (core["departures"], core["departed_bytes"]) == (departures, syn + (departures - syn // 40) * 1040)
    # Physics: no more bytes than the link sends in the window, no more segments than it carries to b.
    assert core["departed_bytes"] * 8 <= 1e6 * window and core["throughput_mbps"] <= 1.0
    assert segments * 1040 * 8 <= 1e6 * window
